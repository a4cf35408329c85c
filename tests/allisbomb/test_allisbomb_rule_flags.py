"""All Is Bomb's rule options on the command line: `--rule NAME=VALUE` and `rules`."""

from __future__ import annotations

import json

from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.cards.config import RULE_OPTIONS, Options


def run(*args):
    return CliRunner().invoke(cli, ["allisbomb", *args])


def test_every_rule_option_is_a_config_field_with_its_default_marked():
    fields = Options.__dataclass_fields__
    for name, o in RULE_OPTIONS.items():
        assert name in fields
        assert "(default" in o.if_true + o.if_false


def test_rule_flag_reaches_the_config():
    d = json.loads(
        run(
            "--seed", "1", "--expansions", "gifts", "--rule", "gifts_distinct=false", "--json"
        ).stdout
    )
    assert d["config"]["gifts_distinct"] is False
    d = json.loads(
        run("--seed", "1", "--players", "2", "--rule", "give-optional=yes", "--json").stdout
    )
    assert d["config"]["give_optional"] is True


def test_bad_rule_flags_are_refused_with_the_nearest():
    r = run("--seed", "1", "--rule", "gift_distinct=false")
    assert r.exit_code == 2 and "did you mean gifts_distinct?" in r.output
    r = run("--seed", "1", "--rule", "give_optional=maybe")
    assert r.exit_code == 2 and "expected true or false" in r.output
    r = run("--seed", "1", "--rule", "give_optional")
    assert r.exit_code == 2 and "expected NAME=VALUE" in r.output
    r = run("--seed", "1", "--rule", "give_optional=1", "--rule", "give_optional=0")
    assert r.exit_code == 2 and "given twice" in r.output


def test_rules_command_explains_each_option_and_its_value():
    r = run("rules", "--expansions", "gifts", "--rule", "gifts_distinct=false")
    assert r.exit_code == 0
    assert "gifts_distinct = false" in r.output and "give_optional = false" in r.output
    for o in RULE_OPTIONS.values():
        assert o.sentence in r.output and o.if_true in r.output and o.if_false in r.output
    d = json.loads(run("rules", "--json").stdout)
    assert {row["name"] for row in d["rules"]} == set(RULE_OPTIONS)

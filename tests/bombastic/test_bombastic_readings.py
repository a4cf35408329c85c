"""Bombastic's rule options in words (`readings.py`), `--rule NAME=VALUE` and `rules`."""

from __future__ import annotations

import dataclasses
import json

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.bombastic.readings import READINGS
from bombsolve.solvers.bombastic.rules import SECOND_SWAP_READINGS, SHUFFLE_READINGS, Options


def run(*args):
    return CliRunner().invoke(cli, ["bombastic", *args])


def _text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def test_every_settable_option_has_a_reading_with_its_default_first():
    fields = {f.name: f for f in dataclasses.fields(Options)}
    assert {r.name for r in READINGS} == set(fields) - {"removed"}
    defaults = Options()
    for r in READINGS:
        assert r.choices[0] == _text(getattr(defaults, r.name)), r.name
        assert isinstance(getattr(defaults, r.name), r.kind), r.name
    by_name = {r.name: r for r in READINGS}
    assert by_name["second_swap"].choices == SECOND_SWAP_READINGS
    assert by_name["shuffle"].choices == SHUFFLE_READINGS
    for r in READINGS:  # each quote is the rulebook's own words
        if r.quote:
            with open("/work/shared/rules/bombastic.txt", encoding="utf-8") as f:
                assert r.quote in f.read(), r.name


def test_rules_explains_every_option_and_marks_the_one_in_effect():
    r = run("rules")
    assert r.exit_code == 0, r.output
    for reading in READINGS:
        assert f"  {reading.name} = " in r.output
        for _, words in reading.values:
            assert words in r.output
    r = run("rules", "--rule", "shuffle=opponent")
    assert r.exit_code == 0 and "shuffle = opponent   (changed)" in r.output
    assert "* opponent:" in r.output and "  chance (default):" in r.output
    data = json.loads(run("rules", "--json", "--rule", "promos=yes").stdout)
    assert data["in_effect"]["promos"] is True
    assert {o["name"] for o in data["options"]} == {r.name for r in READINGS}


def test_rule_flags_read_as_the_older_flags():
    base = ["replay", "--seed", "3", "--x", "greedy", "--o", "heuristic", "--json"]
    one = run(*base, "--rule", "second_swap=any", "--rule", "deck_known=false",
              "--rule", "turn_cap=30")  # fmt: skip
    flags = run(*base, "--second-swap", "any", "--deck-unknown", "--turn-cap", "30")
    assert one.exit_code == 0 and flags.exit_code == 0, one.output + flags.output
    assert json.loads(one.stdout) == json.loads(flags.stdout)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--rule", "shufle=opponent"], "unknown rule option 'shufle' (did you mean shuffle?)"),
        (["--rule", "shuffle=oponent"], "(did you mean opponent?)"),
        (["--rule", "promos=perhaps"], "expected true or false"),
        (["--rule", "turn_cap=lots"], "expected a whole number"),
        (["--rule", "turn_cap=0"], "turn cap 0 must be at least 1"),
        (["--rule", "promos"], "expected NAME=VALUE"),
        (["--rule", "promos=true", "--rule", "promos=false"], "given twice"),
        (["--shuffle", "opponent", "--rule", "shuffle=chance"], "contradicts --shuffle"),
    ],
)
def test_bad_rule_is_one_line_exit_2(args, needle):
    r = run("rules", *args)
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0], r.output

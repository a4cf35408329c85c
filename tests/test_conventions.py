"""One convention across the four games: `--rule NAME=VALUE` and a `rules` command in every
game, and the keys every `--json` of a play, tournament or study carries."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli

GAMES = ("allisbomb", "bombastic", "dragon", "bomber")


def invoke(*args):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_rule_and_rules(game):
    r = invoke(game, "rules")
    assert r.exit_code == 0, r.output
    assert "(default" in r.output  # each reading says which value is the default
    bad = invoke(game, "rules", "--rule", "no_such_option=1")
    assert bad.exit_code == 2 and "unknown rule option 'no_such_option'" in bad.output


def _keys(doc) -> set[str]:
    """Every key anywhere in a JSON document."""
    if isinstance(doc, dict):
        return set(doc) | {k for v in doc.values() for k in _keys(v)}
    if isinstance(doc, list):
        return {k for v in doc for k in _keys(v)}
    return set()


RUNS = {
    "dragon play": ["dragon", "play", "-p", "3", "-n", "20", "--seed", "1", "--json"],
    "bomber play": ["bomber", "play", "-p", "4", "-n", "20", "--seed", "1", "--json"],
    "bombastic play": [
        "bombastic",
        "play",
        "--x",
        "random",
        "--o",
        "random",
        "--games",
        "4",
        "--json",
    ],  # fmt: skip
    "bombastic tournament": [
        "bombastic",
        "tournament",
        "--agents",
        "random,heuristic",
        "--games",
        "2",
        "--json",
    ],  # fmt: skip
    "dragon study": [
        "dragon",
        "study",
        "seats",
        "-p",
        "3",
        "-s",
        "random",
        "-n",
        "20",
        "--workers",
        "1",
        "--json",
    ],  # fmt: skip
    "bomber study": [
        "bomber",
        "study",
        "--part",
        "players",
        "--players",
        "4",
        "-n",
        "20",
        "--workers",
        "1",
        "--json",
    ],  # fmt: skip
}


@pytest.mark.parametrize("name", list(RUNS))
def test_every_json_carries_the_common_keys(name, tmp_path):
    args = RUNS[name]
    if "study" in args:
        args = [*args, "--out", str(tmp_path / "out")]
    r = invoke(*args)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    for key in ("seed", "rules", "cards", "version", "commit"):
        assert key in doc, (name, key)
    assert {"n", "rate", "lo", "hi"} <= _keys(doc), name


#: Outputs of one game or one exact computation: no rate to give, but the same record of
#: what produced them.
SINGLE_RUNS = {
    "allisbomb solve": ["allisbomb", "--seed", "1", "--json"],
    "allisbomb exhaust": [
        "allisbomb",
        "exhaust",
        "--blitz",
        "--sample",
        "20",
        "--seed",
        "3",
        "--workers",
        "1",
        "--json",
    ],  # fmt: skip
    "dragon replay": ["dragon", "replay", "--seed", "1", "--players", "3", "--json"],
    "bomber replay": ["bomber", "replay", "--seed", "42", "--players", "5", "--json"],
    "bombastic replay": ["bombastic", "replay", "--seed", "1", "--json"],
    "bombastic odds": ["bombastic", "odds", "--json"],
}


@pytest.mark.parametrize("name", list(SINGLE_RUNS))
def test_every_single_json_says_what_produced_it(name, tmp_path):
    args = SINGLE_RUNS[name]
    if "exhaust" in args:
        args = [*args, "--out", str(tmp_path / "out")]
    r = invoke(*args)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    for key in ("seed", "rules", "cards", "version", "commit"):
        assert key in doc, (name, key)
    assert isinstance(doc["rules"], dict), name

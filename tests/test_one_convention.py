"""The convention the README's "Using it" writes down once, held in the four games: `-n`
for the count of games (deals in All Is Bomb), percents as "58.0% [44.2%, 70.6%]" (one
decimal, Wilson 95%), and a `play` that ends naming one game which `replay --seed S
--game K` shows."""

from __future__ import annotations

import json
import re
import shlex

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.common.seeds import game_seeds

#: Every command that plays a count of games or deals.
COUNTED = [
    ("allisbomb", "sweep"),
    ("allisbomb", "sensitivity"),
    ("bombastic", "play"),
    ("bombastic", "tournament"),
    ("dragon", "play"),
    ("dragon", "study"),
    ("bomber", "play"),
    ("bomber", "study"),
]

PLAYS = {
    "bombastic": ["bombastic", "play", "--x", "random", "--o", "random", "-n", "60"],
    "dragon": ["dragon", "play", "-p", "3", "-n", "60"],
    "bomber": ["bomber", "play", "-p", "4", "-n", "60", "--engine", "reference"],
}

RATE = re.compile(r"\d+\.\d% \[\d+\.\d%, \d+\.\d%\]")
REPLAY = re.compile(
    r"replay game (\d+) \(.+\): (bombsolve \w+ replay --seed (\d+) --game (\d+) .*)$"
)


def invoke(args):
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    return r


@pytest.mark.parametrize(("game", "command"), COUNTED)
def test_minus_n_counts_games_or_deals_everywhere(game, command):
    text = " ".join(invoke([game, command, "--help"]).output.split())
    assert re.search(r"-n, --(games|deals) ", text), text[:400]


@pytest.mark.parametrize("game", sorted(PLAYS))
def test_play_prints_rates_alike_and_names_a_game_replay_shows(game):
    out = invoke([*PLAYS[game], "--seed", "8"]).stdout
    assert RATE.search(out), out
    assert not re.search(r"\d\.\d\d%", out), out  # one decimal, not two
    m = REPLAY.search(out.strip().splitlines()[-1])
    assert m, out
    k, cmd, seed, k2 = m.group(1), m.group(2), m.group(3), m.group(4)
    assert k == k2 and seed == "8"
    if game == "bombastic":
        return  # (its replay's --game is tested with its play: tests/bombastic)
    shown = json.loads(invoke([*shlex.split(cmd)[1:], "--json"]).stdout)
    assert shown.get("game_seed", shown.get("seed")) == int(game_seeds(8, int(k))[int(k) - 1])

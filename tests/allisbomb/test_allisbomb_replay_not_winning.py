"""`replay` of a line that does not win: one line saying where it stops, exit 2 (a solution
file whose line does not win is bad input); a winning line replays with exit 0."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli

#: Seed 42 is a loss and seed 1 a win with stand-in set version 2's cards, named so a change
#: of the default set leaves them as they are.
CARDS = ("--cards", "standin-v2")


def run(*args):
    return CliRunner().invoke(cli, ["allisbomb", *args])


@pytest.fixture(scope="module")
def lost():
    r = run(*CARDS, "--seed", "42", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["outcome"] == "loss" and d["longest_line"]["turns"] > 1
    return d


def bare(tmp_path, position, solution):
    path = tmp_path / "line.json"
    path.write_text(json.dumps({"position": position, "solution": solution}))
    return path


def test_a_line_that_loses_names_the_turn_and_how(tmp_path, lost):
    ll = lost["longest_line"]
    last = ll["steps"][-1]
    path = bare(tmp_path, lost["position"], ll["solution"])
    r = run("replay", str(path))
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.strip() == (
        f"bombsolve: {path}: the saved solution does not win: turn {ll['turns']} "
        f"({last['card']} played) loses the game: {ll['ending']}"
    )


def test_a_line_that_stops_before_the_end_says_the_game_goes_on(tmp_path, lost):
    path = bare(tmp_path, lost["position"], lost["longest_line"]["solution"][:1])
    r = run("replay", str(path))
    assert r.exit_code == 2 and r.stdout == ""
    [line] = r.stderr.strip().splitlines()
    assert line.endswith("does not win: the game goes on after its last turn, 1, with no win")


def test_a_line_of_no_turns_does_not_win(tmp_path, lost):
    r = run("replay", str(bare(tmp_path, lost["position"], [])))
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.strip().endswith("it has no turns, and the game has not been won")


def test_a_winning_line_replays(tmp_path):
    d = json.loads(run(*CARDS, "--seed", "1", "--json").stdout)
    assert d["outcome"] == "win"
    r = run("replay", str(bare(tmp_path, d["position"], d["solution"])))
    assert r.exit_code == 0, r.output
    assert r.stdout.rstrip().endswith("result: WIN")

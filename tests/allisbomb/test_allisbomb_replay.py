"""solvers/allisbomb/search/replay.py: a line replayed through the reference engine, as data
(DESIGN.md, "Truth of results": every win comes with a move list that replays, step by
step); the command line only prints what these functions return."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.rules.rules import Outcome, state_from_json
from bombsolve.solvers.allisbomb.search.replay import (
    render_turns,
    replay_line,
    replayed,
    rerun_of,
    transcript,
    where_it_stops,
)
from bombsolve.solvers.common.errors import BadInput

#: Seed 1 is a win and seed 42 a loss with stand-in set version 2's cards (as in
#: test_allisbomb_replay_not_winning.py).
CARDS = ("--cards", "standin-v2")


def solved(seed: str) -> dict:
    r = CliRunner().invoke(cli, ["allisbomb", *CARDS, "--seed", seed, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def won() -> dict:
    d = solved("1")
    assert d["outcome"] == "win"
    return d


@pytest.fixture(scope="module")
def lost() -> dict:
    d = solved("42")
    assert d["outcome"] == "loss" and d["longest_line"]["turns"] > 1
    return d


def test_transcript_plays_the_line_and_records_each_turn(won):
    state = state_from_json(won["position"])
    turns, end = transcript(state, won["solution"])
    assert end.outcome is Outcome.WIN
    assert [t["turn"] for t in turns] == list(range(1, len(won["solution"]) + 1))
    assert [t["choices"] for t in turns] == won["solution"]
    assert turns == won["turns"]  # what the solve saved is what the engine does
    # the start is left as it was: the line is played on a copy
    assert state.to_json() == state_from_json(won["position"]).to_json()


def test_render_turns_gives_the_printed_lines(won):
    lines = render_turns(won["turns"])
    assert lines[0].startswith("turn 1: ")
    assert sum(line.startswith("turn ") for line in lines) == len(won["turns"])
    assert sum("DISCARD PILE (top first): " in line for line in lines) == len(won["turns"])


def test_transcript_refuses_a_turn_after_the_end(won):
    state = state_from_json(won["position"])
    with pytest.raises(BadInput, match=f"over before turn {len(won['solution']) + 1}"):
        transcript(state, [*won["solution"], won["solution"][-1]])


def test_where_it_stops_names_the_losing_turn(lost):
    ll = lost["longest_line"]
    turns, end = transcript(state_from_json(lost["position"]), ll["solution"])
    assert end.outcome is Outcome.LOSS
    assert where_it_stops(turns, end) == (
        f"turn {ll['turns']} ({turns[-1]['card']} played) loses the game: {ll['ending']}"
    )
    start = state_from_json(lost["position"])
    assert where_it_stops([], start) == "it has no turns, and the game has not been won"


def test_replayed_makes_the_transcripts_anew(won, lost):
    forged = {**won, "turns": "anything"}
    out = replayed(forged, "f.json")
    assert out["turns"] == won["turns"] and out["rerun"] == won["rerun"]
    out = replayed(lost, "f.json")
    assert out["longest_line"]["steps"] == lost["longest_line"]["steps"]


def test_replayed_refuses_a_win_whose_line_does_not_win(won):
    short = {**won, "solution": won["solution"][:1]}
    with pytest.raises(BadInput, match=r"^f\.json: the saved solution does not win: the game"):
        replayed(short, "f.json")


def test_rerun_of_checks_the_rank_against_the_deck(won):
    state = state_from_json(won["position"])
    assert rerun_of(won, state, "f.json") == won["rerun"]
    with pytest.raises(BadInput, match="is not the deal of its deck"):
        rerun_of({**won, "rank": str(int(won["rank"]) + 1)}, state, "f.json")
    assert rerun_of({**won, "rank": None}, state, "f.json") is None


def test_replay_line_of_ones_own(won, lost):
    line = replay_line({"position": won["position"], "solution": won["solution"]}, "l.json")
    assert line.end.outcome is Outcome.WIN and line.turns == won["turns"]
    bare = {"position": lost["position"], "solution": lost["longest_line"]["solution"]}
    with pytest.raises(BadInput, match=r"^l\.json: the saved solution does not win: turn "):
        replay_line(bare, "l.json")
    with pytest.raises(BadInput, match="needs 'position' and 'solution'"):
        replay_line({"position": won["position"]}, "l.json")

"""Bounded move generation: the node limit, the time limit and the per-position move cap hold
whatever the card file (CARDS.md, "Moves")."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bombsolve.solvers.allisbomb.cards.cards import DATA_DIR
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel import kernel
from bombsolve.solvers.allisbomb.rules.rules import MAX_MOVES, Ending, new_game
from bombsolve.solvers.allisbomb.search.search import reference_search
from bombsolve.solvers.allisbomb.search.solver import solve_state

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

ROOT = Path(__file__).resolve().parents[2]


def _every_side(step: str, tmp_path: Path) -> Path:
    """The base set with every side's action replaced by `step` (a custom, nonstandard file)."""
    text = (DATA_DIR / "base.toml").read_text().replace('"stand-in"', '"custom"')
    # the file: every side; the smaller step keeps the PRINCESS's win and the
    # prophecies, so that game stays winnable and is searched
    keep = "" if step == EIGHT else "(?!.*(equip_win|prophecy))"
    text = re.sub(rf"(?m)^steps = \[{keep}.*\]$", f"steps = [{step}]", text)
    path = tmp_path / "many.toml"
    path.write_text(text)
    return path


def _config(step: str, tmp_path: Path) -> Options:
    return Options(cards_file=_every_side(step, tmp_path), allow_nonstandard=True)


# (to the top of the DECK, where order counts: EQUIPPED, 8 cards are a set, under the cap)
EIGHT = '{op = "move", zone = "deck", pick = "any", to = "deck_top", count = 8, may = true}'
FOUR = '{op = "move", zone = "deck", pick = "any", to = "deck_bottom", count = 3, may = true}'


def test_the_cap_is_the_same_in_both_engines():
    assert kernel.MAX_MOVES == MAX_MOVES
    assert kernel.E_MOVES == int(Ending.TOO_MANY_MOVES)


def test_a_position_past_the_cap_is_undecided_with_its_reason(tmp_path):
    state = new_game(_config(EIGHT, tmp_path), list(range(18)))
    for portfolio in (False, True):
        res = solve_state(state, node_limit=100, check=False, portfolio=portfolio)
        assert res.outcome == "undecided"
        assert "TOO_MANY_MOVES" in res.reasons()
    ref = reference_search(state, node_limit=100)
    assert ref.outcome == "undecided" and ref.loss_reason & Ending.TOO_MANY_MOVES
    assert ref.nodes == solve_state(state, node_limit=100, check=False).nodes


def test_the_cap_counts_moves_not_positions(tmp_path):
    """A position with exactly as many moves as the cap is searched; one more is not."""
    state = new_game(_config(FOUR, tmp_path), list(range(18)))
    n = len(state.children())
    assert n < MAX_MOVES  # under the cap: the engines search it like any other
    res = solve_state(state, node_limit=50, check=False, portfolio=False)
    ref = reference_search(state, node_limit=50)
    assert (res.outcome, res.nodes) == (ref.outcome, ref.nodes)
    assert "TOO_MANY_MOVES" not in res.reasons()


def test_the_reference_search_looks_at_the_clock_inside_move_generation(tmp_path):
    """One position's moves (EIGHT: past the cap, seconds of Python to build) stop on time."""
    state = new_game(_config(EIGHT, tmp_path), list(range(18)))
    t = time.perf_counter()
    res = reference_search(state, node_limit=10**9, time_limit=0.5)
    assert res.outcome == "undecided" and not res.loss_reason & Ending.TOO_MANY_MOVES
    assert time.perf_counter() - t < 0.5 + 1.0


@pytest.mark.parametrize("step", [EIGHT, FOUR])
def test_any_card_file_ends_within_the_time_limit_plus_a_second(step, tmp_path):
    """The command line, as a user runs it: the search's own seconds stay under limit + 1."""
    path = _every_side(step, tmp_path)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "bombsolve.cli.main",
            "allisbomb",
            "--seed",
            "1",
            "--cards",
            str(path),
        ]
        + ["--allow-nonstandard", "--node-limit", "100000000", "--time-limit", "1", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    if step == EIGHT:
        assert r["outcome"] == "undecided" and "moves" in r["stopped_by"]
    assert r["seconds"] < 1 + 1.0


def test_shortest_with_a_time_limit_keeps_the_plain_verdict():
    """The time limit bounds the deepening, never the verdict: a won deal stays won."""
    import json

    from click.testing import CliRunner

    from bombsolve.cli.main import cli

    plain = CliRunner().invoke(cli, ["allisbomb", "--seed", "1", "--json"])
    short = CliRunner().invoke(
        cli, ["allisbomb", "--seed", "1", "--shortest", "--time-limit", "1", "--json"]
    )
    assert plain.exit_code == 0 and short.exit_code == 0, short.output
    assert json.loads(short.stdout)["outcome"] == json.loads(plain.stdout)["outcome"]

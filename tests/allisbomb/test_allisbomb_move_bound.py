"""Bounded move generation: the node limit, the time limit and the per-position move cap hold
whatever the card file (CARDS.md, "Limits")."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import DATA_DIR, load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel import kernel
from bombsolve.solvers.allisbomb.rules.rules import MAX_MOVES, Ending, new_game
from bombsolve.solvers.allisbomb.search import solver
from bombsolve.solvers.allisbomb.search.search import reference_deepening, reference_search
from bombsolve.solvers.allisbomb.search.solver import solve_shortest, solve_state, verify_solution
from tests.allisbomb.vocab_helpers import kernel_line

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


def test_a_position_past_the_cap_is_cut_and_answered_undecided(tmp_path):
    """Every side past the cap, the PRINCESS's win too: every move the root builds is
    proven to lead nowhere, so the search ends at the cap, and it answers undecided (the
    moves past the cap are unsearched), never a loss, in both engines alike."""
    state = new_game(_config(EIGHT, tmp_path), list(range(18)))
    for portfolio in (False, True):
        res = solve_state(state, node_limit=100, check=False, portfolio=portfolio)
        assert res.outcome == "undecided"
        assert "TOO_MANY_MOVES" in res.reasons()
    ref = reference_search(state, node_limit=100)
    assert ref.outcome == "undecided" and ref.loss_reason & Ending.TOO_MANY_MOVES
    assert ref.nodes == solve_state(state, node_limit=100, check=False).nodes


#: 72 choices in one turn (nine steps of eight picks), past the 64 a turn may hold: the
#: searches cut a position at the first move of the card that has it
WIDE = ", ".join(['{op = "move", zone = "deck", pick = "any", to = "deck_top", count = 8}'] * 9)


def _one_side(tmp_path: Path) -> Options:
    """The base set with the PANCAKES' passive side (the last card: its moves come last in
    id order) given WIDE."""
    text = (DATA_DIR / "base.toml").read_text().replace('"stand-in"', '"custom"')
    head, tail = text.rsplit('name = "PANCAKES"', 1)
    tail = tail.replace("steps = []", f"steps = [{WIDE}]", 1)
    path = tmp_path / "wide.toml"
    path.write_text(head + 'name = "PANCAKES"' + tail)
    return Options(cards_file=path, allow_nonstandard=True)


def test_a_cut_position_leaves_the_wins_elsewhere_to_be_found(tmp_path):
    """Deals whose search cuts a position and still finds a win (a search that gave up at
    the cut answered undecided): the kernel and the reference agree position for
    position, the line replays, and a search that finds no win after a cut is undecided,
    never a loss."""
    cfg = _one_side(tmp_path)
    cards = load_cards(cfg)
    wins = undecided = 0
    for seed in range(12):
        deck = np.random.default_rng(seed).permutation(cards.n).tolist()
        state = new_game(cards, deck)
        ref = reference_search(state, node_limit=20_000)
        res = solve_state(state, node_limit=20_000, check=True)
        assert (res.outcome, res.nodes, res.loss_reason) == (
            ref.outcome,
            ref.nodes,
            ref.loss_reason,
        )
        if not ref.loss_reason & Ending.TOO_MANY_MOVES:
            continue
        assert ref.outcome != "loss"
        if ref.outcome == "win":
            assert res.solution == ref.solution
            verify_solution(state, ref.solution)
            wins += 1
        elif ref.nodes < 20_000:
            undecided += 1
    assert wins >= 3 and undecided >= 3


def test_the_deepening_cuts_as_the_depth_first_search_does(tmp_path):
    """kernel.shortest and the reference deepening cut the same positions and find the same
    line; `--shortest` calls a win found after a cut not proven the fewest."""
    cfg = _one_side(tmp_path)
    cards = load_cards(cfg)
    c = solver.compiled(cfg)
    checked = 0
    for seed in (1, 7, 11):  # (wins whose searches cut a position)
        state = new_game(cards, np.random.default_rng(seed).permutation(cards.n).tolist())
        first = reference_search(state, node_limit=20_000)
        if first.outcome != "win" or not first.loss_reason & Ending.TOO_MANY_MOVES:
            continue
        turns = len(first.solution)
        ref = reference_deepening(state, turns, node_limit=200_000)
        code, nodes, reasons, got, sol, sol_len, _ = solver._run_shortest(
            c, solver.to_kernel_state(state), solver.table_bits_for(200_000), 200_000, turns
        )
        assert (
            solver.OUTCOME_NAMES[code],
            int(nodes),
            int(reasons),
            kernel_line(sol, sol_len, got),
        ) == (ref.outcome, ref.nodes, ref.loss_reason, ref.solution)
        if ref.outcome == "win" and ref.loss_reason & Ending.TOO_MANY_MOVES:
            short = solve_shortest(state, 200_000, None, check=True)
            assert short.outcome == "win" and short.loss_reason & Ending.NOT_BEST
            checked += 1
    assert checked >= 1


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


def test_an_undecided_answer_names_the_cut_and_what_stopped_it(tmp_path):
    """The command line's "stopped by": the end of a search that cut a position, or the
    node limit with the cut before it (so raising the limit is offered only there)."""
    from click.testing import CliRunner

    from bombsolve.cli.main import cli

    path = str(_one_side(tmp_path).cards_file)
    base = ["allisbomb", "--cards", path, "--allow-nonstandard", "--json"]
    ended = json.loads(CliRunner().invoke(cli, [*base, "--seed", "2"]).stdout)
    assert ended["outcome"] == "undecided" and ended["nodes"] < 3_000_000
    assert ended["stopped_by"].startswith("the end of the search: no win found")
    assert "move cap" in ended["stopped_by"] and "(--" not in ended["stopped_by"]
    limited = json.loads(
        CliRunner().invoke(cli, [*base, "--seed", "1", "--node-limit", "300"]).stdout
    )
    assert limited["outcome"] == "undecided" and limited["nodes"] == 300
    assert limited["stopped_by"].startswith("the node limit of 300 positions (--node-limit)")
    assert "move cap" in limited["stopped_by"]
    won = json.loads(CliRunner().invoke(cli, [*base, "--seed", "1"]).stdout)
    assert won["outcome"] == "win"  # the same deal, searched past its cut


def _capped_cases(tmp_path: Path, monkeypatch, cap: int):
    """Setup positions of random files from the whole vocabulary with more moves than
    `cap`, the reference engine's move cap lowered to it (the kernel keeps its own)."""
    from bombsolve.solvers.allisbomb.rules import rules
    from tests.allisbomb.odd_sets import random_card_file

    out = []
    for seed in range(10):
        rng = np.random.default_rng(seed)
        path = random_card_file(rng, tmp_path / f"c{seed}.toml", 6, True)
        cfg = Options(cards_file=path, allow_nonstandard=True)
        cards = load_cards(cfg)
        for _ in range(12):
            deck = rng.permutation(cards.n).tolist()
            if len(new_game(cards, deck).children()) > cap:
                out.append((cfg, deck))
    monkeypatch.setattr(rules, "MAX_MOVES", cap)
    return out


def test_widening_cuts_a_position_past_the_cap_and_searches_its_first_moves(tmp_path, monkeypatch):
    """Widening lists a position's moves in the reference engine: past the cap it searches
    the moves listed before it (a win there is a WIN, replayed, and the deal's win by
    the uncapped search) and is never a LOSS; a position with no win among them is
    undecided with the cap as its reason."""
    cases = _capped_cases(tmp_path, monkeypatch, 2)
    seen = {"win": 0, "undecided": 0}
    for cfg, deck in cases:
        root = new_game(load_cards(cfg), deck)
        w = solver.widen_search(cfg, root, 5000, first=20)
        assert w.code != kernel.CODE_LOSS, deck
        if w.code == kernel.CODE_WIN:
            verify_solution(new_game(load_cards(cfg), deck), list(w.line))
            exact = solve_state(root, node_limit=400_000, check=False)
            assert exact.outcome == "win"
            seen["win"] += 1
        elif w.reason & kernel.E_MOVES:
            seen["undecided"] += 1
    assert seen["win"] >= 10 and seen["undecided"] >= 3, seen


def test_the_split_cuts_a_position_past_the_cap_and_decides_its_first_moves(tmp_path, monkeypatch):
    """The split lists a position's moves in the reference engine: past the cap the moves
    listed before it are decided and split (a win among them is a WIN, replayed) and the
    position is never a LOSS: undecided, with the cap among its reasons."""
    from bombsolve.solvers.allisbomb.search.split import solve_split

    cases = _capped_cases(tmp_path, monkeypatch, 2)
    seen = {"win": 0, "undecided": 0}
    for cfg, deck in cases[:40]:
        root = new_game(load_cards(cfg), deck)
        res = solve_split(root, depth=2, node_limit=2000)
        assert res.outcome != "loss", deck
        if res.outcome == "win":
            verify_solution(new_game(load_cards(cfg), deck), res.solution)
            seen["win"] += 1
        else:
            assert res.loss_reason & Ending.TOO_MANY_MOVES
            seen["undecided"] += 1
    assert seen["win"] >= 10 and seen["undecided"] >= 3, seen

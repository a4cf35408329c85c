"""The depth-bounded searches (`solver.deepen_search`) after the two move orders and
widening, on card sets with the extended vocabulary: one bound's search (kernel.shortest
from that depth) wins exactly when the breadth-first reference has a win that short, and
says when it searched every line; the searches' wins replay and keep to their bound, they
never answer a loss, the batch and the single solve spend the same positions on them, and
the stand-in's cards never reach them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.rules.rules import new_game
from bombsolve.solvers.allisbomb.search import solver
from bombsolve.solvers.allisbomb.search.search import (
    reference_deepening,
    reference_search,
    reference_shortest,
)
from bombsolve.solvers.allisbomb.search.solver import (
    solve,
    solve_batch,
    to_kernel_state,
    verify_solution,
)
from tests.allisbomb.odd_sets import random_card_file
from tests.allisbomb.vocab_helpers import kernel_line

BENCH = Path(__file__).resolve().parents[2] / "scripts" / "bench" / "cardsets"

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"


def _random_config(seed: int, tmp_path: Path) -> tuple[Options, np.ndarray]:
    """Random file `seed` of the whole vocabulary (9 cards) and its 20 deals, as the
    widening tests make them."""
    rng = np.random.default_rng(seed)
    path = random_card_file(rng, tmp_path / f"d{seed}.toml", 9, True)
    cfg = Options(cards_file=path, allow_nonstandard=True)
    n = load_cards(cfg).n
    return cfg, np.stack([rng.permutation(n) for _ in range(20)])


def _deals(tmp_path: Path, files: int, deals: int):
    """(config, its compiled form, the deal's state, its kernel row) for the first `deals`
    deals of random files 0..files-1."""
    for seed in range(files):
        cfg, decks = _random_config(seed, tmp_path)
        cards = load_cards(cfg)
        c = solver.compiled(cfg)
        for deck in decks[:deals]:
            state = new_game(cards, deck.tolist())
            yield cfg, c, state, to_kernel_state(state)


def test_deepening_decides_a_deal_the_orders_and_widening_leave_open(tmp_path, monkeypatch):
    """Random file 43, deal 10, 4,000 positions: the two orders spend their sixth and
    widening all but the last sixth without a verdict; a bounded search finds a 15-turn win
    with what is left. Without that sixth, widening's whole rest leaves it open."""
    cfg, decks = _random_config(43, tmp_path)
    assert solver.compiled(cfg).prog.extended
    deck = decks[10]
    asked = []
    real = solver.deepen_search

    def spy(config, root, budget):
        res = real(config, root, budget)
        asked.append((budget, res.outcome))
        return res

    monkeypatch.setattr(solver, "deepen_search", spy)
    won = solve_batch(cfg, deck[None, :], node_limit=4000)
    assert int(won["code"][0]) == 1 and int(won["turns"][0]) == 15
    assert int(won["nodes"][0]) <= 4000
    assert len(asked) == 1 and asked[0][1] == "win"
    assert asked[0][0] >= 4000 // solver.DEEPEN_AFTER  # the sixth kept back, at least
    single = solve(cfg, deck, node_limit=4000)  # the same search, its line replayed
    assert single.outcome == "win" and single.nodes == int(won["nodes"][0])
    assert len(single.solution) == 15 and len(asked) == 2
    monkeypatch.setattr(solver, "DEEPEN_AFTER", 10**18)  # nothing kept back for it
    alone = solve_batch(cfg, deck[None, :], node_limit=4000)
    assert int(alone["code"][0]) == 2 and int(alone["nodes"][0]) == 4000
    assert len(asked) == 2


def test_deepening_costs_nothing_where_widening_decides(tmp_path, monkeypatch):
    """Random file 18, deal 13 (widening's own test deal): widening wins within its part,
    and the deepening is never asked."""

    def refuse(*args, **kwargs):
        raise AssertionError("deepened a deal widening decided")

    cfg, decks = _random_config(18, tmp_path)
    monkeypatch.setattr(solver, "deepen_search", refuse)
    won = solve_batch(cfg, decks[13][None, :], node_limit=4000)
    assert int(won["code"][0]) == 1


def test_one_bound_wins_exactly_when_a_win_that_short_exists(tmp_path):
    """kernel.shortest from depth D only (kernel.CTL_FIRST_DEPTH, max_turns D), over random
    files from the whole vocabulary, from each deal: a win has at least the breadth-first
    reference's fewest turns and at most D, and replays; every line searched without a win
    (the bound then dropped by `deepen_search`) only where no win that short exists; a
    search the node limit stops says neither."""
    seen = {"win": 0, "searched": 0, "stopped": 0}
    for _cfg, c, state, root in _deals(tmp_path, 8, 5):
        ref = reference_shortest(state, 10_000)
        if ref.outcome == "undecided":
            continue
        fewest = len(ref.solution) if ref.outcome == "win" else None
        for bound in (3, 5, 8):
            code, _n, _r, turns, sol, sol_len, searched_all = solver._run_shortest(
                c, root, 16, 20_000, bound, first_depth=bound
            )
            short = fewest is not None and fewest <= bound
            assert code in (1, 2)
            if code == 1:
                seen["win"] += 1
                assert short
                line = kernel_line(sol, sol_len, turns)
                assert fewest <= len(line) <= bound
                verify_solution(state, line)
            elif searched_all:
                seen["searched"] += 1
                assert not short
            else:
                seen["stopped"] += 1
    assert seen["win"] >= 10 and seen["searched"] >= 10  # the check saw both kinds


def test_one_bound_is_the_references_position_for_position(tmp_path):
    """kernel.shortest from depth D only against `search.reference_deepening` from D only,
    over random files and deals: the same verdict, positions entered, loss reasons and
    line, whether the bound wins, is searched whole or stops at the node limit."""
    kinds = set()
    for _cfg, c, state, root in _deals(tmp_path, 4, 4):
        for bound in (2, 4, 7):
            code, nodes, reasons, turns, sol, sol_len, searched_all = solver._run_shortest(
                c, root, 16, 3_000, bound, first_depth=bound
            )
            ref = reference_deepening(state, bound, node_limit=3_000, first_depth=bound)
            assert (
                solver.OUTCOME_NAMES[int(code)],
                int(nodes),
                kernel_line(sol, sol_len, turns),
            ) == (
                ref.outcome,
                ref.nodes,
                ref.solution,
            ), bound
            assert int(reasons) == ref.loss_reason
            kinds.add("win" if code == 1 else "whole" if searched_all else "stopped")
    assert kinds == {"win", "whole", "stopped"}


def test_the_bounded_searches_never_lose_and_keep_to_their_bounds(tmp_path):
    """Over random files, from each deal: a win of `deepen_search` replays in the
    reference engine with at most the largest bound's turns and the reference finds no
    loss there; a deal the reference proves lost is never a loss of the searches (they
    prove none), and every bound searched whole ends them before the budget; a small
    budget only leaves deals open, and none spends more than its budget."""
    won = lost = 0
    for cfg, _c, state, root in _deals(tmp_path, 8, 5):
        deep = solver.deepen_search(cfg, root, 20_000)
        assert deep.outcome in ("win", "undecided") and deep.nodes <= 20_000
        if deep.outcome == "win":
            won += 1
            verify_solution(state, deep.solution)
            assert len(deep.solution) <= max(solver.DEPTH_BOUNDS)
            assert reference_search(state, 100_000).outcome != "loss"
        elif reference_search(state, 20_000).outcome == "loss":
            lost += 1
            assert deep.nodes < 20_000  # every bound searched whole, then dropped
        small = solver.deepen_search(cfg, root, 50)
        assert small.outcome in ("undecided", deep.outcome) and small.nodes <= 50
    assert won >= 10 and lost >= 3  # the check saw both kinds of deal


def test_the_stand_in_never_deepens(monkeypatch):
    """The stand-in's cards have no extended rows: a deal the two orders leave undecided
    stays so (the pinned node counts rely on it)."""

    def refuse(*args, **kwargs):
        raise AssertionError("deepened a stand-in deal")

    monkeypatch.setattr(solver, "deepen_search", refuse)
    cfg = Options()
    decks = np.stack([np.random.default_rng(s).permutation(18) for s in range(30)])
    out = solve_batch(cfg, decks, node_limit=60)
    assert (out["code"] == 2).any() and out["nodes"].max() <= 60
    assert solve(cfg, decks[0], node_limit=60).nodes <= 60


def test_a_bounded_search_stops_at_its_moves_built_across_pauses(monkeypatch):
    """A bound's search is capped by the moves it builds (kernel.CTL_BUILT_LIMIT): given
    as many moves as positions it answers undecided before entering that many positions,
    and the count survives the pauses; `deepen_search` gives the same answer after the
    same positions however often its searches return to Python."""
    cfg = Options(cards_file=BENCH / "rich_relay.toml", allow_nonstandard=True)
    cards = load_cards(cfg)
    c = solver.compiled(cfg)
    root = to_kernel_state(new_game(cards, np.random.default_rng(3).permutation(cards.n).tolist()))
    # the 32-turn bound: uncapped, a win after 10,766 positions
    capped = solver._run_shortest(c, root, 16, 20_000, 32, 20_000, first_depth=32)
    assert capped[0] == 2 and 0 < capped[1] < 20_000 and not capped[6]
    assert solver._run_shortest(c, root, 16, 20_000, 32, first_depth=32)[0] == 1
    whole = solver.deepen_search(cfg, root, 20_000)
    monkeypatch.setattr(solver, "PAUSE_BUILT", 50)
    monkeypatch.setattr(solver, "PAUSE_STEP", 97)
    paused_one = solver._run_shortest(c, root, 16, 20_000, 32, 20_000, first_depth=32)
    assert paused_one[:2] == capped[:2]
    paused = solver.deepen_search(cfg, root, 20_000)
    assert (paused.outcome, paused.nodes, paused.solution) == (
        whole.outcome,
        whole.nodes,
        whole.solution,
    )


def test_a_bounded_search_pauses_on_every_move_it_builds(monkeypatch):
    """kernel.shortest counts each move as it builds it, as `dfs` does: with one move a
    call it enters at most one position a call (counted only as their positions were done,
    a line entered position after position, down to the depth limit, built nothing
    counted), and resumed it finds the same win after the same positions."""
    import bombsolve.solvers.allisbomb.kernel.kernel as K

    cfg = Options(cards_file=BENCH / "rich_relay.toml", allow_nonstandard=True)
    cards = load_cards(cfg)
    c = solver.compiled(cfg)
    root = to_kernel_state(new_game(cards, np.random.default_rng(3).permutation(cards.n).tolist()))
    whole = solver._run_shortest(c, root, 16, 20_000, 32, first_depth=32)
    assert whole[0] == K.CODE_WIN
    real, entered = K.shortest, []

    def shortest(*args):
        ctl = args[-2]
        before = int(ctl[3]) if ctl[0] == 1 else 0
        out = real(*args)
        entered.append(int(out[1]) - before)
        return out

    monkeypatch.setattr(K, "shortest", shortest)
    monkeypatch.setattr(solver, "PAUSE_BUILT", 1)
    paused = solver._run_shortest(c, root, 16, 20_000, 32, first_depth=32)
    assert paused[:4] == whole[:4]
    assert len(entered) > whole[1]  # a call a move: more calls than positions
    assert max(entered[1:]) <= 1  # (the first call enters the root)

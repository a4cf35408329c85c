"""Iterative deepening (`solver.deepen_search`) between the two move orders and widening,
on card sets with the extended vocabulary: its wins replay and have the fewest turns (the
breadth-first reference's), it never answers a loss, the batch and the single solve spend
the same positions on it, and the stand-in's cards never reach it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.rules.rules import new_game
from bombsolve.solvers.allisbomb.search import solver
from bombsolve.solvers.allisbomb.search.search import reference_search, reference_shortest
from bombsolve.solvers.allisbomb.search.solver import (
    solve,
    solve_batch,
    to_kernel_state,
    verify_solution,
)
from tests.allisbomb.odd_sets import random_card_file

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


def test_deepening_decides_a_deal_the_orders_and_widening_leave_open(tmp_path, monkeypatch):
    """Random file 56, deal 11, 4,000 positions: the two orders spend their sixth and
    widening all but the last sixth without a verdict; the deepening finds a 5-turn win
    with what is left. Without the deepening's sixth, widening's whole rest leaves it open."""
    cfg, decks = _random_config(56, tmp_path)
    assert solver.compiled(cfg).prog.extended
    deck = decks[11]
    asked = []
    real = solver.deepen_search

    def spy(config, root, budget):
        res = real(config, root, budget)
        asked.append((budget, res.outcome))
        return res

    monkeypatch.setattr(solver, "deepen_search", spy)
    won = solve_batch(cfg, deck[None, :], node_limit=4000)
    assert int(won["code"][0]) == 1 and int(won["turns"][0]) == 5
    assert int(won["nodes"][0]) <= 4000
    assert len(asked) == 1 and asked[0][1] == "win"
    assert asked[0][0] >= 4000 // solver.DEEPEN_AFTER  # the sixth kept back, at least
    single = solve(cfg, deck, node_limit=4000)  # the same search, its line replayed
    assert single.outcome == "win" and single.nodes == int(won["nodes"][0])
    assert len(single.solution) == 5 and len(asked) == 2
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


def test_deepening_finds_the_fewest_turns_and_never_a_loss(tmp_path):
    """Over random files from the whole vocabulary, from each deal and from a position a
    few turns in: a win of the deepening replays in the reference engine and has as many
    turns as the breadth-first reference's; a deal the reference proves lost is never a
    loss of the deepening (it proves none), and a small budget only leaves deals open."""
    compared = lost = 0
    for seed in range(8):
        cfg, decks = _random_config(seed, tmp_path)
        cards = load_cards(cfg)
        for deck in decks[:5]:
            state = new_game(cards, deck.tolist())
            deep = solver.deepen_search(cfg, to_kernel_state(state), 20_000)
            assert deep.outcome in ("win", "undecided")
            if deep.outcome == "win":
                verify_solution(state, deep.solution)
                ref = reference_shortest(state, 100_000)
                assert ref.outcome != "loss"
                if ref.outcome == "win":
                    compared += 1
                    assert len(deep.solution) == len(ref.solution)
            elif reference_search(state, 20_000).outcome == "loss":
                lost += 1
            small = solver.deepen_search(cfg, to_kernel_state(state), 50)
            assert small.outcome in ("undecided", deep.outcome) and small.nodes <= 50
    assert compared >= 10 and lost >= 3  # the check saw both kinds of deal


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


def test_the_deepening_stops_at_its_moves_built_across_pauses(monkeypatch):
    """The deepening's work is capped at a depth-first search's of its budget: it answers
    undecided once its finished positions built `budget` moves, before entering that many
    positions; the count survives the pauses (the same answer after the same positions
    however often it returns to Python)."""
    cfg = Options(cards_file=BENCH / "rich_relay.toml", allow_nonstandard=True)
    cards = load_cards(cfg)
    root = to_kernel_state(new_game(cards, np.random.default_rng(3).permutation(cards.n).tolist()))
    whole = solver.deepen_search(cfg, root, 20_000)
    assert whole.outcome == "undecided" and 0 < whole.nodes < 20_000
    monkeypatch.setattr(solver, "PAUSE_BUILT", 50)
    monkeypatch.setattr(solver, "PAUSE_STEP", 97)
    paused = solver.deepen_search(cfg, root, 20_000)
    assert (paused.outcome, paused.nodes) == (whole.outcome, whole.nodes)

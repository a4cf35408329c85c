"""Widening (search/widen.py): the rest of the node limit spread over the first turn's
moves, two levels deep, on card sets with the extended vocabulary; sound against the
exhaustive search on random card files from the whole vocabulary at one, two and three
levels, and never used by the stand-in's cards."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.rules.rules import new_game
from bombsolve.solvers.allisbomb.search import solver
from bombsolve.solvers.allisbomb.search.solver import (
    DEFAULT_NODE_LIMIT,
    solve,
    solve_batch,
    verify_solution,
)
from tests.allisbomb.odd_sets import random_card_file

BENCH = Path(__file__).resolve().parents[2] / "scripts" / "bench"

NAMES = {1: "win", 0: "loss", 2: "undecided"}


def _random_config(seed: int, tmp_path: Path, n_cards: int = 9) -> tuple[Options, np.ndarray]:
    rng = np.random.default_rng(seed)
    path = random_card_file(rng, tmp_path / f"w{seed}.toml", n_cards, True)
    cfg = Options(cards_file=path, allow_nonstandard=True)
    n = load_cards(cfg).n
    return cfg, np.stack([rng.permutation(n) for _ in range(20)])


def test_widening_decides_a_deal_the_portfolio_leaves_undecided(tmp_path, monkeypatch):
    """Random file 18, deal 13: both move orders spend 4,000 positions without a verdict;
    the first turn's moves searched side by side find a win within the same limit."""
    cfg, decks = _random_config(18, tmp_path)
    assert solver.compiled(cfg).prog.extended
    deck = decks[13]
    won = solve_batch(cfg, deck[None, :], node_limit=4000)
    assert int(won["code"][0]) == 1 and int(won["nodes"][0]) <= 4000
    single = solve(cfg, deck, node_limit=4000)  # the same search, its line replayed
    assert single.outcome == "win" and single.nodes == int(won["nodes"][0])
    assert len(single.solution) == int(won["turns"][0])
    monkeypatch.setattr(solver, "WIDEN_AFTER", 10**18)  # the portfolio alone, whole limit
    assert int(solve_batch(cfg, deck[None, :], node_limit=4000)["code"][0]) == 2


@pytest.mark.parametrize("levels", [1, 2, 3])
def test_widening_agrees_with_the_exhaustive_search(tmp_path, levels):
    """Over random files from the whole vocabulary, every verdict widening reaches with a
    small budget, one, two or three levels deep, is the plain search's with a large one (a
    LOSS only when every move of every level is lost), every win replays in the reference
    engine, and both kinds are met."""
    decided = {"win": 0, "loss": 0}
    for seed in range(12):
        cfg, decks = _random_config(seed, tmp_path, n_cards=6)
        for deck in decks[:10]:
            root = new_game(load_cards(cfg), list(deck))
            w = solver.widen_search(cfg, root, 5000, first=20, levels=levels)
            got = NAMES[w.code]
            if got == "undecided":
                continue
            exact = solve(cfg, deck, node_limit=400_000, portfolio=False)
            assert exact.outcome == got, (seed, deck.tolist())
            decided[got] += 1
            if got == "win":
                assert len(w.line) == w.turns
                verify_solution(new_game(load_cards(cfg), list(deck)), list(w.line))
    assert decided["win"] > 20 and decided["loss"] > 20, decided


#: rich_relay's deal 101 of the benchmark's seed 2026 (scripts/bench/rich_sets.py), top first.
RELAY_101 = [17, 7, 8, 15, 16, 9, 0, 6, 4, 3, 2, 5, 11, 14, 13, 12, 10, 1]


def test_two_levels_decide_a_deal_one_level_leaves_open():
    """rich_relay's deal 101: widening its first turn's moves alone leaves it open after
    200,000 positions (and the sweep's whole default limit, before two levels); widening
    each first move's own first turn too finds a 26-turn WIN within 5,000, and the sweep's
    search finds it with the default limit, its line replayed."""
    cfg = Options(cards_file=BENCH / "cardsets" / "rich_relay.toml", allow_nonstandard=True)
    cards = load_cards(cfg)
    one = solver.widen_search(cfg, new_game(cards, RELAY_101), 200_000, levels=1)
    assert NAMES[one.code] == "undecided" and one.nodes == 200_000
    two = solver.widen_search(cfg, new_game(cards, RELAY_101), 5000, levels=2)
    assert NAMES[two.code] == "win" and two.nodes <= 5000 and two.turns == len(two.line) == 26
    verify_solution(new_game(cards, RELAY_101), list(two.line))
    deck = np.array(RELAY_101)
    assert int(solve_batch(cfg, deck[None, :])["code"][0]) == 1
    res = solve(cfg, deck)  # check=True: the line replayed in the reference engine
    assert res.outcome == "win" and res.nodes <= DEFAULT_NODE_LIMIT


def test_the_stand_in_never_widens(monkeypatch):
    """The stand-in's cards have no extended rows: a deal the portfolio leaves undecided
    stays as it was (the pinned node counts rely on it)."""

    def refuse(*args, **kwargs):
        raise AssertionError("widened a stand-in deal")

    monkeypatch.setattr(solver, "widen_search", refuse)
    cfg = Options()
    assert not solver.compiled(cfg).prog.extended
    decks = np.stack([np.random.default_rng(s).permutation(18) for s in range(30)])
    out = solve_batch(cfg, decks, node_limit=60)
    assert (out["code"] == 2).any() and out["nodes"].max() <= 60
    assert solve(cfg, decks[0], node_limit=60).nodes <= 60

"""The verdict search's card order (ordering.py): it changes positions entered, never a verdict.

Kernel (`kernel.dfs` order 2, `_order_cards`) and reference (`search.reference_search(order=2)`,
`search.ordered_children`) try the cards in the same order: same outcome, node count, loss
reasons and winning line, with the shipped table and with random tables. Against the search
by card id (order 0; the portfolio with the order off) every decided verdict is the same.
"""

from __future__ import annotations

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS, Options
from bombsolve.solvers.allisbomb.kernel.ordering import card_priorities, priority_table
from bombsolve.solvers.allisbomb.kernel.program import (
    compiled_program,
    move_order,
    move_order_enabled,
)
from bombsolve.solvers.allisbomb.rules.deals import shuffles
from bombsolve.solvers.allisbomb.rules.rules import new_game
from bombsolve.solvers.allisbomb.search.search import reference_search
from bombsolve.solvers.allisbomb.search.solver import compiled, solve, solve_batch

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

CONFIGS = [
    Options(),
    Options(players=2),
    Options(expansions=("gifts", "dream_guide")),
    Options(expansions=EXPANSIONS, hands=True),
]


class _Table:
    """Within the block, the ordering of `cfg` is on with priority table `t` (restored after)."""

    def __init__(self, cfg: Options, t: np.ndarray) -> None:
        self.cfg, self.new = cfg, t

    def __enter__(self) -> None:
        self.on = move_order(self.cfg, True)
        self.on.__enter__()
        n = compiled(self.cfg).cards.n
        self.tab = priority_table(compiled_program(self.cfg).info, n)
        self.old = self.tab.copy()
        self.tab[:] = self.new

    def __exit__(self, *exc) -> None:
        self.tab[:] = self.old
        self.on.__exit__(*exc)


def test_the_shipped_table_is_the_cards_priorities_and_off_by_default():
    for cfg in CONFIGS:
        n = compiled(cfg).cards.n
        assert not move_order_enabled(cfg)
        assert priority_table(compiled_program(cfg).info, n) is None
        with move_order(cfg, True):
            assert move_order_enabled(cfg)
            tab = priority_table(compiled_program(cfg).info, n)
            assert (tab == card_priorities(compiled(cfg).cards)).all()
            assert len(np.unique(tab)) > 1
        assert not move_order_enabled(cfg)


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.label())
@pytest.mark.parametrize("table", ["shipped", "random"])
def test_kernel_and_reference_order_alike(cfg, table):
    cards = compiled(cfg).cards
    rng = np.random.default_rng(len(cfg.label()))
    t = card_priorities(cards) if table == "shipped" else rng.integers(0, 4, (cards.n, 2))
    decks = shuffles(cards.n, 8, np.random.default_rng(11))
    outcomes = set()
    with _Table(cfg, t):
        for deck in decks:
            k = solve(cfg, deck, node_limit=3000, portfolio=False, order=2)
            r = reference_search(new_game(cards, list(deck)), node_limit=3000, order=2)
            assert (k.outcome, k.nodes, k.loss_reason) == (r.outcome, r.nodes, r.loss_reason)
            assert [tuple(m) for m in k.solution] == r.solution  # (solve replays a win)
            outcomes.add(k.outcome)
    assert "win" in outcomes or "loss" in outcomes


def test_order_changes_positions_not_verdicts_in_the_plain_search():
    """Order 2 against order 0 (by id), kernel and reference, on the same deals."""
    cfg = Options()
    cards = compiled(cfg).cards
    decks = shuffles(cards.n, 150, np.random.default_rng(4))
    with _Table(cfg, card_priorities(cards)):
        _compare(cfg, cards, decks)


def _compare(cfg, cards, decks):
    differ = compared = 0
    for i, deck in enumerate(decks):
        a = solve(cfg, deck, node_limit=200_000, portfolio=False, order=0)
        b = solve(cfg, deck, node_limit=200_000, portfolio=False, order=2)
        if "undecided" not in (a.outcome, b.outcome):
            assert a.outcome == b.outcome
            compared += 1
        differ += a.nodes != b.nodes
        if i < 10:
            r = reference_search(new_game(cards, list(deck)), node_limit=200_000, order=2)
            assert (r.outcome, r.nodes) == (b.outcome, b.nodes)
    assert compared >= 140 and differ >= 20


@pytest.mark.parametrize(
    "cfg,k",
    [
        (Options(), 300),
        (Options(blitz=True), 300),
        (Options(expansions=("all",)), 100),
        (Options(expansions=EXPANSIONS), 60),
    ],
    ids=lambda x: x.label() if isinstance(x, Options) else str(x),
)
def test_portfolio_verdicts_with_and_without_the_order(cfg, k):
    decks = shuffles(compiled(cfg).cards.n, k, np.random.default_rng(8))
    with move_order(cfg, True):
        on = solve_batch(cfg, decks, node_limit=400_000)
    with move_order(cfg, False):
        off = solve_batch(cfg, decks, node_limit=400_000)
    both = (on["code"] != 2) & (off["code"] != 2)
    assert both.sum() >= 0.9 * k
    assert (on["code"][both] == off["code"][both]).all()
    assert (on["nodes"] != off["nodes"]).any()


def test_ordered_portfolio_wins_replay():
    """A win found by the ordered orders (2 and 3) is written in option indices by id."""
    cfg = Options(expansions=("gifts", "mosquitos"), players=2)
    decks = shuffles(compiled(cfg).cards.n, 30, np.random.default_rng(9))
    wins = 0
    with move_order(cfg, True):
        for deck in decks:
            res = solve(cfg, deck, node_limit=200_000)  # check=True replays the line
            wins += res.outcome == "win"
    assert wins >= 5

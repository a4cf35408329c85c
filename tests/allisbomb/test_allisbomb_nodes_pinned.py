"""The kernel searches exactly as it did before the speed work.

A study resumed across a kernel change must get the same `nodes` for the same deal and
node limit, so a faster kernel may not visit positions in another order or prune others.
`data/nodes_pinned.json` was recorded by `scripts/bench/pin_allisbomb_nodes.py` with main's
kernel at commit 7f78e46 (before the speed work): seeded deals of the 19 study
configurations and two option variants, each solved by the plain search, the portfolio
search (what studies run) and, for a few configurations, the shortest-win search.

That kernel's tables had no copy-symmetric keys (copies.py) and its portfolio search tried
cards by id, so it is re-solved with both switched off (`program.copy_keys`,
`program.move_order`): the rest of the search must be what it was. With the
keys on (the default) the verdict searches enter other positions, legitimately (positions
that differ only by which copy of a card sits where share one entry); those counts are
pinned apart, in `data/nodes_pinned_copy_keys.json` (the same deals, recorded by
`scripts/bench/pin_allisbomb_nodes.py --copy-keys` when the keys were added, for the 20
configurations that have copies; no decided verdict differs from the first file). The
portfolio search's card order (ordering.py) changes its counts again, legitimately:
with the keys and the order on the counts are pinned in `data/nodes_pinned_move_order.json`
(`--copy-keys --move-order`, all 21 configurations); the order is off by default, and the
two older files are checked with it off.

The shortest-win search now decides the deal with the portfolio search before it deepens,
so where a limit stops the deepening it reports the win it has (not proven the shortest)
rather than 'undecided': its counts are pinned in `data/nodes_pinned_shortest.json`
(recorded by `scripts/bench/pin_allisbomb_nodes.py --shortest`), and every shortest-win result
the first fixture decided must be unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS, Options
from bombsolve.solvers.allisbomb.kernel.program import (
    copy_keys,
    copy_keys_enabled,
    move_order,
    move_order_enabled,
)
from bombsolve.solvers.allisbomb.kernel.prune import OUT, analyse, dead_reason, ignited_for_good
from bombsolve.solvers.allisbomb.rules.rules import new_game
from bombsolve.solvers.allisbomb.search.solver import solve, solve_batch
from bombsolve.solvers.allisbomb.studies.study import config_from_params

DATA = json.loads((Path(__file__).parent / "data" / "nodes_pinned.json").read_text())
CASES = DATA["cases"]
KEYED = json.loads((Path(__file__).parent / "data" / "nodes_pinned_copy_keys.json").read_text())
ORDERED = json.loads((Path(__file__).parent / "data" / "nodes_pinned_move_order.json").read_text())
SHORT = json.loads((Path(__file__).parent / "data" / "nodes_pinned_shortest.json").read_text())


def test_fixture_covers_wins_losses_and_limits():
    plain = [d["plain"][0] for c in CASES for d in c["deals"]]
    assert {"win", "loss", "undecided"} <= set(plain)
    assert len(CASES) == 21


def _check(case, data):
    cfg = config_from_params(case["config"])
    assert cfg.label() == case["label"]
    decks = np.array([d["deck"] for d in case["deals"]], np.int64)
    pf = solve_batch(cfg, decks, node_limit=data["portfolio_limit"])
    for i, want in enumerate(case["deals"]):
        got = [int(pf[k][i]) for k in ("code", "nodes", "reason", "turns")]
        assert got == want["portfolio"], ("portfolio", i)
        plain = solve(cfg, decks[i], node_limit=data["plain_limit"], portfolio=False)
        assert [plain.outcome, plain.nodes, plain.loss_reason] == want["plain"], ("plain", i)
        assert [list(m) for m in plain.solution] == want["plain_solution"], ("line", i)


@pytest.mark.parametrize("case", CASES, ids=[c["label"] for c in CASES])
def test_node_counts_are_unchanged(case):
    cfg = config_from_params(case["config"])
    with copy_keys(cfg, False), move_order(cfg, False):
        _check(case, DATA)


@pytest.mark.parametrize("case", SHORT["cases"], ids=[c["label"] for c in SHORT["cases"]])
def test_shortest_win_counts_are_unchanged(case):
    cfg = config_from_params(case["config"])
    decks = _decks_of(case)
    with copy_keys(cfg, False), move_order(cfg, False):
        for i, want in enumerate(case["deals"]):
            short = solve(cfg, decks[i], node_limit=SHORT["shortest_limit"], shortest=True)
            got = [short.outcome, short.nodes, len(short.solution)]
            assert got == want["shortest"], ("shortest", i)


def test_shortest_win_keeps_every_result_the_first_fixture_decided():
    """A loss, or a win found under the limit (so proven the shortest), is unchanged."""
    first = {c["label"]: c for c in CASES}
    decided = 0
    for case in SHORT["cases"]:
        for old, new in zip(first[case["label"]]["deals"], case["deals"], strict=True):
            if old["shortest"][0] != "undecided" and old["shortest"][1] < DATA["shortest_limit"]:
                assert new["shortest"] == old["shortest"], case["label"]
                decided += 1
    assert decided >= 12


def _decks_of(case) -> np.ndarray:
    """The deals of `case`: those of the first fixture's case with the same label."""
    first = next(c for c in CASES if c["label"] == case["label"])
    return np.array([d["deck"] for d in first["deals"]], np.int64)


@pytest.mark.parametrize("case", KEYED["cases"], ids=[c["label"] for c in KEYED["cases"]])
def test_node_counts_with_copy_keys_are_unchanged(case):
    cfg = config_from_params(case["config"])
    assert KEYED["copy_keys"] and copy_keys_enabled(cfg)
    with move_order(cfg, False):
        _check(case, KEYED)


@pytest.mark.parametrize("case", ORDERED["cases"], ids=[c["label"] for c in ORDERED["cases"]])
def test_node_counts_with_move_order_are_unchanged(case):
    """Copy keys where the game has copies, ordering.py's card order switched on."""
    cfg = config_from_params(case["config"])
    assert ORDERED["move_order"] and not move_order_enabled(cfg)
    assert copy_keys_enabled(cfg) == (case["label"] != "blitz")
    with move_order(cfg, True):
        _check(case, ORDERED)


def test_move_order_keeps_every_decided_verdict_of_the_first_fixture():
    """The card order changes which positions the portfolio search enters, never a verdict."""
    old = {c["label"]: c for c in CASES}
    assert len(ORDERED["cases"]) == 21
    compared = 0
    for case in ORDERED["cases"]:
        for was, now in zip(old[case["label"]]["deals"], case["deals"], strict=True):
            assert was["deck"] == now["deck"]
            a, b = was["portfolio"][0], now["portfolio"][0]
            if 2 not in (a, b):
                assert a == b
                compared += 1
    assert compared >= 60


def test_copy_keys_keep_every_decided_verdict_of_the_first_fixture():
    old = {c["label"]: c for c in CASES}
    assert len(KEYED["cases"]) == 20  # all but Blitz, whose 13 cards have no copies
    for case in KEYED["cases"]:
        for was, now in zip(old[case["label"]]["deals"], case["deals"], strict=True):
            assert was["deck"] == now["deck"]
            for a, b in (
                (was["plain"][0], now["plain"][0]),
                (was["portfolio"][0], now["portfolio"][0]),
            ):
                if "undecided" not in (a, b) and 2 not in (a, b):
                    assert a == b


def _pile_sig(s):
    good = ignited_for_good(s, analyse(s.cards))
    return (tuple(s.discard), s.desired, tuple(z == OUT for z in s.zone), frozenset(good))


@pytest.mark.parametrize(
    "cfg",
    [Options(), Options(expansions=EXPANSIONS, hands=True), Options(players=2)],
    ids=lambda c: c.label(),
)
def test_a_child_with_the_parents_pile_is_not_dead(cfg):
    """The fact prune.still_alive rests on when the pile did not change (k = 0 there):
    a child with the same DISCARD PILE, out-of-play cards, DESIRED DISH and cards ignited
    for good as a parent that is not dead is not dead either. Checked with the reference
    predicate on random lines."""
    rng = np.random.default_rng(5)
    n = load_cards(cfg).n
    same = 0
    for _ in range(12):
        s = new_game(cfg, list(rng.permutation(n)))
        while not s.is_over() and dead_reason(s) is None:
            kids = s.children()
            for _move, child in kids:
                if not child.is_over() and _pile_sig(child) == _pile_sig(s):
                    same += 1
                    assert dead_reason(child) is None
            s = kids[int(rng.integers(len(kids)))][1]
    assert same > 20

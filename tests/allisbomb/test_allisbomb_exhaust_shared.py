"""Every Blitz deal by groups: the group enumeration (blitz_ranks.group_decks) and the
search whose table of proven positions is shared by many deals (exhaust_kernel), against
the per-deal search."""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pandas as pd
import pytest

from bombsolve.solvers.allisbomb.kernel import exhaust_kernel as EK
from bombsolve.solvers.allisbomb.kernel.kernel import CODE_UNDECIDED
from bombsolve.solvers.allisbomb.rules import blitz_ranks as R
from bombsolve.solvers.allisbomb.search import exhaust as E
from bombsolve.solvers.allisbomb.search.solver import solve_batch
from bombsolve.solvers.common.runner import run_study


def per_deal(decks: np.ndarray) -> np.ndarray:
    """The verdicts of the search that keeps nothing from one deal to the next."""
    return solve_batch(E.BLITZ, decks, node_limit=E.ESCALATION.ceiling)["code"]


@pytest.mark.parametrize(("n", "t"), [(6, 4), (7, 5), (6, 6), (5, 3)])
def test_groups_hold_every_deal_once(n, t):
    k = 3
    decks, ranks = R.group_decks(np.arange(R.n_groups(t, n)), t, n, k)
    canon = [p for p in itertools.permutations(range(n)) if p[0] < p[1] < p[2]]
    assert len(decks) == R.n_groups(t, n) * R.group_size(t, n, k) == len(canon)
    assert sorted(map(tuple, decks.tolist())) == canon
    # the ranks are those of the lexicographic numbering
    fact, binom = R._tables(n, k)
    back = np.zeros_like(decks)
    R._fill_decks(ranks, n, k, fact, binom, back)
    assert (back == decks).all()
    # a group's deals share their n - t bottom cards, in order, and run from the bottom
    # of the deck up (sorted by the cards at t - 1, t - 2, ..., 0)
    size = R.group_size(t, n, k)
    for g in range(0, len(decks), size):
        assert (decks[g : g + size, t:] == decks[g, t:]).all()
        up = [tuple(row[::-1]) for row in decks[g : g + size, :t].tolist()]
        assert up == sorted(up)
    # the groups run in the lexicographic order of their bottom cards read from the bottom
    bottoms = [tuple(row[::-1]) for row in decks[::size, t:].tolist()]
    assert bottoms == sorted(bottoms)


def test_blitz_groups_and_ranks():
    assert R.n_groups() * R.group_size() == E.N_DEALS
    g = np.array([0, 7, R.n_groups() - 1])
    decks, ranks = R.group_decks(g)
    assert decks.shape == (3 * R.group_size(), E.N_CARDS)
    for deck, r in zip(decks[::331], ranks[::331], strict=True):
        assert E.deal_rank(deck) == r
    assert len(set(ranks.tolist())) == len(ranks)


def test_shared_table_verdicts_equal_per_deal_on_uniform_deals():
    ranks = np.random.default_rng(2112).integers(0, E.N_DEALS, 1500)
    decks = E.decks_of_ranks(ranks)
    want = per_deal(decks)
    # one table for all of them, and a fresh table per deal
    got = E.decide_shared(decks, E.SharedTable())
    assert (got["code"] == want).all()
    fresh = [E.decide_shared(decks[i : i + 1], E.SharedTable(8))["code"][0] for i in range(200)]
    assert (np.array(fresh) == want[:200]).all()
    assert (want == 0).sum() >= 10  # losses are checked too, not only wins


def test_shared_table_verdicts_equal_per_deal_on_groups():
    # whole groups: the order the exhaust runs them in, where later deals meet the
    # positions of earlier ones; the table kept over two calls, then a tiny one that is
    # emptied again and again
    decks, _ = R.group_decks(np.array([3_001, 150_000]))
    want = per_deal(decks)
    table = E.SharedTable()
    half = len(decks) // 2
    got = np.concatenate(
        [E.decide_shared(decks[:half], table)["code"], E.decide_shared(decks[half:], table)["code"]]
    )
    assert (got == want).all()
    assert (want == 0).sum() >= 20
    small = E.SharedTable(10)
    got_small = E.decide_shared(decks, small, node_limit=300)
    assert (got_small["code"] == want).all()
    assert small.state[0] > 1  # the small table was emptied (new generations)


def test_shared_table_saves_positions_on_groups():
    decks, _ = R.group_decks(np.array([77_777]))
    alone = sum(
        E.decide_shared(decks[i : i + 1], E.SharedTable(8))["nodes"][0] for i in range(0, 6720, 20)
    )
    shared = E.decide_shared(decks, E.SharedTable())["nodes"][::20].sum()
    assert shared < alone  # (the figure is in the benchmark, not here)


def test_the_shared_search_leaves_undecided_at_its_limit_and_decide_shared_finishes():
    decks, _ = R.group_decks(np.array([500]))
    c = E.compiled(E.BLITZ)
    table = E.SharedTable()
    m = 400
    code = np.zeros(m, np.int64)
    nodes = np.zeros(m, np.int64)
    reason = np.zeros(m, np.int64)
    EK.solve_shared(
        decks[:m],
        c.prog.n,
        1,
        *c.rule_args,
        table.index,
        table.entries,
        table.state,
        5,
        table.refill,
        np.int64(E.SHARED_ORDER),
        table.frames,
        code,
        nodes,
        reason,
    )
    assert (code == CODE_UNDECIDED).any() and (nodes <= 5).all()
    # what those stopped searches left behind proves nothing false
    res = E.decide_shared(decks[:m], table)
    assert (res["code"] == per_deal(decks[:m])).all()


def test_group_study_counts_match_the_per_deal_search(tmp_path, monkeypatch):
    monkeypatch.setattr(E, "BLOCK", 2 * R.group_size())
    study = E.group_study(chunk_size=4 * R.group_size())
    assert study.params["groups_per_case"] == 2 and study.chunk_size == 2
    assert study.n_cases == math.ceil(R.n_groups() / 2)
    small = dataclasses.replace(study, n_cases=3)
    rows = run_study(small, tmp_path / "g", workers=1, progress=False)
    decks, _ = R.group_decks(np.arange(6))
    want = per_deal(decks)
    assert rows["deals"].sum() == len(decks)
    assert rows["wins"].sum() == (want == 1).sum()
    assert rows["losses"].sum() == (want == 0).sum() and rows["undecided"].sum() == 0
    assert list(rows["first_group"]) == [0, 2, 4]
    again = run_study(small, tmp_path / "g2", workers=1, progress=False)
    pd.testing.assert_frame_equal(
        rows.drop(columns="cpu_seconds"), again.drop(columns="cpu_seconds")
    )

"""The exact transposition table: key words, collisions, growth (kernel._tt_*)."""

from __future__ import annotations

import numpy as np

from solvers.allisbomb import kernel as K
from solvers.allisbomb.config import GameConfig
from solvers.allisbomb.deals import shuffles
from solvers.allisbomb.solver import solve_batch

# That equal key words mean equal keys (and back): test_allisbomb_state_layout.py.


def test_same_hash_different_position_is_not_found():
    """Two positions forced onto one hash (and one tag) are still told apart."""
    tags = np.zeros(16, np.uint64)
    table = np.zeros((16, 3), np.uint64)
    a = np.array([1, 2, 3], np.uint64)
    b = np.array([1, 2, 4], np.uint64)
    h = np.uint64(0xDEADBEEF12345678)
    idx, found = K._tt_find(tags, table, 7, h, a, 16)
    assert not found
    K._tt_put(tags, table, idx, 7, h, a, K.ON_PATH)
    assert K._tt_find(tags, table, 7, h, a, 16) == (idx, True)
    idx_b, found_b = K._tt_find(tags, table, 7, h, b, 16)
    assert not found_b and idx_b != idx
    # another generation's entry is an empty slot
    assert K._tt_find(tags, table, 8, h, a, 16) == (idx, False)


def test_growth_keeps_entries_and_line_slots():
    """_tt_grow doubles the slots in use; every entry and the line's slots follow."""
    rng = np.random.default_rng(3)
    tags = np.zeros(64, np.uint64)
    table = np.zeros((64, 2), np.uint64)
    keys = [rng.integers(0, 2**62, 2).astype(np.uint64) for _ in range(10)]
    fidx = np.full(10, -1, np.int64)
    for i, kw in enumerate(keys):
        h = np.uint64(K._hash_words(kw, 2))
        idx, found = K._tt_find(tags, table, 5, h, kw, 16)
        assert not found
        K._tt_put(tags, table, idx, 5, h, kw, K.ON_PATH if i % 2 else K.DONE)
        fidx[i] = idx
    cap = K._tt_grow(tags, table, 5, 16, fidx, 9)
    assert cap == 32
    for i, kw in enumerate(keys):
        idx, found = K._tt_find(tags, table, 5, np.uint64(K._hash_words(kw, 2)), kw, 32)
        assert found and idx == fidx[i] and idx < 32
        assert K._tt_mark(tags, idx) == (K.ON_PATH if i % 2 else K.DONE)


def test_table_size_does_not_change_verdicts():
    """A table that starts small and grows, a small full table (stops inserting) and the
    default give the same verdicts (exactness does not hang on the table)."""
    cfg = GameConfig()
    decks = shuffles(18, 60, np.random.default_rng(5))
    a = solve_batch(cfg, decks, node_limit=200_000, portfolio=False)
    b = solve_batch(cfg, decks, node_limit=200_000, portfolio=False, table_bits=13)
    decided = (a["code"] != 2) & (b["code"] != 2)
    assert decided.sum() >= 50
    assert (a["code"][decided] == b["code"][decided]).all()


def test_first_1000_base_seeds_keep_their_committed_verdicts():
    """results/allisbomb/seeds-base.csv (made by scripts/allisbomb_seeds.py before the
    exact table): every verdict decided there is unchanged (undecided may become decided)."""
    import csv
    from pathlib import Path

    from solvers.allisbomb.deals import deal_from_seed

    path = Path(__file__).resolve().parents[2] / "results" / "allisbomb" / "seeds-base.csv"
    rows = list(csv.DictReader(path.open()))
    cfg = GameConfig()
    decks = np.array([deal_from_seed(cfg, int(r["seed"])) for r in rows], np.int64)
    out = solve_batch(cfg, decks, node_limit=3_000_000)
    names = {1: "win", 0: "loss", 2: "undecided"}
    for r, code in zip(rows, out["code"].tolist(), strict=True):
        if r["outcome"] != "undecided":
            assert names[code] == r["outcome"], r["seed"]
    assert len(rows) == 1000

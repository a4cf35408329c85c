"""The exact transposition table: key words, collisions, growth (kernel._tt_*)."""

from __future__ import annotations

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel import kernel as K
from bombsolve.solvers.allisbomb.rules.deals import shuffles
from bombsolve.solvers.allisbomb.search.solver import solve_batch
from bombsolve.solvers.common.errors import BadInput

# That equal key words mean equal keys (and back): test_allisbomb_state_layout.py.


def test_same_hash_different_position_is_not_found():
    """Two positions forced onto one hash (and one stamp) are still told apart."""
    index = np.zeros(16, np.uint64)
    entries = np.zeros((12, 4), np.uint64)
    a = np.array([1, 2, 3], np.uint64)
    b = np.array([1, 2, 4], np.uint64)
    h = np.uint64(0xDEADBEEF12345678)
    idx, e = K._tt_find(index, entries, 7, h, a, 3, 16)
    assert e == -1
    K._tt_put(index, entries, idx, 0, 7, h, a, 3, K.ON_PATH)
    assert K._tt_find(index, entries, 7, h, a, 3, 16) == (idx, 0)
    assert list(entries[0, 1:]) == [1, 2, 3]
    idx_b, e_b = K._tt_find(index, entries, 7, h, b, 3, 16)
    assert e_b == -1 and idx_b != idx
    K._tt_put(index, entries, idx_b, 1, 7, h, b, 3, K.DONE)
    assert K._tt_find(index, entries, 7, h, b, 3, 16) == (idx_b, 1)
    assert K._tt_mark(entries, 0) == K.ON_PATH and K._tt_mark(entries, 1) == K.DONE
    # another generation's entry is an empty slot
    assert K._tt_find(index, entries, 8, h, a, 3, 16) == (idx, -1)


def _filled(rng, gen, n_keys, kw, cap, size):
    """An index of `size` slots with n_keys random keys of kw words stored (entries 0..,
    marks alternating) in its first cap slots, and stale slots of an older generation
    elsewhere; their entry numbers and hash bits are random."""
    index = (np.uint64(gen - 1) << np.uint64(32)) | rng.integers(0, 2**32, size).astype(np.uint64)
    entries = rng.integers(0, 2**62, ((3 * size) // 4, kw + 1)).astype(np.uint64)
    keys = rng.integers(0, 2**62, (n_keys, kw)).astype(np.uint64)
    for e, key in enumerate(keys):
        h = np.uint64(K._hash_words(key, kw))
        idx, old = K._tt_find(index, entries, gen, h, key, kw, cap)
        assert old == -1
        K._tt_put(index, entries, idx, e, gen, h, key, kw, K.ON_PATH if e % 2 else K.DONE)
    return index, entries, keys


def test_growth_keeps_every_entry_in_place():
    """_tt_grow enlarges the slots in use (up to the whole index); every entry is found
    again, under the same entry number (what `dfs` keeps in fidx) and with its mark, in
    random fillings up to 3/4 of cap."""
    rng = np.random.default_rng(3)
    for trial in range(30):
        kw = int(rng.integers(1, 7))
        cap = int(2 ** rng.integers(2, 8))
        size = cap * int(2 ** rng.integers(1, 4))
        n_keys = int(rng.integers(1, 3 * cap // 4 + 1))
        gen = int(rng.integers(2, 2**32 - 1))
        index, entries, keys = _filled(rng, gen, n_keys, kw, cap, size)
        new_cap = K._tt_grow(index, entries, gen, cap, n_keys)
        assert new_cap == min(size, cap * K.TT_GROW), trial
        live = (index >> np.uint64(32)) == gen
        assert live.sum() == n_keys and not live[new_cap:].any(), trial
        for e, key in enumerate(keys):
            h = np.uint64(K._hash_words(key, kw))
            idx, found = K._tt_find(index, entries, gen, h, key, kw, new_cap)
            assert found == e and idx < new_cap, trial
            assert K._tt_mark(entries, e) == (K.ON_PATH if e % 2 else K.DONE)


def test_growth_allocates_nothing():
    # dfs is compiled without NRT, so what it calls may not allocate; _tt_grow used to
    # allocate its work arrays and asked for NRT itself
    assert K._tt_grow.targetoptions.get("_nrt") is False


def test_a_table_too_large_for_its_entry_numbers_is_refused():
    """A table of more slots than the index slots' entry numbers can count is refused
    (exactness); the largest allowed is kernel.TT_ENTRY_BITS."""
    assert K.TT_ENTRY_BITS + K.TT_STAMP_BITS == 32  # the generation keeps the high half
    with pytest.raises(BadInput, match="table_bits"):
        solve_batch(
            Options(),
            shuffles(18, 1, np.random.default_rng(1)),
            table_bits=K.TT_ENTRY_BITS + 1,
        )


def test_table_size_does_not_change_verdicts():
    """A table that starts small and grows, a small full table (stops inserting) and the
    default give the same verdicts (exactness does not hang on the table)."""
    cfg = Options()
    decks = shuffles(18, 60, np.random.default_rng(5))
    a = solve_batch(cfg, decks, node_limit=200_000, portfolio=False)
    b = solve_batch(cfg, decks, node_limit=200_000, portfolio=False, table_bits=13)
    decided = (a["code"] != 2) & (b["code"] != 2)
    assert decided.sum() >= 50
    assert (a["code"][decided] == b["code"][decided]).all()


def test_a_table_past_2_24_slots_searches_the_same():
    """Entry numbers above 24 bits leave fewer hash bits in an index slot (TT_STAMP_BITS):
    a search allowed 2**25 slots gives every verdict and position count of the default one
    (its table grows from a few slots as it fills, as every search's does)."""
    cfg = Options(players=2)
    decks = shuffles(18, 20, np.random.default_rng(6))
    a = solve_batch(cfg, decks, node_limit=200_000, portfolio=False)
    b = solve_batch(cfg, decks, node_limit=200_000, portfolio=False, table_bits=25)
    for k in ("code", "nodes", "turns", "reason"):
        assert (a[k] == b[k]).all(), k


def test_first_1000_base_seeds_keep_their_committed_verdicts():
    """results/allisbomb/standin-v1/seeds-base.csv (made by scripts/results/allisbomb_seeds.py before the
    exact table): every verdict decided there is unchanged (undecided may become decided)."""
    import csv
    from pathlib import Path

    from bombsolve.solvers.allisbomb.rules.deals import deal_from_seed

    path = (
        Path(__file__).resolve().parents[2]
        / "results"
        / "allisbomb"
        / "standin-v1"
        / "seeds-base.csv"
    )
    rows = list(csv.DictReader(path.open()))
    cfg = Options(cards_version="standin-v1")  # the committed table is version 1's
    decks = np.array([deal_from_seed(cfg, int(r["seed"])) for r in rows], np.int64)
    out = solve_batch(cfg, decks, node_limit=3_000_000)
    names = {1: "win", 0: "loss", 2: "undecided"}
    for r, code in zip(rows, out["code"].tolist(), strict=True):
        if r["outcome"] != "undecided":
            assert names[code] == r["outcome"], r["seed"]
    assert len(rows) == 1000

"""A search whose table is full still sees the positions of its own line (kernel.dfs).

Once the table can store no more, the positions entered are searched without being stored.
A line through them must still meet each of them as an ancestor (a move back to one is a
cycle, as it is for a stored ancestor), or it could go round such a cycle until the depth
cut and leave the deal undecided. Small tables make the table fill on small searches.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel.kernel import E_CUT, _on_unstored_line, _unstored_tag
from bombsolve.solvers.allisbomb.search.solver import solve_batch

VOCAB = Path(__file__).parent / "data" / "vocab_actions.toml"


def test_a_position_of_the_line_is_found_by_its_tag_and_its_words():
    states = np.arange(5 * 4, dtype=np.uint64).reshape(5, 4)
    fidx = np.array([0, 7, -1, -1, -1], dtype=np.int64)
    h = np.uint64(0xDEADBEEF12345)
    fidx[2] = _unstored_tag(h)
    child = states[2].copy()
    assert _unstored_tag(h) < 0
    assert _on_unstored_line(states, fidx, 3, child, h, 4)
    child[3] += np.uint64(1)  # the same tag, other words: another position
    assert not _on_unstored_line(states, fidx, 3, child, h, 4)
    assert not _on_unstored_line(states, fidx, 3, states[2].copy(), h + np.uint64(4), 4)
    assert not _on_unstored_line(states, fidx, 1, states[2].copy(), h, 4)  # below d: not on it
    fidx[2] = 2  # stored: the table's own ON_PATH mark finds it, not this check
    assert not _on_unstored_line(states, fidx, 3, states[2].copy(), h, 4)


def _vocab_decks(k: int) -> tuple[Options, np.ndarray]:
    cfg = Options(cards_file=VOCAB, allow_nonstandard=True)
    n = load_cards(cfg).n
    rng = np.random.default_rng(2026)
    return cfg, np.stack([rng.permutation(n) for _ in range(k)]).astype(np.int64)


@pytest.mark.slow
def test_a_full_table_goes_round_no_cycle_of_unstored_positions():
    """Vocabulary deals 12 and 14 (seed 2026) with a 4,096-slot table: their lines met the
    depth cut (1,000 turns) going round cycles of positions the full table had not stored;
    they now find the WIN without any cut, as with a table that stores everything."""
    cfg, decks = _vocab_decks(15)
    decks = decks[[12, 14]]
    small = solve_batch(cfg, decks, node_limit=500_000, table_bits=12, portfolio=False)
    large = solve_batch(cfg, decks, node_limit=500_000, portfolio=False)
    assert list(small["code"]) == list(large["code"]) == [1, 1]
    assert not (small["reason"] & E_CUT).any()


@pytest.mark.slow
def test_small_tables_reach_the_verdicts_of_large_ones():
    """Whatever the table holds, a decided verdict is the exhaustive search's: small
    tables (filled early) against the default one, on vocabulary deals."""
    cfg, decks = _vocab_decks(24)
    large = solve_batch(cfg, decks, node_limit=400_000, portfolio=False)
    for bits in (8, 12):
        small = solve_batch(cfg, decks, node_limit=400_000, table_bits=bits, portfolio=False)
        both = (small["code"] != 2) & (large["code"] != 2)
        assert both.sum() >= 12
        assert (small["code"][both] == large["code"][both]).all()

"""The kernel's word-at-a-time DECK edits (`_deck_shift`, `_deck_close`) against plain byte
loops, on many seeded random rows.

Both rewrite whole uint64 words of the state row where the rules (rulebook D.2, and a card
taken from the DECK by a card action, D.3) only move a few bytes, so each must leave every
byte outside the DECK exactly as it was: the gap, the DISCARD PILE, the card bytes and the
header. A row full of random bytes checks that, and the layout test checks whole turns.
"""

from __future__ import annotations

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.kernel import kernel as K
from bombsolve.solvers.allisbomb.kernel.layout import PAD, state_words


def random_row(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(0, 2**63, size=state_words(n), dtype=np.uint64) * np.uint64(
        rng.integers(1, 3)
    )


@pytest.mark.parametrize("n", [9, 18, 23, 40, 57])
def test_deck_close_matches_byte_loop(n: int) -> None:
    rng = np.random.default_rng(100 + n)
    for _ in range(400):
        s = random_row(rng, n)
        b = s.view(np.int8)
        L = int(rng.integers(1, n + 1))
        j = int(rng.integers(0, L))
        want = b.copy()
        want[j : L - 1] = b[j + 1 : L]
        want[L - 1] = PAD
        K._deck_close(s, b, j, L)
        assert np.array_equal(b, want), (n, L, j)


@pytest.mark.parametrize("n", [9, 18, 23, 40, 57])
def test_deck_shift_matches_byte_loop(n: int) -> None:
    rng = np.random.default_rng(200 + n)
    for _ in range(400):
        s = random_row(rng, n)
        b = s.view(np.int8)
        L = int(rng.integers(1, n + 1))
        num = int(rng.integers(1, min(L, 9) + 1))
        want = b.copy()
        want[0 : L - num] = b[num:L]
        K._deck_shift(s, b, L, num)
        # bytes L-num..L-1 are the caller's to write (the drawn cards' places): not compared
        want[L - num : L] = b[L - num : L]
        assert np.array_equal(b, want), (n, L, num)

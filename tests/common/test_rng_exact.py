"""bombsolve.solvers.common.rng: the exact bounded draws and the stream seeds beside the modulo
`below`, pinned to the streams Bomb the Dragon's engine and kernel have always drawn."""

from __future__ import annotations

import pytest

from bombsolve.solvers.common.rng import SplitMix64, derive_seed, splitmix64


def test_below_is_still_the_modulo_draw():
    a, b = SplitMix64(9), SplitMix64(9)
    assert [a.below(7) for _ in range(50)] == [b.next() % 7 for _ in range(50)]


def test_below_exact_and_shuffle_give_the_pinned_streams():
    rng = SplitMix64(2026)
    draws = [rng.below_exact(n) for n in (1, 2, 3, 7, 45, 1000, 2**31 + 5)]
    assert draws == [0, 0, 2, 2, 35, 726, 2046573202]
    items = list(range(20))
    SplitMix64(5).shuffle(items)
    assert items == [2, 0, 8, 19, 9, 11, 15, 10, 16, 17, 12, 18, 6, 13, 5, 3, 1, 4, 14, 7]


def test_stream_seeds_and_the_step():
    assert [derive_seed(7, k) for k in range(3)] == [
        13309476754707697221,
        13277272462217296312,
        13988929273702678840,
    ]
    state, out = splitmix64(0)
    assert out == SplitMix64(0).next() == 16294208416658607535 and state == 0x9E3779B97F4A7C15


def test_below_exact_refuses_a_bound_out_of_range():
    for n in (0, 2**32):
        with pytest.raises(ValueError, match="below_exact"):
            SplitMix64(1).below_exact(n)

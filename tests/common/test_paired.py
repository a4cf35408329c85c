"""Paired win-rate differences (bombsolve.solvers.common.paired): values, coverage, undecided deals."""

from __future__ import annotations

import numpy as np
import pytest

from bombsolve.solvers.common.paired import (
    LOSS,
    UNDECIDED,
    WIN,
    newcombe_paired,
    paired_difference,
    tango_paired,
)
from bombsolve.solvers.common.stats import wilson

# True cell probabilities of a toy pair of card sets: (both win, first only, second only,
# neither); the true difference second - first is 0.15 - 0.07 = 0.08.
TOY = np.array([0.55, 0.07, 0.15, 0.23])
TRUE_DIFF = TOY[2] - TOY[1]


def test_no_discordant_pair_gives_the_wilson_bound_on_discordance():
    # With 0 of n pairs discordant, |diff| <= the Wilson upper bound for 0 of n.
    for n in (10, 100, 2000):
        d, lo, hi = tango_paired(n // 2, 0, 0, n - n // 2)
        assert d == 0
        assert hi == pytest.approx(wilson(0, n)[1], abs=1e-9)
        assert lo == pytest.approx(-wilson(0, n)[1], abs=1e-9)


def test_all_pairs_flipped_reaches_the_end_of_the_scale():
    d, lo, hi = tango_paired(0, 50, 0, 0)
    assert d == -1 and lo == -1
    assert -1 < hi < -0.8


def test_interval_is_symmetric_under_swapping_the_two_sets():
    d1, lo1, hi1 = tango_paired(30, 4, 11, 55)
    d2, lo2, hi2 = tango_paired(30, 11, 4, 55)
    assert d1 == pytest.approx(-d2)
    assert lo1 == pytest.approx(-hi2) and hi1 == pytest.approx(-lo2)


def test_tango_and_newcombe_agree_on_a_moderate_table():
    # Two different 95% methods on 200 pairs with 30 discordant: within a point of each other.
    t = tango_paired(100, 10, 20, 70)
    nw = newcombe_paired(100, 10, 20, 70)
    assert t[0] == pytest.approx(0.05) and nw[0] == pytest.approx(0.05)
    assert t[1] == pytest.approx(nw[1], abs=0.01) and t[2] == pytest.approx(nw[2], abs=0.01)
    assert t[1] < 0.05 < t[2]


@pytest.mark.parametrize("n", [60, 400])
def test_coverage_on_a_toy_case_is_about_95_percent(n):
    # Simulate 2,000 studies of n paired deals from TOY; count intervals holding the truth.
    rng = np.random.default_rng(20261201)
    tables = rng.multinomial(n, TOY, size=2000)
    hits = 0
    for a, b, c, d in tables:
        _, lo, hi = tango_paired(int(a), int(b), int(c), int(d))
        hits += lo <= TRUE_DIFF <= hi
    coverage = hits / len(tables)
    # Monte Carlo error of 2,000 runs is 0.005; score intervals run slightly above nominal.
    assert 0.93 <= coverage <= 0.975, coverage


def test_undecided_deals_count_against_the_claim_at_each_end():
    # 3x3 table [first][second], codes LOSS, WIN, UNDECIDED.
    decided = [[40, 10, 0], [5, 45, 0], [0, 0, 0]]
    with_undecided = [[40, 10, 0], [5, 40, 5], [0, 0, 0]]  # 5 second-set verdicts unknown
    d0 = paired_difference(decided)
    d1 = paired_difference(with_undecided)
    assert d1.second_undecided == 5 and d1.first_undecided == 0
    # Point estimate counts undecided as not won; the interval spans every resolution.
    assert d1.diff == pytest.approx((10 - 10) / 100)
    assert d1.lo < d0.lo and d1.hi >= d0.hi - 1e-12
    lo_all_lost = paired_difference([[40, 10, 0], [10, 40, 0], [0, 0, 0]]).lo
    hi_all_won = paired_difference([[40, 10, 0], [5, 45, 0], [0, 0, 0]]).hi
    assert d1.lo == pytest.approx(lo_all_lost) and d1.hi == pytest.approx(hi_all_won)


def test_undecided_handling_keeps_coverage_when_verdicts_are_hidden():
    # The true verdicts come from TOY; then 10% of each side's verdicts are hidden as
    # undecided (as a node limit would). The interval must still hold the truth >= 95%.
    rng = np.random.default_rng(7)
    n, hits, runs = 200, 0, 1000
    first_of = np.array([WIN, WIN, LOSS, LOSS])
    second_of = np.array([WIN, LOSS, WIN, LOSS])
    for _ in range(runs):
        cell = rng.choice(4, size=n, p=TOY)
        f, s = first_of[cell].copy(), second_of[cell].copy()
        f[rng.random(n) < 0.1] = UNDECIDED
        s[rng.random(n) < 0.1] = UNDECIDED
        table = [[int(((f == x) & (s == y)).sum()) for y in (0, 1, 2)] for x in (0, 1, 2)]
        r = paired_difference(table)
        hits += r.lo <= TRUE_DIFF <= r.hi
    assert hits / runs >= 0.95


def test_bad_counts_are_refused():
    with pytest.raises(ValueError):
        tango_paired(1, -1, 0, 0)

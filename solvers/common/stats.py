"""Confidence intervals for win rates (DESIGN.md, "Truth of results").

Undecided cases are never folded into either side: `wilson_undecided` counts them as
losses for the lower end and as wins for the upper end.
"""

from __future__ import annotations

import math


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Return the Wilson score interval (lo, hi) for successes out of n.

    >>> [round(x, 4) for x in wilson(50, 100)]
    [0.4038, 0.5962]
    """
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} not in 0..{n}")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def wilson_undecided(
    wins: int, undecided: int, n: int, z: float = 1.959963984540054
) -> tuple[float, float]:
    """Return (lo, hi): lo treats undecided as losses, hi treats them as wins.

    >>> wilson_undecided(50, 0, 100) == wilson(50, 100)
    True
    """
    lo = wilson(wins, n, z)[0]
    hi = wilson(wins + undecided, n, z)[1]
    return (lo, hi)


def binomial_half_quantile(q: float, n: int) -> int:
    """The q-quantile of the Binomial(n, 1/2) distribution: the least k with
    P(X <= k) >= q, in exact integer arithmetic (the order statistics that bound a median)."""
    from fractions import Fraction

    if not 0.0 <= q <= 1.0 or n < 0:
        raise ValueError(f"quantile {q} of Binomial({n}, 1/2) is undefined")
    target = Fraction(q) * (1 << n)
    total = 0
    for k in range(n + 1):
        total += math.comb(n, k)
        if total >= target:
            return k
    return n


def score_test_p(successes: int, n: int, p0: float) -> float:
    """Two-sided p-value of the score test of "the rate is `p0`" from successes out of n:
    the test the Wilson interval inverts (p0 lies inside the 95% interval exactly when
    this is above 0.05), z = (p - p0) / sqrt(p0 (1 - p0) / n).

    >>> round(score_test_p(60, 100, 0.5), 4)
    0.0455
    """
    if n <= 0 or not 0.0 < p0 < 1.0:
        raise ValueError(f"need n > 0 and 0 < p0 < 1, got n={n}, p0={p0}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} not in 0..{n}")
    z = (successes / n - p0) / math.sqrt(p0 * (1 - p0) / n)
    return min(1.0, math.erfc(abs(z) / math.sqrt(2)))


def two_sample_score_p(x1: int, n1: int, x2: int, n2: int) -> float:
    """Two-sided p-value of the score test of "two unpaired rates are equal" (x1 of n1
    against x2 of n2): z = (p1 - p2) / sqrt(p (1 - p) (1/n1 + 1/n2)), p the pooled rate
    (A. Agresti, Categorical Data Analysis, 3rd ed., 2013, section 3.1.4: the score
    statistic for a difference of proportions, the square root of Pearson's chi-square).
    1.0 when both samples are all successes or all failures (nothing tells them apart).

    >>> round(two_sample_score_p(60, 100, 45, 100), 4)
    0.0337
    """
    if n1 <= 0 or n2 <= 0:
        raise ValueError(f"need n1, n2 > 0, got {n1}, {n2}")
    if not (0 <= x1 <= n1 and 0 <= x2 <= n2):
        raise ValueError(f"successes not in range: {x1} of {n1}, {x2} of {n2}")
    pooled = (x1 + x2) / (n1 + n2)
    var = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if var == 0.0:
        return 1.0
    z = (x1 / n1 - x2 / n2) / math.sqrt(var)
    return min(1.0, math.erfc(abs(z) / math.sqrt(2)))

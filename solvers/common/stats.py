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

"""Paired win-rate differences: the same deals played twice (DESIGN.md, "Truth of results").

When every deal is decided under two card sets (or two players), the difference of the two
win rates is estimated far more tightly from the pairs than from two separate samples:
deals won (or lost) both times carry no information about the difference, only the
discordant pairs do.

The interval is **Tango's score interval for a difference of paired proportions**
(T. Tango, "Equivalence test and confidence interval for the difference in proportions for
the paired-sample design", Statistics in Medicine 17 (1998) 891-908): the differences whose
score test, with the nuisance discordance estimated under the constraint, is not rejected at
the 5% level. Unlike the Wald interval and Newcombe's hybrid score interval (method 10 of
Newcombe, Statistics in Medicine 17 (1998) 2635-2650, kept here as `newcombe_paired` for
comparison), it does not shrink to a single point when no pair is discordant: with 0 of n
pairs discordant it is +-z^2/(n+z^2), the Wilson bound on the discordance itself. A change
that flips no verdict in 2,000 deals is "within +-0.19 points", not "exactly 0".

Undecided verdicts are never folded into either side (as `stats.wilson_undecided`): the
lower end of ``second - first`` is computed from the table where every undecided deal of
the first set counts as a win and every undecided deal of the second as a loss, the upper
end from the opposite table; the point estimate counts undecided as not won on both sides.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bombsolve.solvers.common.stats import wilson

Z95 = 1.959963984540054
METHOD = "Tango's score interval for paired proportions (1998)"
#: Outcome codes of a paired table: the solver's (1 win, 0 loss, 2 undecided).
WIN, LOSS, UNDECIDED = 1, 0, 2


def newcombe_paired(
    both: int, first_only: int, second_only: int, neither: int, z: float = Z95
) -> tuple[float, float, float]:
    """Return (difference, lo, hi) for ``rate(second) - rate(first)`` from a 2x2 table of pairs.

    `both`: pairs won under both; `first_only`: won under the first only; `second_only`:
    won under the second only; `neither`: lost under both.

    >>> d, lo, hi = newcombe_paired(40, 5, 15, 40)
    >>> round(d, 3), round(lo, 4), round(hi, 4)
    (0.1, 0.0145, 0.1822)
    """
    a, b, c, d = both, first_only, second_only, neither
    if min(a, b, c, d) < 0:
        raise ValueError(f"negative count in paired table {(a, b, c, d)}")
    n = a + b + c + d
    if n == 0:
        return (math.nan, -1.0, 1.0)
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson(a + b, n, z)
    l2, u2 = wilson(a + c, n, z)
    denom = (a + b) * (c + d) * (a + c) * (b + d)
    # Newcombe: phi is taken as 0 when a margin is empty (the product is then 0).
    phi = (a * d - b * c) / math.sqrt(denom) if denom > 0 else 0.0
    delta = p2 - p1
    lo_sq = (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2
    hi_sq = (u2 - p2) ** 2 - 2 * phi * (u2 - p2) * (p1 - l1) + (p1 - l1) ** 2
    lo = delta - math.sqrt(max(lo_sq, 0.0))
    hi = delta + math.sqrt(max(hi_sq, 0.0))
    return (delta, max(lo, -1.0), min(hi, 1.0))


def tango_paired(
    both: int, first_only: int, second_only: int, neither: int, z: float = Z95
) -> tuple[float, float, float]:
    """Return (difference, lo, hi) for ``rate(second) - rate(first)`` by Tango's score interval.

    Only the discordant counts and n matter. With none discordant the interval is the Wilson
    bound on the discordance:

    >>> d, lo, hi = tango_paired(60, 0, 0, 40)
    >>> round(lo, 4), round(hi, 4)
    (-0.037, 0.037)
    """
    b, c = first_only, second_only
    if min(both, b, c, neither) < 0:
        raise ValueError(f"negative count in paired table {(both, b, c, neither)}")
    n = both + b + c + neither
    if n == 0:
        return (math.nan, -1.0, 1.0)
    est = (c - b) / n

    def score(delta: float) -> float:
        # Tango's statistic at difference `delta`; q is the constrained maximum-likelihood
        # estimate of P(won under the first only).
        w = -b - c + (2 * n - c + b) * delta
        q = (math.sqrt(max(w * w + 8 * n * b * delta * (1 - delta), 0.0)) - w) / (4 * n)
        var = n * (2 * q + delta * (1 - delta))
        num = c - b - n * delta
        if var <= 0:
            return 0.0 if num == 0 else math.copysign(math.inf, num)
        return num / math.sqrt(var)

    def root(lo: float, hi: float, target: float) -> float:
        # score() decreases in delta; find where it crosses `target` between lo and hi.
        for _ in range(80):
            mid = (lo + hi) / 2
            if score(mid) > target:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    lower = -1.0 if est <= -1 else root(-1.0, est, z)
    upper = 1.0 if est >= 1 else root(est, 1.0, -z)
    return (est, lower, upper)


def _score_at_zero(first_only: int, second_only: int) -> float:
    """Tango's statistic at difference 0 (McNemar's): (c - b) / sqrt(b + c), 0 with no
    discordant pair."""
    b, c = first_only, second_only
    return 0.0 if b + c == 0 else (c - b) / math.sqrt(b + c)


def paired_p_value(table: list[list[int]]) -> float:
    """The two-sided p-value of "no difference" that `paired_difference`'s interval inverts:
    the least 1 - confidence at which that interval excludes 0.

    The interval's low end comes from the table with the first set's undecided deals read
    as wins and the second's as losses, its high end from the opposite table (module doc),
    so the p-value is the smaller of the two one-sided score tests at 0 on those tables,
    doubled (Tango's statistic at 0 is McNemar's).

    >>> t = [[40, 15, 0], [5, 40, 0], [0, 0, 0]]  # rows: first LOSS, WIN, UNDECIDED
    >>> round(paired_p_value(t), 4)
    0.0253
    >>> paired_p_value([[50, 0, 0], [0, 50, 0], [0, 0, 0]])
    1.0
    """
    t = [[int(table[x][y]) for y in range(3)] for x in range(3)]
    W, L, U = WIN, LOSS, UNDECIDED

    def discordant(first_u: int, second_u: int) -> tuple[int, int]:
        cell = [[0, 0], [0, 0]]
        for x in range(3):
            for y in range(3):
                cell[first_u if x == U else x][second_u if y == U else y] += t[x][y]
        return cell[W][L], cell[L][W]

    up = _score_at_zero(*discordant(W, L))  # lower end above 0 when this exceeds z
    down = _score_at_zero(*discordant(L, W))  # upper end below 0 when this is below -z
    s = max(up, -down, 0.0)
    return min(1.0, math.erfc(s / math.sqrt(2)))


@dataclass(frozen=True)
class PairedDifference:
    """``rate(second) - rate(first)`` on the same deals, with its 95% interval (module doc).

    `table[x][y]` counts the deals with outcome x under the first and y under the second
    (codes `LOSS`, `WIN`, `UNDECIDED`).
    """

    n: int
    first_wins: int
    second_wins: int
    first_undecided: int
    second_undecided: int
    #: Decided under both and won under exactly one: the verdicts that flipped.
    lost_to_won: int
    won_to_lost: int
    diff: float
    lo: float
    hi: float

    def to_dict(self) -> dict[str, float | int]:
        """The fields as a plain dict (table rows)."""
        return dict(self.__dict__)


def paired_difference(table: list[list[int]], z: float = Z95) -> PairedDifference:
    """Return the paired difference of a 3x3 table of outcome pairs (undecided: module doc).

    >>> t = [[40, 15, 0], [5, 40, 0], [0, 0, 0]]  # rows: first LOSS, WIN, UNDECIDED
    >>> r = paired_difference(t)
    >>> r.diff, r.lost_to_won, r.won_to_lost
    (0.1, 15, 5)
    """
    t = [[int(table[x][y]) for y in range(3)] for x in range(3)]
    n = sum(map(sum, t))
    W, L, U = WIN, LOSS, UNDECIDED

    def fold(first_u: int, second_u: int) -> tuple[int, int, int, int]:
        # The 2x2 table after reading every undecided verdict of each side as the given code.
        cell = [[0, 0], [0, 0]]
        for x in range(3):
            for y in range(3):
                cell[first_u if x == U else x][second_u if y == U else y] += t[x][y]
        return cell[W][W], cell[W][L], cell[L][W], cell[L][L]

    point = fold(L, L)
    diff = (point[2] - point[1]) / n if n else math.nan
    lo = tango_paired(*fold(W, L), z=z)[1]
    hi = tango_paired(*fold(L, W), z=z)[2]
    return PairedDifference(
        n=n,
        first_wins=sum(t[W]),
        second_wins=sum(t[x][W] for x in range(3)),
        first_undecided=sum(t[U]),
        second_undecided=sum(t[x][U] for x in range(3)),
        lost_to_won=t[L][W],
        won_to_lost=t[W][L],
        diff=diff,
        lo=lo,
        hi=hi,
    )


__all__ = [
    "METHOD",
    "tango_paired",
    "paired_p_value",
    "newcombe_paired",
    "paired_difference",
    "PairedDifference",
]

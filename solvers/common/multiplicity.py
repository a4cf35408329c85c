"""Many intervals at once: which effects survive a multiplicity correction (DESIGN.md,
"Truth of results").

A table of 83 effects, each with its own 95% interval, holds about four that exclude zero
by chance alone. Every table or chart that shows many effects at once therefore marks the
ones that survive one of two stated corrections, applied to the p-values of the very tests
the intervals invert (`bombsolve.solvers.common.paired.paired_p_value`):

- **Holm** (S. Holm, "A simple sequentially rejective multiple test procedure",
  Scandinavian Journal of Statistics 6 (1979) 65-70): the chance that *any* marked effect
  is a fluke is at most `alpha` (family-wise error rate), whatever the tests' dependence.
- **Benjamini-Hochberg** (Y. Benjamini and Y. Hochberg, "Controlling the false discovery
  rate", JRSS B 57 (1995) 289-300): of the marked effects, at most a share `rate` is
  expected to be flukes (false discovery rate), for independent or positively dependent
  tests.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: The family-wise error rate of `holm` and the false discovery rate of
#: `benjamini_hochberg` the tables state.
ALPHA = 0.05


def _checked(p_values: Sequence[float]) -> list[float]:
    ps = [float(p) for p in p_values]
    for p in ps:
        if math.isnan(p) or not 0.0 <= p <= 1.0:
            raise ValueError(f"p-value {p} not in [0, 1]")
    return ps


def holm(p_values: Sequence[float], alpha: float = ALPHA) -> list[bool]:
    """Which hypotheses Holm's step-down procedure rejects at family-wise level `alpha`.

    The i-th smallest of m p-values is rejected while it is at most alpha / (m - i + 1),
    i = 1, 2, ...; the first that is not stops it.

    >>> holm([0.01, 0.04, 0.03, 0.005])
    [True, False, False, True]
    """
    ps = _checked(p_values)
    m = len(ps)
    keep = [False] * m
    for rank, i in enumerate(sorted(range(m), key=lambda j: ps[j])):
        if ps[i] > alpha / (m - rank):
            break
        keep[i] = True
    return keep


def benjamini_hochberg(p_values: Sequence[float], rate: float = ALPHA) -> list[bool]:
    """Which hypotheses the Benjamini-Hochberg step-up procedure rejects at false
    discovery rate `rate`.

    With the p-values sorted, k is the largest i with p_(i) <= i * rate / m; the k
    smallest are rejected (also those among them above their own threshold).

    >>> benjamini_hochberg([0.01, 0.04, 0.03, 0.005])
    [True, True, True, True]
    """
    ps = _checked(p_values)
    m = len(ps)
    order = sorted(range(m), key=lambda j: ps[j])
    k = 0
    for rank, i in enumerate(order, start=1):
        if ps[i] <= rank * rate / m:
            k = rank
    keep = [False] * m
    for i in order[:k]:
        keep[i] = True
    return keep


def survivors_note(kept: int, of: int, method: str = "holm", alpha: float = ALPHA) -> str:
    """The caption's words on a correction: how many of how many effects survive it.

    >>> survivors_note(2, 83)
    "2 of 83 effects survive Holm's correction (family-wise error 5%)"
    """
    what = (
        f"Holm's correction (family-wise error {alpha:.0%})"
        if method == "holm"
        else f"the Benjamini-Hochberg correction (false discovery rate {alpha:.0%})"
    )
    return f"{kept} of {of} effects survive {what}"


__all__ = ["ALPHA", "holm", "benjamini_hochberg", "survivors_note"]

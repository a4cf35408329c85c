"""The Binomial(n, 1/2) quantile that bounds a median (bombsolve.solvers.common.stats)."""

from __future__ import annotations

import math

import pytest

from bombsolve.solvers.common.stats import binomial_half_quantile


def test_known_quantiles():
    # Binomial(10, 1/2): P(X <= 1) = 11/1024, P(X <= 2) = 56/1024, P(X <= 7) = 968/1024,
    # P(X <= 8) = 1013/1024
    assert binomial_half_quantile(0.025, 10) == 2
    assert binomial_half_quantile(0.975, 10) == 8
    # an exact tie: P(X <= 1) = 1/2 for n = 3, so the median quantile is 1
    assert binomial_half_quantile(0.5, 3) == 1
    assert binomial_half_quantile(0.0, 5) == 0 and binomial_half_quantile(1.0, 5) == 5


@pytest.mark.parametrize("n", [1, 2, 17, 100, 401])
def test_least_k_whose_cumulative_reaches_q(n):
    for q in (0.005, 0.025, 0.3, 0.975, 0.995):
        k = binomial_half_quantile(q, n)
        cdf = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
        below = sum(math.comb(n, i) for i in range(k)) / 2**n
        assert cdf >= q > below


def test_bad_quantile_is_refused():
    with pytest.raises(ValueError):
        binomial_half_quantile(1.5, 10)

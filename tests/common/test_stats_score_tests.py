"""The score tests behind the intervals (bombsolve.solvers.common.stats): the one-sample
test the Wilson interval inverts, and the two-sample test of unpaired rates."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from bombsolve.solvers.common.stats import score_test_p, two_sample_score_p, wilson


@pytest.mark.parametrize("x,n", [(7, 40), (500, 1000), (2790, 16000), (3, 1000)])
def test_the_one_sample_test_inverts_the_wilson_interval(x, n) -> None:
    lo, hi = wilson(x, n)
    for p0 in np.linspace(0.001, 0.999, 400):
        inside = lo < p0 < hi
        if min(abs(p0 - lo), abs(p0 - hi)) < 1e-6:
            continue
        assert (score_test_p(x, n, p0) > 0.05) == inside, p0


@pytest.mark.parametrize(
    "table", [((60, 100), (45, 100)), ((2790, 16000), (20092, 120000)), ((3, 50), (0, 70))]
)
def test_the_two_sample_test_is_pearsons_chi_square(table) -> None:
    (x1, n1), (x2, n2) = table
    counts = np.array([[x1, n1 - x1], [x2, n2 - x2]])
    expected = chi2_contingency(counts, correction=False)[1]
    assert two_sample_score_p(x1, n1, x2, n2) == pytest.approx(expected, rel=1e-9)


def test_equal_rates_and_degenerate_samples() -> None:
    assert two_sample_score_p(30, 100, 60, 200) == pytest.approx(1.0)
    assert two_sample_score_p(0, 10, 0, 20) == 1.0
    assert two_sample_score_p(10, 10, 20, 20) == 1.0


def test_bad_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="not in"):
        score_test_p(11, 10, 0.5)
    with pytest.raises(ValueError, match="0 < p0 < 1"):
        score_test_p(1, 10, 0.0)
    with pytest.raises(ValueError, match="n1, n2 > 0"):
        two_sample_score_p(0, 0, 1, 2)

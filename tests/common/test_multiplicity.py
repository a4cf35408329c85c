"""Holm and Benjamini-Hochberg against hand-computed examples, and the paired p-value
against the interval it inverts."""

from __future__ import annotations

from statistics import NormalDist

import pytest

from bombsolve.solvers.common.multiplicity import benjamini_hochberg, holm, survivors_note
from bombsolve.solvers.common.paired import paired_difference, paired_p_value


def test_holm_steps_down_and_stops_at_the_first_failure():
    # m = 5: thresholds 0.01, 0.0125, 0.0167, 0.025, 0.05 for the sorted p-values;
    # 0.02 > 0.0167 stops it, so 0.04 (under its own 0.025? no) and 0.3 stay
    assert holm([0.3, 0.02, 0.001, 0.04, 0.011]) == [False, False, True, False, True]


def test_holm_keeps_nothing_after_a_failure_even_below_a_later_threshold():
    # sorted 0.01 <= 0.05/3; 0.03 > 0.05/2 stops, though 0.04 <= 0.05/1
    assert holm([0.04, 0.01, 0.03]) == [False, True, False]


def test_benjamini_hochberg_steps_up_past_a_failure():
    # m = 4, thresholds 0.0125, 0.025, 0.0375, 0.05: 0.028 fails its own, 0.029 passes
    # its (k = 3), so the three smallest are all kept
    assert benjamini_hochberg([0.029, 0.9, 0.01, 0.028]) == [True, False, True, True]
    assert holm([0.029, 0.9, 0.01, 0.028]) == [False, False, True, False]


def test_benjamini_hochberg_hand_example_at_a_named_rate():
    ps = [0.001, 0.011, 0.02, 0.04, 0.3]
    assert benjamini_hochberg(ps) == [True, True, True, True, False]
    # at a 1% rate: thresholds 0.002, 0.004, ...: only the first
    assert benjamini_hochberg(ps, rate=0.01) == [True, False, False, False, False]


def test_one_test_is_its_own_threshold_and_none_is_empty():
    assert holm([0.05]) == [True] and holm([0.0501]) == [False]
    assert benjamini_hochberg([0.05]) == [True]
    assert holm([]) == [] and benjamini_hochberg([]) == []


def test_eighty_three_p_values_spread_as_chance_spreads_them_survive_neither():
    ps = [i / 84 for i in range(1, 84)]  # four of them below 0.05
    assert sum(p < 0.05 for p in ps) == 4
    assert not any(holm(ps)) and not any(benjamini_hochberg(ps))
    # but 83 equal p-values of 0.02 are all kept by BH (each under 0.05 * 83 / 83)
    assert not any(holm([0.02] * 83)) and all(benjamini_hochberg([0.02] * 83))


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan")])
def test_a_p_value_outside_0_1_is_refused(bad):
    with pytest.raises(ValueError, match="not in"):
        holm([0.1, bad])


def test_survivors_note_names_the_correction_and_its_rate():
    assert survivors_note(1, 83) == (
        "1 of 83 effects survive Holm's correction (family-wise error 5%)"
    )
    assert "false discovery rate 10%" in survivors_note(3, 9, "bh", 0.10)


TABLES = [
    [[40, 15, 0], [5, 40, 0], [0, 0, 0]],
    [[100, 9, 0], [1, 190, 0], [0, 0, 0]],
    [[30, 0, 2], [12, 50, 0], [1, 0, 5]],  # undecided on both sides
    [[20, 1, 0], [14, 60, 3], [0, 0, 2]],  # a decrease
    [[50, 3, 1], [2, 44, 0], [0, 0, 0]],
]


@pytest.mark.parametrize("table", TABLES)
def test_paired_p_value_is_where_the_interval_touches_zero(table):
    p = paired_p_value(table)
    d = paired_difference(table)
    # below 5% exactly when the 95% interval excludes 0
    assert (p < 0.05) == (d.lo > 0 or d.hi < 0)
    if 1e-12 < p < 1:
        z = NormalDist().inv_cdf(1 - p / 2)
        at = paired_difference(table, z=z)
        assert min(abs(at.lo), abs(at.hi)) < 1e-9


def test_paired_p_value_hand_example_is_mcnemar():
    # 15 lost->won, 5 won->lost: (15 - 5) / sqrt(20) = 2.236, two-sided p = 0.0253
    assert round(paired_p_value(TABLES[0]), 4) == 0.0253

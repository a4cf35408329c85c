"""Shared helpers: Wilson intervals and atomic files."""

import math

import pytest

from bombsolve.solvers.common.files import atomic_path, write_text_atomic
from bombsolve.solvers.common.stats import wilson, wilson_undecided


def test_wilson_known_value():
    # Wilson (1927) interval for 50/100 at z=1.96, from the closed form.
    lo, hi = wilson(50, 100)
    assert math.isclose(lo, 0.40383, abs_tol=1e-4)
    assert math.isclose(hi, 0.59617, abs_tol=1e-4)


def test_wilson_edges():
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_undecided_widen_both_ends():
    lo, hi = wilson_undecided(40, 20, 100)
    assert lo == wilson(40, 100)[0]
    assert hi == wilson(60, 100)[1]


def test_atomic_path_leaves_nothing_on_failure(tmp_path):
    target = tmp_path / "out.txt"
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            tmp.write_text("half")
            raise RuntimeError("boom")
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []
    write_text_atomic(target, "whole")
    assert target.read_text() == "whole"

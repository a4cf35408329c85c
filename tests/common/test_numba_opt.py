"""bombsolve.solvers.common.numba_opt: a linked helper's own library is optimised at its level, its
caller's at Numba's, and the level is restored after."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core import codegen, config

from bombsolve.solvers.common import numba_opt


@pytest.mark.skipif(
    not hasattr(codegen.CPUCodegen, "_pass_builder"),
    reason="this Numba has no CPUCodegen._pass_builder: linked helpers are plain njit "
    "(tests/common/test_numba_fallback.py)",
)
def test_helper_optimised_at_its_level_caller_at_numbas(monkeypatch):
    seen: list[int] = []
    build = codegen.CPUCodegen._pass_builder

    def spy(self, **kwargs):
        if "opt" not in kwargs:  # the function and full module passes read config.OPT
            seen.append(int(config.OPT))
        return build(self, **kwargs)

    monkeypatch.setattr(codegen.CPUCodegen, "_pass_builder", spy)
    before = config.OPT

    @numba_opt.linked_helper(_nrt=False, forceinline=True)
    def helper(a, i):
        return a[i] * 3 + 1

    @njit(_nrt=False)
    def caller(a):
        t = 0
        for i in range(a.shape[0]):
            t += helper(a, i)
        return t

    assert caller(np.arange(4)) == 22
    assert config.OPT is before
    level = min(numba_opt.LEVEL, int(before))
    # the helper's passes (compiled first, while the caller is typed), then the caller's
    assert level in seen and int(before) in seen
    assert seen.index(level) < len(seen) - 1 - seen[::-1].index(int(before))
    assert helper(np.arange(4), 2) == 7  # still callable from Python


def test_level_restored_when_compiling_fails():
    before = config.OPT

    @numba_opt.linked_helper()
    def bad(a):
        return a.no_such_attribute

    try:
        bad(np.arange(3))
    except Exception:
        pass
    assert config.OPT is before

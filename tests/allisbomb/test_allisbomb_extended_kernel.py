"""The extended steps are compiled only for card files that use them: the solver calls
them through their addresses (kernel.extended_entries), so its compiled forms are the same
for every card set, and a card file with extended rows compiles the steps alone."""

from __future__ import annotations

from pathlib import Path

import numba
import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS, Options
from bombsolve.solvers.allisbomb.kernel import kernel as K
from bombsolve.solvers.allisbomb.kernel.program import OP_XSELECT, compiled_program, uses_extended
from bombsolve.solvers.allisbomb.search.solver import compiled
from bombsolve.solvers.common.numba_cache import all_cached, is_cached
from bombsolve.solvers.common.numba_call import check_types

FILE = Path(__file__).parent / "data" / "vocab_actions.toml"


def test_a_program_with_extended_rows_gets_the_steps_addresses():
    steps = compiled_program(Options(cards_file=FILE, allow_nonstandard=True)).steps
    assert (steps[:, 0] >= OP_XSELECT).any() and uses_extended(steps)
    assert compiled_program(Options(cards_file=FILE, allow_nonstandard=True)).extended
    ext = K.extended_entries(True)
    assert ext.dtype == np.int64 and ext.shape == (2,) and (ext != 0).all()
    # the same type as a plain program's `steps`: one compiled form of the solver for both
    plain = compiled_program(Options(blitz=True)).steps
    assert numba.typeof(steps) == numba.typeof(plain)


def test_every_shipped_set_gets_no_address():
    for config in (
        Options(blitz=True),
        Options(),
        Options(expansions=EXPANSIONS),
        Options(expansions=EXPANSIONS, hands=True),
    ):
        steps = compiled_program(config).steps
        assert not uses_extended(steps) and not compiled_program(config).extended
        assert (K.extended_entries(False) == 0).all()
        assert (compiled(config).rule_args[-1] == 0).all()


def test_the_rule_arguments_carry_the_addresses():
    config = Options(cards_file=FILE, allow_nonstandard=True)
    assert (compiled(config).rule_args[-1] == K.extended_entries(True)).all()


def test_a_call_through_an_address_refuses_other_argument_types():
    types = numba.types
    check_types("f", (types.int64, types.int8), (types.int64, types.int8))
    with pytest.raises(numba.core.errors.TypingError, match=r"#1: int32 \(expected int8\)"):
        check_types("f", (types.int64, types.int32), (types.int64, types.int8))
    with pytest.raises(numba.core.errors.TypingError, match="1 arguments"):
        check_types("f", (types.int64,), (types.int64, types.int8))


def test_is_cached_filters_by_signature():
    @numba.njit
    def f(a):
        return a[0]

    f(np.zeros(2, np.int32))
    assert is_cached(f)
    assert is_cached(f, accept=lambda sig: sig[0].dtype == numba.int32)
    assert not is_cached(f, accept=lambda sig: sig[0].dtype == numba.int64)


def test_a_solve_compiles_the_extended_steps_after_the_solver():
    """A card file with extended rows runs the solver's forms and the extended steps
    (bombsolve.cli.allisbomb.kernel_parts), and its plain solve the shortest search too
    (the deepening after widening, solver.deepen_search)."""
    from bombsolve.cli.allisbomb import kernel_parts

    assert kernel_parts(False, None) == ["solve"]
    assert kernel_parts(False, "shortest") == ["solve", "shortest"]
    assert kernel_parts(False, "keep-most") == ["keep-most"]
    assert kernel_parts(True, None) == ["solve", "shortest", "extended"]
    assert kernel_parts(True, "shortest") == ["solve", "shortest", "extended"]
    assert kernel_parts(True, "keep-most") == ["keep-most", "extended"]


def test_a_first_solve_with_extended_rows_announces_its_compile(monkeypatch, capsys):
    import bombsolve.cli.warmup as warmup

    # as on a fresh install (the warm-up then runs: compiled already, or compiled now)
    monkeypatch.setattr(warmup, "all_cached", lambda entries: False)
    warmup.ensure_compiled("allisbomb", "extended")
    assert "compiling the All Is Bomb extended steps once" in capsys.readouterr().err
    monkeypatch.setattr(warmup, "all_cached", lambda entries: True)  # compiled before: silent
    warmup.ensure_compiled("allisbomb", "extended")
    assert capsys.readouterr().err == ""


def test_the_extended_warm_up_compiles_the_two_steps():
    import bombsolve.cli.warmup as warmup

    (k,) = warmup.kernels_of("allisbomb", "extended")
    k.warm()
    assert all_cached(k.entries())
    assert K.EXT_STEP_ARGS in [tuple(s) for s in K._ext_step.signatures]
    assert K.EXT_DRAW_ARGS in [tuple(s) for s in K._draw_number.signatures]


def test_a_sweep_with_extended_rows_compiles_the_steps_first(monkeypatch, capsys):
    import bombsolve.cli.warmup as warmup

    plain = Options(blitz=True)
    assert warmup.ensure_extended([plain]) == 0.0
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(warmup, "all_cached", lambda entries: False)  # as on a fresh install
    warmup.ensure_extended([plain, Options(cards_file=FILE, allow_nonstandard=True)])
    err = capsys.readouterr().err
    assert "compiling the All Is Bomb extended steps once" in err
    assert "compiling the All Is Bomb shortest search once" in err

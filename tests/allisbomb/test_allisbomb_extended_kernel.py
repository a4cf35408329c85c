"""The extended steps are compiled only for card files that use them (kernel._extended_step):
the program's `steps` array type tells the kernel which form to compile."""

from __future__ import annotations

from pathlib import Path

import numba
import numpy as np

from solvers.allisbomb import kernel as K
from solvers.allisbomb.config import EXPANSIONS, GameConfig
from solvers.allisbomb.kernel import _has_extended_rows
from solvers.allisbomb.program import OP_XSELECT, compiled_program, uses_extended
from solvers.common.numba_cache import all_cached, argument_index, is_cached

FILE = Path(__file__).parent / "data" / "vocab_actions.toml"


def test_a_program_with_extended_rows_compiles_the_extended_form():
    steps = compiled_program(GameConfig(cards_file=FILE, allow_nonstandard=True)).steps
    assert (steps[:, 0] >= OP_XSELECT).any() and uses_extended(steps)
    assert not steps.flags.writeable
    assert _has_extended_rows(numba.typeof(steps))


def test_every_shipped_set_compiles_the_plain_form():
    for config in (
        GameConfig(blitz=True),
        GameConfig(),
        GameConfig(expansions=EXPANSIONS),
        GameConfig(expansions=EXPANSIONS, hands=True),
    ):
        steps = compiled_program(config).steps
        assert not uses_extended(steps) and steps.flags.writeable
        assert not _has_extended_rows(numba.typeof(steps))


def test_is_cached_filters_by_signature():
    @numba.njit
    def f(a):
        return a[0]

    f(np.zeros(2, np.int32))
    assert is_cached(f)
    assert is_cached(f, accept=lambda sig: sig[0].dtype == numba.int32)
    assert not is_cached(f, accept=lambda sig: sig[0].dtype == numba.int64)


def test_a_solve_compiles_only_the_forms_its_program_runs():
    """A card file with extended rows runs the kernel's forms for them alone
    (kernel._extended_step): its solve compiles no plain form (cli.allisbomb.kernel_parts)."""
    from cli.allisbomb import kernel_parts

    assert kernel_parts(False, None) == ["solve"]
    assert kernel_parts(False, "shortest") == ["solve", "shortest"]
    assert kernel_parts(False, "keep-most") == ["keep-most"]
    assert kernel_parts(True, None) == ["extended"]
    assert kernel_parts(True, "shortest") == ["extended", "shortest"]
    assert kernel_parts(True, "keep-most") == ["extended-keep-most"]


def test_a_first_solve_with_extended_rows_announces_its_compile(monkeypatch, capsys):
    import cli.warmup as warmup

    # as on a fresh install (the warm-up then runs: compiled already, or compiled now)
    monkeypatch.setattr(warmup, "all_cached", lambda entries: False)
    warmup.ensure_compiled("allisbomb", "extended")
    assert "compiling the All Is Bomb solver's extended steps once" in capsys.readouterr().err
    warmup.ensure_compiled("allisbomb", "extended-keep-most")
    assert "keep-most search's extended steps once" in capsys.readouterr().err
    monkeypatch.setattr(warmup, "all_cached", lambda entries: True)  # compiled before: silent
    warmup.ensure_compiled("allisbomb", "extended")
    warmup.ensure_compiled("allisbomb", "extended-keep-most")
    assert capsys.readouterr().err == ""


def test_the_extended_warm_up_compiles_the_extended_form():
    import cli.warmup as warmup

    (k,) = warmup.kernels_of("allisbomb", "extended")
    k.warm()
    steps = argument_index(K.dfs, "steps")
    assert any(not sig[steps].mutable for sig in K.dfs.signatures)
    assert all_cached(k.entries())


def test_a_sweep_with_extended_rows_compiles_their_form_first(monkeypatch, capsys):
    import cli.warmup as warmup

    plain = GameConfig(blitz=True)
    assert warmup.ensure_extended_sweep([plain]) == 0.0
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(warmup, "all_cached", lambda entries: False)  # as on a fresh install
    warmup.ensure_extended_sweep([plain, GameConfig(cards_file=FILE, allow_nonstandard=True)])
    assert "compiling the All Is Bomb sweep's extended steps once" in capsys.readouterr().err
    steps = argument_index(K.solve_many, "steps")
    assert any(not sig[steps].mutable for sig in K.solve_many.signatures)

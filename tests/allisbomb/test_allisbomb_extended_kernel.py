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


def test_a_first_solve_with_extended_rows_announces_its_compile(monkeypatch, capsys):
    import cli.warmup as warmup

    # as on a fresh install (the warm-up then runs: compiled already, or compiled now)
    monkeypatch.setattr(warmup, "all_cached", lambda entries: False)
    warmup.announce_extended(compiled_program(GameConfig(blitz=True)).steps)
    assert capsys.readouterr().err == ""
    extended = compiled_program(GameConfig(cards_file=FILE, allow_nonstandard=True)).steps
    warmup.announce_extended(extended)
    assert "compiling the All Is Bomb solver's extended steps once" in capsys.readouterr().err
    warmup.announce_extended(extended, bounded=True)
    assert "keep-most search's extended steps once" in capsys.readouterr().err
    monkeypatch.setattr(warmup, "all_cached", lambda entries: True)  # compiled before: silent
    warmup.announce_extended(extended)
    warmup.announce_extended(extended, bounded=True)
    assert capsys.readouterr().err == ""


def test_the_extended_warm_up_compiles_the_extended_form():
    import cli.warmup as warmup

    (k,) = warmup.kernels_of("allisbomb", "extended")
    k.warm()
    steps = argument_index(K.dfs, "steps")
    assert any(not sig[steps].mutable for sig in K.dfs.signatures)
    assert all_cached(k.entries())


def test_a_sweep_with_extended_rows_compiles_their_form_first(monkeypatch, capsys):
    """A sweep decides its deals with the solver's `dfs` (solver.solve_batch): when its
    cards have extended rows, the solver's extended form is compiled (and said) first, and
    the batch then runs in that form."""
    import cli.warmup as warmup
    from solvers.allisbomb.solver import compiled, solve, solve_batch

    plain = GameConfig(blitz=True)
    assert warmup.ensure_extended([plain]) == 0.0
    assert capsys.readouterr().err == ""
    ext = GameConfig(cards_file=FILE, allow_nonstandard=True)
    monkeypatch.setattr(warmup, "all_cached", lambda entries: False)  # as on a fresh install
    warmup.ensure_extended([plain, ext])
    assert "compiling the All Is Bomb solver's extended steps once" in capsys.readouterr().err
    steps = argument_index(K.dfs, "steps")
    forms = set(K.dfs.signatures)
    n = compiled(ext).cards.n
    deck = np.random.default_rng(3).permutation(n)
    out = solve_batch(ext, deck[None, :], node_limit=5000, portfolio=False)
    one = solve(ext, deck, node_limit=5000, portfolio=False, check=False)
    assert (out["code"][0], out["nodes"][0]) == (
        {"win": 1, "loss": 0, "undecided": 2}[one.outcome],
        one.nodes,
    )
    assert set(K.dfs.signatures) == forms  # no new form: the one compiled above
    assert any(not sig[steps].mutable for sig in forms)

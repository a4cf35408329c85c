"""How the search kernel is compiled: one copy of `dfs` for every caller
(and one more for the bounded keep-most search, which alone compiles the bound).

`dfs` holds the whole turn (`run_turn` is inlined into it), so each extra compiled copy
costs about as much first-run compile time as the rest of the kernel. Numba compiles a
separate copy for each literal argument value, so the jitted callers pass `best_mode`
and `order` as int64 values; this fails if a caller passes a literal again.
"""

from __future__ import annotations

import numpy as np

from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel import kernel as K
from bombsolve.solvers.allisbomb.search.solver import solve, solve_batch
from bombsolve.solvers.common.numba_cache import argument_index


def test_every_search_entry_point_uses_one_compiled_dfs():
    cfg = Options(blitz=True)
    deck = list(range(13))
    solve(cfg, deck, node_limit=50, check=False, portfolio=False)
    solve(cfg, deck, node_limit=50, check=False, portfolio=True)
    solve(cfg, deck, node_limit=50, check=False, keep_most=True)
    solve_batch(cfg, np.array([deck]), node_limit=50, portfolio=False)
    solve_batch(cfg, np.array([deck]), node_limit=50, portfolio=True)
    # one copy for every search, and one more for the bounded keep-most search (its
    # read-only objective compiles the bound: kernel._bound_at_root); a card file with
    # extended rows runs the same copies (kernel.extended_entries)
    sigs = list(K.dfs.overloads)
    assert len(sigs) == 2, [s[-4:] for s in sigs]
    at = argument_index(K.dfs, "objective")
    assert sorted(s[at].mutable for s in sigs) == [False, True]
    for sig in sigs:
        best_mode, order = sig[-4], sig[-1]
        assert str(best_mode) == "int64" and str(order) == "int64"


def test_search_functions_are_compiled_without_reference_counting():
    # the flag only matters for speed, but losing it silently would cost a third of it
    for f in (K.dfs, K.shortest):
        assert f.targetoptions.get("_nrt") is False

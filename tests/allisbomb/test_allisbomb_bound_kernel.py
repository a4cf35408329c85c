"""The keep-most branch and bound is compiled only for the search that uses it
(kernel._bound_at_root, kernel._bound_cuts): the type of `objective` tells `dfs` which form
to compile, read-only for the bounded keep-most search (Campaign Mode, rulebook H)."""

from __future__ import annotations

import numba
import numpy as np

from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel import kernel as K
from bombsolve.solvers.allisbomb.rules.rules import new_game
from bombsolve.solvers.allisbomb.search import solver
from bombsolve.solvers.allisbomb.search.solver import compiled, solve_state
from bombsolve.solvers.allisbomb.studies.campaign import campaign_config


def test_dfs_reaches_the_bound_only_through_the_stubs():
    names = K.dfs.py_func.__code__.co_names
    assert "lower_bound" not in names and "bound_reaches" not in names
    assert "_bound_at_root" in names and "_bound_cuts" in names


def test_a_writable_objective_compiles_no_bound():
    @numba.njit(_nrt=False)
    def root_bound(root, n, info, objective):
        return K._bound_at_root(root, n, info, objective)

    @numba.njit(_nrt=False)
    def cuts(child, n, info, objective, best):
        return K._bound_cuts(child, n, info, objective, best)

    c = compiled(Options(blitz=True))
    n = c.cards.n
    root = np.zeros(K.state_len(n), np.uint64)
    K.setup(np.arange(n, dtype=np.int64), n, 1, root)
    plain = c.objective.copy()
    bounded = solver._read_only(plain)
    assert plain.flags.writeable and not bounded.flags.writeable
    assert root_bound(root, n, c.prog.info, plain) == 0
    assert not cuts(root, n, c.prog.info, plain, 0)
    assert cuts(root, n, c.prog.info, bounded, 0)  # every win loses >= 0 stars
    for f, args in ((root_bound, (root, n, c.prog.info)), (cuts, (root, n, c.prog.info))):
        extra = (0,) if f is cuts else ()
        f(*args, bounded, *extra)
        by_mutable = {sig[3].mutable: f.inspect_llvm(sig) for sig in f.signatures}
        assert "lower_bound" not in by_mutable[True]
        assert "lower_bound" in by_mutable[False]


def test_the_plain_kernel_asked_to_bound_finds_the_same_best(monkeypatch):
    """With a writable objective best_mode 2 searches as best_mode 1 (no bound): the same
    best win, position for position; the bounded kernel gives the same verdict in no more
    positions, and fewer somewhere (the bound is compiled in and cuts)."""
    fewer = wins = 0
    for g in range(3):
        cfg = campaign_config(g, cards_version="standin-v1")
        rng = np.random.default_rng(40 + g)
        for _ in range(3):
            s = new_game(cfg, list(rng.permutation(compiled(cfg).cards.n)))
            bounded = solve_state(s, node_limit=20_000, keep_most=True, check=False)
            with monkeypatch.context() as m:
                m.setattr(solver, "_read_only", lambda a: a)
                unbounded = solve_state(s, node_limit=20_000, keep_most=True, check=False)
            plain = solve_state(s, node_limit=20_000, keep_most=True, bound=False, check=False)
            assert (unbounded.outcome, unbounded.nodes, unbounded.solution) == (
                plain.outcome,
                plain.nodes,
                plain.solution,
            )
            assert bounded.nodes <= plain.nodes
            if not plain.loss_reason & K.E_NOT_BEST:
                assert bounded.outcome == plain.outcome
            fewer += bounded.nodes < plain.nodes
            wins += bounded.outcome == "win"
    assert fewer >= 1 and wins >= 2, (fewer, wins)

"""The All Is Bomb kernels as `Kernel` records (solvers/common/game.py): their entry
points, a tiny run that compiles each (`warm`) and their cold-compile estimates, for
`bombsolve warmup` and the compile announcements (cli/warmup.py)."""

from __future__ import annotations

from bombsolve.solvers.common.game import Kernel
from bombsolve.solvers.common.numba_cache import argument_index


def _solve(node_limit: int = 1) -> None:
    from bombsolve.solvers.allisbomb.cards.config import Options
    from bombsolve.solvers.allisbomb.search.solver import solve, table_bits_for

    # also allocates the transposition table the solve will use
    solve(
        Options(blitz=True),
        list(range(13)),
        node_limit=1,
        check=False,
        table_bits=table_bits_for(node_limit),
    )


def _dfs_form(bounded: bool = False) -> tuple:
    """`kernel.dfs` in one of its compiled forms, as an entry (dispatcher, accept): for the
    bounded keep-most search or any other (a read-only `objective`:
    kernel._bound_at_root)."""
    from bombsolve.solvers.allisbomb.kernel import kernel as K

    objective = argument_index(K.dfs, "objective")

    def accept(sig: tuple) -> bool:
        return (not sig[objective].mutable) == bounded

    return (K.dfs, accept)


def _solve_entries() -> list:
    from bombsolve.solvers.allisbomb.kernel import kernel as K

    return [K.setup, _dfs_form()]


def _shortest() -> None:
    from bombsolve.solvers.allisbomb.cards.config import Options
    from bombsolve.solvers.allisbomb.rules.rules import new_game
    from bombsolve.solvers.allisbomb.search.solver import compiled, solve_shortest

    cs = compiled(Options(blitz=True)).cards
    # a Blitz deal won within 50 positions: the shortest search runs only after a win
    # (on an undecided deal it returned before `kernel.shortest` was ever compiled)
    won = new_game(cs, [9, 1, 3, 12, 7, 2, 10, 4, 6, 0, 11, 5, 8])
    solve_shortest(won, 50, None, check=False)


def _shortest_entries() -> list:
    from bombsolve.solvers.allisbomb.kernel import kernel as K

    return [K.shortest]


def _keep_most(node_limit: int = 1) -> None:
    from bombsolve.solvers.allisbomb.cards.config import Options
    from bombsolve.solvers.allisbomb.rules.rules import new_game
    from bombsolve.solvers.allisbomb.search.solver import compiled, solve_state, table_bits_for

    cs = compiled(Options(blitz=True)).cards
    # also allocates the transposition table the search will use
    solve_state(
        new_game(cs, list(range(13))),
        node_limit=1,
        check=False,
        keep_most=True,
        table_bits=table_bits_for(node_limit),
    )


def _keep_most_entries() -> list:
    return [_dfs_form(bounded=True)]


def _extended() -> None:
    """Compile the extended vocabulary's two entry points, which the solver calls through
    their addresses in a program with extended rows (kernel.extended_entries), and the
    best-first search that takes turns with the DECK floors on such files
    (search/best_first.py; the stand-in's program has the same argument types)."""
    import numpy as np

    from bombsolve.solvers.allisbomb.cards.config import Options
    from bombsolve.solvers.allisbomb.kernel import kernel as K
    from bombsolve.solvers.allisbomb.search.best_first import kernel_best_first
    from bombsolve.solvers.allisbomb.search.solver import compiled
    from bombsolve.solvers.common.numba_call import address_of

    address_of(K._ext_step, K.EXT_STEP_ARGS)
    address_of(K._draw_number, K.EXT_DRAW_ARGS)
    c = compiled(Options(blitz=True))
    root = np.zeros(K.state_len(c.prog.n), np.uint64)
    K.setup(np.arange(c.prog.n, dtype=np.int64), c.prog.n, 1, root)
    kernel_best_first(c, root, 1)


def _extended_entries() -> list:
    from bombsolve.solvers.allisbomb.kernel import best_first as KB
    from bombsolve.solvers.allisbomb.kernel import kernel as K

    return [
        (K._ext_step, lambda sig: tuple(sig) == K.EXT_STEP_ARGS),
        (K._draw_number, lambda sig: tuple(sig) == K.EXT_DRAW_ARGS),
        KB.best_first,
    ]


def _sweep() -> None:
    import numpy as np

    from bombsolve.solvers.allisbomb.cards.config import Options
    from bombsolve.solvers.allisbomb.search.solver import solve_batch

    solve_batch(Options(blitz=True), np.arange(13, dtype=np.int64)[None, :], node_limit=1)


def _sweep_entries() -> list:
    from bombsolve.solvers.allisbomb.kernel import kernel as K

    return [K.solve_many]


def _exhaust() -> None:
    """Decide one Blitz deal with the whole count's shared-table search
    (exhaust.decide_shared), its decks built as the exhaust builds them (by rank and by
    group). Deal 0 of group 0 is lost in 4 positions, well within the search's node limit:
    no deal goes on to the escalation (the `sweep` part's kernel)."""
    import numpy as np

    from bombsolve.solvers.allisbomb.rules.blitz_ranks import decks_of_ranks, group_decks
    from bombsolve.solvers.allisbomb.search import exhaust as E

    decks_of_ranks(np.zeros(1, np.int64))
    decks, _ = group_decks(np.zeros(1, np.int64))
    E.decide_shared(decks[:1], E.SharedTable())


def _exhaust_entries() -> list:
    from bombsolve.solvers.allisbomb.kernel import exhaust_kernel
    from bombsolve.solvers.allisbomb.rules import blitz_ranks

    return [
        exhaust_kernel.solve_shared,
        exhaust_kernel.new_frames,
        blitz_ranks._fill_decks,
        blitz_ranks._fill_group_decks,
    ]


#: The estimates here are cold-compile CPU seconds on the 2-core AMD EPYC machine, one
#: process each into an empty cache, idle, rounded up (results/PERFORMANCE.md, "Cold
#: compile of each kernel"; Numba's call typing answered from a table,
#: bombsolve.solvers.common.numba_typing).
#: The extended vocabulary's steps and the best-first search (card files with extended
#: rows only), compiled after the solver's part: 16.2 CPU-s (the steps alone had 6.1-6.4,
#: 7.9 without the solver; the best-first search links its own copy of the turn).
EXTENDED_ESTIMATE = 18
#: The keep-most search, after the solver or alone (a keep-most solve compiles it alone):
#: 6.9 and 17.4-17.5.
KEEP_MOST_ESTIMATE, KEEP_MOST_ESTIMATE_ALONE = 8, 20
#: The exhaust's shared-table search (`exhaust_kernel.solve_shared` and the Blitz deal
#: builders), after the sweep's kernel (as `exhaust` compiles it) or alone: 8.2 and 19.4-20.1.
EXHAUST_ESTIMATE, EXHAUST_ESTIMATE_ALONE = 10, 22
#: The sweep's kernel after the solver's (as `sweep`, `sensitivity` and `exhaust` compile
#: it, `ensure_sweep`) or alone: 7.3-7.5 and 22.9 (before its copies became internal to
#: it, bombsolve.solvers.common.numba_entry, which added about 1.3 after the solver).
SWEEP_ESTIMATE, SWEEP_ESTIMATE_ALONE = 9, 25

KERNELS: list[Kernel] = [
    Kernel(
        "allisbomb",
        "solve",
        "All Is Bomb solver",
        18,  # 15.6-16.0
        _solve_entries,
        _solve,
    ),
    Kernel(
        "allisbomb",
        "shortest",
        "All Is Bomb shortest search",
        5,  # 3.8 after the solver
        _shortest_entries,
        _shortest,
    ),
    Kernel(
        "allisbomb",
        "keep-most",
        "All Is Bomb keep-most search",
        KEEP_MOST_ESTIMATE,
        _keep_most_entries,
        _keep_most,
        after="solve",
        estimate_alone=KEEP_MOST_ESTIMATE_ALONE,
    ),
    Kernel(
        "allisbomb",
        "extended",
        "All Is Bomb extended steps",
        EXTENDED_ESTIMATE,
        _extended_entries,
        _extended,
    ),
    Kernel(
        "allisbomb",
        "sweep",
        "All Is Bomb sweep solver",
        SWEEP_ESTIMATE,
        _sweep_entries,
        _sweep,
        after="solve",
        estimate_alone=SWEEP_ESTIMATE_ALONE,
    ),
    Kernel(
        "allisbomb",
        "exhaust",
        "All Is Bomb exhaust search",
        EXHAUST_ESTIMATE,
        _exhaust_entries,
        _exhaust,
        after="sweep",
        estimate_alone=EXHAUST_ESTIMATE_ALONE,
    ),
]

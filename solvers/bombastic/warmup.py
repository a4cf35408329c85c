"""Bombastic's Numba kernels as `Kernel` records (solvers/common/game.py): what each is,
its cold-compile estimate, its entry points and a tiny run that compiles them
(`bombsolve warmup bombastic`, DESIGN.md "Speed")."""

from __future__ import annotations

from bombsolve.solvers.common.game import Kernel


def _infostates() -> None:
    from bombsolve.solvers.bombastic.infostates_kernel import count_infostates_fast

    count_infostates_fast(1, 0)


def _infostates_entries() -> list:
    from bombsolve.solvers.bombastic import infostates_kernel

    return [infostates_kernel._count_root]


def _ismcts() -> None:
    from bombsolve.solvers.bombastic.agents import make_agent, play_game

    for spec in ("ismcts:4", "ismcts-guarded:4", "ismcts-heuristic:4"):
        play_game(make_agent(spec), make_agent("random"), 1)


def _ismcts_entries() -> list:
    """The dispatchers the agents of `_ismcts` call: `ismcts` its random playouts,
    `ismcts-heuristic` (guarded or not) its whole search in one call. The informed
    rollout and the casual playout on their own serve only the plain-Python reference
    walk and tests; naming them here kept the check cold after every run."""
    from bombsolve.solvers.bombastic import kernel, search_kernel

    return [kernel.playout, search_kernel.search]


#: The estimates are cold-compile CPU seconds on the 2-core AMD EPYC machine, one process
#: each into an empty cache, idle, rounded up (results/PERFORMANCE.md, "Cold compile of
#: each kernel"); the measured range beside each.
KERNELS: list[Kernel] = [
    Kernel(
        "bombastic",
        "infostates",
        "Bombastic information-state counter",
        12,  # 9.1-9.3
        _infostates_entries,
        _infostates,
    ),
    Kernel(
        "bombastic",
        "ismcts",
        "Bombastic ISMCTS playouts",
        16,  # 13.2-13.3
        _ismcts_entries,
        _ismcts,
    ),
]

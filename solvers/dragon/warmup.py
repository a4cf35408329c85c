"""Bomb the Dragon's Numba kernels as `Kernel` records (solvers/common/game.py): what each
compiles, its cold-compile estimate and a tiny run that compiles it (`bombsolve warmup`)."""

from __future__ import annotations

from bombsolve.solvers.common.game import Kernel


def _play() -> None:
    import numpy as np

    from bombsolve.solvers.dragon import kernel
    from bombsolve.solvers.dragon.agents import CODES

    kernel.run_games(2, np.arange(1, dtype=np.uint64), [CODES["random"]] * 2)


def _play_entries() -> list:
    from bombsolve.solvers.dragon import kernel

    return [kernel.play_many]


def _montecarlo() -> None:
    import numpy as np

    from bombsolve.solvers.dragon import kernel
    from bombsolve.solvers.dragon.agents import CODES

    kernel.run_games(2, np.arange(1, dtype=np.uint64), [CODES["montecarlo"], CODES["random"]])


def _montecarlo_entries() -> list:
    from bombsolve.solvers.dragon import kernel

    return [kernel.play_many_mc]


#: Estimates: cold-compile CPU seconds on the 2-core AMD EPYC machine, one process into an
#: empty cache, rounded up (results/PERFORMANCE.md, "Cold compile of each kernel").
KERNELS = (
    Kernel("dragon", "play", "Bomb the Dragon kernel", 14, _play_entries, _play),  # 10.8-11.3
    Kernel(
        "dragon",
        "montecarlo",
        "Bomb the Dragon Monte Carlo strategy",
        14,  # 10.8
        _montecarlo_entries,
        _montecarlo,
    ),
)

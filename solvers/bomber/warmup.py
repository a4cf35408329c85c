"""Catch the Bomber's Numba kernels as `Kernel` records (solvers/common/game.py): what
`bombsolve warmup bomber` compiles and the estimate a cold command announces."""

from __future__ import annotations

from bombsolve.solvers.common.game import Kernel


def _warm_play() -> None:
    import numpy as np

    from bombsolve.solvers.bomber import kernel

    kernel.run_random_games(np.arange(1, dtype=np.uint64), 3)


def _play_entries() -> list:
    from bombsolve.solvers.bomber import kernel

    return [kernel.play_random_games]


#: Cold-compile CPU seconds as in Kernel.estimate: the random-agent playouts took 6.6.
KERNELS: list[Kernel] = [
    Kernel("bomber", "play", "Catch the Bomber kernel", 9, _play_entries, _warm_play),
]

"""bombsolve engines: rules, kernels, solvers and studies for four bomb-themed games.

Nothing in this package prints or parses command lines; that is `cli`'s job.
"""

from solvers.common.numba_target import configure as _configure_numba_target

__version__ = "0.1.0"

# Before any kernel compiles (see solvers/common/numba_target.py: no AVX-512, measured faster).
_configure_numba_target()

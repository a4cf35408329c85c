"""bombsolve engines: rules, kernels, solvers and studies for four bomb-themed games.

Nothing in this package prints or parses command lines; that is `cli`'s job. Importing it
changes nothing process-wide (solvers/common/NUMBA.md).
"""

__version__ = "0.4.0"

"""The project's `njit`: Numba's, with the Numba layer's changes scoped to the functions it
defines.

Every kernel module compiles through this `njit` (and `numba_opt.linked_helper`,
`numba_entry.entry_point`, built on it) instead of Numba's, with the same options. A
function it defines

- compiles with its call typing answered from `numba_typing`'s table (its compiler class,
  the jit option `pipeline_class`, routes Numba's typing through the table while it runs);
- with the option `cache`, caches on disk through `numba_repair`'s sealed, self-repairing cache
  (set on the dispatcher as Numba's `Dispatcher.enable_caching` sets its own).

Nothing else in the process changes: importing a kernel sets no environment variable and
replaces no Numba function, so a library user's own jitted functions compile and cache as
plain Numba does (`tests/common/test_numba_scope.py`). See solvers/common/NUMBA.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba
from numba.core.compiler import Compiler

from bombsolve.solvers.common import numba_typing


def njit(*args: Any, **options: Any) -> Any:
    """`numba.njit(**options)` for a project function (module docstring); used as `@njit`
    or `@njit(**options)`."""
    if args:
        if len(args) == 1 and callable(args[0]) and not options:
            return njit()(args[0])
        raise TypeError("njit takes its options by name")
    cache = options.pop("cache", False)
    options["pipeline_class"] = numba_typing.compiler(options.get("pipeline_class", Compiler))
    decorate = numba.njit(**options)

    def define(func: Callable) -> Any:
        dispatcher = decorate(func)
        if cache:
            _enable_cache(dispatcher)
        return dispatcher

    return define


def _enable_cache(dispatcher: Any) -> None:
    # imported here: the cache does not change compiled code, so it is not among the
    # kernels' dependencies (bombsolve.solvers.common.numba_deps)
    from bombsolve.solvers.common.numba_repair import cache_class

    cls = cache_class()
    if cls is None:  # this Numba lacks what the repair relies on: Numba's own cache
        dispatcher.enable_caching()
    else:
        dispatcher._cache = cls(dispatcher.py_func)

"""bombsolve.solvers.common.numba_entry: an entry point's copies of its callees are internal to its
library (its calls bind to them, whatever else the process loaded); its own functions
keep their linkage."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from llvmlite import binding as ll
from numba import njit

from bombsolve.solvers.common.numba_entry import entry_classes, entry_point


@njit
def _fib(n):
    # recursive: LLVM keeps a definition of it (it cannot inline it away entirely)
    return n if n < 2 else _fib(n - 1) + _fib(n - 2)


@entry_point()
def _sum_fibs(k):
    t = 0
    for i in range(k):
        t += _fib(i)
    return t


@njit
def _sum_fibs_plain(k):
    t = 0
    for i in range(k):
        t += _fib(i)
    return t


def _defined(library) -> dict[str, object]:
    return {f.name: f.linkage for f in library._final_module.functions if not f.is_declaration}


def test_the_linked_copies_are_internal_the_own_functions_not():
    assert _sum_fibs(10) == sum([0, 1, 1, 2, 3, 5, 8, 13, 21, 34])
    (cres,) = _sum_fibs.overloads.values()
    assert isinstance(cres.library, entry_classes()[0])
    linkage = _defined(cres.library)
    fib = [name for name in linkage if "4_fibB" in name]
    assert fib and all(linkage[name] == ll.Linkage.internal for name in fib)
    own = [name for name in linkage if "_sum_fibs" in name]
    assert own and all(name in cres.library.own for name in own)
    assert all(linkage[name] != ll.Linkage.internal for name in own)


def test_numbas_own_linking_leaves_them_weak():
    # what the entry point changes: a plain caller's copy is linkonce_odr (a weak symbol in
    # machine code, which the JIT's linker binds to another library's definition)
    assert _sum_fibs_plain(10) == 88
    (cres,) = _sum_fibs_plain.overloads.values()
    linkage = _defined(cres.library)
    assert any("4_fibB" in name and linkage[name] == ll.Linkage.linkonce_odr for name in linkage)


_AFTER = textwrap.dedent(
    """
    from numba import njit
    from bombsolve.solvers.common.numba_entry import entry_point

    @njit
    def fib(n):
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    @entry_point()
    def first(k):
        return fib(k) + 1

    @njit
    def then(k):
        return fib(k) + 2

    # the entry point compiled first, its internal copy of fib in the JIT: another caller,
    # and fib itself, must still get fib's own code
    print(first(10), then(10), fib(10))
    """
)


def test_callers_compiled_after_an_entry_point_run_the_callee_they_link(tmp_path):
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root), NUMBA_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", _AFTER], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-500:]
    assert out.stdout.split() == ["56", "57", "55"]

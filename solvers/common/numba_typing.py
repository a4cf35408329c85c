"""Type each distinct call once per compile setting: Numba's call typing, remembered.

Numba's type inference resolves every call and operator of a function (`a + b`, `s[i]`,
`bool(x)`, `np.int64(v)`) by trying the typing templates registered for it, one by one,
until one accepts the argument types (numba.core.types.functions,
`BaseFunction.get_call_type`). Nothing remembers the answer: the same `getitem` on the
same array type is resolved again at each of its hundreds of sites, and again each time
type propagation revisits a site, and the templates tried first (NumPy's array operators
on scalar arguments, for instance) work out a full ufunc loop before they decline. In All
Is Bomb's solver about 13,000 resolutions are made for about 2,300 distinct questions,
and the repeats cost about 3 CPU-s of its roughly 20 CPU-s cold compile
(commit c76b010).

`routed` wraps `get_call_type` with a table from the question to its answer. A question
is the function type, the typing context, the argument types (literal values included)
and the compile flags in force (`ConfigStack`), because an `@overload`'s implementation is
compiled with the caller's flags (its error model, for one) and Numba keys its own
implementation cache the same way. The answer is the signature and the implementation key
the resolution recorded on the function type (`_impl_keys`, read again when the call is
lowered); a remembered answer records that key again, so lowering finds what it would
have found. Failed resolutions (an error, or a literal value demanded) are not
remembered: they run again as before.

Only the project's own compiles go through it: `compiler(base)` is a compiler class (the
jit option `pipeline_class`, which `bombsolve.solvers.common.numba_jit.njit` gives every kernel) whose
compile routes call typing through the table while it runs (`routed`), and puts Numba's own
back after; the callees and `@overload` implementations it compiles on the way share it.
Any other jitted function in the process (a library user's) is typed by Numba as it is.

What is compiled does not change: the solver's LLVM IR and machine code are byte for byte
the same with and without the table (`tests/common/test_numba_typing.py` compares them on a
small kernel in two processes). It relies on Numba internals as of 0.68
(`BaseFunction.get_call_type`, `_impl_keys`, `targetconfig.ConfigStack`, a flags object's
`_values`); where they are missing the table is not used (one notice, from
bombsolve.solvers.common.numba_notices), and `BOMBSOLVE_TYPING_MEMO=0` in the environment turns it
off.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

from numba.core import targetconfig
from numba.core.types import functions

#: question -> (signature, implementation key); see the module docstring
_ANSWERS: dict[tuple, tuple[Any, Any]] = {}
_ORIGINAL = functions.BaseFunction.get_call_type


def _hashable(value: Any) -> Hashable:
    """A value's content as something hashable: a flags object holds some unhashable
    options (`fastmath`, `inline`), equal in content from one function to the next."""
    try:
        hash(value)
        return value
    except TypeError:
        pass
    if isinstance(value, (set, frozenset)):
        return frozenset(_hashable(v) for v in value)
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    if hasattr(value, "__dict__"):
        return (type(value), _hashable(vars(value)))
    return ("object", id(value))  # unknown: never equal to another object's


def _flags_now() -> Hashable:
    flags = targetconfig.ConfigStack.top_or_none()
    if flags is None:
        return None
    return tuple(sorted((k, _hashable(v)) for k, v in flags._values.items()))


def _get_call_type(self, context, args, kws):
    try:
        question = (self, context, tuple(args), frozenset(kws.items()), _flags_now())
        answer = _ANSWERS.get(question)
    except TypeError:  # an unhashable argument type: ask Numba as before
        return _ORIGINAL(self, context, args, kws)
    if answer is not None:
        sig, impl_key = answer
        self._impl_keys[sig.args] = impl_key
        return sig
    sig = _ORIGINAL(self, context, args, kws)
    if sig is not None:
        _ANSWERS[question] = (sig, self._impl_keys[sig.args])
    return sig


def _uses(func: Any, name: str) -> bool:
    code = getattr(func, "__code__", None)
    return code is not None and name in code.co_names


def _missing() -> str | None:
    """The first internal the table relies on (as of 0.68) that this Numba lacks, or None."""
    stack = getattr(targetconfig, "ConfigStack", None)
    flags_class = getattr(targetconfig, "TargetConfig", None)
    if not hasattr(stack, "top_or_none"):
        return "numba.core.targetconfig.ConfigStack.top_or_none"
    if flags_class is None or not _uses(flags_class.__init__, "_values"):
        return "numba.core.targetconfig.TargetConfig._values"
    if not (
        _uses(functions.BaseFunction.__init__, "_impl_keys") and _uses(_ORIGINAL, "_impl_keys")
    ):
        return "numba.core.types.functions.BaseFunction._impl_keys"
    return None


def installed() -> bool:
    """Whether Numba's call typing goes through the table now (only while a compile of
    `compiler(...)` runs)."""
    return functions.BaseFunction.get_call_type is _get_call_type


def enabled() -> bool:
    """Whether the project's compiles use the table: not where `BOMBSOLVE_TYPING_MEMO=0` or
    this Numba lacks the internals it relies on (then with one notice)."""
    if os.environ.get("BOMBSOLVE_TYPING_MEMO", "1") == "0":
        return False
    return _supported()


@cache
def _supported() -> bool:
    missing = _missing()
    if missing is None:
        return True
    from bombsolve.solvers.common.numba_notices import lacking

    lacking("numba_typing", missing, "every call is typed afresh (compiling is slower)")
    return False


@contextmanager
def routed() -> Iterator[bool]:
    """Route Numba's call typing through the table for the duration (where `enabled`), then
    put back what was there; yields whether it is routed. Nested uses share the outer one.
    Numba compiles under one process-wide lock, so no other function is typed meanwhile."""
    if installed() or not enabled():
        yield installed()
        return
    before = functions.BaseFunction.get_call_type
    functions.BaseFunction.get_call_type = _get_call_type
    try:
        yield True
    finally:
        functions.BaseFunction.get_call_type = before


@cache
def compiler(base: type) -> type:
    """The compiler class `base` (a `numba.core.compiler.CompilerBase`) compiling with call
    typing `routed` through the table: what `numba_jit.njit` passes as `pipeline_class`.
    Its passes are `base`'s, so the code it compiles is `base`'s."""

    class TableCompiler(base):
        def compile_extra(self, func):
            with routed():
                return super().compile_extra(func)

        def compile_ir(self, func_ir, lifted=(), lifted_from=None):
            with routed():
                return super().compile_ir(func_ir, lifted, lifted_from)

    TableCompiler.__name__ = TableCompiler.__qualname__ = f"Table{base.__name__}"
    return TableCompiler

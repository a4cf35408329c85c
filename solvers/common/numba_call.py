"""Call a Numba-compiled function through its machine address, given at run time.

A jitted caller that calls another jitted function directly compiles a copy of it into its
own code (Numba links the callee's library into the caller's). Called through an address
instead, the callee is compiled once, on its own, only when some caller needs it, and the
caller's compiled code is the same whether the callee exists or not: All Is Bomb's solver
reaches the extended vocabulary's steps this way (`allisbomb.kernel.kernel.extended_entries`), so
a card file with extended rows compiles those steps alone, not a second solver around them.

`address_of(dispatcher, argtypes)` compiles the callee for exactly `argtypes` and returns
the address of its native function (Numba's internal calling convention: a status code,
the return value through a pointer, each array passed as its fields). `indirect_call`
emits the call at such an address inside an `@intrinsic`; the intrinsic must check that
its argument types are exactly the callee's `argtypes` (`check_types`), since a call
through an address has no other type check. The callee must not raise (compile it with
`error_model="numpy"` and no `raise`): the status it returns is not looked at.

It relies on Numba internals present from 0.60 to 0.68 (a dispatcher's `overloads`, a
code library's `get_pointer_to_function`, `fndesc.mangled_name`, the calling convention's
`get_function_type` and `call_function`). Unlike the rest of the layer it has no plain-Numba
form to fall back to: a call through an address is what keeps the callee out of its callers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from numba.core import errors, types


def address_of(dispatcher: Any, argtypes: Sequence[types.Type]) -> int:
    """The address of `dispatcher`'s native function compiled for `argtypes` (compiled, or
    loaded from Numba's cache, on the first call in this process; addresses do not outlive
    the process)."""
    dispatcher.compile(tuple(argtypes))
    cres = dispatcher.overloads[tuple(argtypes)]
    address = cres.library.get_pointer_to_function(cres.fndesc.mangled_name)
    if not address:
        raise RuntimeError(f"no native function for {dispatcher.py_func.__qualname__}")
    return address


def check_types(name: str, got: Sequence[types.Type], expected: Sequence[types.Type]) -> None:
    """Refuse, at compile time, a call whose argument types are not the callee's own."""
    if tuple(got) != tuple(expected):
        wrong = [
            f"#{i}: {g} (expected {e})"
            for i, (g, e) in enumerate(zip(got, expected, strict=False))
            if g != e
        ]
        if len(got) != len(expected):
            wrong.append(f"{len(got)} arguments (expected {len(expected)})")
        raise errors.TypingError(f"{name} called with other argument types: {'; '.join(wrong)}")


def indirect_call(
    context, builder, restype: types.Type, argtypes: Sequence[types.Type], address, args
):
    """Emit a call of the function at `address` (an int64 LLVM value) with `args` of
    `argtypes`; returns its value of type `restype`."""
    fnty = context.call_conv.get_function_type(restype, list(argtypes))
    fn = builder.inttoptr(address, fnty.as_pointer())
    _status, value = context.call_conv.call_function(
        builder, fn, restype, list(argtypes), list(args)
    )
    return value

"""bombsolve.solvers.common.numba_typing: Numba's call typing answered from a table, the compiled
code unchanged, the caller's flags part of the question."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
from numba.extending import overload

from bombsolve.solvers.common import numba_typing
from bombsolve.solvers.common.numba_jit import njit as project_njit

ROOT = Path(__file__).resolve().parents[2]


def test_routed_only_while_a_project_function_compiles(monkeypatch):
    monkeypatch.delenv("BOMBSOLVE_TYPING_MEMO", raising=False)
    original = numba_typing.functions.BaseFunction.get_call_type
    assert not numba_typing.installed()
    with numba_typing.routed() as on:
        assert on and numba_typing.installed()
        with numba_typing.routed() as inner:  # a callee compiled meanwhile shares it
            assert inner
        assert numba_typing.installed()
    assert numba_typing.functions.BaseFunction.get_call_type is original
    monkeypatch.setenv("BOMBSOLVE_TYPING_MEMO", "0")
    with numba_typing.routed() as on:
        assert not on and not numba_typing.installed()


def test_a_repeated_question_is_answered_from_the_table(monkeypatch):
    asked: list[tuple] = []
    original = numba_typing._ORIGINAL

    def counting(self, context, args, kws):
        asked.append(tuple(args))
        return original(self, context, args, kws)

    monkeypatch.setattr(numba_typing, "_ORIGINAL", counting)
    answered = []
    table_get = numba_typing._get_call_type

    def spy(self, context, args, kws):
        answered.append(tuple(args))
        return table_get(self, context, args, kws)

    monkeypatch.setattr(numba_typing, "_get_call_type", spy)

    @project_njit
    def sums(a):
        t = 0
        t += a[0] * a[1] + a[2]
        t += a[1] * a[2] + a[3]
        t += a[2] * a[3] + a[0]
        t += a[3] * a[0] + a[1]
        return t

    assert sums(np.arange(4, dtype=np.int64)) == 0 * 1 + 2 + 1 * 2 + 3 + 2 * 3 + 0 + 3 * 0 + 1
    # the same getitem, multiply and add on the same types: asked of Numba at most once each
    assert len(answered) > 12
    assert len(asked) < len(answered) / 2


def _halve(a, b):
    raise NotImplementedError  # typed and compiled through the overload below


@overload(_halve)
def _halve_overload(a, b):
    def impl(a, b):
        return a // b

    return impl


def test_an_overload_compiled_with_each_callers_error_model():
    # the overload's implementation inherits its caller's error model: the same question
    # (the same argument types) asked under two error models has two answers

    @project_njit(error_model="numpy")
    def quiet(a, b):
        return _halve(a, b)

    @project_njit(error_model="python")
    def loud(a, b):
        return _halve(a, b)

    assert quiet(7, 0) == 0
    try:
        loud(7, 0)
    except ZeroDivisionError:
        pass
    else:
        raise AssertionError("the python error model raises on a division by zero")
    assert quiet(7, 0) == 0


_KERNEL = textwrap.dedent(
    """
    import hashlib, json, re, sys
    import numpy as np
    from numba.extending import overload
    from bombsolve.solvers.common import numba_typing
    from bombsolve.solvers.common.numba_jit import njit

    def halve(a, b):
        raise NotImplementedError

    @overload(halve)
    def halve_overload(a, b):
        return lambda a, b: a // b

    @njit(inline="always")
    def bit(x, k):
        return (x >> np.int64(k)) & 1

    @njit
    def step(a, s):
        t = np.int64(0)
        for i in range(a.shape[0]):
            if bit(a[i], 3) and a[i] != s:
                t += a[i] * 3 - 1
            elif a[i] > 2:
                t ^= a[i] << 2
        b = a.view(np.int8)
        return t + b[1] + min(t, 5) + max(a[0], 2) + len(a) + halve(t, s)

    @njit(error_model="numpy")
    def outer(a):
        return step(a, 4) + step(a[1:], np.int64(1)) + halve(a.sum(), a[0])

    # step (the python error model) first: its answers are in the table when outer (numpy's)
    # asks the same questions
    routed = []
    spied = numba_typing._get_call_type

    def spy(self, context, args, kws):
        routed.append(1)
        return spied(self, context, args, kws)

    numba_typing._get_call_type = spy
    print(step(np.arange(10, dtype=np.int64), 4), outer(np.arange(10, dtype=np.int64)))
    text = ""
    for d in (outer, step):
        for sig, ir in sorted(d.inspect_llvm().items(), key=str):
            text += str(sig) + ir
        for sig, asm in sorted(d.inspect_asm().items(), key=str):
            text += str(sig) + asm
    # Numba 0.60 names some constants after object addresses (an exception's pickled
    # arguments, a context's repr), which differ from one process to the next
    text = re.sub(r"0x[0-9a-f]{6,}", "0x", text)
    text = re.sub(
        "(pickledata|picklebuf)[.][0-9]{8,}([.]sha1)?([.][0-9]+)?",
        lambda m: m.group(1) + (m.group(2) or ""),
        text,
    )
    print(json.dumps([bool(routed), hashlib.sha256(text.encode()).hexdigest()]))
    """
)


def _compile(tmp_path: Path, table: bool) -> tuple[str, bool, str]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / f"cache{table}"))
    env["BOMBSOLVE_TYPING_MEMO"] = "1" if table else "0"
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run(
        [sys.executable, "-c", _KERNEL], env=env, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    installed, digest = json.loads(out[1])
    return out[0], installed, digest


def test_the_same_llvm_ir_and_machine_code_with_and_without_the_table(tmp_path):
    value_with, on, with_table = _compile(tmp_path, True)
    value_without, off, without = _compile(tmp_path, False)
    assert on and not off
    assert value_with == value_without
    assert with_table == without

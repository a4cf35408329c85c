"""The Numba layer on a Numba without the internals it relies on: each part falls back to
plain Numba with one line, and the code it compiles gives the same results. The internals are
taken away in a fresh process, after Numba imported them for itself, as a Numba without them
would present them to the layer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_MODULE = textwrap.dedent(
    """
    from bombsolve.solvers.common.numba_entry import entry_point
    from bombsolve.solvers.common.numba_opt import linked_helper


    @linked_helper(cache=True)
    def helper(a, i):
        return a[i] * 3 + 1


    @linked_helper(cache=True)
    def other(a, i):
        return a[i] - 1


    @entry_point(cache=True)
    def entry(a):
        t = 0
        for i in range(a.shape[0]):
            t += helper(a, i) + other(a, i)
        return t
    """
)

_RUN = textwrap.dedent(
    """
    import json, sys
    import numpy as np

    if sys.argv[1] == "without":
        from numba.core import caching, codegen
        from numba.core.types import functions

        # as in Numba 0.60: no CPUCodegen._pass_builder (0.68's own codegen keeps using it)
        if "_pass_builder" in vars(codegen.CPUCodegen):
            codegen.JITCPUCodegen._pass_builder = codegen.CPUCodegen._pass_builder
            del codegen.CPUCodegen._pass_builder
        del codegen.JITCodeLibrary  # Numba keeps its own reference (JITCPUCodegen)
        import numba.core.ccallback  # noqa: F401 - (imported by Numba later, with the name)

        del caching.FunctionCache  # likewise (numba.core.dispatcher, numba.core.ccallback)
        original = functions.BaseFunction.get_call_type

        def get_call_type(self, context, args, kws):  # records no _impl_keys of its own
            return original(self, context, args, kws)

        functions.BaseFunction.get_call_type = get_call_type

    from bombsolve.cli.warmup import show_numba_notices
    from bombsolve.solvers.common import numba_entry, numba_opt, numba_repair, numba_typing

    show_numba_notices()
    import mod

    routed = []
    spied = numba_typing._get_call_type

    def spy(self, context, args, kws):
        routed.append(1)
        return spied(self, context, args, kws)

    numba_typing._get_call_type = spy
    value = int(mod.entry(np.arange(6)))
    repairing = numba_repair.cache_class()
    print(json.dumps({
        "value": value,
        "linked": numba_opt.linked_compiler() is not None,
        "entry": numba_entry.entry_classes() is not None,
        "repair": repairing is not None and isinstance(mod.entry._cache, repairing),
        "typing": bool(routed),
    }))
    """
)


def _run(tmp_path: Path, how: str) -> tuple[dict, list[str]]:
    (tmp_path / "mod.py").write_text(_MODULE)
    env = dict(
        os.environ,
        PYTHONPATH=f"{tmp_path}{os.pathsep}{ROOT}",
        NUMBA_CACHE_DIR=str(tmp_path / f"cache-{how}"),
    )
    env.pop("BOMBSOLVE_TYPING_MEMO", None)
    out = subprocess.run(
        [sys.executable, "-c", _RUN, how], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr[-3000:]
    notices = [line for line in out.stderr.splitlines() if line.startswith("bombsolve:")]
    return json.loads(out.stdout), notices


def test_each_part_falls_back_to_plain_numba_with_one_line(tmp_path):
    got, notices = _run(tmp_path, "without")
    want = sum(3 * i + 1 + i - 1 for i in range(6))
    assert got == {
        "value": want,
        "linked": False,
        "entry": False,
        "repair": False,
        "typing": False,
    }
    parts = ("numba_opt", "numba_entry", "numba_repair", "numba_typing")
    assert len(notices) == len(parts), notices  # once each, though two helpers fell back
    for part, lacked in zip(
        parts,
        (
            "CPUCodegen._pass_builder",
            "numba.core.codegen.JITCodeLibrary",
            "numba.core.caching.FunctionCache",
            "BaseFunction._impl_keys",
        ),
        strict=True,
    ):
        (line,) = [n for n in notices if f"(bombsolve.solvers.common.{part}, tested with" in n]
        assert line.startswith("bombsolve: Numba ") and lacked in line, line


def test_with_the_internals_nothing_is_said(tmp_path):
    import numba.core.codegen

    got, notices = _run(tmp_path, "with")
    assert got["value"] == sum(3 * i + 1 + i - 1 for i in range(6))
    has_pass_builder = hasattr(numba.core.codegen.CPUCodegen, "_pass_builder")
    assert got == dict(got, linked=has_pass_builder, entry=True, repair=True, typing=True)
    assert len(notices) == (0 if has_pass_builder else 1), notices


def test_the_declared_numba_range_is_the_one_the_notices_name():
    import re
    import tomllib

    from bombsolve.solvers.common.numba_notices import TESTED

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    (spec,) = [d for d in project["dependencies"] if re.match(r"numba\b", d)]
    low, high = re.fullmatch(r"numba>=0\.(\d+),<0\.(\d+)", spec).groups()
    assert TESTED == f"0.{low} to 0.{int(high) - 1}"

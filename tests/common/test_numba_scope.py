"""Importing `solvers` and its kernels changes nothing process-wide (solvers/common/NUMBA.md):
no environment variable set, no Numba function replaced; a library user's own jitted
functions are typed and cached by plain Numba, while the project's compile through the call
typing table and cache through the repairing cache. Each check runs in a fresh process on a
host that claims AVX-512, so that `numba_target` would have something to set."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_FAKE_AVX512 = textwrap.dedent(
    """
    import llvmlite.binding as ll

    _host = ll.get_host_cpu_features

    def _with_avx512():
        features = _host()
        features["avx512f"] = True
        return features

    ll.get_host_cpu_features = _with_avx512
    """
)

_RUN = _FAKE_AVX512 + textwrap.dedent(
    """
    import importlib, json, os
    import numba
    from numba.core import config
    from numba.core.dispatcher import Dispatcher
    from numba.core.types import functions
    from numba.extending import overload

    environ = dict(os.environ)
    get_call_type = functions.BaseFunction.get_call_type
    enable_caching = Dispatcher.enable_caching
    import bombsolve.solvers
    from bombsolve.solvers.common import numba_jit, numba_repair, numba_typing
    for name in (
        "allisbomb.kernel.kernel", "allisbomb.kernel.exhaust_kernel", "allisbomb.rules.blitz_ranks",
        "allisbomb.kernel.layout", "bombastic.kernel", "bombastic.search_kernel",
        "bombastic.infostates_kernel", "bombastic.beliefs", "bomber.kernel", "dragon.kernel",
    ):
        importlib.import_module("bombsolve.solvers." + name)
    out = {
        "environ_unchanged": dict(os.environ) == environ,
        "features": config.CPU_FEATURES,
        "typing_unchanged": functions.BaseFunction.get_call_type is get_call_type,
        "caching_unchanged": Dispatcher.enable_caching is enable_caching,
    }
    seen = {}

    def probe_user():
        pass

    def probe_ours():
        pass

    @overload(probe_user)
    def _probe_user():
        seen["user"] = functions.BaseFunction.get_call_type is get_call_type
        return lambda: 1

    @overload(probe_ours)
    def _probe_ours():
        seen["ours"] = functions.BaseFunction.get_call_type is numba_typing._get_call_type
        return lambda: 2

    @numba.njit(cache=True)
    def users(x):
        return x + probe_user()

    @numba_jit.njit(cache=True)
    def ours(x):
        return x + probe_ours()

    answers = len(numba_typing._ANSWERS)
    out["user_value"] = users(1)
    out["user_typed_by_numba"] = seen["user"]
    out["user_left_table_alone"] = len(numba_typing._ANSWERS) == answers
    out["user_cache"] = type(users._cache).__name__
    out["our_value"] = ours(1)
    out["ours_through_table"] = seen["ours"]
    out["our_cache"] = type(ours._cache).__name__
    out["typing_after"] = functions.BaseFunction.get_call_type is get_call_type
    print(json.dumps(out))
    """
)


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "BOMBSOLVE_"))}
    return dict(env, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(tmp_path / "cache"))


def test_importing_the_kernels_changes_nothing_for_a_users_functions(tmp_path):
    script = tmp_path / "users_program.py"  # a file: Numba caches only functions in one
    script.write_text(_RUN)
    out = subprocess.run(
        [sys.executable, str(script)], env=_env(tmp_path), capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.splitlines()[-1])
    assert got == {
        "environ_unchanged": True,
        "features": None,
        "typing_unchanged": True,
        "caching_unchanged": True,
        "user_value": 2,
        "user_typed_by_numba": True,
        "user_left_table_alone": True,
        "user_cache": "FunctionCache",
        "our_value": 3,
        "ours_through_table": True,
        "our_cache": "RepairingCache",
        "typing_after": True,
    }


_CLI = _FAKE_AVX512 + textwrap.dedent(
    """
    import contextlib, io, os
    from numba.core import config
    from bombsolve.cli.main import cli

    before = os.environ.get("NUMBA_CPU_FEATURES")
    with contextlib.redirect_stdout(io.StringIO()):
        cli.main(["--help"], standalone_mode=False)
    from numba.core.registry import cpu_target

    # the features the process's code generator was built with (built once, on first use)
    built = cpu_target.target_context.codegen()._tm_features
    print(before, "-avx512f" in os.environ.get("NUMBA_CPU_FEATURES", ""),
          "-avx512f" in (config.CPU_FEATURES or ""), "-avx512f" in built)
    """
)


def test_the_command_line_compiles_without_avx512(tmp_path):
    out = subprocess.run(
        [sys.executable, "-c", _CLI], env=_env(tmp_path), capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == ["None", "True", "True", "True"]

"""bombsolve.solvers.common.numba_target: kernels compile without AVX-512 unless told otherwise."""

from __future__ import annotations

import os
import subprocess
import sys

from bombsolve.solvers.common import numba_target as nt


def test_avx512_features_are_switched_off_and_the_rest_kept():
    feats = {"avx2": True, "avx512f": True, "avx512bw": True, "sse4a": False, "bmi2": True}
    s = nt.features_without_avx512(feats)
    assert s is not None
    assert set(s.split(",")) == {"+avx2", "-avx512f", "-avx512bw", "-sse4a", "+bmi2"}


def test_a_host_without_avx512_is_left_alone():
    assert nt.features_without_avx512({"avx2": True, "avx512f": False}) is None


def test_user_choices_win(monkeypatch):
    for var, value in (("BOMBSOLVE_AVX512", "1"), ("NUMBA_CPU_NAME", "generic")):
        monkeypatch.delenv("NUMBA_CPU_FEATURES", raising=False)
        monkeypatch.setenv(var, value)
        assert nt.configure() is None
        assert "NUMBA_CPU_FEATURES" not in os.environ
        monkeypatch.delenv(var)
    monkeypatch.setenv("NUMBA_CPU_FEATURES", "+sse2")
    assert nt.configure() is None
    assert os.environ["NUMBA_CPU_FEATURES"] == "+sse2"


def _features_seen_by_numba(env: dict[str, str]) -> str:
    code = (
        "from bombsolve.solvers.common.numba_target import configure; configure(); "
        "import numba.core.config as c; print(c.CPU_FEATURES)"
    )
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()


def test_numba_reads_the_choice_in_a_new_process():
    """`configure` (called by the process's owner, tests/common/test_numba_scope.py) sets the
    features before Numba reads them; on a host without AVX-512 there is nothing to set."""
    import llvmlite.binding as ll

    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_CPU", "BOMBSOLVE"))}
    want = nt.features_without_avx512(dict(ll.get_host_cpu_features().items()))
    seen = _features_seen_by_numba(env)
    assert seen == ("None" if want is None else want)
    assert _features_seen_by_numba({**env, "BOMBSOLVE_AVX512": "1"}) == "None"

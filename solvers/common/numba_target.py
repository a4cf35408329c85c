"""Compile the project's Numba kernels without AVX-512 (measured faster, see below).

On a host with AVX-512 (this project's AMD EPYC family-26 machines), LLVM vectorises the
kernels' short loops (a 12-word state row copy, a 5-word key, byte loops over 18-40 cards)
with 512-bit masked instructions, gathers and kmask registers. The same code compiled
with the host's other features but no AVX-512 was faster in every measurement (All Is Bomb
kernel, `compare_allisbomb_kernels.py`, median of alternating processes: base +4.3%, ALL
+6.6%, six expansions +2.8%; commit 76d4a3a). Numba has one code generator per process, its
processor features read once, when the first jitted function is defined: no per-function
target. So `configure()` is called by the process's owner, never on import: the command
line (`bombsolve.cli.main.BombsolveGroup.main`, before any kernel module is imported), the test
session (tests/conftest.py) and the measuring scripts. It sets NUMBA_CPU_FEATURES to the
host's features with every avx512* feature off (so the processes it starts inherit it)
and in Numba's config. Numba keys its on-disk cache by the features, so caches built
either way never mix. A program importing `solvers` as a library compiles for Numba's
own target unless it calls `configure()` first.
"""

from __future__ import annotations

import os
import sys

#: Set to 1 to compile with AVX-512 (Numba's default on such hosts).
KEEP_ENV = "BOMBSOLVE_AVX512"


def features_without_avx512(features: dict[str, bool]) -> str | None:
    """LLVM's feature string for `features` with every avx512* feature off; None if none
    of them was on."""
    if not any(on and name.startswith("avx512") for name, on in features.items()):
        return None
    return ",".join(
        ("+" if on and not name.startswith("avx512") else "-") + name
        for name, on in features.items()
    )


def configure() -> str | None:
    """Apply the choice above; return the feature string set, or None if left alone."""
    if os.environ.get(KEEP_ENV) == "1":
        return None
    if os.environ.get("NUMBA_CPU_NAME") or os.environ.get("NUMBA_CPU_FEATURES"):
        return None
    try:
        import llvmlite.binding as ll

        host = ll.get_host_cpu_features()
    except (ImportError, RuntimeError):
        return None
    chosen = features_without_avx512(dict(host.items()))
    if chosen is None:
        return None
    os.environ["NUMBA_CPU_FEATURES"] = chosen
    if "numba" in sys.modules:  # imported before us: its config has read the environment
        from numba.core import config

        config.CPU_FEATURES = chosen
    return chosen

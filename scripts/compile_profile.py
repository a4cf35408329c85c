"""Where a game's cold compile goes: CPU seconds of each kernel's warm-up, the compile wall
seconds per function (inclusive of its callees) and every function compiled more than once.

    NUMBA_CACHE_DIR=$(mktemp -d) python scripts/compile_profile.py GAME [PART]

Reads Numba's `numba:compile` events (numba.core.event). Run it with an empty cache, or a
cached kernel loads and nothing is compiled.
"""

from __future__ import annotations

import collections
import resource
import sys
import time
from pathlib import Path

from numba.core import event

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cli.warmup import kernels_of  # noqa: E402

SECONDS: dict[str, float] = collections.defaultdict(float)
SIGNATURES: dict[str, set[str]] = collections.defaultdict(set)


class _Recorder(event.Listener):
    def __init__(self) -> None:
        self.started: dict[tuple[int, str], float] = {}

    def on_start(self, e) -> None:
        self.started[id(e.data["dispatcher"]), str(e.data["args"])] = time.perf_counter()

    def on_end(self, e) -> None:
        key = (id(e.data["dispatcher"]), str(e.data["args"]))
        name = e.data["dispatcher"].py_func.__qualname__
        SECONDS[name] += time.perf_counter() - self.started.pop(key, time.perf_counter())
        SIGNATURES[name].add(key[1])


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    game = sys.argv[1]
    part = sys.argv[2] if len(sys.argv) > 2 else None
    event.register("numba:compile", _Recorder())
    for k in kernels_of(game, part):
        t0, c0 = time.perf_counter(), _cpu()
        k.warm()
        print(f"{game} {k.part}: {time.perf_counter() - t0:.1f} s wall, {_cpu() - c0:.1f} CPU-s")
    print("compile wall seconds per function (inclusive):")
    for name, s in sorted(SECONDS.items(), key=lambda x: -x[1])[:25]:
        print(f"  {s:7.1f}  {name}")
    print("compiled more than once:")
    for name, sigs in sorted(SIGNATURES.items(), key=lambda x: -len(x[1])):
        if len(sigs) > 1:
            print(f"  {len(sigs):3d}  {name}")
            if not name.startswith("ol_"):
                for sig in sorted(sigs):
                    print(f"         {sig}")


if __name__ == "__main__":
    main()

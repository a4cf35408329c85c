"""Where a game's cold compile goes: CPU seconds of each kernel's warm-up, the compile wall
seconds per function (inclusive of its callees), the seconds each function spent in Numba's
compiler passes itself (exclusive of the callees compiled meanwhile: `NativeLowering` is
LLVM's optimisation and code generation of the function's module, which holds a copy of
every callee it calls), and every function compiled more than once.

    NUMBA_CACHE_DIR=$(mktemp -d) python scripts/bench/compile_profile.py GAME [PART] [--after P,Q]

`--after P,Q` compiles the game's parts P, Q first, outside the figures: what PART costs
when they are cached already (as `bombsolve warmup` compiles it after them).

Reads Numba's `numba:compile` and `numba:run_pass` events (numba.core.event). Run it with an empty cache, or a
cached kernel loads and nothing is compiled.
"""

from __future__ import annotations

import collections
import resource
import sys
import time
from pathlib import Path

from numba.core import event

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bombsolve.cli.warmup import kernels_of  # noqa: E402
from bombsolve.solvers.common.numba_target import configure  # noqa: E402

configure()  # the command line's target (numba_target), before any kernel is defined

SECONDS: dict[str, float] = collections.defaultdict(float)
SIGNATURES: dict[str, set[str]] = collections.defaultdict(set)
#: (function, pass) -> wall seconds spent in the pass itself, nested passes left out
PASS_SELF: dict[tuple[str, str], float] = collections.defaultdict(float)


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


class _PassRecorder(event.Listener):
    """Self time of each compiler pass: a pass of a callee compiled while the caller is
    being typed runs nested inside the caller's pass, and is subtracted from it."""

    def __init__(self) -> None:
        self.stack: list[list[float]] = []  # [start, seconds of nested passes]

    def on_start(self, e) -> None:
        self.stack.append([time.perf_counter(), 0.0])

    def on_end(self, e) -> None:
        start, nested = self.stack.pop()
        spent = time.perf_counter() - start
        if self.stack:
            self.stack[-1][1] += spent
        name = e.data["name"]
        pss = name.split(" [", 1)[0]
        PASS_SELF[e.data["qualname"], pss] += spent - nested


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    args = sys.argv[1:]
    after: list[str] = []
    if "--after" in args:
        i = args.index("--after")
        after = args[i + 1].split(",")
        del args[i : i + 2]
    game = args[0]
    part = args[1] if len(args) > 1 else None
    for first in after:
        for k in kernels_of(game, first):
            k.warm()
    event.register("numba:compile", _Recorder())
    event.register("numba:run_pass", _PassRecorder())
    for k in kernels_of(game, part):
        t0, c0 = time.perf_counter(), _cpu()
        k.warm()
        print(f"{game} {k.part}: {time.perf_counter() - t0:.1f} s wall, {_cpu() - c0:.1f} CPU-s")
    print("compile wall seconds per function (inclusive):")
    for name, s in sorted(SECONDS.items(), key=lambda x: -x[1])[:25]:
        print(f"  {s:7.1f}  {name}")
    print("self seconds per function: all passes, type inference, LLVM (NativeLowering):")
    own: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0])
    for (fn, pss), sec in PASS_SELF.items():
        own[fn][0] += sec
        if pss == "nopython_type_inference":
            own[fn][1] += sec
        if pss.startswith("native_lowering"):
            own[fn][2] += sec
    for fn, (tot, ty, low) in sorted(own.items(), key=lambda x: -x[1][0])[:25]:
        print(f"  {tot:7.1f} {ty:7.1f} {low:7.1f}  {fn}")
    by_pass: dict[str, float] = collections.defaultdict(float)
    for (_fn, pss), sec in PASS_SELF.items():
        by_pass[pss] += sec
    print("self seconds per pass (all functions):")
    for pss, sec in sorted(by_pass.items(), key=lambda x: -x[1])[:10]:
        print(f"  {sec:7.1f}  {pss}")
    print("compiled more than once:")
    for name, sigs in sorted(SIGNATURES.items(), key=lambda x: -len(x[1])):
        if len(sigs) > 1:
            print(f"  {len(sigs):3d}  {name}")
            if not name.startswith("ol_"):
                for sig in sorted(sigs):
                    print(f"         {sig}")


if __name__ == "__main__":
    main()

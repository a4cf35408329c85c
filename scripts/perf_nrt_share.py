"""What share of a Numba program's time goes to reference counting (NRT's atomic ops).

Numba counts references to arrays (NRT_incref / NRT_decref: a `lock incq` / `lock decq`)
whenever an array is passed to a function that is not inlined, a view is made, or an
array is returned, unless the function is compiled with `_nrt=False`. On session 7's
machine (AMD EPYC family 26, KVM) these atomic operations took 81-89% of Bomb the
Dragon's kernel time, 37% of Catch the Bomber's and 75% of Bombastic's random games, where
profiles by function could not see them (the stubs live in an anonymous page of their own).

This script runs any Python script under `perf record -e cpu-clock` (a timer: it works in
a VM without hardware counters), dumps the process's anonymous executable pages (Numba's
machine code and the NRT stubs) when it exits, and disassembles the instructions the
samples landed on. It prints the share of samples in that code and the share landing on
or right after a `lock`-prefixed instruction (a sample lands on the instruction after
the one that waited), then the busiest instructions.

    python scripts/perf_nrt_share.py [--top 12] SCRIPT [ARGS ...]
    python scripts/perf_nrt_share.py scripts/dragon_bench.py --kernel-games 40000 --reference-games 10

Needs `perf` and `objdump` (Debian: linux-perf, binutils).
"""

from __future__ import annotations

import argparse
import atexit
import collections
import ctypes
import runpy
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: Anonymous executable mappings larger than this are not dumped (not JIT code).
MAX_PAGE_BYTES = 64 << 20


def _dump_code(out: Path) -> None:
    """Write every anonymous executable mapping of this process to out/code_ADDR."""
    for line in Path("/proc/self/maps").read_text().splitlines():
        fields = line.split()
        lo, hi = (int(x, 16) for x in fields[0].split("-"))
        if "x" in fields[1] and len(fields) < 6 and hi - lo <= MAX_PAGE_BYTES:
            (out / f"code_{lo:x}").write_bytes(ctypes.string_at(lo, hi - lo))


def worker(out: Path, script: str, args: list[str]) -> None:
    """Run `script` as __main__ with `args`; dump the JIT pages at exit (under perf). The
    working directory comes first on the import path, as for `python SCRIPT`, so a
    checkout of another revision can be profiled from its own directory."""
    sys.path[:0] = [str(Path(script).resolve().parent), str(Path.cwd())]
    atexit.register(_dump_code, out)
    sys.argv = [script, *args]
    runpy.run_path(script, run_name="__main__")


def _instruction(codes: dict[int, Path], addr: int) -> tuple[str, str] | None:
    """(instruction at addr, the one before it), or None if addr is not in dumped code."""
    base = max((a for a in codes if a <= addr), default=None)
    if base is None or addr - base >= codes[base].stat().st_size:
        return None
    text = subprocess.run(
        ["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", "--adjust-vma", hex(base)]
        + [f"--start-address={max(base, addr - 24):#x}", f"--stop-address={addr + 16:#x}"]
        + [str(codes[base])],
        capture_output=True,
        text=True,
    ).stdout
    lines = [ln for ln in text.splitlines() if ":\t" in ln]
    for i, ln in enumerate(lines):
        if int(ln.split(":")[0], 16) == addr:
            prev = lines[i - 1].split("\t")[-1].strip() if i else ""
            return ln.split("\t")[-1].strip(), prev
    return "?", ""


def report(out: Path, top: int) -> None:
    samples = subprocess.run(
        ["perf", "script", "-i", str(out / "perf.data"), "-F", "ip"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    if not samples:
        raise SystemExit("perf recorded no samples")
    counts = collections.Counter(int(s, 16) for s in samples)
    codes = {int(p.name[5:], 16): p for p in out.glob("code_*")}
    jit = lock = 0
    rows = []
    for addr, k in counts.most_common():
        ins = _instruction(codes, addr)
        if ins is None:
            continue
        jit += k
        if ins[0].startswith("lock") or ins[1].startswith("lock"):
            lock += k
        rows.append((addr, k, ins))
    total = len(samples)
    print(f"{total:,} samples: {jit / total:.1%} in compiled (anonymous executable) code,")
    print(
        f"{lock / total:.1%} on or right after a lock-prefixed instruction "
        f"({lock / max(jit, 1):.1%} of the compiled code's samples)"
    )
    print(f"the {top} busiest instructions of the compiled code:")
    for addr, k, (ins, prev) in rows[:top]:
        print(f"  {k / total:6.2%}  {addr:x}  {ins:34s} after: {prev}")


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        worker(Path(sys.argv[2]), sys.argv[3], sys.argv[4:])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("script")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    for tool in ("perf", "objdump"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} not found: this script needs perf and binutils")
    if not Path(a.script).is_file():
        raise SystemExit(f"no such script: {a.script}")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        cmd = [sys.executable, __file__, "--worker", str(out), a.script, *a.args]
        subprocess.run(
            ["perf", "record", "-q", "-e", "cpu-clock", "-F", "5000", "-o", str(out / "perf.data")]
            + cmd,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        report(out, a.top)


if __name__ == "__main__":
    main()

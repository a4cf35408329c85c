"""Where the All Is Bomb kernel spends its time, line by line, without counters.

`profile_allisbomb_kernel.py` times the parts of a position with cycle counters written into
a copy of the kernel; the counters cost as much as the work they time. This script instead
samples the unchanged kernel with Linux `perf` (`perf record -e cpu-clock`: a timer, so it
works in a VM without hardware counters) and attributes the samples to source lines:

1. It runs itself under `perf record` with a fresh Numba cache and `NUMBA_DEBUGINFO=1`, so
   the kernel is compiled now, with line tables (the machine code is the same optimised
   code; debug info only adds tables).
2. The worker writes each jitted function's ELF object code (`_get_compiled_object()`, kept
   by Numba after a compile) to a temporary directory and a perf map
   (`/tmp/perf-PID.map`: address, size and name of each function), then solves the deals.
3. The script reads the samples (`perf script`), maps each address to its function and to
   the source line of its instruction (`objdump -dl` of the object), and prints the share of
   the samples in each function, in each inlined helper and on each line.

A sample lands on the instruction after the one that waited (skid), and a line's share
includes the cycles other instructions spent waiting on it, so read the figures as where
the time goes, not as exact costs. This is how the store-forwarding stalls of session 6
were found (`s[KW] += 1 << 32` after byte stores to the same word: 3.7% of `dfs`).

    python scripts/perf_allisbomb_kernel.py [--deals 2000] [--reps 8] [--node-limit 20000]
        [--lines 40] [--expansions mosquitos,dream_guide,gifts,the_juice,waking_up,all]

Needs `perf` and `objdump` (Debian: linux-perf, binutils). The compile takes about a minute.
"""

from __future__ import annotations

import argparse
import ast
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "solvers" / "allisbomb"
#: The dispatchers whose machine code is profiled (module, name).
TARGETS = (
    ("kernel", "solve_many"),
    ("kernel", "dfs"),
    ("kernel", "portfolio"),
    ("kernel", "_tt_grow"),
    ("prune", "dead"),
    ("prune", "lower_bound"),
    ("prune", "bound_reaches"),
)


def worker(args: argparse.Namespace, out: Path) -> None:
    """Compile, write the objects and the perf map, then solve the deals (under perf)."""
    sys.path.insert(0, str(ROOT))
    import numpy as np

    from solvers.allisbomb import kernel, prune
    from solvers.allisbomb.cards import load_cards
    from solvers.allisbomb.config import GameConfig
    from solvers.allisbomb.deals import shuffles
    from solvers.allisbomb.solver import solve_batch

    cfg = GameConfig(expansions=tuple(e for e in args.expansions.split(",") if e))
    decks = shuffles(load_cards(cfg).n, args.deals, np.random.default_rng(args.seed))
    solve_batch(cfg, decks[:2], node_limit=args.node_limit, portfolio=False)  # compile
    lines = []
    mods = {"kernel": kernel, "prune": prune}
    for mod, name in TARGETS:
        disp = getattr(mods[mod], name)
        for j, cres in enumerate(disp.overloads.values()):
            lib = cres.library
            obj = lib._get_compiled_object()
            path = out / f"{mod}.{name}.{j}.o"
            path.write_bytes(obj)
            syms = _symbols(path)
            entry = cres.fndesc.mangled_name
            base = lib.get_pointer_to_function(entry) - syms[entry][0]
            for sym, (off, size) in syms.items():
                lines.append(f"{base + off:x} {size:x} {sym}")
            (out / f"{mod}.{name}.{j}.entry").write_text(f"{entry} {base + syms[entry][0]:x}")
    Path(f"/tmp/perf-{os.getpid()}.map").write_text("\n".join(lines) + "\n")
    (out / "pid").write_text(str(os.getpid()))
    t = time.process_time()
    nodes = 0
    for _ in range(args.reps):
        nodes += int(
            solve_batch(cfg, decks, node_limit=args.node_limit, portfolio=False)["nodes"].sum()
        )
    dt = time.process_time() - t
    (out / "rate").write_text(f"{nodes} {dt}")


def _symbols(path: Path) -> dict[str, tuple[int, int]]:
    """The defined functions of an object file: name -> (offset, size)."""
    text = subprocess.run(
        ["nm", "-S", "--defined-only", str(path)], capture_output=True, text=True, check=True
    ).stdout
    out = {}
    for ln in text.splitlines():
        p = ln.split()
        if len(p) == 4 and p[2] in "tT":
            out[p[3]] = (int(p[0], 16), int(p[1], 16))
    return out


def _line_table(path: Path, entry: str) -> dict[int, tuple[str, int]]:
    """Offset (from the entry symbol) of each instruction of `entry` -> (file, line)."""
    text = subprocess.run(
        ["objdump", "-dl", "--no-show-raw-insn", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    table: dict[int, tuple[str, int]] = {}
    inside, start, cur = False, 0, ("?", 0)
    for ln in text.splitlines():
        m = re.match(r"^([0-9a-f]+) <(.*)>:", ln)
        if m:
            inside = m.group(2) == entry
            start = int(m.group(1), 16)
            continue
        if not inside:
            continue
        m = re.match(r"^(/\S+):(\d+)", ln)
        if m:
            cur = (Path(m.group(1)).name, int(m.group(2)))
            continue
        m = re.match(r"^\s+([0-9a-f]+):", ln)
        if m:
            table[int(m.group(1), 16) - start] = cur
    return table


def _functions() -> dict[str, list[tuple[int, int, str]]]:
    """Each source file's top-level functions as (first line, last line, name)."""
    out = {}
    for f in ("kernel.py", "prune.py", "layout.py"):
        tree = ast.parse((SRC / f).read_text())
        out[f] = [
            (n.lineno, n.end_lineno or n.lineno, n.name)
            for n in tree.body
            if isinstance(n, ast.FunctionDef)
        ]
    return out


def report(out: Path, data: Path, n_lines: int) -> None:
    samples = subprocess.run(
        ["perf", "script", "-i", str(data), "-F", "ip,sym"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    funcs = _functions()
    sources = {f: (SRC / f).read_text().splitlines() for f in funcs}
    nodes, dt = (float(x) for x in (out / "rate").read_text().split())
    print(f"{nodes:,.0f} positions in {dt:.2f} CPU-s under perf: {nodes / dt / 1e6:.2f} M/s")
    per_entry = {}
    for e in sorted(out.glob("*.entry")):
        entry, addr = e.read_text().split()
        per_entry[entry] = (int(addr, 16), e.with_suffix(".o"), e.stem)
    counts = collections.Counter()
    by_entry: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    jit = 0
    for ln in samples:
        p = ln.split()
        if len(p) < 2:
            continue
        for entry, (addr, _, label) in per_entry.items():
            if p[1] == entry:
                by_entry[entry][int(p[0], 16) - addr] += 1
                counts[label] += 1
                jit += 1
                break
    if not jit:
        raise SystemExit("no samples in the kernel's functions: did perf record run?")
    print(f"{jit:,} samples in the jitted functions; share of each:")
    for label, c in counts.most_common():
        print(f"  {c / jit:6.1%}  {label}")
    for entry, cnt in by_entry.items():
        _, obj, label = per_entry[entry]
        total = sum(cnt.values())
        if total < 0.05 * jit:
            continue
        table = _line_table(obj, entry)
        by_line = collections.Counter()
        by_func = collections.Counter()
        for off, c in cnt.items():
            f, line = table.get(off, ("?", 0))
            by_line[(f, line)] += c
            name = next((nm for a, b, nm in funcs.get(f, []) if a <= line <= b), f)
            by_func[f"{f[:-3]}.{name}" if f in funcs else f] += c
        print(f"\n{label}: {total:,} samples; by the function each line belongs to (inlined):")
        for name, c in by_func.most_common(20):
            print(f"  {c / total:6.1%}  {name}")
        print(f"{label}: the {n_lines} busiest lines:")
        for (f, line), c in by_line.most_common(n_lines):
            text = sources[f][line - 1].strip()[:72] if f in sources and line else ""
            print(f"  {c / total:6.2%}  {f}:{line:<5} {text}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--reps", type=int, default=8)
    ap.add_argument("--node-limit", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--lines", type=int, default=40)
    ap.add_argument(
        "--expansions",
        default="",
        help="comma-separated expansions (default: the base game), e.g. "
        "mosquitos,dream_guide,gifts,the_juice,waking_up,all",
    )
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args, Path(args.worker))
        return
    for tool in ("perf", "objdump", "nm"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} not found: this script needs perf and binutils")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        env = dict(os.environ, NUMBA_DEBUGINFO="1", NUMBA_CACHE_DIR=str(out / "cache"))
        env["OPENBLAS_NUM_THREADS"] = "1"
        data = out / "perf.data"
        cmd = [sys.executable, __file__, "--worker", str(out), "--deals", str(args.deals)]
        cmd += ["--reps", str(args.reps), "--node-limit", str(args.node_limit)]
        cmd += ["--seed", str(args.seed), "--expansions", args.expansions]
        subprocess.run(
            ["perf", "record", "-q", "-e", "cpu-clock", "-F", "10000", "-o", str(data), *cmd],
            env=env,
            check=True,
            stderr=subprocess.DEVNULL,
        )
        try:
            report(out, data, args.lines)
        finally:
            pid = (out / "pid").read_text() if (out / "pid").exists() else None
            if pid:
                Path(f"/tmp/perf-{pid}.map").unlink(missing_ok=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Benchmark the report step of an All Is Bomb sweep: this tree's `allisbomb report`
against an older revision's, on the same finished sweep, alternately in one run.

    python scripts/bench/bench_allisbomb_report.py DIR --old-python PY [--reps 3] [--out FILE]

DIR is a finished sweep that keeps its chunks, e.g.

    bombsolve allisbomb sweep --configs base,base+all,blitz --deals 2000 --seed 7 \\
        --no-report --out DIR

PY is the python of an environment where the older revision is installed (for example
``git archive REV | tar -x -C /tmp/old`` and a venv with ``pip install --no-deps -e
/tmp/old``). Each repetition runs the old command and then this tree's (``python -m
bombsolve.cli allisbomb report DIR --out TMP``, each into a fresh folder) and times each
as a whole process: CPU seconds (user + system of the child, so that other work on a
shared machine counts as little as possible) and wall seconds. Prints each repetition,
the medians and the ratios new/old of the medians.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _run(python: str, study: Path, out: Path) -> tuple[float, float]:
    """CPU and wall seconds of one `allisbomb report` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [python, "-m", "bombsolve.cli", "allisbomb", "report", str(study), "--out", str(out)],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("study", type=Path, help="a finished sweep folder with its chunks")
    ap.add_argument("--old-python", required=True, help="python with the older revision")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--out", type=Path, default=None, help="also write the figures as JSON")
    args = ap.parse_args()
    times: dict[str, list[tuple[float, float]]] = {"old": [], "new": []}
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(args.reps):
            for side, python in (("old", args.old_python), ("new", sys.executable)):
                cpu, wall = _run(python, args.study, Path(tmp) / f"{side}{rep}")
                times[side].append((cpu, wall))
                print(f"rep {rep + 1} {side}: {cpu:.2f} CPU-s, {wall:.2f} s wall", flush=True)
    med = {
        side: {
            "cpu_s": statistics.median(c for c, _ in t),
            "wall_s": statistics.median(w for _, w in t),
        }
        for side, t in times.items()
    }
    ratio = {k: med["new"][k] / med["old"][k] for k in ("cpu_s", "wall_s")}
    print(
        f"median old {med['old']['cpu_s']:.2f} CPU-s ({med['old']['wall_s']:.2f} s wall), "
        f"new {med['new']['cpu_s']:.2f} CPU-s ({med['new']['wall_s']:.2f} s wall); "
        f"new/old {ratio['cpu_s']:.3f} CPU, {ratio['wall_s']:.3f} wall"
    )
    if args.out:
        args.out.write_text(
            json.dumps({"study": str(args.study), "median": med, "new_over_old": ratio}, indent=1)
            + "\n"
        )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Decide chunks of an All Is Bomb sweep folder again with this checkout's code and compare
them with the rows the folder holds.

    python scripts/results/allisbomb_recheck_chunks.py results/allisbomb/standin-v2/headline/matrix \
        --chunks 40 --seed 7 [--out FILE.json]

A study grown in place (a ceiling raised, a split added) keeps the chunks its earlier runs
made; this is how to check that the code of the last run gives those rows too. Draws
`--chunks` chunk numbers uniformly (numpy seed `--seed`), runs the sweep's chunk function
(`study.sweep_chunk`) on each with the study's own parameters, and compares every column
but the timing (`seconds`) cell by cell. Prints one line per chunk and exits 1 if any row
differs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

#: Columns that measure the run, not the game.
TIMING = ("seconds",)
#: Columns a grown study's later runs add, and what a chunk made before them holds: a
#: chunk kept when the split was added had every deal decided by the passes (0 searches).
ADDED_LATER = {"split_searches": 0}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("study", type=Path)
    ap.add_argument("--chunks", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()

    import numpy as np
    import pandas as pd

    from bombsolve.solvers.allisbomb import sweep_chunk
    from bombsolve.solvers.common.runner import ChunkPlan, load_manifest, load_study

    manifest = load_manifest(args.study)
    ident = manifest["identity"]
    if ident.get("study") != "allisbomb.sweep":
        print(f"{args.study} is not an All Is Bomb sweep", file=sys.stderr)
        return 2
    plan = ChunkPlan(ident["n_cases"], ident["chunk_size"], ident["seed"])
    rows = load_study(args.study)
    picks = np.sort(
        np.random.default_rng(args.seed).choice(
            len(plan), size=min(args.chunks, len(plan)), replace=False
        )
    )
    report = []
    bad = 0
    for i in picks.tolist():
        spec = plan[i]
        t = time.process_time()
        new = sweep_chunk(ident["params"], spec).reset_index(drop=True)
        cpu = time.process_time() - t
        old = rows[(rows["case"] >= spec.start) & (rows["case"] < spec.stop)].reset_index(drop=True)
        for col, value in ADDED_LATER.items():
            if col in old.columns:
                old[col] = old[col].fillna(value)
        cols = [c for c in new.columns if c not in TIMING]
        missing = [c for c in cols if c not in old.columns]
        same = not missing and len(old) == len(new)
        diff_cols = []
        if same:
            for c in cols:
                a, b = old[c], new[c]
                eq = (a == b) | (pd.isna(a) & pd.isna(b))
                if not bool(eq.all()):
                    diff_cols.append(c)
            same = not diff_cols
        bad += not same
        report.append(
            {
                "chunk": i,
                "rows": len(new),
                "same": same,
                "differ": diff_cols or missing,
                "cpu_s": round(cpu, 2),
            }
        )
        print(
            f"chunk {i}: {len(new)} rows, {'same' if same else 'DIFFERENT ' + str(diff_cols or missing)}"
            f" ({cpu:.1f} CPU-s)",
            flush=True,
        )
    print(f"{len(picks) - bad} of {len(picks)} chunks give the same rows")
    if args.out:
        args.out.write_text(
            json.dumps({"study": str(args.study), "seed": args.seed, "chunks": report}, indent=1)
            + "\n"
        )
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())

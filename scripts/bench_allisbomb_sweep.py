#!/usr/bin/env python3
"""Benchmark the All Is Bomb sweep (issue 3 part 6): deals per second, and Dask overhead.

    python scripts/bench_allisbomb_sweep.py --deals 4000

Runs the same base-set sweep (same seed, same chunks) three ways on this machine: one
worker process, a local process pool of all cores, and a real local Dask cluster (a
scheduler and one single-threaded worker per core, as separate processes). Prints deals
per second for each, the Dask path's overhead against the process pool, the time that
1,000,000 base deals would take at the pool's rate, and checks that the three tables agree.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--deals", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chunk-size", type=int, default=250)
    ap.add_argument(
        "--out", default=str(ROOT / "results" / "allisbomb" / "sweep_bench.json"), help="JSON"
    )
    args = ap.parse_args()

    from solvers.allisbomb.config import GameConfig
    from solvers.allisbomb.solver import solve_batch
    from solvers.allisbomb.study import sweep_study
    from solvers.common.cluster import LocalDaskCluster
    from solvers.common.files import write_text_atomic
    from solvers.common.runner import run_study

    cores = len(os.sched_getaffinity(0))
    load = round(os.getloadavg()[0], 2)
    study = sweep_study(
        [GameConfig()], args.deals, args.seed, heuristic_deals=0, chunk_size=args.chunk_size
    )
    t0 = time.perf_counter()
    solve_batch(GameConfig(), [list(range(18))], node_limit=10)
    print(f"first-run compile/load: {time.perf_counter() - t0:.2f} s")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, kwargs in (("1 process", {"workers": 1}), (f"pool x{cores}", {"workers": cores})):
            t0 = time.perf_counter()
            results[name] = run_study(study, Path(tmp) / name, progress=False, **kwargs)
            results[name + " s"] = time.perf_counter() - t0
        with LocalDaskCluster(Path(tmp), n_workers=cores) as cluster:
            t0 = time.perf_counter()
            results["dask"] = run_study(
                study, Path(tmp) / "dask", scheduler=cluster.address, progress=False
            )
            results["dask s"] = time.perf_counter() - t0

    base = results["1 process"].drop(columns=["seconds"])
    for name in (f"pool x{cores}", "dask"):
        assert base.equals(results[name].drop(columns=["seconds"])), f"{name} table differs"
    undecided = int((results["1 process"]["outcome"] == "undecided").sum())
    print(
        f"base set, {args.deals} deals, seed {args.seed}, chunks of {args.chunk_size}, "
        f"{undecided} undecided; tables identical across the three runs"
    )
    for name in ("1 process", f"pool x{cores}", "dask"):
        s = results[name + " s"]
        print(
            f"  {name:>10}: {s:8.2f} s  {args.deals / s:9.1f} deals/s  ({args.deals / s / (1 if name == '1 process' else cores):.1f} per core)"
        )
    pool_s, dask_s = results[f"pool x{cores} s"], results["dask s"]
    print(f"Dask overhead against the process pool: {100 * (dask_s / pool_s - 1):+.1f}%")
    print(
        f"1,000,000 base deals at the pool's rate: {1e6 / (args.deals / pool_s) / 60:.1f} minutes "
        "(goal: 15)"
    )
    summary = {
        "config": "base (stand-in cards)",
        "deals": args.deals,
        "seed": args.seed,
        "chunk_size": args.chunk_size,
        "cores": cores,
        "load_average_at_start": load,
        "undecided": undecided,
        "tables_identical": True,
        "seconds": {
            k: round(results[k + " s"], 2) for k in ("1 process", f"pool x{cores}", "dask")
        },
        "dask_overhead_vs_pool_percent": round(100 * (dask_s / pool_s - 1), 1),
    }
    write_text_atomic(args.out, json.dumps(summary, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: complete 5-player Catch the Bomber games with random agents, kernel vs reference.

Usage:

    python scripts/bench/bomber_bench.py [--games 1000000] [--ref-games 3000] [--json PATH]

Plays the same seeds in the Numba kernel and in the plain-Python reference engine (with
the same random agent stream, so the games are identical) on one core, and reports games
per second for each, their ratio, and the ratio to the goal of 50,000 kernel games per
second per core. Per-core rates divide by this process's CPU time (the machine may be
shared); wall-clock rates are shown beside them. The kernel's first-call compile (or cache
load) time is reported apart.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np  # noqa: E402

from bombsolve.solvers.bomber import (  # noqa: E402
    AGENT_SALT,
    apply_in_place,
    legal_actions,
    prepare,
    run_random_games,
)
from bombsolve.solvers.common.host import cpu_model  # noqa: E402
from bombsolve.solvers.common.rng import SplitMix64  # noqa: E402

GOAL = 50_000.0


def reference_games(seeds) -> list[int]:
    outcomes = []
    for s in seeds:
        g = prepare(5, int(s))
        rng = SplitMix64(int(s) ^ AGENT_SALT)
        while not g.over:
            legal = legal_actions(g)
            apply_in_place(g, legal[rng.below(len(legal))])
        outcomes.append(int(g.result.outcome))
    return outcomes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--ref-games", type=int, default=3_000)
    ap.add_argument("--json", default=None, help="Also write the figures to this file.")
    args = ap.parse_args()
    if not 1 <= args.ref_games <= args.games:
        # bad input: one line, exit 2 (argparse's own convention), nothing written
        ap.error(
            f"--games {args.games} and --ref-games {args.ref_games}: expected "
            "1 <= --ref-games <= --games (the reference replays the kernel's first games)"
        )

    t0 = time.perf_counter()
    run_random_games(np.arange(2, dtype=np.uint64), 5)
    compile_s = time.perf_counter() - t0

    seeds = np.arange(args.games, dtype=np.uint64)
    # The machine may be shared: per-core rates use this process's CPU time, wall-clock
    # rates are reported beside them; best of three runs.
    best_cpu = best_wall = float("inf")
    for _ in range(3):
        c0, t0 = time.process_time(), time.perf_counter()
        res = run_random_games(seeds, 5)
        best_cpu = min(best_cpu, time.process_time() - c0)
        best_wall = min(best_wall, time.perf_counter() - t0)
    kernel_rate = args.games / best_cpu

    ref_seeds = seeds[: args.ref_games]
    c0, t0 = time.process_time(), time.perf_counter()
    ref = reference_games(ref_seeds)
    ref_cpu, ref_wall = time.process_time() - c0, time.perf_counter() - t0
    ref_rate = args.ref_games / ref_cpu
    same = ref == [int(x) for x in res[: args.ref_games, 0]]

    figures = {
        "benchmark": "Catch the Bomber, 5 players, random agents, complete games, one core",
        "kernel_games": args.games,
        "kernel_games_per_cpu_s": round(kernel_rate),
        "kernel_games_per_wall_s": round(args.games / best_wall),
        "kernel_compile_or_cache_load_s": round(compile_s, 2),
        "reference_games": args.ref_games,
        "reference_games_per_cpu_s": round(ref_rate, 1),
        "reference_games_per_wall_s": round(args.ref_games / ref_wall, 1),
        "kernel_to_reference_ratio": round(kernel_rate / ref_rate, 1),
        "goal_games_per_core_s": GOAL,
        "kernel_to_goal_ratio": round(kernel_rate / GOAL, 2),
        "same_outcomes_on_shared_seeds": same,
        "machine": platform.machine(),
        "cpu": cpu_model(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }
    for k, v in figures.items():
        print(f"{k:<34} {v}")
    if args.json:
        from bombsolve.solvers.common.files import write_text_atomic

        write_text_atomic(args.json, json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()

"""Benchmark the `allisbomb play` session: the time to give the verdict of every legal move
of a turn (results/PERFORMANCE.md, "The play session").

For each configuration, `--games` seeded deals (seeds 0..N-1) are followed as a session
follows them (solvers/allisbomb/search/session.py, its cache carried from turn to turn as in
a real session): each turn the verdicts of all its moves are searched and timed, then the
best move is played (the hint: the shortest win), or the first move when none wins, until
the game ends. The kernel is compiled (or loaded from Numba's cache) before any timing, so
a compile never counts. Figures: the median and the 95th percentile over all turns, in
process CPU seconds (a shared core slows the wall clock, not this) and wall seconds, and
how many searches the reference search and the kernel answered.

    python scripts/bench/play_turns.py [--games 100] [--configs base,base+all] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bombsolve.solvers.allisbomb import (  # noqa: E402
    Options,
    Session,
    best_move,
    compiled,
    deals,
    parse_expansions,
    prepare,
    solve,
)
from bombsolve.solvers.common.host import cpu_model  # noqa: E402


def config_of(name: str) -> Options:
    """'base' or 'base+EXPANSION+...' as the game's options."""
    extra = name.split("+")[1:]
    return Options(expansions=tuple(parse_expansions(",".join(extra)) if extra else ())).validate()


def warm(config: Options) -> None:
    """Compile (or load) the kernel's solve form for `config` before any timing."""
    # at the session's node limit: the table it allocates is the one the timed searches use
    solve(config, deals.deal_from_seed(config, 0), check=False)


def follow(config: Options, seed: int) -> list[dict]:
    """One game followed by a session: per turn, its moves and the seconds of their verdicts."""
    s = Session(prepare(compiled(config).cards, deals.deal_from_seed(config, seed)))
    turns = []
    while not s.state.is_over():
        before = dict(s.engines)
        c0, w0 = time.process_time(), time.perf_counter()
        verdicts = s.move_verdicts()
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        engines = {e: k - before.get(e, 0) for e, k in s.engines.items()}
        turns.append({"moves": len(verdicts), "cpu": cpu, "wall": wall, **engines})
        best = best_move(verdicts)
        s.play((best or verdicts[0]).move)
    return turns


def summary(turns: list[dict]) -> dict:
    cpu = np.array([t["cpu"] for t in turns])
    wall = np.array([t["wall"] for t in turns])
    return {
        "turns": len(turns),
        "moves_median": float(np.median([t["moves"] for t in turns])),
        "moves_max": int(max(t["moves"] for t in turns)),
        "cpu_median": float(np.median(cpu)),
        "cpu_p95": float(np.percentile(cpu, 95)),
        "cpu_max": float(cpu.max()),
        "wall_median": float(np.median(wall)),
        "wall_p95": float(np.percentile(wall, 95)),
        "reference_searches": int(sum(t.get("reference", 0) for t in turns)),
        "kernel_searches": int(sum(t.get("kernel", 0) for t in turns)),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--configs", default="base,base+all")
    ap.add_argument("--json", default=None, help="Also write the figures as JSON to this file.")
    args = ap.parse_args()
    out = {"cpu": cpu_model(), "games": args.games, "configs": {}}
    for name in args.configs.split(","):
        config = config_of(name)
        warm(config)
        turns: list[dict] = []
        t0 = time.perf_counter()
        for seed in range(args.games):
            turns += follow(config, seed)
        figures = summary(turns)
        figures["total_wall"] = time.perf_counter() - t0
        out["configs"][name] = figures
        print(
            f"{name}: {args.games} games, {figures['turns']} turns (moves a turn: median "
            f"{figures['moves_median']:g}, max {figures['moves_max']}); verdicts of a turn: "
            f"median {figures['cpu_median'] * 1000:.1f} ms CPU ({figures['wall_median'] * 1000:.1f} "
            f"ms wall), 95th percentile {figures['cpu_p95'] * 1000:.1f} ms CPU "
            f"({figures['wall_p95'] * 1000:.1f} ms wall), max {figures['cpu_max']:.2f} s CPU; "
            f"searches: {figures['reference_searches']} by the reference search, "
            f"{figures['kernel_searches']} by the kernel",
            flush=True,
        )
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()

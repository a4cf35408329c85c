"""Solve the deals of `bombsolve allisbomb --seed 0..N-1` and write a table (results builder).

    python scripts/allisbomb_seeds.py [--n 1000] [--node-limit 3000000] [--blitz]

Writes results/allisbomb/seeds-<label>.csv (one row per seed: seed, rank, outcome, nodes,
turns, loss_reason) and a .json summary with the Wilson 95% interval of the win rate
(undecided deals counted against each end) and the card files' SHA-256. Stand-in cards.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.allisbomb.cards import load_cards  # noqa: E402
from solvers.allisbomb.config import GameConfig  # noqa: E402
from solvers.allisbomb.deals import deal_from_seed, rank  # noqa: E402
from solvers.allisbomb.solver import solve_batch  # noqa: E402
from solvers.common.files import atomic_path, write_text_atomic  # noqa: E402
from solvers.common.stats import wilson_undecided  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--node-limit", type=int, default=3_000_000)
    ap.add_argument("--blitz", action="store_true")
    args = ap.parse_args()
    cfg = GameConfig(blitz=args.blitz)
    cs = load_cards(cfg)
    decks = np.array([deal_from_seed(cfg, s) for s in range(args.n)], np.int64)
    solve_batch(cfg, decks[:1], node_limit=10)  # load the kernel first
    t = time.perf_counter()
    cpu = time.process_time()
    out = solve_batch(cfg, decks, node_limit=args.node_limit)
    secs = time.perf_counter() - t
    cpu = time.process_time() - cpu
    names = {1: "win", 0: "loss", 2: "undecided"}
    df = pd.DataFrame(
        {
            "seed": np.arange(args.n),
            "rank": [str(rank(d)) for d in decks],
            "outcome": [names[int(c)] for c in out["code"]],
            "nodes": out["nodes"],
            "turns": out["turns"],
            "loss_reason": out["reason"],
            "cards": "stand-in" if cs.is_stand_in() else "user",
        }
    )
    stem = ROOT / "results" / "allisbomb" / f"seeds-{cfg.label()}"
    with atomic_path(stem.with_suffix(".csv")) as tmp:
        df.to_csv(tmp, index=False)
    wins = int((df.outcome == "win").sum())
    und = int((df.outcome == "undecided").sum())
    lo, hi = wilson_undecided(wins, und, args.n)
    summary = {
        "config": cfg.to_dict(),
        "cards": "stand-in",
        "card_files": {Path(k).name: v for k, v in cs.file_hashes().items()},
        "seeds": f"0..{args.n - 1} (np.random.default_rng(seed).permutation)",
        "node_limit": args.node_limit,
        "search": "portfolio: two move orders side by side; nodes are the sum of both",
        "n": args.n,
        "win": wins,
        "loss": int((df.outcome == "loss").sum()),
        "undecided": und,
        "win_rate_wilson95": [round(lo, 4), round(hi, 4)],
        "seconds": round(secs, 2),
        "cpu_seconds": round(cpu, 2),
        "mean_cpu_ms_per_deal": round(1000 * cpu / args.n, 2),
        "median_nodes": float(df.nodes.median()),
        "first_losing_seeds": df.seed[df.outcome == "loss"].head(10).tolist(),
    }
    write_text_atomic(stem.with_suffix(".json"), json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()

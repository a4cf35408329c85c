#!/usr/bin/env python3
"""Benchmark the portfolio search's card order (solvers/allisbomb/ordering.py): positions and
CPU seconds with the order off (cards tried by id) and on, on the same deals, in one run.

    nice -n 15 python scripts/bench_allisbomb_move_order.py [--reps 1] [--out FILE]

Configurations (stand-in cards of the default version, rule options at their defaults):
base (400 deals), Blitz (2,000), base+all (200), six expansions (1,000) and six expansions +
HANDS (400), from `deals.shuffles(n, k, default_rng(21))`, one portfolio pass at 3,000,000
positions (`solver.solve_batch`, a sweep's first pass); and the hard six-expansion sample of
`--hard-sample` (deals a pass at 200,000 positions leaves undecided) at 6,400,000. Each
repetition times off then on (process CPU time); reported: positions of each, the hardest
deal's positions, CPU-s of the fastest repetition, the median of the paired on/off time
ratios, and the deals whose verdicts differ where both decided (must be 0).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every deal count")
    ap.add_argument(
        "--hard-sample", default=str(ROOT / "results" / "allisbomb" / "hard-six-sample-v2.json")
    )
    ap.add_argument("--out", default=None, help="JSON summary")
    args = ap.parse_args()

    import numpy as np

    from solvers.allisbomb.config import EXPANSIONS, GameConfig
    from solvers.allisbomb.deals import shuffles, unrank
    from solvers.allisbomb.program import move_order
    from solvers.allisbomb.solver import compiled, solve_batch

    six = GameConfig(expansions=EXPANSIONS)
    hard = json.loads(Path(args.hard_sample).read_text())
    n6 = compiled(six).cards.n
    cases = [
        ("base", GameConfig(), 400, 3_000_000, None),
        ("blitz", GameConfig(blitz=True), 2000, 3_000_000, None),
        ("base+all", GameConfig(expansions=("all",)), 200, 3_000_000, None),
        ("six", six, 1000, 3_000_000, None),
        ("six+hands", GameConfig(expansions=EXPANSIONS, hands=True), 400, 3_000_000, None),
        ("six, hard", six, 0, 6_400_000, [unrank(int(r), n6) for r in hard["ranks"]]),
    ]
    rows = []
    for name, cfg, k, limit, fixed in cases:
        n = compiled(cfg).cards.n
        decks = (
            np.array(fixed, np.int64)
            if fixed is not None
            else shuffles(n, max(1, int(k * args.scale)), np.random.default_rng(21))
        )
        solve_batch(cfg, decks[:1], node_limit=10)  # compile / load outside the timings
        secs = {False: [], True: []}
        res = {}
        for _ in range(args.reps):
            for on in (False, True):
                with move_order(cfg, on):
                    t = time.process_time()
                    res[on] = solve_batch(cfg, decks, node_limit=limit)
                    secs[on].append(time.process_time() - t)
        off, on = res[False], res[True]
        both = (off["code"] != 2) & (on["code"] != 2)
        row = {
            "config": cfg.label(),
            "case": name,
            "deals": len(decks),
            "node_limit": limit,
            "positions_off": int(off["nodes"].sum()),
            "positions_on": int(on["nodes"].sum()),
            "positions_ratio_off_on": round(off["nodes"].sum() / on["nodes"].sum(), 4),
            "hardest_off": int(off["nodes"].max()),
            "hardest_on": int(on["nodes"].max()),
            "cpu_s_off": round(min(secs[False]), 3),
            "cpu_s_on": round(min(secs[True]), 3),
            "cpu_ratio_on_off_median": round(
                statistics.median(b / a for a, b in zip(secs[False], secs[True], strict=True)),
                3,
            ),
            "undecided_off": int((off["code"] == 2).sum()),
            "undecided_on": int((on["code"] == 2).sum()),
            "verdicts_differ": int((off["code"][both] != on["code"][both]).sum()),
        }
        if fixed is not None:
            row["per_deal_off"] = off["nodes"].tolist()
            row["per_deal_on"] = on["nodes"].tolist()
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        meta = {
            "command": "python scripts/bench_allisbomb_move_order.py " + " ".join(sys.argv[1:]),
            "reps": args.reps,
            "cards": "stand-in (default version)",
            "clock": "process CPU time, fastest repetition; ratio = median of paired on/off",
        }
        Path(args.out).write_text(json.dumps({**meta, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

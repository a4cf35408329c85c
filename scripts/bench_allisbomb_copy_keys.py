#!/usr/bin/env python3
"""Benchmark the copy-symmetric table keys (solvers/allisbomb/copies.py): positions and CPU
seconds with the keys off and on, on the same deals, in one run.

    nice -n 10 python scripts/bench_allisbomb_copy_keys.py [--reps 3] [--out FILE]

Configurations (stand-in cards, the default card version, rule options at their defaults):
base (400 deals), base+all (200), all six expansions (150), each from
`deals.shuffles(n, k, default_rng(2026))`, one portfolio pass at 3,000,000 positions
(`solver.solve_batch`, what a sweep's first pass runs); and a fixed sample of hard
six-expansion deals, decided at `--hard-limit` (default 6,400,000, one pass): the first
`--hard` (20) of the 3,000 deals of `default_rng(21)` (the sample of
results/allisbomb/escalation-six.json) that one pass at 200,000 positions leaves undecided
(keys off). The sample's ranks are kept in `--hard-sample` and read back from there on a
later run, so it stays fixed.

Each repetition times off and on alternately (process CPU time); reported: positions of
each (the same every repetition), CPU-s of the fastest repetition of each, the median of
the paired on/off time ratios, and the deals whose verdicts differ where both decided
(must be 0).
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


def hard_sample(path: Path, count: int) -> list[int]:
    """Ranks of the hard six-expansion deals (docstring); computed once, then read back."""
    import numpy as np

    from solvers.allisbomb.config import EXPANSIONS, GameConfig
    from solvers.allisbomb.deals import rank, shuffles
    from solvers.allisbomb.program import copy_keys
    from solvers.allisbomb.solver import compiled, solve_batch

    if path.exists():
        return [int(r) for r in json.loads(path.read_text())["ranks"]][:count]
    cfg = GameConfig(expansions=EXPANSIONS)
    decks = shuffles(compiled(cfg).cards.n, 3000, np.random.default_rng(21))
    with copy_keys(cfg, False):
        out = solve_batch(cfg, decks, node_limit=200_000)
    idx = [int(i) for i in np.flatnonzero(out["code"] == 2)][:count]
    ranks = [rank(decks[i]) for i in idx]
    path.write_text(
        json.dumps(
            {
                "config": cfg.label(),
                "cards": "stand-in",
                "selection": "deals.shuffles(n, 3000, default_rng(21)); the first "
                f"{count} that one portfolio pass at 200,000 positions (copy keys off) "
                "leaves undecided",
                "indices": idx,
                "ranks": [str(r) for r in ranks],
            },
            indent=1,
        )
        + "\n"
    )
    return ranks


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--hard", type=int, default=20)
    ap.add_argument("--hard-limit", type=int, default=6_400_000)
    ap.add_argument(
        "--hard-sample",
        default=str(ROOT / "results" / "allisbomb" / "hard-six-sample.json"),
    )
    ap.add_argument("--out", default=None, help="JSON summary")
    args = ap.parse_args()

    import numpy as np

    from solvers.allisbomb.config import EXPANSIONS, GameConfig
    from solvers.allisbomb.deals import shuffles, unrank
    from solvers.allisbomb.program import copy_keys
    from solvers.allisbomb.solver import compiled, solve_batch

    six = GameConfig(expansions=EXPANSIONS)
    ranks = hard_sample(Path(args.hard_sample), args.hard)
    n6 = compiled(six).cards.n
    cases = [
        ("base", GameConfig(), 400, 3_000_000, None),
        ("base+all", GameConfig(expansions=("all",)), 200, 3_000_000, None),
        ("six", six, 150, 3_000_000, None),
        ("six, hard", six, len(ranks), args.hard_limit, [unrank(r, n6) for r in ranks]),
    ]
    rows = []
    for name, cfg, k, limit, fixed in cases:
        n = compiled(cfg).cards.n
        decks = (
            np.array(fixed, np.int64)
            if fixed is not None
            else shuffles(n, k, np.random.default_rng(2026))
        )
        solve_batch(cfg, decks[:1], node_limit=10)  # compile / load outside the timings
        secs = {False: [], True: []}
        res = {}
        for _ in range(args.reps):
            for on in (False, True):
                with copy_keys(cfg, on):
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
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        meta = {
            "command": "python scripts/bench_allisbomb_copy_keys.py " + " ".join(sys.argv[1:]),
            "reps": args.reps,
            "cards": "stand-in (default version)",
            "clock": "process CPU time, fastest repetition; ratio = median of paired on/off",
        }
        Path(args.out).write_text(json.dumps({**meta, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

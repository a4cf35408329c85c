#!/usr/bin/env python3
"""Estimate the CPU a matrix with 0 undecided deals needs: escalation on a sample per config.

    nice -n 15 python scripts/allisbomb_matrix_cost.py [--deals 200] [--seed 5] [--out FILE]

For each configuration of the study matrix (`study.matrix_configs`, stand-in cards of the
default version, rule options at their defaults), decides `--deals` uniform deals
(`deals.shuffles`, default_rng([seed, index])) by escalation (escalate.py: first pass
3,000,000 positions, doubling up to 51,200,000), and reports the CPU seconds per deal and
what the matrix's sweep would cost at that rate: 1,000,000 deals for base and Blitz,
100,000 for the others (issue: half-width about 0.06 and at most 0.2 points). The mean
cost per deal is dominated by the few hardest deals, so a small sample can miss them: the
figure is a rough estimate, printed with the sample's largest deal. Deals left undecided at
the ceiling are counted (0 needed).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--only", default=None, help="one configuration's label")
    ap.add_argument("--out", default=None, help="JSON summary")
    args = ap.parse_args()

    import numpy as np

    from solvers.allisbomb.deals import rank, shuffles
    from solvers.allisbomb.escalate import Escalation, solve_escalating
    from solvers.allisbomb.kernel import CODE_UNDECIDED
    from solvers.allisbomb.solver import compiled, solve_batch
    from solvers.allisbomb.study import matrix_configs

    policy = Escalation()
    rows = []
    total = 0.0
    for i, cfg in enumerate(matrix_configs()):
        if args.only and cfg.label() != args.only:
            continue
        n = compiled(cfg).cards.n
        decks = shuffles(n, args.deals, np.random.default_rng([args.seed, i]))
        solve_batch(cfg, decks[:1], node_limit=10)  # compile / load outside the timing
        t = time.process_time()
        res = solve_escalating(cfg, decks, policy)
        cpu = time.process_time() - t
        und = res["code"] == CODE_UNDECIDED
        target = 1_000_000 if cfg.label() in ("base", "blitz") else 100_000
        hours = cpu / len(decks) * target / 3600
        total += hours
        row = {
            "config": cfg.label(),
            "deals": len(decks),
            "cpu_s": round(cpu, 2),
            "ms_per_deal": round(1000 * cpu / len(decks), 3),
            "max_positions": int(res["nodes"].max()),
            "hardest_rank": str(rank(decks[int(np.argmax(res["nodes"]))])),
            "undecided": int((res["code"] == CODE_UNDECIDED).sum()),
            "undecided_ranks": [str(rank(decks[i])) for i in np.flatnonzero(und)],
            "target_deals": target,
            "core_hours": round(hours, 3),
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    print(f"matrix at 0 undecided: about {total:.1f} core-hours at these rates", flush=True)
    if args.out:
        meta = {
            "command": "python scripts/allisbomb_matrix_cost.py " + " ".join(sys.argv[1:]),
            "policy": policy.to_dict(),
            "cards": "stand-in (default version)",
            "core_hours_total": round(total, 2),
        }
        Path(args.out).write_text(json.dumps({**meta, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

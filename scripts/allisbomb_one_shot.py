#!/usr/bin/env python3
"""Positions to decide deals with and without the one-shot refinement of `prune.dead`.

    nice -n 10 python scripts/allisbomb_one_shot.py --deals results/allisbomb/hands-v2/six-hands-undecided.jsonl \
        [--only 7,10,19] [--first 400000] [--ceiling 12800000] [--sides off,on] > OUT.jsonl

Reads deals (config label and rank) from a JSON-lines file of scripts/allisbomb_hard_deals.py,
and decides each by `escalate.solve_escalating` (first pass --first, doubling up to
--ceiling), once with the refinement switched off in the kernel (the seed mask of
`prune.one_shot_seeds` in `info` set to 0: `dead` then skips it, as before it existed)
and once on. One JSON line per deal and side: verdict code, positions over every pass, the
deciding limit, CPU seconds. The switch is the kernel's only (the plain-Python reference
reads the card analysis, not `info`), so it serves this measurement, not the searches.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


@contextmanager
def one_shot(config, on: bool):
    """Within the block the kernel's `dead` uses the one-shot refinement iff `on`."""
    from solvers.allisbomb.program import compiled_program
    from solvers.allisbomb.prune import fast_start

    info = compiled_program(config).info
    at = fast_start(compiled_program(config).n) + 4
    old = info[at : at + 2].copy()
    if not on:
        info[at : at + 2] = 0
    try:
        yield
    finally:
        info[at : at + 2] = old


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", required=True, help="JSON lines with config, deal, rank")
    ap.add_argument("--only", default=None, help="comma-separated deal numbers")
    ap.add_argument("--first", type=int, default=400_000)
    ap.add_argument("--ceiling", type=int, default=12_800_000)
    ap.add_argument("--sides", default="off,on")
    args = ap.parse_args()

    import numpy as np

    from solvers.allisbomb.deals import unrank
    from solvers.allisbomb.escalate import Escalation, escalation_line
    from solvers.allisbomb.solver import compiled, solve_batch
    from solvers.allisbomb.study import matrix_configs

    policy = Escalation(args.first, args.ceiling)
    by_label = {c.label(): c for c in matrix_configs()}
    rows = [json.loads(x) for x in Path(args.deals).read_text().splitlines() if x.strip()]
    if args.only:
        keep = {int(x) for x in args.only.split(",")}
        rows = [r for r in rows if r["deal"] in keep]
    for r in rows:
        cfg = by_label[r["config"]]
        n = compiled(cfg).cards.n
        deck = np.array([unrank(int(r["rank"]), n)], dtype=np.int64)
        solve_batch(cfg, deck, node_limit=10)  # compile / load outside the timing
        for side in args.sides.split(","):
            with one_shot(cfg, side == "on"):
                line = escalation_line(
                    cfg, deck, policy, config=r["config"], deal=r["deal"], one_shot=side
                )
            print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Decide a study's undecided deals by escalation, one deal at a time (positions, CPU each).

    nice -n 10 python scripts/allisbomb_hard_deals.py --study results/allisbomb/standin-v2/matrix \
        --config base+all+hands [--first 400000] [--ceiling 51200000] [--max-deals N] > OUT.jsonl
    nice -n 10 python scripts/allisbomb_hard_deals.py --config base/2p --ranks R1,R2 > OUT.jsonl

Reads the study's chunks (the 'undecided' rows of one configuration, in deal order), or
takes the deals by rank (`--ranks R1,R2,...`, printed by every solve; no --study), and
decides each deal by `escalate.solve_escalating` (first pass --first, doubling up to
--ceiling), printing one JSON line a deal: its verdict code (kernel.CODE_*), the positions
over every pass, the limit of the deciding pass, and the CPU seconds. One deal a call, so
a long run reports as it goes and can be stopped at any time.
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", help="a matrix folder with chunks/*.parquet")
    ap.add_argument("--ranks", help="comma-separated deal ranks instead of a study's rows")
    ap.add_argument("--config", required=True, help="a configuration's label")
    ap.add_argument("--first", type=int, default=400_000)
    ap.add_argument("--ceiling", type=int, default=51_200_000)
    ap.add_argument("--max-deals", type=int, default=None)
    args = ap.parse_args()

    import numpy as np
    import pandas as pd

    from solvers.allisbomb.deals import unrank
    from solvers.allisbomb.escalate import Escalation, escalation_line
    from solvers.allisbomb.solver import compiled, solve_batch
    from solvers.allisbomb.study import matrix_configs
    from solvers.common.errors import BadInput

    try:
        policy = Escalation(args.first, args.ceiling)
    except BadInput as e:
        print(e, file=sys.stderr)
        return 2
    cfgs = [c for c in matrix_configs() if c.label() == args.config]
    if (args.study is None) == (args.ranks is None):
        print("give --study or --ranks", file=sys.stderr)
        return 2
    files = sorted(glob.glob(str(Path(args.study) / "chunks" / "*.parquet"))) if args.study else []
    if not cfgs or (args.study and not files):
        print(f"no configuration {args.config!r} or no chunks in {args.study}", file=sys.stderr)
        return 2
    cfg = cfgs[0]
    n = compiled(cfg).cards.n
    if args.ranks:
        ranks = [r.strip() for r in args.ranks.split(",") if r.strip()]
        rows = pd.DataFrame({"deal": range(len(ranks)), "rank": ranks})
    else:
        df = pd.concat(pd.read_parquet(f) for f in files)
        rows = df[(df.config == args.config) & (df.outcome == "undecided")].sort_values("deal")
    if args.max_deals is not None:
        rows = rows.head(args.max_deals)
    decks = [np.array([unrank(int(r), n)], dtype=np.int64) for r in rows["rank"]]
    if decks:
        solve_batch(cfg, decks[0], node_limit=10)  # compile / load outside the timing
    for deal, r, deck in zip(rows["deal"], rows["rank"], decks, strict=True):
        line = escalation_line(cfg, deck, policy, config=args.config, deal=int(deal), rank=str(r))
        print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Compare two sweep folders of the same deals, deal by deal (before / after a search change).

    python scripts/allisbomb_compare_sweeps.py BEFORE_DIR AFTER_DIR [--json OUT]

Both folders are `bombsolve allisbomb sweep` outputs with the same configurations, deals and
seed (their ranks must agree). Prints how many deals both decided and on how many the
verdicts differ (a search change that only prunes or reorders must give 0), then per
configuration: undecided before / after, positions summed, their ratio, the rows' seconds
summed, the 99th percentile and the largest positions of a deal (the hardest deal's
seconds, and after the change its deal index and verdict), as a Markdown table.
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
from pathlib import Path


def load(folder: str):
    import pandas as pd

    files = sorted(glob.glob(str(Path(folder) / "chunks" / "*.parquet")))
    if not files:
        raise SystemExit(f"no chunks in {folder}")
    return pd.concat(pd.read_parquet(f) for f in files)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args()

    import numpy as np

    m = load(args.before).merge(load(args.after), on=["config", "deal"], suffixes=("_b", "_a"))
    if not (m.rank_b == m.rank_a).all():
        print("the folders do not hold the same deals", file=sys.stderr)
        return 2
    both = (m.outcome_b != "undecided") & (m.outcome_a != "undecided")
    differ = int((m.outcome_b[both] != m.outcome_a[both]).sum())
    print(f"{len(m):,} deals, {int(both.sum()):,} decided both ways, verdicts differ on {differ}")
    print()
    print(
        "| configuration | undecided before / after | positions before | after | before/after "
        "| seconds before | after | p99 positions before / after | hardest before / after |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    rows = []
    for cfg in dict.fromkeys(m.config):  # in the sweep's order
        g = m[m.config == cfg]
        hb, ha = g.loc[g.nodes_b.idxmax()], g.loc[g.nodes_a.idxmax()]
        r = {
            "config": cfg,
            "deals": len(g),
            "undecided": [
                int((g.outcome_b == "undecided").sum()),
                int((g.outcome_a == "undecided").sum()),
            ],
            "positions": [int(g.nodes_b.sum()), int(g.nodes_a.sum())],
            "seconds": [round(float(g.seconds_b.sum()), 2), round(float(g.seconds_a.sum()), 2)],
            "p99": [int(np.percentile(g.nodes_b, 99)), int(np.percentile(g.nodes_a, 99))],
            "median": [float(g.nodes_b.median()), float(g.nodes_a.median())],
            "hardest": [
                [int(hb.nodes_b), round(float(hb.seconds_b), 2), int(hb.deal), hb.outcome_b],
                [int(ha.nodes_a), round(float(ha.seconds_a), 2), int(ha.deal), ha.outcome_a],
            ],
        }
        rows.append(r)
        (pb, pa), (sb, sa) = r["positions"], r["seconds"]
        hb_, ha_ = r["hardest"]
        print(
            f"| {cfg} | {r['undecided'][0]} / {r['undecided'][1]} | {pb:,} | {pa:,} | "
            f"{pb / max(pa, 1):.2f} | {sb:.1f} | {sa:.1f} | {r['p99'][0]:,} / {r['p99'][1]:,} | "
            f"{hb_[0]:,} ({hb_[1]:.2f} s, {hb_[3]}) / {ha_[0]:,} ({ha_[1]:.2f} s, deal {ha_[2]}, {ha_[3]}) |"
        )
    if args.json:
        out = {
            "deals": len(m),
            "decided_both": int(both.sum()),
            "verdicts_differ": differ,
            "configs": rows,
        }
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

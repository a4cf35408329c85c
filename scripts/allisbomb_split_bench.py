#!/usr/bin/env python3
"""The split (solvers/allisbomb/split.py) against the escalation on a sweep's hardest deals.

    python scripts/allisbomb_split_bench.py --study results/allisbomb/standin-v2-matrix/matrix \
        --from 12800000 --depth 4 --limit 3200000 --seconds 300 --out FILE.json

For every deal of the sweep folder that its escalation decided at a pass of `--from`
positions or more (its chunks must be there), splits the deal from its first turn, each
child searched with `--limit` positions, to `--depth` turns, and prints the split's verdict,
positions, children searched and CPU seconds beside the row's (every pass of the
escalation). A deal the split has not decided within `--seconds` is reported as stopped.
The verdicts must agree wherever both decided (the script exits 1 otherwise).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _one(study: str, case: int, depth: int, limit: int, queue) -> None:
    from solvers.allisbomb.cards import load_cards
    from solvers.allisbomb.deals import unrank
    from solvers.allisbomb.rules import new_game
    from solvers.allisbomb.split import solve_split
    from solvers.allisbomb.study import sweep_case

    c = sweep_case(study, case)
    cs = load_cards(c["config"])
    state = new_game(cs, unrank(c["rank"], cs.n))
    t = time.process_time()
    res = solve_split(state, depth=depth, node_limit=limit)
    queue.put(
        {
            "outcome": res.outcome,
            "nodes": res.nodes,
            "searches": res.searches,
            "depth": res.depth,
            "turns": len(res.solution),
            "cpu_s": round(time.process_time() - t, 2),
        }
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", required=True)
    ap.add_argument("--from", dest="start", type=int, default=12_800_000)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--limit", type=int, default=3_200_000)
    ap.add_argument("--seconds", type=float, default=300.0)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()

    from solvers.common.runner import load_study

    rows = load_study(args.study)
    hard = rows[(rows["decided_at"] >= args.start) & (rows["outcome"] != "undecided")]
    hard = hard.sort_values("nodes")
    ctx = mp.get_context("spawn")
    out = []
    bad = 0
    print(
        "| case | configuration | row: verdict, positions, s | split: verdict, positions, "
        "children, CPU-s |"
    )
    print("|---:|---|---|---|")
    for _, r in hard.iterrows():
        queue = ctx.Queue()
        p = ctx.Process(
            target=_one, args=(args.study, int(r["case"]), args.depth, args.limit, queue)
        )
        p.start()
        p.join(args.seconds)
        if p.is_alive():
            p.terminate()
            p.join()
            got = {"outcome": "stopped", "seconds": args.seconds}
            split_text = f"stopped after {args.seconds:.0f} s"
        else:
            got = queue.get()
            split_text = f"{got['outcome']}, {got['nodes']:,}, {got['searches']}, {got['cpu_s']}"
            if got["outcome"] in ("win", "loss") and got["outcome"] != r["outcome"]:
                bad += 1
        line = {
            "case": int(r["case"]),
            "config": r["config"],
            "rank": str(r["rank"]),
            "row": {"outcome": r["outcome"], "nodes": int(r["nodes"]), "seconds": r["seconds"]},
            "split": got,
        }
        out.append(line)
        print(
            f"| {line['case']} | {r['config']} | {r['outcome']}, {int(r['nodes']):,}, "
            f"{r['seconds']:.1f} | {split_text} |",
            flush=True,
        )
    if args.out:
        params = {k: getattr(args, k) for k in ("study", "start", "depth", "limit", "seconds")}
        args.out.write_text(json.dumps({"params": params, "deals": out}, indent=1) + "\n")
    if bad:
        print(f"{bad} verdicts differ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python
"""Campaign Mode's keep-most search with and without branch and bound, back to back.

    nice -n 10 python scripts/bench_campaign_bound.py --campaigns 20 --seed 1 \\
        --node-limit 1000000 --json /tmp/campaign_bound.json

Campaign i is played twice from the same generator (`default_rng([seed, i])`): with the
plain exhaustive keep-most search (`play_campaign(bound=False)`, kernel.dfs best_mode 1)
and with branch and bound (`bound=True`, best_mode 2), one after the other, so both see
the same machine load. The first game's deal is the same for both; later deals can differ
when the two searches keep different cards. Reported per search: CPU and wall seconds per
campaign, positions per campaign, the share of won games proven best, mean points, and on
the first game (same deal) how often the two chose wins losing the same number of stars.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
from solvers.allisbomb.campaign import play_campaign  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--campaigns", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--node-limit", type=int, default=1_000_000)
    ap.add_argument("--json", default=None, help="also write the figures here")
    args = ap.parse_args()
    # compile (or load from the cache) before timing anything
    play_campaign(np.random.default_rng(0), node_limit=2_000, bound=False)
    play_campaign(np.random.default_rng(0), node_limit=2_000, bound=True)
    runs: dict[str, list[dict]] = {"plain": [], "bound": []}
    for i in range(args.campaigns):
        for name, bound in (("plain", False), ("bound", True)):
            c0, t0 = time.process_time(), time.perf_counter()
            r = play_campaign(
                np.random.default_rng([args.seed, i]), node_limit=args.node_limit, bound=bound
            )
            runs[name].append(
                {
                    "cpu": time.process_time() - c0,
                    "wall": time.perf_counter() - t0,
                    "nodes": r.nodes,
                    "points": r.points,
                    "wins": sum(o == "win" for o in r.outcomes),
                    "proven": sum(r.best),
                    "outcomes": r.outcomes,
                    "stars_lost": r.stars_lost,
                }
            )
        p, b = runs["plain"][-1], runs["bound"][-1]
        print(
            f"campaign {i}: plain {p['cpu']:.1f} s cpu {p['nodes']:,} pos {p['proven']}/"
            f"{p['wins']} proven, {p['points']} pts | bound {b['cpu']:.1f} s cpu "
            f"{b['nodes']:,} pos {b['proven']}/{b['wins']} proven, {b['points']} pts",
            flush=True,
        )
    summary = {"campaigns": args.campaigns, "seed": args.seed, "node_limit": args.node_limit}
    for name, rows in runs.items():
        wins = sum(r["wins"] for r in rows)
        summary[name] = {
            "cpu_s_per_campaign": float(np.mean([r["cpu"] for r in rows])),
            "wall_s_per_campaign": float(np.mean([r["wall"] for r in rows])),
            "positions_per_campaign": float(np.mean([r["nodes"] for r in rows])),
            "games_won": wins,
            "won_games_proven_best": sum(r["proven"] for r in rows),
            "share_proven_best": sum(r["proven"] for r in rows) / max(1, wins),
            "mean_points": float(np.mean([r["points"] for r in rows])),
        }
    first = [(p["stars_lost"][0], b["stars_lost"][0]) for p, b in zip(*runs.values(), strict=True)]
    summary["first_game_same_stars"] = sum(a == b for a, b in first)
    summary["first_game_bound_fewer_stars"] = sum(
        a is not None and b is not None and b < a for a, b in first
    )
    print(json.dumps(summary, indent=2))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": summary, "runs": runs}, f, indent=1)


if __name__ == "__main__":
    main()

"""Solve the deals of `bombsolve allisbomb --seed 0..N-1` and write a table (results builder).

    python scripts/results/allisbomb_seeds.py [--n 1000] [--node-limit 3000000] [--blitz]
    python scripts/results/allisbomb_seeds.py --readme-only    # rewrite the block only

Writes results/allisbomb/standin-v1/seeds-<label>.csv (one row per seed: seed, rank, outcome, nodes,
turns, loss_reason) and a .json summary with the Wilson 95% interval of the win rate
(undecided deals counted against each end) and the card files' SHA-256. Stand-in cards.
Then rewrites the generated block `allisbomb-seeds` of results/allisbomb/README.md (the "first 1,000 seeds"
table, one row per seeds-*.json present, base first) from those JSON summaries, so the
table is never typed by hand (`bombsolve.solvers.common.readme.update_block` refuses to overwrite
a block edited by hand).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bombsolve.solvers.allisbomb import (  # noqa: E402
    Options,
    load_cards,
    solve_batch,
)
from bombsolve.solvers.allisbomb import deals as D  # noqa: E402
from bombsolve.solvers.common.files import atomic_path, write_text_atomic  # noqa: E402
from bombsolve.solvers.common.readme import update_block  # noqa: E402
from bombsolve.solvers.common.stats import wilson_undecided  # noqa: E402

RESULTS = ROOT / "results" / "allisbomb" / "standin-v1"
#: The file that holds the block (the README shows only the headline results).
README = ROOT / "results" / "allisbomb" / "README.md"
#: The README line after which the block goes if it is missing.
ANCHOR = (
    "**The first 1,000 seeds** (written by `scripts/results/allisbomb_seeds.py`, never by hand):"
)
ROW_ORDER = ("base", "blitz")


def readme_block(summaries: list[dict]) -> str:
    """The README's seeds table and the figures under it, from seeds-*.json summaries."""
    n_set = sorted({s["n"] for s in summaries})
    limits = sorted({s["node_limit"] for s in summaries})
    lines = [
        f"(`python scripts/results/allisbomb_seeds.py [--blitz]`, seeds 0..{n_set[-1] - 1}, node limit "
        f"{', '.join(f'{x:,}' for x in limits)}, portfolio search, stand-in cards; tables in "
        "`results/allisbomb/standin-v1/seeds-*`):",
        "",
        "| game | N | win | loss | undecided | win rate (Wilson 95%) | median positions searched "
        "| mean CPU per deal |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for s in summaries:
        lo, hi = s["win_rate_wilson95"]
        name = "Blitz" if s["config"]["label"] == "blitz" else s["config"]["label"]
        lines.append(
            f"| {name} | {s['n']} | {s['win']} | {s['loss']} | {s['undecided']} | "
            f"{100 * s['win'] / s['n']:.1f}% [{100 * lo:.1f}%, {100 * hi:.1f}%] | "
            f"{s['median_nodes']:,.0f} | {s['mean_cpu_ms_per_deal']:.2f} ms |"
        )
    lines.append("")
    for s in summaries:
        if "top1pct_node_share" in s:
            lines.append(
                f"{s['config']['label']}: the top 1% of deals by positions searched take "
                f"{100 * s['top1pct_node_share']:.0f}% of all positions; lost deals average "
                f"{_count(s['mean_nodes_lost'])} positions, won deals "
                f"{_count(s['mean_nodes_won'])}.  "
            )
    return "\n".join(lines).rstrip("\n") + "\n"


def _count(x: float | None) -> str:
    return "(none)" if x is None else f"{x:,.0f}"


def write_readme(readme: Path = README) -> bool:
    """Rewrite the README block `allisbomb-seeds` from results/allisbomb/standin-v1/seeds-*.json."""
    found = {p.stem.removeprefix("seeds-"): p for p in RESULTS.glob("seeds-*.json")}
    order = [k for k in ROW_ORDER if k in found] + sorted(k for k in found if k not in ROW_ORDER)
    summaries = [json.loads(found[k].read_text()) for k in order]
    if not summaries:
        return False
    return update_block(readme, "allisbomb-seeds", readme_block(summaries), anchor=ANCHOR)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--node-limit", type=int, default=3_000_000)
    ap.add_argument("--blitz", action="store_true")
    ap.add_argument(
        "--readme-only", action="store_true", help="only rewrite the README block from the JSON"
    )
    args = ap.parse_args()
    if args.readme_only:
        write_readme()
        return
    cfg = Options(blitz=args.blitz)
    cs = load_cards(cfg)
    decks = np.array([D.deal_from_seed(cfg, s) for s in range(args.n)], np.int64)
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
            "rank": [str(D.rank(d)) for d in decks],
            "outcome": [names[int(c)] for c in out["code"]],
            "nodes": out["nodes"],
            "turns": out["turns"],
            "loss_reason": out["reason"],
            "cards": "stand-in" if cs.is_stand_in() else "user",
        }
    )
    stem = RESULTS / f"seeds-{cfg.label()}"
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
        "top1pct_node_share": round(_top_share(df.nodes.to_numpy(), 0.01), 4),
        "mean_nodes_lost": round(float(df.nodes[df.outcome == "loss"].mean()), 1)
        if (df.outcome == "loss").any()
        else None,
        "mean_nodes_won": round(float(df.nodes[df.outcome == "win"].mean()), 1) if wins else None,
        "first_losing_seeds": df.seed[df.outcome == "loss"].head(10).tolist(),
    }
    write_text_atomic(stem.with_suffix(".json"), json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary, indent=1))
    if write_readme():
        print("README block 'allisbomb-seeds' rewritten")


def _top_share(nodes: np.ndarray, fraction: float) -> float:
    """The share of all positions searched that the hardest `fraction` of deals took."""
    k = max(1, int(round(fraction * len(nodes))))
    total = float(nodes.sum())
    return float(np.sort(nodes)[::-1][:k].sum()) / total if total else 0.0


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Regenerate results/allisbomb/: the matrix sweep, the campaign study, and the README table.

    python scripts/allisbomb_results.py                      # the full reference study
    python scripts/allisbomb_results.py --deals 200 --campaigns 40   # a smaller one

Runs `bombsolve allisbomb sweep --matrix` into results/allisbomb/matrix (resumable: re-run
the same command after an interruption), `bombsolve allisbomb campaign` into
results/allisbomb/campaign, then writes the README's generated results block from the
sweep's tables. Nothing in README's block is typed by hand.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--deals", type=int, default=100_000, help="deals per configuration")
    ap.add_argument("--campaigns", type=int, default=1_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--node-limit", type=int, default=5_000_000)
    ap.add_argument("--campaign-node-limit", type=int, default=2_000_000)
    ap.add_argument("--heuristic-deals", type=int, default=1_000)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--chunk-size", type=int, default=1_000)
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "allisbomb")
    args = ap.parse_args()

    bombsolve = [sys.executable, "-m", "cli.main", "allisbomb"]
    workers = ["--workers", str(args.workers)] if args.workers else []
    matrix = args.out / "matrix"
    subprocess.run(
        [
            *bombsolve,
            "sweep",
            "--matrix",
            "--deals",
            str(args.deals),
            "--seed",
            str(args.seed),
            "--node-limit",
            str(args.node_limit),
            "--heuristic-deals",
            str(args.heuristic_deals),
            "--chunk-size",
            str(min(args.chunk_size, args.deals)),
            "--out",
            str(matrix),
            *workers,
        ],
        cwd=ROOT,
        check=True,
    )
    subprocess.run(
        [
            *bombsolve,
            "campaign",
            "--campaigns",
            str(args.campaigns),
            "--seed",
            str(args.seed),
            "--node-limit",
            str(args.campaign_node_limit),
            "--chunk-size",
            "10",
            "--out",
            str(args.out / "campaign"),
            *workers,
        ],
        cwd=ROOT,
        check=True,
    )

    from solvers.common.readme import update_block

    headline = (matrix / "report" / "headline.md").read_text()
    caption = (matrix / "report" / "summary.md").read_text().splitlines()[0]
    caption = caption.removeprefix("<!-- ").removesuffix(" -->")
    campaign = (args.out / "campaign" / "report" / "campaign.md").read_text().split("\n\n", 1)[1]
    rel = (matrix.relative_to(ROOT) if matrix.is_relative_to(ROOT) else matrix) / "report"
    body = (
        f"{headline}\n{caption}.\n\n"
        f"![win rate by configuration]({rel}/win_rate_by_config.png)\n\n"
        f"Campaign mode (rulebook H), same cards:\n\n{campaign}\n"
        f"Regenerate: `python scripts/allisbomb_results.py --deals {args.deals} "
        f"--campaigns {args.campaigns} --seed {args.seed} --node-limit {args.node_limit} "
        f"--campaign-node-limit {args.campaign_node_limit} --heuristic-deals {args.heuristic_deals}`\n"
    )
    update_block(
        ROOT / "README.md",
        "allisbomb-results",
        body,
        anchor="`results/allisbomb/` (never typed by hand):",
    )
    print(f"README block 'allisbomb-results' written from {matrix}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Regenerate the committed Bombastic reference study in results/bombastic/.

    nice -n 10 python scripts/bombastic_reference.py --workers 2   # about 25 minutes
    python scripts/bombastic_reference.py --quick    # a tiny run for checking, elsewhere

Re-running resumes: finished chunks under results/bombastic/runs/ are reused.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solvers.bombastic.study import reference_study  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument(
        "--out", default=str(Path(__file__).resolve().parents[1] / "results" / "bombastic")
    )
    ap.add_argument("--quick", action="store_true", help="tiny sizes (for a smoke test)")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    t0 = time.time()
    if args.quick:
        reference_study(
            args.out,
            games={
                "random": 4,
                "heuristic": 4,
                "greedy": 2,
                "ismcts:20": 2,
                "ismcts-heuristic-guarded:20": 2,
                "omniscient": 2,
            },
            card_games=20,
            kernel_games=2000,
            workers=args.workers,
            agents=(
                "random",
                "heuristic",
                "greedy",
                "ismcts:20",
                "ismcts-heuristic-guarded:20",
                "omniscient",
            ),
            infostate_depth=0,
        )
    else:
        reference_study(args.out, workers=args.workers)
    print(f"done in {time.time() - t0:.0f} s -> {args.out}")


if __name__ == "__main__":
    main()

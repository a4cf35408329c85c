"""Regenerate the committed Bomb the Dragon reference study in results/dragon/.

One command (about 15 minutes of one core; resumable):

    python scripts/results/dragon_results.py                      # -> results/dragon/
    python scripts/results/dragon_results.py --workers 2          # same files, more processes
    python scripts/results/dragon_results.py --redraw             # charts and README block again

It runs, on the shared study runner, the seat study (2 to 6 players; random and greedy in
every seat), the strategy ladder (random, greedy, position at every player count; Monte
Carlo at 4 players), and the rule-readings study (4 players, greedy), then writes the
CSV tables, PNG and SVG charts and manifest.json. The runner's chunk files (about 30 MB of
Parquet) go to --work, outside the repository by default; each study's own runner
manifest (seed, N, options, input hashes) is copied to results/dragon/manifests/.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

from bombsolve.solvers.common.readme import update_block  # noqa: E402
from bombsolve.solvers.dragon import (  # noqa: E402
    REFERENCE_SIZES,
    build_reference,
    draw_reference_charts,
    ladder_markdown,
)

#: The file that holds the block.
README = ROOT / "README.md"
README_ANCHOR = "Strategy ladder (written by `scripts/results/dragon_results.py`):"


def _update_readme(readme: str, tables) -> None:
    """The README's ladder block, its self-play cells tested against the seat study's
    fair share (`ladder_markdown`)."""
    if readme and update_block(
        readme,
        "dragon-ladder",
        ladder_markdown(tables["ladder"], tables["seats"]),
        README_ANCHOR,
    ):
        print(f"updated the ladder table in {readme}")


def main() -> None:
    parser = argparse.ArgumentParser(description="Regenerate results/dragon/.")
    parser.add_argument("--out", default=str(ROOT / "results" / "dragon"))
    parser.add_argument(
        "--work",
        default=str(Path(tempfile.gettempdir()) / "bombsolve-dragon-runs"),
        help="folder for the runner's chunk files (re-run to resume)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every N (quick checks)")
    parser.add_argument("--readme", default=str(README), help="README to update ('' to skip)")
    parser.add_argument(
        "--redraw",
        action="store_true",
        help="only redraw the charts of --out and the README's ladder block from its tables "
        "and manifests (no game played)",
    )
    args = parser.parse_args()
    if args.redraw:
        draw_reference_charts(args.out)
        print(f"redrew the charts of {args.out}")
        tables = {n: pd.read_csv(Path(args.out) / f"{n}.csv") for n in ("ladder", "seats")}
        _update_readme(args.readme, tables)
        return
    sizes = {k: max(2, int(v * args.scale)) for k, v in REFERENCE_SIZES.items()}
    out = Path(args.out)
    t0 = time.perf_counter()
    tables = build_reference(
        out, Path(args.work), seed=args.seed, sizes=sizes, workers=args.workers
    )
    print(f"wrote {out} in {time.perf_counter() - t0:.0f} s")
    if args.scale == 1.0:
        _update_readme(args.readme, tables)
    for name in ("seats", "ladder", "readings"):
        print(f"\n{name}:")
        print(tables[name].to_string(index=False, float_format=lambda x: f"{x:.4f}"))


if __name__ == "__main__":
    from bombsolve.cli.progress import reporting

    with reporting():
        main()

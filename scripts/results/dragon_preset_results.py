"""Regenerate results/dragon/gamepark/: the Game Park preset against the default rules.

    python scripts/results/dragon_preset_results.py                  # -> results/dragon/gamepark/
    python scripts/results/dragon_preset_results.py --seed 2027 --out /tmp/check --readme '' \
        --check results/dragon/gamepark      # fresh seeds: how many land in the intervals
    python scripts/results/dragon_preset_results.py --redraw  # charts again from the committed files
    python scripts/results/dragon_preset_results.py --readme-only  # the README block from them

Every cell is played under the default options and under `--preset gamepark` with the
same seed (solvers/dragon/preset_study.py), so the differences are paired game by game.
The seat study (2 to 6 players, random and greedy in every seat) and the strategy ladder
(one seat of X against a field of Y, seats rotated) run on the shared study runner; its
chunk files go to --work (outside the repository), re-running resumes. Writes CSV tables,
PNG and SVG charts, manifest.json, and the comparison block of results/dragon/README.md.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bombsolve.solvers.common.readme import update_block  # noqa: E402
from bombsolve.solvers.dragon import (  # noqa: E402
    PRESET_SIZES,
    build_preset_study,
    comparison_markdown,
    draw_preset_charts,
    replicate_check,
)

#: The file that holds the block (the README shows only the headline ladder).
README = ROOT / "results" / "dragon" / "README.md"
README_ANCHOR = "Preset gamepark against the default rules (written by `scripts/results/dragon_preset_results.py`):"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "results" / "dragon" / "gamepark"))
    parser.add_argument(
        "--work",
        default=str(Path(tempfile.gettempdir()) / "bombsolve-dragon-preset-runs"),
        help="folder for the runner's chunk files (re-run to resume)",
    )
    parser.add_argument("--preset", default="gamepark")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every N (quick checks)")
    parser.add_argument("--readme", default=str(README), help="README to update ('' to skip)")
    parser.add_argument(
        "--check",
        default=None,
        metavar="DIR",
        help="count how many of this run's differences land inside DIR's intervals",
    )
    parser.add_argument(
        "--redraw",
        action="store_true",
        help="only redraw the charts of --out from its tables and manifests (no game played)",
    )
    parser.add_argument(
        "--readme-only",
        action="store_true",
        help="only rewrite the README's comparison block from --out's tables (no game played)",
    )
    args = parser.parse_args()
    if args.readme_only:
        import pandas as pd

        tables = {
            name: pd.read_csv(Path(args.out) / f"{name}.csv", keep_default_na=False)
            for name in ("paired", "ladder")
        }
        text = comparison_markdown(tables["paired"], tables["ladder"], args.preset)
        if args.readme and update_block(args.readme, "dragon-preset", text, README_ANCHOR):
            print(f"updated the preset comparison in {args.readme}")
        return
    if args.redraw:
        draw_preset_charts(args.out, args.preset)
        print(f"redrew the charts of {args.out}")
        return
    sizes = {k: max(2, int(v * args.scale)) for k, v in PRESET_SIZES.items()}
    t0 = time.perf_counter()
    tables = build_preset_study(
        args.out, Path(args.work) / str(args.seed), args.preset, args.seed, sizes, args.workers
    )
    print(f"wrote {args.out} in {time.perf_counter() - t0:.0f} s")
    text = comparison_markdown(tables["paired"], tables["ladder"], args.preset)
    if args.readme and args.scale == 1.0:
        if update_block(args.readme, "dragon-preset", text, README_ANCHOR):
            print(f"updated the preset comparison in {args.readme}")
    print(text)
    if args.check:
        import pandas as pd

        for name in ("paired", "ladder"):
            first = pd.read_csv(Path(args.check) / f"{name}.csv", keep_default_na=False)
            t = replicate_check(first, tables[name].astype({"field": str}))
            print(f"{name}: this run's differences inside {args.check}'s 95% intervals")
            print(t.to_string(index=False))


if __name__ == "__main__":
    from bombsolve.cli.progress import reporting

    with reporting():
        main()

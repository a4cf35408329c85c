#!/usr/bin/env python3
"""Write the README's All Is Bomb sensitivity and stand-in target blocks from committed results.

    python scripts/allisbomb_sensitivity_readme.py [--study results/allisbomb/sensitivity-v1-base]
        [--targets results/allisbomb/standin-v1/targets.md results/allisbomb/standin-v2/targets.md]

Block `allisbomb-sensitivity`: how to run `bombsolve allisbomb sensitivity` and the largest
effects of the committed study (its caption names cards, deals, seed, player, interval).
Block `allisbomb-standin-targets`: the rulebook's difficulty statements measured on each
stand-in set (the tables `scripts/allisbomb_standin_targets.py` wrote).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.allisbomb.report import to_markdown  # noqa: E402
from solvers.allisbomb.sensitivity import caption, effects  # noqa: E402
from solvers.common.readme import update_block  # noqa: E402
from solvers.common.runner import load_manifest, load_study  # noqa: E402

ANCHOR = "<!-- /generated:allisbomb-players -->"


def sensitivity_block(study: Path, top: int = 8) -> str:
    manifest = load_manifest(study)
    eff = effects(load_study(study), manifest["identity"]["params"])
    eff = eff.assign(size=eff["diff"].abs()).sort_values(["size", "edit"], ascending=[False, True])
    shown = eff.head(top)[
        ["what", "base_rate", "edited_rate", "diff", "lo", "hi", "to_win", "to_loss"]
    ]
    rel = study.relative_to(ROOT) if study.is_absolute() else study
    return "\n".join(
        [
            "**Which card moves the win rate** (`bombsolve allisbomb sensitivity`): every deal is "
            "decided under the cards and under each single edit (one copy fewer, a NUMBER one up "
            "or down, one step of a CARD ACTION dropped), or under a `--variant FILE`; the change "
            "is a paired difference on the same deals with Tango's score interval, and every deal "
            "whose verdict flipped is listed with the command that opens it (`report/flips.csv`, "
            "`--rank` with the edit's card file in `report/cards/`). Largest effects of the "
            f"committed study `{rel}` (tornado chart `{rel}/report/tornado.png`):",
            "",
            to_markdown(shown, ["base_rate", "edited_rate", "diff", "lo", "hi"]).rstrip(),
            "",
            caption(manifest) + ".",
            "",
            f"Regenerate: `{manifest.get('command', 'bombsolve allisbomb sensitivity')}`.",
            "",
        ]
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", type=Path, default=ROOT / "results/allisbomb/sensitivity-v1-base")
    ap.add_argument(
        "--targets",
        type=Path,
        nargs="*",
        default=[
            ROOT / "results/allisbomb/standin-v1/targets.md",
            ROOT / "results/allisbomb/standin-v2/targets.md",
        ],
    )
    a = ap.parse_args()
    readme = ROOT / "README.md"
    update_block(readme, "allisbomb-sensitivity", sensitivity_block(a.study), anchor=ANCHOR)
    parts = [
        "**Stand-in sets against the rulebook's own words** (`python "
        "scripts/allisbomb_standin_targets.py`): what the rulebook says of Blitz, the "
        "expansions and the HANDS, measured on each stand-in card set. Version 1 (the "
        "default) contradicts several statements; version 2 "
        "(`solvers/allisbomb/data/standin-v2.toml`, a DRAFT read with `--cards`) is the "
        "attempt to agree with all of them, and is not the default until every row is met.",
        "",
    ]
    for path in a.targets:
        name = "version 2 draft" if "v2" in path.parent.name else "version 1 (default)"
        parts += [f"*{name}*:", "", path.read_text().rstrip(), ""]
    update_block(
        readme,
        "allisbomb-standin-targets",
        "\n".join(parts),
        anchor="<!-- /generated:allisbomb-sensitivity -->",
    )
    print("README blocks written")


if __name__ == "__main__":
    main()

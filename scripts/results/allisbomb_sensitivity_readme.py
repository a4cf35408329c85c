#!/usr/bin/env python3
"""Write results/allisbomb/README.md's sensitivity and stand-in target blocks from results.

    python scripts/results/allisbomb_sensitivity_readme.py [--study results/allisbomb/standin-v2/sensitivity-base]
        [--also results/allisbomb/standin-v1/sensitivity-base]
        [--targets results/allisbomb/standin-v2/targets.md results/allisbomb/standin-v1/targets.md]

Block `allisbomb-sensitivity`: how to run `bombsolve allisbomb sensitivity` and the largest
effects of the committed study (its caption names cards, deals, seed, player, interval).
Block `allisbomb-standin-targets`: the rulebook's difficulty statements measured on each
stand-in set (the tables `scripts/results/allisbomb_standin_targets.py` wrote). Version 2's
matrix and campaign are in block `allisbomb-results-v2` (`scripts/results/allisbomb_results.py`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bombsolve.solvers.allisbomb import sensitivity as sens  # noqa: E402
from bombsolve.solvers.allisbomb import to_markdown  # noqa: E402
from bombsolve.solvers.common.multiplicity import survivors_note  # noqa: E402
from bombsolve.solvers.common.readme import update_block  # noqa: E402
from bombsolve.solvers.common.runner import load_manifest, load_study  # noqa: E402

#: The file that holds both blocks (the README shows only the headline results).
README = ROOT / "results" / "allisbomb" / "README.md"
ANCHOR = "<!-- /generated:allisbomb-players -->"


def _rel(path: Path) -> Path:
    return path.relative_to(ROOT) if path.is_absolute() else path


#: The effects table's columns as the README prints them.
READABLE = {
    "what": "edit",
    "base_rate": "win, base cards",
    "edited_rate": "win, edited",
    "diff": "change",
    "lo": "change, 95% low",
    "hi": "change, 95% high",
    "to_win": "deals LOSS to WIN",
    "to_loss": "deals WIN to LOSS",
}
PERCENT_COLUMNS = [READABLE[c] for c in ("base_rate", "edited_rate", "diff", "lo", "hi")]


def sensitivity_block(study: Path, top: int = 8, also: tuple[Path, ...] = ()) -> str:
    manifest = load_manifest(study)
    eff = sens.effects(load_study(study), manifest["identity"]["params"])
    eff = eff.assign(size=eff["diff"].abs()).sort_values(["size", "edit"], ascending=[False, True])
    shown = eff.head(top)[
        ["what", "base_rate", "edited_rate", "diff", "lo", "hi", "to_win", "to_loss"]
    ].assign(**{"survives Holm": ["yes" if k else "no" for k in eff.head(top)["holm"]]})
    corrections = (
        f"With {len(eff)} intervals at once about {0.05 * len(eff):.0f} exclude zero by "
        f"chance alone: {survivors_note(int(eff['holm'].sum()), len(eff))}, and "
        f"{int(eff['bh'].sum())} survive the Benjamini-Hochberg correction (false discovery "
        "rate 5%), each tested by the score test its interval inverts (every edit's p-value "
        f"and marks: `{_rel(study)}/report/effects.csv`)."
    )
    rel = _rel(study)
    others = [
        f"`{_rel(p)}` (stand-in set "
        f"{load_manifest(p)['identity']['params']['config'].get('cards_version', 'standin-v1')}, "
        f"tornado chart `{_rel(p)}/report/tornado.png`)"
        for p in also
    ]
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
            to_markdown(shown.rename(columns=READABLE), PERCENT_COLUMNS).rstrip(),
            "",
            sens.caption(manifest) + ".",
            "",
            corrections,
            "",
            f"Regenerate: `{manifest.get('command', 'bombsolve allisbomb sensitivity')}`.",
            "",
            *([f"The same study of earlier card sets: {'; '.join(others)}.", ""] if others else []),
        ]
    )


#: The committed tables of the stand-in target study, in the order the README shows them.
TARGET_TABLES = (
    ROOT / "results/allisbomb/standin-v2/targets.md",
    ROOT / "results/allisbomb/standin-v2/seed1001/targets.md",
    ROOT / "results/allisbomb/standin-v2/seed1002/targets.md",
    ROOT / "results/allisbomb/standin-v1/targets.md",
)


#: What each fresh-seed re-run of version 2 was to the runs before it (the card set was not
#: changed after seed 1, so no re-run was tuned on; what differs is what was seen first).
RERUNS = {
    "seed1001": "the first re-run, looked at: its lookahead sample (100 deals) left cells "
    "not met, and the next run's size was chosen after seeing it",
    "seed1002": "the confirmation: its size (300 lookahead deals, as seed 1) fixed before it "
    "was run, run once; its figures are the ones to quote",
}


def _heading(path: Path) -> str:
    """What a committed targets table is: its card set, and for a re-run its seed."""
    run = path.parent
    if run.name.startswith("seed"):
        note = f"; {RERUNS[run.name]}" if run.name in RERUNS else ""
        return (
            f"{run.parent.name.replace('standin-v', 'version ')}, re-run on fresh seeds "
            f"(seed {run.name.removeprefix('seed')}, which no earlier committed run used{note})"
        )
    return {"standin-v2": "version 2 (default)", "standin-v1": "version 1"}.get(run.name, run.name)


def targets_block(tables: Sequence[Path] = TARGET_TABLES) -> str:
    """The README block `allisbomb-standin-targets`: each committed table under its heading."""
    parts = [
        "**Stand-in sets against the rulebook's own words** (`python "
        "scripts/results/allisbomb_standin_targets.py`): what the rulebook says of Blitz, the "
        "expansions and the HANDS, measured on each stand-in card set (STAND-IN texts, not "
        "the printed cards). Version 2 (`--cards standin-v2`, the default; "
        "`solvers/allisbomb/data/STANDIN-V2.md` says how it meets them) was written to agree "
        "with all of them; version 1 (`--cards standin-v1`, every study before it) "
        "contradicts several. Re-runs of version 2 on fresh seeds say whether its figures "
        "reproduce: each statement judged again, and each win rate checked against the first "
        "run's interval.",
        "",
    ]
    first = None
    for path in tables:
        if not path.is_file():
            continue
        parts += [f"*{_heading(path)}*:", "", path.read_text().rstrip(), ""]
        if path.parent.name.startswith("seed") and first is not None:
            parts += [rerun_verdict(path, first), ""]
        elif first is None:
            first = path
    return "\n".join(parts)


def _sizes(table: Path) -> dict[str, int]:
    """The sizes a targets table was made with, from its Regenerate command."""
    words = table.read_text().split("Regenerate: `")[1].split("`")[0].split()
    return {
        w.removeprefix("--"): int(words[i + 1])
        for i, w in enumerate(words)
        if w in ("--deals", "--look-deals", "--campaigns")
    }


def rerun_verdict(table: Path, first: Path) -> str:
    """In words: which statements a fresh-seed re-run does not confirm, and at what sizes."""
    rows = json.loads((table.parent / "targets.json").read_text())["rows"]
    names = {"perfect": "perfect play", "lookahead": "lookahead player"}
    failed, unmeasured = [], []
    for r in rows:
        if "statement" not in r:  # the campaign row: the lookahead player only
            continue
        for player, name in names.items():
            cell = r.get(player)
            if cell is None:
                unmeasured.append(f"{r['n']} ({name})")
                continue
            if cell["met"]:
                continue
            paired = cell.get("paired", "")
            lo = float(paired.split("[")[1].split("%")[0]) if paired else None
            sign = (
                ""
                if lo is None
                else "; the paired interval is above zero, so the direction holds on these deals "
                "but the two intervals overlap at this size"
                if lo > 0
                else "; the paired interval includes zero: not even the direction is shown"
            )
            failed.append(
                f"{r['n']} ({r['statement']}), {name}: {cell['harder']} vs {cell['easier']}, "
                f"paired {paired}{sign}"
            )
    size, size1 = _sizes(table), _sizes(first)
    words = {
        "deals": "perfect-play deals",
        "look-deals": "lookahead deals",
        "campaigns": "campaigns",
    }
    differ = [
        f"{size[k]:,} {w} (first run {size1[k]:,})" for k, w in words.items() if size[k] != size1[k]
    ]
    return (
        "**Fresh-seed verdict**: "
        + (
            f"{len(failed)} measured cell(s) not met: " + "; ".join(failed) + "."
            if failed
            else "every measured cell met again."
        )
        + (
            f" Not measured in the time the run had: {', '.join(unmeasured)} (the table says "
            "PARTIAL; the same command with `--cache` finishes them)."
            if unmeasured
            else ""
        )
        + (
            " Sizes of the re-run: " + ", ".join(differ) + "; the rest as the first run."
            if differ
            else ""
        )
        + " The first run's seed (1) is the one version 2's drafts were measured and tuned on, "
        "so its figures can lean toward the targets; a re-run's are not."
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--study", type=Path, default=ROOT / "results/allisbomb/standin-v2/sensitivity-base"
    )
    ap.add_argument(
        "--also",
        type=Path,
        nargs="*",
        default=[ROOT / "results/allisbomb/standin-v1/sensitivity-base"],
    )
    ap.add_argument(
        "--targets",
        type=Path,
        nargs="*",
        default=list(TARGET_TABLES),
    )
    a = ap.parse_args()
    readme = README
    block = sensitivity_block(a.study, also=tuple(a.also))
    update_block(readme, "allisbomb-sensitivity", block, anchor=ANCHOR)
    update_block(
        readme,
        "allisbomb-standin-targets",
        targets_block(a.targets),
        anchor="<!-- /generated:allisbomb-sensitivity -->",
    )
    print("README blocks written")


if __name__ == "__main__":
    main()

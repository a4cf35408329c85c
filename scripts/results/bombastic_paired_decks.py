"""First-player rate per deck, and each deck against the base deck on the same deals.

    nice -n 10 python scripts/results/bombastic_paired_decks.py --agent heuristic --games 10000 \
        --decks "base deck,without ALARM"
    python scripts/results/bombastic_paired_decks.py --summary-only --readme   # every deck done

One match study per deck (`study.match_study`, the shared runner, so re-running
resumes) under `OUT/<deck>/`, all with the same seed: case g deals the same tiles in
every deck (`State.setup` shuffles the tiles first; the action deck differs with the
cards in it). A deck run with fewer games than the base deck pairs with the base deck's
first cases (the runner seeds chunk by chunk, so case g draws the same seed). Per deck: X's wins with a Wilson 95% interval; against the base deck, the
paired difference of X's rate over the same cases (mean of per-deal differences, normal
95% interval), its two-sided p-value (the normal test that interval inverts), and whether
the difference survives Holm's correction over every deck of the table (family-wise error
5%: with 11 decks about one 95% interval in two excludes zero by chance somewhere). Writes
`OUT/decks.csv` and the block `--block` (default `bombastic-paired-decks`)
of results/bombastic/README.md.
Deck names are those of `study.card_variants()` ("base deck", "without peek-many", ...).
A game that reaches the turn cap is not an X win.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

from bombsolve.solvers.bombastic import card_variants, match_study  # noqa: E402
from bombsolve.solvers.common.errors import unknown  # noqa: E402
from bombsolve.solvers.common.multiplicity import holm, survivors_note  # noqa: E402
from bombsolve.solvers.common.readme import update_block  # noqa: E402
from bombsolve.solvers.common.runner import computed_by, load_manifest, load_study, run_study  # noqa: E402
from bombsolve.solvers.common.stats import wilson  # noqa: E402

#: The file that holds the blocks (the README shows only the headline ladder).
README = ROOT / "results" / "bombastic" / "README.md"
README_ANCHOR = "<!-- section: bombastic -->"
BASE = "base deck"


def folder(out: Path, deck: str) -> Path:
    return out / deck.replace(" ", "_")


def run(
    agent: str,
    decks: list[str],
    games: int,
    seed: int,
    out: Path,
    workers: int = 1,
    minutes: float | None = None,
) -> None:
    """Run (or resume) each deck's study in turn; with `minutes`, start no chunk after
    that many minutes (the chunks done are kept: a later run resumes)."""
    variants = dict(card_variants())
    deadline = None if minutes is None else time.monotonic() + 60 * minutes
    for deck in decks:
        budget = None if deadline is None else max(0.0, deadline - time.monotonic())
        if budget == 0.0:
            return
        study = match_study(agent, agent, games, seed, variants[deck])
        run_study(study, folder(out, deck), workers=workers, time_budget=budget)


def summarize(out: Path, decks: list[str]) -> tuple[pd.DataFrame, dict]:
    decks = [d for d in decks if (folder(out, d) / "manifest.json").exists()]
    frames = {d: load_study(folder(out, d), partial=True).set_index("case") for d in decks}
    base = frames.get(BASE)
    rows = []
    meta: dict = {"computed_by": set(), "planned": {}}
    for deck, df in frames.items():
        m = load_manifest(folder(out, deck))
        meta["computed_by"].update(computed_by(m).split(", "))  # each commit once
        meta["seed"] = m["identity"]["seed"]
        meta["planned"][deck] = m["identity"]["n_cases"]
        meta["agent"] = m["identity"]["params"]["x"]
        xw = (df["winner"] == 0).astype(float)
        lo, hi = wilson(int(xw.sum()), len(df))
        row = {
            "deck": deck,
            "games": len(df),
            "x_wins": int(xw.sum()),
            "x_rate": xw.mean(),
            "lo": lo,
            "hi": hi,
            "half_width": (hi - lo) / 2,
            "mean_turns": df["turns"].mean(),
            "turn_capped": int((df["ending"] == "TURN_CAP").sum()),
        }
        if base is not None and deck != BASE:
            both = df.index.intersection(base.index)
            # Paired only where case g drew the same seed (studies of other sizes do too:
            # the runner seeds chunk by chunk).
            both = both[(df.loc[both, "seed"] == base.loc[both, "seed"]).to_numpy()]
            d = (df.loc[both, "winner"] == 0).astype(float) - (
                base.loc[both, "winner"] == 0
            ).astype(float)
            se = d.std(ddof=1) / math.sqrt(len(d))
            z = abs(d.mean()) / se if se > 0 else (0.0 if d.mean() == 0 else math.inf)
            row |= {
                "paired_games": len(d),
                "diff_vs_base": d.mean(),
                "diff_lo": d.mean() - 1.96 * se,
                "diff_hi": d.mean() + 1.96 * se,
                "p_value": math.erfc(z / math.sqrt(2)),
            }
        rows.append(row)
    table = pd.DataFrame(rows)
    if "p_value" in table:
        paired = table["p_value"].notna()
        table["holm"] = pd.Series(pd.NA, index=table.index, dtype="boolean")
        table.loc[paired, "holm"] = holm(table.loc[paired, "p_value"].tolist())
    return table, meta


def _pct(rate: float, lo: float, hi: float) -> str:
    return f"{100 * rate:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"


def readme_block(table: pd.DataFrame, meta: dict) -> str:
    lines = [
        "| deck | games | X wins, % [95% CI] | half-width | X's rate minus the base deck's, "
        "same deals, points [95% CI] | mean turns |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in table.to_dict("records"):
        diff = "-"
        if "diff_vs_base" in r and not math.isnan(r.get("diff_vs_base", math.nan)):
            diff = (
                f"{100 * r['diff_vs_base']:+.1f} [{100 * r['diff_lo']:+.1f}, "
                f"{100 * r['diff_hi']:+.1f}] ({int(r['paired_games']):,} deals)"
                f"{' **survives Holm**' if r.get('holm') is True else ''}"
            )
        lines.append(
            f"| {r['deck']} | {r['games']:,} | {_pct(r['x_rate'], r['lo'], r['hi'])} | "
            f"{100 * r['half_width']:.1f} | {diff} | {r['mean_turns']:.1f} |"
        )
    holm_note = ""
    if "holm" in table:
        marked = table["holm"].dropna()
        holm_note = (
            f" {survivors_note(int(marked.sum()), len(marked))}, each tested by the normal "
            "test its interval inverts: those marked **survives Holm**. An interval that "
            "excludes zero without the mark may be one of the flukes expected among this "
            "many."
        )
    lines += [
        "",
        f"`{meta['agent']}` against itself, seed {meta['seed']} for every deck (case g deals "
        f"the same tiles in each); default rules otherwise; a turn-capped game is not an X "
        f"win. Computed by {', '.join(sorted(meta['computed_by']))} "
        f"(`scripts/results/bombastic_paired_decks.py`).{holm_note}",
    ]
    unfinished = [
        f"{r['deck']} {r['games']:,} of {meta['planned'][r['deck']]:,} planned games"
        for r in table.to_dict("records")
        if r["games"] < meta["planned"].get(r["deck"], 0)
    ]
    if unfinished:
        lines.append(f"Unfinished (the study resumes): {'; '.join(unfinished)}.")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--agent", default="heuristic")
    ap.add_argument("--decks", default="all", help="deck names, comma-separated, or all")
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=7100)
    ap.add_argument("--out", type=Path, default=ROOT / "results/bombastic/paired")
    ap.add_argument("--workers", type=int, default=1, help="processes (the same games)")
    ap.add_argument("--minutes", type=float, default=None, help="start no chunk after this")
    ap.add_argument("--summary-only", action="store_true")
    ap.add_argument("--readme", action="store_true", help="rewrite the README block")
    ap.add_argument("--block", default="bombastic-paired-decks", help="README block name")
    args = ap.parse_args()
    names = [n for n, _ in card_variants()]
    if args.decks == "all":
        decks = names
    else:
        decks = [d.strip() for d in args.decks.split(",") if d.strip()]
    for d in decks:
        if d not in names:
            raise SystemExit(str(unknown("deck", d, names)))
    if not args.summary_only:
        run(args.agent, decks, args.games, args.seed, args.out, args.workers, args.minutes)
    table, meta = summarize(args.out, decks)
    table.to_csv(args.out / "decks.csv", index=False)
    block = readme_block(table, meta)
    print(block)
    if args.readme:
        update_block(README, args.block, block, anchor=README_ANCHOR)


if __name__ == "__main__":
    from bombsolve.cli.progress import reporting

    with reporting():
        main()

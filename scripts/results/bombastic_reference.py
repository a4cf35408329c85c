"""Regenerate the committed Bombastic reference study in results/bombastic/.

    nice -n 10 python scripts/results/bombastic_reference.py --workers 2   # about an hour
    python scripts/results/bombastic_reference.py --quick --out /tmp/bs    # a tiny run, elsewhere
    python scripts/results/bombastic_reference.py --blocks-only            # README blocks only
    python scripts/results/bombastic_reference.py --charts-only            # charts and blocks, from the tables

Re-running resumes: finished chunks under results/bombastic/runs/ are reused. At the
end the generated blocks are rewritten from the tables: `bombastic-ladder` in README.md,
`bombastic-first-player` and `bombastic-cards` in results/bombastic/README.md
(`bombsolve.solvers.common.readme.update_block`, which refuses to overwrite a block edited by hand).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

from bombsolve.solvers.bombastic import reference_study  # noqa: E402
from bombsolve.solvers.common.readme import update_block  # noqa: E402
from bombsolve.solvers.common.stats import wilson, wilson_undecided  # noqa: E402

README_ANCHOR = "<!-- section: bombastic -->"
#: Where each block lives: the headline ladder in the README, the rest beside the study.
HOMES = {
    "bombastic-ladder": ROOT / "README.md",
    "bombastic-first-player": ROOT / "results" / "bombastic" / "README.md",
    "bombastic-cards": ROOT / "results" / "bombastic" / "README.md",
}
#: Games per seating from which the README compares a pairing in words.
COMPARED = 2000


def _pct(rate: float, lo: float, hi: float) -> str:
    return f"{100 * rate:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"


def readme_blocks(out: Path) -> dict[str, str]:
    """The README blocks (name -> markdown) built from the study's tables in `out`."""
    manifest = json.loads((out / "manifest.json").read_text())
    seed = manifest["seed"]
    ratings = pd.read_csv(out / "ratings.csv")
    pairs = pd.read_csv(out / "pairings.csv")
    agents = list(ratings["agent"])
    lines = [
        "| agent | rating (Bradley-Terry, Elo scale) [bootstrap 95%] | won, % of its games "
        "against the other agents [95% CI] | those games |",
        "| --- | --- | --- | --- |",
    ]
    others = pairs[pairs["x"] != pairs["o"]]
    for r in ratings.itertuples():
        as_x = others[others["x"] == r.agent]
        as_o = others[others["o"] == r.agent]
        n = int(as_x["games"].sum() + as_o["games"].sum())
        wins = int(as_x["x_wins"].sum() + as_o["o_wins"].sum())
        draws = int(as_x["turn_cap"].sum() + as_o["turn_cap"].sum())
        # Turn-capped games count half in the score; the interval counts them as losses
        # at its low end and as wins at its high end.
        lo, hi = wilson_undecided(wins, draws, n)
        rating = (
            f"{r.rating:.0f} [{r.lo:.0f}, {r.hi:.0f}]" if "lo" in ratings else f"{r.rating:.0f}"
        )
        lines.append(f"| {r.agent} | {rating} | {_pct(r.score, lo, hi)} | {n:,} |")
    lines += [
        "",
        "A turn-capped game counts half in the share won. The opponents differ from agent "
        "to agent (each pairing plays the smaller cap of its two agents), so the shares are "
        "not a ranking; the ratings put them on one scale.",
        "",
        "Head to head: the row agent's wins, % of the games of both seatings against the "
        f"column agent [Wilson 95%] (games); in italics, pairings of fewer than {COMPARED:,} "
        "games per seating: listed, too few to compare.",
        "",
        "| | " + " | ".join(agents) + " |",
        "|---" * (len(agents) + 1) + "|",
    ]
    for a in agents:
        cells = []
        for b in agents:
            if a == b:
                cells.append("-")
                continue
            ab = pairs[(pairs["x"] == a) & (pairs["o"] == b)]
            ba = pairs[(pairs["x"] == b) & (pairs["o"] == a)]
            n = int(ab["games"].sum() + ba["games"].sum())
            k = int(ab["x_wins"].sum() + ba["o_wins"].sum())
            lo, hi = wilson(k, n)
            cell = f"{_pct(k / n, lo, hi)} ({n:,})"
            cells.append(cell if n >= 2 * COMPARED else f"*{cell}*")
        lines.append(f"| **{a}** | " + " | ".join(cells) + " |")
    games = manifest["games_per_seating"]
    lines += [
        "",
        f"Seed {seed}; games per seating: "
        + (
            str(games)
            if isinstance(games, int)
            else "the smaller cap of the two agents ("
            + ", ".join(f"{a} {n}" for a, n in games.items())
            + ")"
        )
        + "; default rules.",
    ]
    ladder = "\n".join(lines) + "\n"

    first = pd.read_csv(out / "first_player.csv")
    lines = [
        "| pairing (both seatings) | games | per seating | first player (X) wins, % [95% CI] |",
        "| --- | --- | --- | --- |",
    ]
    for r in first.itertuples():
        a, _, b = r.pairing.partition(" / ")
        per = r.games if a == b or "kernel" in r.pairing else r.games // 2
        rate = _pct(r.rate, r.lo, r.hi)
        lines.append(
            f"| {r.pairing} | {r.games:,} | {per:,} | {rate if per >= COMPARED else f'*{rate}*'} |"
        )
    lines += [
        "",
        "A turn-capped game counts as not won by X. A self-play pairing has one seating. In "
        f"italics, pairings of fewer than {COMPARED:,} games per seating: listed, too few to "
        "compare.",
    ]
    first_block = "\n".join(lines) + "\n"

    var = pd.read_csv(out / "card_variants.csv")
    usage = pd.read_csv(out / "card_usage.csv")
    card_agent = manifest["card_agent"]
    lines = [
        "| deck | games | X wins, % [95% CI] | O wins | turn cap | mean turns |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in var.itertuples():
        lines.append(
            f"| {r.variant} | {r.games:,} | {_pct(r.x_rate, r.x_lo, r.x_hi)} | {r.o_wins:,} | "
            f"{r.turn_cap} | {r.mean_turns:.1f} |"
        )
    lines += [
        "",
        "| card (base deck) | players who used it | their wins, % [95% CI] |",
        "| --- | --- | --- |",
    ]
    for r in usage.sort_values("win_rate", ascending=False).itertuples():
        lines.append(f"| {r.card} | {r.users:,} | {_pct(r.win_rate, r.lo, r.hi)} |")
    lines += [
        "",
        f"{card_agent} against itself, {manifest['card_games_per_variant']:,} games per deck, "
        f"each deck its own root drawn from SeedSequence({seed}).",
    ]
    cards = "\n".join(lines) + "\n"
    return {
        "bombastic-ladder": ladder,
        "bombastic-first-player": first_block,
        "bombastic-cards": cards,
    }


def write_blocks(out: Path, readme: Path | None = None) -> None:
    """Rewrite the generated Bombastic blocks from the tables in `out`: each in its file of
    `HOMES`, or all in `readme` when given."""
    anchors: dict[Path, str] = {}
    for name, body in readme_blocks(out).items():
        path = readme if readme is not None else HOMES[name]
        changed = update_block(path, name, body, anchor=anchors.get(path, README_ANCHOR))
        print(f"{path}: block {name} {'updated' if changed else 'unchanged'}")
        anchors[path] = f"<!-- /generated:{name} -->"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(ROOT / "results" / "bombastic"))
    ap.add_argument("--quick", action="store_true", help="tiny sizes (for a smoke test)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument(
        "--readme",
        default=None,
        help="write every block into this file ('' to write none; default: each into its "
        "file of HOMES, the ladder into README.md, the others into results/bombastic/README.md)",
    )
    ap.add_argument("--blocks-only", action="store_true", help="only rewrite the README blocks")
    ap.add_argument(
        "--charts-only",
        action="store_true",
        help="redraw the charts from the tables and manifests in --out, then the blocks",
    )
    args = ap.parse_args()
    t0 = time.time()
    out = Path(args.out)
    if args.charts_only:
        from bombsolve.solvers.bombastic import draw_reference_charts

        print("charts: " + ", ".join(draw_reference_charts(out)))
    if args.blocks_only or args.charts_only:
        if args.readme != "":
            write_blocks(out, Path(args.readme) if args.readme else None)
        return
    if args.quick:
        reference_study(
            out,
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
        reference_study(out, workers=args.workers)
    print(f"done in {time.time() - t0:.0f} s -> {out}")
    if args.readme != "":
        write_blocks(out, Path(args.readme) if args.readme else None)


if __name__ == "__main__":
    from bombsolve.cli.progress import reporting

    with reporting():
        main()

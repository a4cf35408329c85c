#!/usr/bin/env python3
"""Regenerate results/allisbomb/standin-v1/ (or --out): the matrix sweep, the campaign study,
and the README table.

    python scripts/results/allisbomb_results.py                        # the reference study
    python scripts/results/allisbomb_results.py --time-budget 60       # one hour of it, then resume
    python scripts/results/allisbomb_results.py --deals 500 --campaigns 40 --out /tmp/ab  # a small one
    python scripts/results/allisbomb_results.py --redraw               # charts again, nothing solved
    python scripts/results/allisbomb_results.py --readme-only          # the README block alone
    python scripts/results/allisbomb_results.py --escalate --first-limit 200000 --out DIR  # no tail left undecided

The matrix sweep (`bombsolve allisbomb sweep --matrix`: every standard configuration) goes
into ``OUT/matrix`` and the campaign study (`bombsolve allisbomb campaign`) into
``OUT/campaign``, both on the shared study runner, then the README's generated block
``allisbomb-results`` is written from their tables. Nothing in that block is typed by hand.

The reference study is long (100,000 deals of each of 19 configurations). ``--time-budget
MINUTES`` stops starting sweep chunks after that long (``--campaign-budget`` does the same
for the campaigns, which run first); re-running the same command resumes. Every
chunk of the sweep holds every configuration (the cases interleave them), so a study
stopped part-way holds the same number of deals, a uniform sample, of each configuration. Its report then says how many of the
planned deals are in, and the README block says the study is in progress.

The reference study's chunk files (Parquet, about 50 bytes per deal) are not committed
(a smaller study's are, e.g. stand-in v2's reduced matrix, so it resumes); the manifests, the
tables and the charts are, and every chart of the report is drawn from the tables beside
it (the difficulty CDF from per-deal counts on a grid of node counts, the solution
lengths from counts per turn), so ``--redraw`` redraws them from the committed files.

``--escalate`` decides each deal in passes (`bombsolve.solvers.allisbomb.search.escalate`): first at
``--first-limit`` positions, then the deals left undecided again at doubled limits up to
``--node-limit`` (default then 51,200,000). The verdicts are those of one pass at the
ceiling; only the undecided tail is searched further, so the whole matrix costs little more
than its first pass.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bombsolve.solvers.allisbomb import (  # noqa: E402
    CARD_VERSIONS,
    CEILING,
    DEFAULT_CARDS,
    FIRST_LIMIT,
    SPLIT_LIMIT,
    Escalation,
    campaign_caption,
    campaign_study,
    caption,
    headline_table,
    matrix_configs,
    redraw_report,
    summarize,
    sweep_study,
    write_campaign_report,
    write_index_page,
    write_report,
)
from bombsolve.solvers.common.errors import BadInput  # noqa: E402
from bombsolve.solvers.common.files import write_text_atomic  # noqa: E402
from bombsolve.solvers.common.readme import update_block  # noqa: E402
from bombsolve.solvers.common.runner import load_manifest, load_study, run_study  # noqa: E402

#: The file that holds each block: the default card set's headline in the README, the
#: earlier set's study beside its results (any other block name: the README).
HOMES = {"allisbomb-results": ROOT / "results" / "allisbomb" / "README.md"}


def block_home(block: str) -> Path:
    """The Markdown file that holds the generated block `block`."""
    return HOMES.get(block, ROOT / "README.md")


def _progress_text(counts, planned: int, labels) -> str:
    counts = counts.reindex(labels).fillna(0).astype(int)
    lo, hi = int(counts.min()), int(counts.max())
    have = f"{lo:,}" if lo == hi else f"{lo:,} to {hi:,}"
    return f"{have} of the planned {planned:,} deals per configuration computed so far"


def main(argv: list[str] | None = None) -> int:
    """Run the studies (or redraw them); a bad input is one line on stderr and exit code 2."""
    try:
        return _main(argv)
    except BadInput as e:
        print(f"allisbomb_results: {e}", file=sys.stderr)
        return 2


def _main(argv: list[str] | None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--deals", type=int, default=100_000, help="deals per configuration")
    ap.add_argument("--campaigns", type=int, default=1_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--node-limit",
        type=int,
        default=None,
        help="positions per deal (default 200,000; with --escalate the ceiling, default "
        "51,200,000)",
    )
    ap.add_argument(
        "--escalate",
        action="store_true",
        help="decide each deal in passes of doubling node limits up to --node-limit",
    )
    ap.add_argument(
        "--first-limit",
        type=int,
        default=None,
        help="with --escalate: the first pass's node limit (default 3,000,000)",
    )
    ap.add_argument(
        "--split-depth",
        type=int,
        default=0,
        help="with --escalate: split the deals undecided at the ceiling this many turns deep "
        "(escalate.Escalation.split; default 0, off)",
    )
    ap.add_argument(
        "--split-limit",
        type=int,
        default=None,
        help="with --split-depth: positions per child's search (default 25,000,000)",
    )
    ap.add_argument("--campaign-node-limit", type=int, default=1_000_000)
    ap.add_argument("--heuristic-deals", type=int, default=1_000)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--chunk-size", type=int, default=500)
    ap.add_argument(
        "--time-budget",
        type=float,
        default=None,
        metavar="MINUTES",
        help="sweep: start no chunk after this long; re-run to resume",
    )
    ap.add_argument(
        "--campaign-budget",
        type=float,
        default=None,
        metavar="MINUTES",
        help="campaigns (run first): start no chunk after this long; re-run to resume",
    )
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "allisbomb" / "standin-v1")
    ap.add_argument(
        "--cards",
        default=DEFAULT_CARDS,
        choices=CARD_VERSIONS,
        help="the stand-in set version to play (default: %(default)s)",
    )
    ap.add_argument("--no-readme", action="store_true", help="do not write the README block")
    ap.add_argument(
        "--block",
        default="allisbomb-results",
        help="the README's generated block to write (default: %(default)s; each card set's "
        "study has its own, e.g. allisbomb-results-v2)",
    )
    ap.add_argument(
        "--redraw",
        action="store_true",
        help="solve nothing: redraw the matrix report from its committed tables (the chunks "
        "are not committed), read the committed campaigns, and write the README block",
    )
    ap.add_argument(
        "--readme-only",
        action="store_true",
        help="solve and draw nothing: write the README block from the committed manifests and "
        "tables of --out",
    )
    args = ap.parse_args(argv)
    if args.readme_only:
        return _readme(args)
    if args.first_limit is not None and not args.escalate:
        ap.error("--first-limit needs --escalate")
    if (args.split_depth or args.split_limit is not None) and not args.escalate:
        ap.error("--split-depth and --split-limit need --escalate")
    escalation = None
    if args.escalate:
        escalation = Escalation(
            FIRST_LIMIT if args.first_limit is None else args.first_limit,
            CEILING if args.node_limit is None else args.node_limit,
            args.split_depth,
            SPLIT_LIMIT if args.split_limit is None else args.split_limit,
        )
        args.node_limit = escalation.ceiling
    elif args.node_limit is None:
        args.node_limit = 200_000

    regen = (
        f"python scripts/results/allisbomb_results.py --deals {args.deals} --campaigns {args.campaigns} "
        f"--seed {args.seed} --node-limit {args.node_limit} "
        f"--campaign-node-limit {args.campaign_node_limit} "
        f"--heuristic-deals {args.heuristic_deals} --chunk-size {args.chunk_size} "
        f"--cards {args.cards} --out {_rel_out(args.out)}"
        + (f" --escalate --first-limit {escalation.first}" if escalation else "")
        + (
            f" --split-depth {escalation.split} --split-limit {escalation.split_limit}"
            if escalation and escalation.split
            else ""
        )
        + ("" if args.block == "allisbomb-results" else f" --block {args.block}")
    )

    # --- the campaign study -----------------------------------------------------------
    camp_dir = args.out / "campaign"
    camp = campaign_study(
        args.campaigns,
        args.seed,
        players=1,
        node_limit=args.campaign_node_limit,
        chunk_size=10,
        cards_version=args.cards,
    )
    if args.redraw:
        camp_rows = load_study(camp_dir)  # its chunks are committed; its report stands
    else:
        camp_rows = run_study(
            camp,
            camp_dir,
            workers=args.workers,
            command=regen,
            time_budget=None if args.campaign_budget is None else args.campaign_budget * 60.0,
        )
    done = len(camp_rows)
    camp_text = _campaign_text(camp_dir, camp_rows)
    if done and not args.redraw:
        write_campaign_report(camp_rows, camp_dir / "report", camp_text)

    # --- the matrix sweep -------------------------------------------------------------
    matrix = args.out / "matrix"
    if args.redraw:
        manifest = load_manifest(matrix)
        text = caption(manifest)
        _, missing = redraw_report(matrix / "report", text)
        write_index_page(matrix / "report", text, {str(matrix): manifest}, skip=missing)
        note = matrix / "report" / "NOT-REDRAWN.md"
        if missing:
            # an old chart beside the redrawn ones would claim their caption: it goes
            for stem in missing:
                for ext in ("png", "svg"):
                    (matrix / "report" / f"{stem}.{ext}").unlink(missing_ok=True)
            write_text_atomic(note, _not_redrawn(manifest, missing))
            print(note.read_text())
        else:
            note.unlink(missing_ok=True)
        return _readme(args)
    chunk = min(args.chunk_size, args.deals)
    study = sweep_study(
        [replace(c, cards_version=args.cards) for c in matrix_configs()],
        args.deals,
        args.seed,
        node_limit=args.node_limit,
        heuristic_deals=args.heuristic_deals,
        chunk_size=chunk,
        escalation=escalation,
    )
    rows = run_study(
        study,
        matrix,
        workers=args.workers,
        command=regen,
        time_budget=None if args.time_budget is None else args.time_budget * 60.0,
    )
    labels = study.params["labels"]
    if rows.empty:
        # a --time-budget that started no chunk: nothing to report yet, the same command resumes
        print(f"no deals computed yet in {matrix}; the same command resumes the study")
        return 0
    counts = rows.groupby("config").size()
    text, _ = _matrix_text(load_manifest(matrix), counts, rows.attrs["complete"])
    write_report(rows, matrix / "report", text, order=labels)
    print(headline_table(summarize(rows, labels)))
    print(text)
    return _readme(args)


def _matrix_text(manifest: dict, counts, complete: bool) -> tuple[str, str]:
    """The matrix caption and the in-progress line (empty when complete); `counts`: deals per
    configuration label."""
    ident = manifest["identity"]
    labels = ident["params"]["labels"]
    planned = ident["n_cases"] // len(labels)
    text = caption(manifest)
    if complete:
        return text, ""
    progress = _progress_text(counts, planned, labels)
    text = text.replace(
        f"{planned:,} deals per configuration", f"{progress} (study in progress; resumable)"
    )
    return text, f"**Study in progress:** {progress}; the same command resumes it.\n\n"


def _campaign_text(camp_dir: Path, camp_rows) -> str:
    """The campaign caption, from what the committed campaigns were run with (not this call)."""
    m = load_manifest(camp_dir)
    ident = m["identity"]
    return campaign_caption(
        m,
        f"{len(camp_rows):,} campaigns"
        + ("" if camp_rows.attrs["complete"] else f" of the planned {ident['n_cases']:,} so far"),
        ident["seed"],
        ident["params"]["players"],
        ident["params"]["node_limit"],
    )


def _not_redrawn(manifest, missing) -> str:
    """Why some charts of a committed sweep are not there, and what redraws them."""
    from datetime import datetime

    spent = sum(
        (
            datetime.fromisoformat(r["finished"]) - datetime.fromisoformat(r["started"])
        ).total_seconds()
        for r in manifest["runs"]
        if r.get("chunks_computed") and r.get("finished")
    )
    procs = sorted({r["executor"] for r in manifest["runs"] if r.get("chunks_computed")})
    return (
        f"# Charts not in this report: {', '.join(missing)}\n\n"
        "They were drawn from the study's per-deal rows, which live in its chunk files; the\n"
        "chunks (about 50 bytes per deal) are not committed, and the report of this study\n"
        "was written before every chart's data was kept beside it (`difficulty_cdf.csv`:\n"
        "deals by node count; `solution_length_hist.csv`: won deals by turns), so these two\n"
        "cannot be drawn again from the committed files. The other charts and every table\n"
        "were redrawn from them (`python scripts/results/allisbomb_results.py --redraw`).\n\n"
        f"To have them, re-run the study: `{manifest['command']}` (its runs took "
        f"{spent / 3600:.1f} hours wall on {', '.join(procs)}); its report then keeps their\n"
        "data, and later redraws need no chunks.\n"
    )


def _rel_out(out: Path) -> Path:
    return out.relative_to(ROOT) if out.is_relative_to(ROOT) else out


def readme_body(out: Path, home: Path = ROOT / "README.md") -> str:
    """The block of the study in `out` for the file `home`, from its committed files only
    (manifests, the matrix report's tables, the campaign chunks and report): no chunk of the
    matrix is read. The chart's link is relative to `home`."""
    import pandas as pd

    matrix, camp_dir = out / "matrix", out / "campaign"
    manifest = load_manifest(matrix)
    counts = pd.read_csv(matrix / "report" / "summary.csv").set_index("config")["deals"]
    complete = manifest["chunks_done"] == manifest["chunks_total"]
    text, status = _matrix_text(manifest, counts, complete)
    headline = (matrix / "report" / "headline.md").read_text()
    rel = Path(os.path.relpath(matrix.resolve() / "report", home.resolve().parent)).as_posix()
    body = (
        f"{status}{headline}\n{text}.\n\n"
        f"![win rate by configuration]({rel}/win_rate_by_config.png)\n\n"
    )
    if (out / PRECISE / "manifest.json").is_file():
        body += _precise_text(out, home, pd.read_csv(matrix / "report" / "summary.csv"))
    camp_rows = load_study(camp_dir) if (camp_dir / "manifest.json").is_file() else None
    if camp_rows is not None and len(camp_rows):
        # campaign.md opens with its caption as an HTML comment; the caption follows the tables
        tables = (camp_dir / "report" / "campaign.md").read_text().split("\n\n", 1)[1]
        camp_text = _campaign_text(camp_dir, camp_rows)
        body += f"Campaign mode (rulebook H), same cards:\n\n{tables}\n{camp_text}.\n\n"
    # the command that made the study, from its manifest
    body += f"Regenerate or resume: `{manifest['command']} [--time-budget MINUTES]`\n"
    return body


#: The study folder, beside ``matrix``, of the configurations swept again on more deals.
PRECISE = "precise"

#: The half-width, in percentage points, the matrix's intervals are to stay within.
TARGET_HALF_WIDTH = 0.2


def _precise_text(out: Path, home: Path, summary) -> str:
    """The block's part for the sweep in ``out/precise``: the configurations decided again on
    more (and other) deals, with the half-widths of the matrix that call for it."""
    precise = out / PRECISE
    manifest = load_manifest(precise)
    table = (precise / "report" / "headline.md").read_text()
    labels = manifest["identity"]["params"]["labels"]
    wide = summary[summary["half_width_pp"] > TARGET_HALF_WIDTH].set_index("config")
    widths = ", ".join(
        f"{c} ±{wide.loc[c, 'half_width_pp']:.2f}" for c in wide.index if c in labels
    )
    missing = [c for c in wide.index if c not in labels]
    complete = manifest["chunks_done"] == manifest["chunks_total"]
    lead = (
        "The same configurations swept again on other deals, more of them"
        + (
            f" (the matrix's intervals wider than ±{TARGET_HALF_WIDTH} points: {widths})"
            if widths
            else ""
        )
        + ":\n\n"
    )
    if missing:
        lead += (
            f"**Not yet swept again:** {', '.join(missing)} (the matrix's interval is wider "
            f"than ±{TARGET_HALF_WIDTH} points).\n\n"
        )
    if not complete:
        lead += (
            f"**Study in progress:** {manifest['chunks_done']:,} of "
            f"{manifest['chunks_total']:,} chunks; the same command resumes it.\n\n"
        )
    return (
        f"{lead}{table}\n{caption(manifest)}.\n\nRegenerate or resume: `{manifest['command']}`\n\n"
    )


def _readme(args) -> int:
    """Write the README's generated block from the reports' tables."""
    if args.no_readme:
        return 0
    home = block_home(args.block)
    update_block(
        home,
        args.block,
        readme_body(args.out, home),
        anchor=f"`{_rel_out(args.out)}/` (never typed by hand):",
    )
    print(f"block '{args.block}' written into {home} from {args.out / 'matrix'}")
    return 0


if __name__ == "__main__":
    from bombsolve.cli.progress import reporting

    with reporting():
        sys.exit(main())

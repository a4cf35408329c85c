"""Regenerate the committed Catch the Bomber reference study in results/bomber/.

Usage (about 4 minutes on one core):

    python scripts/results/bomber_results.py [--out results/bomber] [--workers 1] [--scale 1.0]
    python scripts/results/bomber_results.py --tables-only   # tables from the committed results
    python scripts/results/bomber_results.py --redraw        # tables and charts from the chunks

Runs every part of the study (players, extras, readings) with all-random agents (Numba
kernel) and with the role-aware heuristic agents (reference engine) on the shared
runner, then writes per part: summary and achievements tables (CSV + Parquet), charts
(PNG + SVG) and the runner's per-study manifests and Parquet chunks; at the top:
RESULTS.md (headline tables) and manifest.json. Re-running resumes finished chunks.
Last, from the part tables (summary.csv, achievements.csv), it writes RESULTS.md and
the README's generated block `bomber-results` (`bombsolve.solvers.common.readme.update_block`,
which refuses to overwrite a block edited by hand); `--tables-only` does just that.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bombsolve.solvers import __version__  # noqa: E402
from bombsolve.solvers.bomber import (  # noqa: E402
    against_default,
    collect_part,
    make_study,
    write_part,
)
from bombsolve.solvers.common.errors import BadInput  # noqa: E402
from bombsolve.solvers.common.files import write_text_atomic  # noqa: E402
from bombsolve.solvers.common.readme import update_block  # noqa: E402
from bombsolve.solvers.common.runner import load_manifest, run_study  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
# The generated block goes after this line of the README's bomber section.
README_ANCHOR = (
    "Reference study (`results/bomber/RESULTS.md`, seed 2026, Wilson 95% intervals; charts\n"
    "`results/bomber/*/outcomes.png`, `achievements.png`, `bomber_rate.png`):"
)
PARTS = ("players", "extras", "readings")

SEED = 2026
# (part, agents, games over all rows)
PLAN = [
    ("players", "random", 400_000),
    ("players", "heuristic", 8_000),
    ("players", "random,bomber=heuristic", 4_000),
    ("players", "heuristic,bomber=random", 4_000),
    ("extras", "random", 140_000),
    ("extras", "heuristic", 7_000),
    ("readings", "random", 250_000),
    ("readings", "heuristic", 5_000),
]


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def load_tables(out: Path) -> dict[str, tuple]:
    """Read each part's summary and achievements tables (CSV) from a results folder.

    Returns {part: (summary, achievements)}; raises BadInput if a part's tables are
    missing (run the studies first).
    """
    import pandas as pd

    tables = {}
    for part in PARTS:
        paths = [out / part / f"{name}.csv" for name in ("summary", "achievements")]
        missing = [str(x) for x in paths if not x.exists()]
        if missing:
            raise BadInput(f"missing {', '.join(missing)}; expected the studies' tables")
        tables[part] = tuple(pd.read_csv(x) for x in paths)
    return tables


#: The mark of a reading's share that differs from its default row after Holm's correction.
DIFFERS = "†"


def markdown(part: str, summary, ach) -> str:
    """The RESULTS.md table of one part: every agents label and row. In the readings
    part, a share that differs from the same agents' default row after Holm's correction
    (`against_default`) carries `DIFFERS`, and a line under the table says the tests."""
    tests = against_default(summary) if part == "readings" else None
    marked = (
        set()
        if tests is None
        else {(t.agents, t.condition, t.outcome) for t in tests.itertuples() if t.holm}
    )

    def share(r, key: str) -> str:
        mark = f" {DIFFERS}" if (r["agents"], r["condition"], key) in marked else ""
        return pct(r[key]) + mark

    lines = [
        f"### {part}",
        "",
        "| agents | row | N | Bomber's victory [95% CI] | Police side | draw | sole victory "
        "| Bomber's wins with Chaos / Escape / Bombing |",
        "|---|---|---:|---|---:|---:|---:|---|",
    ]
    a = ach.set_index(["agents", "condition"])
    for _, r in summary.iterrows():
        w = a.loc[(r["agents"], r["condition"])]
        lines.append(
            f"| {r['agents']} | {r['condition']} | {r['games']:,} | {share(r, 'bomber')} "
            f"[{pct(r['bomber_lo'])}, {pct(r['bomber_hi'])}] | {share(r, 'police')} | "
            f"{share(r, 'draw')} | {share(r, 'sole')} | {pct(w['chaos_in_wins'])} / "
            f"{pct(w['escape_in_wins'])} / {pct(w['bombing_in_wins'])} |"
        )
    if tests is not None:
        lines += [
            "",
            f"{DIFFERS}: differs from the same agents' default row after Holm's correction "
            f"(family-wise 5%) over the table's {len(tests)} comparisons (each reading's four "
            "outcome shares against its default row, two-sample score tests: every row plays "
            f"games of its own seeds); {int(tests['holm'].sum())} do.",
        ]
    return "\n".join(lines) + "\n"


def agents_words(label: str) -> str:
    """'random,bomber=heuristic' -> 'random, heuristic Bomber' (README wording)."""
    parts = label.split(",")
    words = [p for p in parts if "=" not in p]
    for p in parts:
        if "=" in p:
            role, name = p.split("=", 1)
            words.append(f"{name} {role.replace('-', ' ').title()}")
    return ", ".join(words)


def span(values) -> str:
    """'83-89%' from fractions (rounded to whole percent; one number if equal)."""
    lo, hi = round(100 * min(values)), round(100 * max(values))
    return f"{lo}%" if lo == hi else f"{lo}-{hi}%"


def readme_block(tables: dict[str, tuple]) -> str:
    """The README's bomber results: player-count table and headline figures."""
    summ, ach = tables["players"]
    a = ach.set_index(["agents", "condition"])
    rows = [
        "| agents | players | N | Bomber's victory [95% CI] | Police side | draw "
        "| Holy Warrior's sole victory | Bomber's wins with Chaos / Escape / Bombing |",
        "|---|---|---:|---|---:|---:|---:|---|",
    ]
    mixed = {"random,bomber=heuristic", "heuristic,bomber=random"}
    for _, r in summ.iterrows():
        if r["agents"] in mixed and r["condition"] != "5p":
            continue  # the mixed match-ups at every count are in RESULTS.md
        w = a.loc[(r["agents"], r["condition"])]
        rows.append(
            f"| {agents_words(r['agents'])} | {r['condition'].rstrip('p')} | {r['games']:,} | "
            f"{pct(r['bomber'])} [{100 * r['bomber_lo']:.1f}, {100 * r['bomber_hi']:.1f}] | "
            f"{pct(r['police'])} | {pct(r['draw'])} | {pct(r['sole'])} | "
            f"{pct(w['chaos_in_wins'])} / {pct(w['escape_in_wins'])} / "
            f"{pct(w['bombing_in_wins'])} |"
        )

    def col(table, agents, column, where=lambda c: True):
        t = table[(table["agents"] == agents) & table["condition"].map(where)]
        return list(t[column])

    ex_summ, _ = tables["extras"]
    rd_summ, _ = tables["readings"]
    rd = rd_summ[rd_summ["agents"] == "heuristic"].set_index("condition")
    d, wb = rd.loc["default"], rd.loc["warrior_bombing=false"]
    tests = against_default(rd_summ).set_index(["agents", "condition", "outcome"])

    def held(outcome: str) -> str:
        """Whether the warrior_bombing=false change of `outcome` survives Holm's correction."""
        t = tests.loc[("heuristic", "warrior_bombing=false", outcome)]
        if t["holm"]:
            return "survives"
        return f"p = {t['p_value']:.3f} alone, not"

    facts = [
        f"Random play: the Bomber wins {span(col(summ, 'random', 'bomber'))} of games, "
        f"Chaos being part of {span(col(ach, 'random', 'chaos_in_wins'))} of his wins.",
        f"Heuristic play: the Bomber wins {span(col(summ, 'heuristic', 'bomber'))}, "
        f"Chaos is part of only {span(col(ach, 'heuristic', 'chaos_in_wins'))} of his wins "
        f"and Bombing of {span(col(ach, 'heuristic', 'bombing_in_wins'))}.",
        "Holy Warrior in play (heuristic, by extra characters): his sole victory "
        f"{span(col(ex_summ, 'heuristic', 'sole', lambda c: 'HW' in c))}, the Police side "
        f"{span(col(ex_summ, 'heuristic', 'police', lambda c: 'HW' in c))}; without him "
        f"the Police side {span(col(ex_summ, 'heuristic', 'police', lambda c: 'HW' not in c))}.",
        f"`warrior_bombing=false` (5 players, heuristic): sole victory {pct(d['sole'])} -> "
        f"{pct(wb['sole'])} ({held('sole')} Holm's correction over the readings table's "
        f"{len(tests)} comparisons with its default row), Police side {pct(d['police'])} -> "
        f"{pct(wb['police'])} ({held('police')} after it) (N = {int(d['games']):,} each).",
        "Mixed skill, 3 to 6 players: a heuristic Bomber among random players wins "
        f"{span(col(summ, 'random,bomber=heuristic', 'bomber'))}; heuristic Police-side "
        f"players hold a random Bomber to {span(col(summ, 'heuristic,bomber=random', 'bomber'))}.",
    ]
    text = "\n".join(rows) + "\n\n" + "\n".join(f"- {f}" for f in facts) + "\n"
    return text


def write_tables(out: Path, readme: Path | None) -> None:
    """Write RESULTS.md and (if `readme`) the README's generated block from the tables."""
    tables = load_tables(out)
    doc = [
        "# Catch the Bomber: reference study",
        "",
        "Generated by `python scripts/results/bomber_results.py` (do not edit by hand). "
        f"Root seed {SEED}; games are split evenly over each part's rows; Wilson 95% "
        "intervals. Agents: `random` (uniform legal moves, Numba kernel) and `heuristic` "
        "(role-aware rules of thumb, reference engine), the same agent for every role "
        "unless the label names a role (e.g. `random,bomber=heuristic`). "
        "Default rule readings unless the row names one.",
        "",
    ]
    for part, (summary, ach) in tables.items():
        doc.append(markdown(part, summary, ach))
    write_text_atomic(out / "RESULTS.md", "\n".join(doc))
    if readme is not None:
        changed = update_block(readme, "bomber-results", readme_block(tables), anchor=README_ANCHOR)
        print(f"{readme}: block bomber-results {'updated' if changed else 'unchanged'}")


def fail(exc: Exception) -> None:
    """Bad input: one line on stderr, exit code 2 (as the CLI does)."""
    print(f"bomber_results: {exc}", file=sys.stderr)
    sys.exit(2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="results/bomber")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--scale", type=float, default=1.0, help="Multiply every game count.")
    ap.add_argument(
        "--tables-only",
        action="store_true",
        help="Only rewrite RESULTS.md and the README block from the committed tables.",
    )
    ap.add_argument(
        "--redraw",
        action="store_true",
        help="Rewrite every part's tables and charts from the committed chunks, then "
        "RESULTS.md and the README block (no game is played).",
    )
    ap.add_argument(
        "--readme",
        default=None,
        help="README to update ('' for none); default: the repository's README.md when "
        "--out is results/bomber at full scale, else none.",
    )
    args = ap.parse_args()
    out = Path(args.out)
    if args.readme is None:
        default_run = out.resolve() == (ROOT / "results" / "bomber") and args.scale == 1.0
        readme = README if default_run else None
    else:
        readme = Path(args.readme) if args.readme else None
    if args.tables_only:
        try:
            write_tables(out, readme)
        except BadInput as exc:
            fail(exc)
        return
    if args.redraw:
        # every part's tables and charts again from its committed chunks and manifests
        for part in PARTS:
            fr, manifests = collect_part(out / part, part)
            order = [a for p, a, _ in PLAN if p == part and a in fr] + sorted(
                a for a in fr if not any(p == part and a == b for p, b, _ in PLAN)
            )  # the agent sets in the order of a full run
            write_part(out / part, part, {a: fr[a] for a in order}, manifests)
        try:
            write_tables(out, readme)
        except BadInput as exc:
            fail(exc)
        return
    t_all = time.perf_counter()
    frames: dict[str, dict] = {}
    runs = []
    for part, agents, games in PLAN:
        n = max(int(games * args.scale), 1)
        t0 = time.perf_counter()
        study = make_study(part, agents, n, SEED)
        df = run_study(study, out / part / agents, workers=args.workers,
                       command=f"python scripts/results/bomber_results.py --out {args.out}")  # fmt: skip
        dt = time.perf_counter() - t0
        frames.setdefault(part, {})[agents] = df
        runs.append({"part": part, "agents": agents, "games": n, "seed": SEED,
                     "seconds": round(dt, 1)})  # fmt: skip
        print(f"{part:<9} {agents:<10} {n:>8,} games  {dt:6.1f}s", flush=True)
    for part, fr in frames.items():
        write_part(out / part, part, fr, {a: load_manifest(out / part / a) for a in fr})
    try:
        write_tables(out, readme)
    except BadInput as exc:
        fail(exc)
    manifest = {
        "command": "python scripts/results/bomber_results.py" + (
            f" --scale {args.scale}" if args.scale != 1.0 else ""),
        "bombsolve_version": __version__,
        "python": platform.python_version(),
        "workers": args.workers,
        "seed": SEED,
        "runs": runs,
        "seconds_total": round(time.perf_counter() - t_all, 1),
        "files": sorted(str(p.relative_to(out)) for p in out.rglob("*")
                        if p.is_file() and "chunks" not in p.parts and p.name != "manifest.json"),
    }  # fmt: skip
    write_text_atomic(out / "manifest.json", json.dumps(manifest, indent=2) + "\n")
    print(f"done in {manifest['seconds_total']}s -> {out}")


if __name__ == "__main__":
    from bombsolve.cli.progress import reporting

    with reporting():
        main()

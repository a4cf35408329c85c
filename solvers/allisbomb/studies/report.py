"""Aggregates and tables of an All Is Bomb sweep, and the report folder they make (its
charts are drawn by `charts.py` from these tables).

Input: the sweep's rows, one per deal (see `bombsolve.solvers.allisbomb.studies.study.SWEEP_COLUMNS`).
Output: per configuration, the perfect-play win rate with a Wilson 95% interval in which
undecided deals count against the claim at each end; difficulty (nodes to decide) and
solution-length distributions; loss reasons; win rate by the starting position of key
cards; and the skill gap (heuristic players next to perfect play). Tables as CSV and
Markdown, charts as PNG and SVG, every one captioned with its provenance.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.files import write_text_atomic
from bombsolve.solvers.common.stats import wilson, wilson_undecided

OUTCOMES = ("win", "loss", "undecided")
#: The heuristic players of the skill gap, strongest first (`bombsolve.solvers.allisbomb.search.agents`).
HEURISTICS = ("lookahead", "greedy", "random")


def _rate_columns(prefix: str, wins: int, n: int, undecided: int = 0) -> dict[str, Any]:
    lo, hi = wilson_undecided(wins, undecided, n) if n else (np.nan, np.nan)
    return {
        f"{prefix}_rate": wins / n if n else np.nan,
        f"{prefix}_lo": lo,
        f"{prefix}_hi": hi,
    }


def summarize(rows: pd.DataFrame, order: Sequence[str] | None = None) -> pd.DataFrame:
    """Return one row per configuration: counts, win rate and interval, difficulty, skill gap.

    The interval's low end counts undecided deals as losses, its high end as wins.
    """
    out = []
    configs = list(order) if order is not None else list(dict.fromkeys(rows["config"]))
    for config in configs:
        g = rows[rows["config"] == config]
        if g.empty:
            continue
        n = len(g)
        wins = int((g["outcome"] == "win").sum())
        und = int((g["outcome"] == "undecided").sum())
        rec: dict[str, Any] = {
            "config": config,
            "deals": n,
            "wins": wins,
            "losses": int((g["outcome"] == "loss").sum()),
            "undecided": und,
        }
        rec.update(_rate_columns("win", wins, n, und))
        rec["half_width_pp"] = 100 * (rec["win_hi"] - rec["win_lo"]) / 2
        rec["nodes_median"] = float(g["nodes"].median())
        rec["nodes_p99"] = float(g["nodes"].quantile(0.99))
        rec["nodes_max"] = int(g["nodes"].max())
        won = g[g["outcome"] == "win"]
        rec["solution_len_median"] = float(won["solution_len"].median()) if len(won) else np.nan
        rec["seconds_mean"] = float(g["seconds"].mean())
        # milliseconds: a base deal takes about 0.1 ms, which "0.0" seconds would hide
        rec["ms_median"] = 1000 * float(g["seconds"].median())
        rec["ms_mean"] = 1000 * float(g["seconds"].mean())
        cols = [f"{p}_win" for p in HEURISTICS if f"{p}_win" in g.columns]
        if cols:
            # perfect play on the very deals the heuristic players played (the skill gap)
            same = g[g[cols].notna().any(axis=1)]
            rec["perfect_deals"] = len(same)
            rec.update(
                _rate_columns(
                    "perfect",
                    int((same["outcome"] == "win").sum()),
                    len(same),
                    int((same["outcome"] == "undecided").sum()),
                )
            )
        for col in cols:
            played = g[col].dropna()
            player = col.removesuffix("_win")
            rec[f"{player}_deals"] = len(played)
            rec.update(_rate_columns(player, int(played.sum()), len(played)))
        out.append(rec)
    return pd.DataFrame(out)


def loss_reasons(rows: pd.DataFrame) -> pd.DataFrame:
    """Return, per configuration, the share of lost deals by loss reason.

    `losing_ends` says the reason in words; NO_WIN_REACHABLE is not a way a line ends but
    the pruning (lines cut where the search proved no win reachable), so it is shown as
    that, after the ends the lines met, never as a cause of its own.
    """
    cols = ["config", "loss_reason", "losing_ends", "deals", "share_of_losses"]
    lost = rows[rows["outcome"] == "loss"]
    if lost.empty:
        return pd.DataFrame(columns=cols)
    t = lost.groupby(["config", "loss_reason"], sort=False).size().rename("deals").reset_index()
    t["share_of_losses"] = t["deals"] / t.groupby("config")["deals"].transform("sum")
    t["losing_ends"] = t["loss_reason"].map(losing_ends_text)
    # each configuration's rows together, in the order the deals name them, most common first
    order = {c: i for i, c in enumerate(dict.fromkeys(rows["config"]))}
    t = t.assign(_c=t["config"].map(order)).sort_values(
        ["_c", "deals", "loss_reason"], ascending=[True, False, True], kind="stable"
    )
    return t[cols].reset_index(drop=True)


def losing_ends_text(names: str) -> str:
    """'NO_CARD_TO_PLAY+NO_WIN_REACHABLE' -> 'no card to play in the Play A Card phase;
    other lines proved to reach no win'."""
    from bombsolve.solvers.allisbomb.rules.ending_words import ENDING_WORDS
    from bombsolve.solvers.allisbomb.rules.rules import Ending

    parts = [p for p in str(names).split("+") if p]
    ends = [
        ENDING_WORDS[Ending[p]]
        for p in parts
        if p != "NO_WIN_REACHABLE" and p in Ending.__members__
    ]
    if "NO_WIN_REACHABLE" in parts:
        ends.append(
            "other lines proved to reach no win" if ends else "every line proved to reach no win"
        )
    return "; ".join(ends)


def position_table(rows: pd.DataFrame, config: str) -> pd.DataFrame:
    """Return the win rate by starting deck position of each key card in one configuration.

    Position 1 is the top of the shuffled deck; the first cards drawn are equipped.
    """
    g = rows[rows["config"] == config]
    won = (g["outcome"] == "win").to_numpy()
    recs = []
    for col in [c for c in g.columns if c.startswith("pos:")]:
        where = g[col].to_numpy(dtype=float, na_value=np.nan)
        known = ~np.isnan(where)
        if not known.any():
            continue
        card = col[4:]
        # counted with numpy, not a pandas group per position: the same figures, in the
        # same order (positions ascending), at a tenth of the cost
        positions, slot, deals = np.unique(where[known], return_inverse=True, return_counts=True)
        wins_at = np.bincount(slot, weights=won[known], minlength=len(positions))
        for pos, n, w in zip(positions, deals, wins_at, strict=True):
            wins, n = int(w), int(n)
            lo, hi = wilson(wins, n)
            recs.append(
                {
                    "card": card,
                    "position": int(pos) + 1,
                    "deals": n,
                    "win_rate": wins / n,
                    "win_lo": lo,
                    "win_hi": hi,
                }
            )
    return pd.DataFrame(recs)


def to_markdown(df: pd.DataFrame, percent: Sequence[str] = (), digits: int = 1) -> str:
    """Render a table as GitHub Markdown, with the named rate columns as percentages."""
    cols = list(df.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for _, r in df.iterrows():
        cells = []
        for c in cols:
            v = r[c]
            if c in percent and pd.notna(v):
                cells.append(f"{100 * v:.{digits}f}%")
            elif isinstance(v, float):
                cells.append("" if np.isnan(v) else f"{v:,.{digits}f}")
            elif isinstance(v, (int, np.integer)):
                cells.append(f"{v:,}")
            else:
                cells.append(str(v))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def skill_gap_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Per configuration: perfect play and each heuristic player on the same deals.

    Rates with Wilson 95% intervals (perfect play's counts undecided deals against the
    claim at each end); `deals` is the number of deals the heuristic players played.
    """
    players = [p for p in ("perfect", *HEURISTICS) if f"{p}_rate" in summary.columns]
    t = pd.DataFrame({"config": summary["config"]})
    if "perfect_deals" in summary.columns:
        t["deals"] = summary["perfect_deals"]
    for p in players:
        t[p] = summary[f"{p}_rate"]
        t[f"{p}_lo"] = summary[f"{p}_lo"]
        t[f"{p}_hi"] = summary[f"{p}_hi"]
    return t


def headline_table(summary: pd.DataFrame) -> str:
    """The README's results table: configuration, deals, win rate [95% interval], difficulty."""
    return to_markdown(headline_frame(summary))


def headline_frame(summary: pd.DataFrame) -> pd.DataFrame:
    """The README's results table as text cells (`headline_table`; the report page's first
    table): percents with their intervals, in the README's words."""
    t = pd.DataFrame(
        {
            "configuration": summary["config"],
            "deals": summary["deals"],
            "undecided": summary["undecided"],
            "perfect-play win rate [95% CI]": [
                f"{100 * r:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]"
                for r, lo, hi in zip(
                    summary["win_rate"], summary["win_lo"], summary["win_hi"], strict=True
                )
            ],
            "median nodes": summary["nodes_median"].map(lambda v: f"{v:,.0f}"),
            "median turns of the first win found": summary["solution_len_median"].map(
                lambda v: "" if pd.isna(v) else f"{v:.0f}"
            ),
        }
    )
    for player in HEURISTICS:
        # a player who played no deal (`--heuristic-deals 0`) gets no column of blanks
        played = summary.get(f"{player}_deals")
        if f"{player}_rate" in summary.columns and played is not None and played.fillna(0).any():
            t[f"{player} player [95% CI] of N"] = [
                ""
                if pd.isna(r) or not n
                else f"{100 * r:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] of {int(n):,}"
                for r, lo, hi, n in zip(
                    summary[f"{player}_rate"],
                    summary[f"{player}_lo"],
                    summary[f"{player}_hi"],
                    summary[f"{player}_deals"],
                    strict=True,
                )
            ]
    return t


def node_counts(rows: pd.DataFrame, configs: Sequence[str]) -> pd.DataFrame:
    """Per configuration, how many deals the search decided within `nodes` positions, for
    each `nodes` on a grid: every count up to 1,000, then two significant digits (1,100,
    1,200, ..., 10,000, 11,000, ...). Each deal counts at the first grid value at or above
    its nodes, so the distribution at a grid value is exact: what the difficulty chart
    draws, and a few thousand rows however many deals."""
    recs = []
    for config in configs:
        nodes = rows.loc[rows["config"] == config, "nodes"].to_numpy(dtype=np.int64)
        if not len(nodes):
            continue
        grid = _node_grid(np.maximum(nodes, 1))
        values, counts = np.unique(grid, return_counts=True)
        recs += [
            {"config": config, "nodes": int(v), "deals": int(c)}
            for v, c in zip(values, counts, strict=True)
        ]
    return pd.DataFrame(recs, columns=["config", "nodes", "deals"])


def _node_grid(nodes: np.ndarray) -> np.ndarray:
    """Round each count up to the grid of `node_counts` (exact to 1,000, then 2 digits)."""
    out = nodes.astype(np.int64).copy()
    big = out > 1000
    if big.any():
        step = 10 ** (np.floor(np.log10(out[big])).astype(np.int64) - 1)
        out[big] = -(-out[big] // step) * step
    return out


def length_counts(rows: pd.DataFrame, configs: Sequence[str]) -> pd.DataFrame:
    """Per configuration, the won deals by turns in the winning line found first."""
    won = rows[rows["outcome"] == "win"]
    recs = []
    for config in configs:
        lengths = won.loc[won["config"] == config, "solution_len"].to_numpy(dtype=np.int64)
        values, counts = np.unique(lengths, return_counts=True)
        recs += [
            {"config": config, "turns": int(v), "deals": int(c)}
            for v, c in zip(values, counts, strict=True)
        ]
    return pd.DataFrame(recs, columns=["config", "turns", "deals"])


def hardest_deals(rows: pd.DataFrame, configs: Sequence[str]) -> pd.DataFrame:
    """Each configuration's hardest deal, the one with the most positions searched, with
    what re-runs it (the case: ``bombsolve allisbomb --study DIR --case K``; the rank, as
    text) and how long its solve took (``ms``, the one column that depends on the machine
    and its load)."""
    recs = []
    for config in configs:
        sub = rows[rows["config"] == config]
        if sub.empty:
            continue
        r = sub.loc[sub["nodes"].idxmax()]
        recs.append(
            {
                "config": config,
                "case": int(r["case"]),
                "rank": str(int(r["rank"])),
                "outcome": r["outcome"],
                "nodes": int(r["nodes"]),
                "ms": round(1000.0 * float(r["seconds"]), 1),
            }
        )
    return pd.DataFrame(recs, columns=["config", "case", "rank", "outcome", "nodes", "ms"])


def write_report(
    rows: pd.DataFrame,
    out_dir: str | os.PathLike,
    caption: str,
    order: Sequence[str] | None = None,
    meta: Mapping[str, Any] | None = None,
    progress: Step | None = None,
) -> dict[str, Path]:
    """Write tables (CSV, Markdown) and charts (PNG, SVG) for a sweep into `out_dir`.

    Every chart is drawn from the tables written beside it (`draw_report`), so the report
    folder alone redraws it (`redraw_report`), without the study's chunks. Returns the
    paths written, by name. `progress` is told each step as it starts (`Step`).
    """
    step = progress or _quiet
    step("tables")
    summary = summarize(rows, order)
    configs = list(summary["config"])
    positions = (
        pd.concat([position_table(rows, c).assign(config=c) for c in configs], ignore_index=True)
        if configs
        else pd.DataFrame()
    )
    tables = {
        "summary": summary,
        "loss_reasons": loss_reasons(rows),
        "positions": positions,
        "nodes": node_counts(rows, configs),
        "lengths": length_counts(rows, configs),
    }
    if {"case", "rank", "seconds"} <= set(rows.columns):
        tables["hardest"] = hardest_deals(rows, configs)
    return draw_report(tables, out_dir, caption, progress)


#: What `redraw_report` needs of a report folder, and the file each table lives in.
REPORT_TABLES = {
    "summary": "summary.csv",
    "loss_reasons": "loss_reasons.csv",
    "positions": "positions.csv",
    "nodes": "difficulty_cdf.csv",
    "lengths": "solution_length_hist.csv",
    "hardest": "hardest.csv",
}


def redraw_report(
    report_dir: str | os.PathLike,
    caption: str,
    out_dir: str | os.PathLike | None = None,
    progress: Step | None = None,
) -> tuple[dict[str, Path], list[str]]:
    """Redraw a sweep's report from the tables of an earlier one (its CSV files), into
    `out_dir` (default: the same folder). Nothing is solved again.

    Returns the paths written and the charts that could not be drawn because their data
    is not in the folder (a report written before the charts' data was kept beside them:
    the difficulty CDF's and the solution lengths' per-deal counts).
    """
    src = Path(report_dir)
    if not (src / "summary.csv").exists():
        raise BadInput(f"{src} has no summary.csv; expected the report folder of a sweep")
    tables: dict[str, pd.DataFrame] = {}
    missing = []
    for name, file in REPORT_TABLES.items():
        path = src / file
        # a rank is a number too long for any integer column: it stays the text it was
        dtype = {"rank": str} if name == "hardest" else None
        df = (
            pd.read_csv(path, keep_default_na=False, na_values=[""], dtype=dtype)
            if path.exists()
            else None
        )
        if name in ("nodes", "lengths") and (df is None or "deals" not in df.columns):
            missing.append(file.removesuffix(".csv"))
            continue
        if df is not None:
            tables[name] = df
    return draw_report(tables, out_dir or src, caption, progress), missing


#: A report's progress callback: told the name of each step as it starts, with how many
#: steps there are (`REPORT_STEPS`).
Step = Callable[[str], None]
#: The steps `write_report` tells its progress callback, in order (some may be skipped).
REPORT_STEPS = (
    "tables",
    "win_rate_by_config",
    "skill_gap",
    "difficulty_cdf",
    "solution_length_hist",
    "position_heatmap",
)


def _quiet(_: str) -> None:
    return None


def played_heuristics(summary: pd.DataFrame) -> pd.Series:
    """Per configuration, whether a heuristic player played any of its deals
    (``--heuristic-deals``): the skill gap shows those alone, and none at all (neither its
    table nor its chart) when no configuration has one."""
    played = pd.Series(False, index=summary.index)
    for player in HEURISTICS:
        deals = summary.get(f"{player}_deals")
        if f"{player}_rate" in summary.columns and deals is not None:
            played |= pd.to_numeric(deals, errors="coerce").fillna(0) > 0
    return played


def draw_report(
    tables: Mapping[str, pd.DataFrame],
    out_dir: str | os.PathLike,
    caption: str,
    progress: Step | None = None,
) -> dict[str, Path]:
    """Write the report's tables (CSV, Markdown) and draw its charts from them alone.

    `tables`: ``summary`` (see `summarize`), ``loss_reasons``, ``positions``, ``nodes``
    (`node_counts`) and ``lengths`` (`length_counts`); a missing one leaves out its chart,
    and so does an empty one: no chart or table is drawn empty (the skill gap only when a
    heuristic player played, `played_heuristics`).
    """
    from bombsolve.solvers.allisbomb.studies import charts

    step = progress or _quiet
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    summary = tables["summary"]
    written: dict[str, Path] = {}

    def table(name: str, df: pd.DataFrame, percent: Sequence[str] = ()) -> None:
        csv = out / f"{name}.csv"
        write_text_atomic(csv, df.to_csv(index=False))
        md = out / f"{name}.md"
        write_text_atomic(md, f"<!-- {caption} -->\n\n" + to_markdown(df, percent))
        written[name] = csv

    rate_cols = [c for c in summary.columns if c.endswith(("_rate", "_lo", "_hi"))]
    table("summary", summary, rate_cols)
    if "loss_reasons" in tables:
        table("loss_reasons", tables["loss_reasons"], ["share_of_losses"])
    if "hardest" in tables:
        table("hardest", tables["hardest"])
    headline = out / "headline.md"
    write_text_atomic(headline, headline_table(summary))
    written["headline"] = headline

    configs = list(summary["config"])
    positions = tables.get("positions", pd.DataFrame())
    if not positions.empty:
        table("positions", positions, ["win_rate", "win_lo", "win_hi"])

    step("win_rate_by_config")
    charts.win_rates_chart(summary, out, caption)
    played = played_heuristics(summary)
    if played.any():
        step("skill_gap")
        gap = skill_gap_table(summary[played])
        table("skill_gap", gap, [c for c in gap.columns if c not in ("config", "deals")])
        charts.skill_gap_chart(summary[played].reset_index(drop=True), out, caption, HEURISTICS)
    else:
        # an earlier report's skill gap in this folder would read as this one's
        for ext in ("png", "svg", "csv", "md"):
            (out / f"skill_gap.{ext}").unlink(missing_ok=True)
    if "nodes" in tables and not tables["nodes"].empty:
        step("difficulty_cdf")
        charts.difficulty_chart(tables["nodes"], configs, out, caption)
    if "lengths" in tables and not tables["lengths"].empty:
        step("solution_length_hist")
        charts.solution_length_chart(tables["lengths"], configs, out, caption)
    if not positions.empty:
        step("position_heatmap")
        charts.positions_chart(positions, configs[0], out, caption)
    return written


#: The report's charts in the page's order, with the words under each.
PAGE_CHARTS = (
    ("win_rate_by_config", "How often a shuffle is winnable, by configuration."),
    ("skill_gap", "Perfect play against the heuristic players, on the same deals."),
    ("difficulty_cdf", "How many positions the search needs to decide a deal."),
    ("solution_length_hist", "How many turns the winning line found first takes."),
    ("position_heatmap", "Win rate by where each key card starts in the deck."),
)

#: The report's detail tables in the page's order (folded), with their titles.
PAGE_TABLES = (
    ("summary", "Win rates and difficulty by configuration"),
    ("skill_gap", "Skill gap: heuristic players on the same deals"),
    ("loss_reasons", "Why lost deals are lost"),
    (
        "hardest",
        "The hardest deal of each configuration (the most positions; re-run one, in its "
        "configuration: bombsolve allisbomb --study DIR --case K)",
    ),
    ("positions", "Win rate by key card's starting position"),
)


def _pct(rate: float, lo: float | None = None, hi: float | None = None, digits: int = 2) -> str:
    """'92.60%' or '92.60% [91.37, 93.67]' (blank for a rate that is not there)."""
    if rate is None or pd.isna(rate):
        return ""
    text = f"{100 * rate:.{digits}f}%"
    if lo is not None and hi is not None and not (pd.isna(lo) or pd.isna(hi)):
        text += f" [{100 * lo:.{digits}f}, {100 * hi:.{digits}f}]"
    return text


def _count(value: Any, digits: int = 0) -> str:
    """A count or a measure with thousands separators, never in scientific notation."""
    if value is None or pd.isna(value):
        return ""
    return f"{float(value):,.{digits}f}"


def page_table(name: str, df: pd.DataFrame) -> pd.DataFrame:
    """A report table as the page shows it: readable column names, percents with their
    95% intervals, counts with separators (the CSV beside keeps every raw column)."""
    if name == "summary":
        t = pd.DataFrame({"configuration": df["config"]})
        for col in ("deals", "wins", "losses", "undecided"):
            if col in df.columns:
                t[col] = df[col].map(_count)
        t["perfect-play win rate [95% CI]"] = [
            _pct(r, lo, hi)
            for r, lo, hi in zip(df["win_rate"], df["win_lo"], df["win_hi"], strict=True)
        ]
        # a report written by an earlier version may lack some: those are left out
        for col, head, digits in (
            ("half_width_pp", "interval half-width (points)", 2),
            ("nodes_median", "median positions", 0),
            ("nodes_p99", "positions, 99th percentile", 0),
            ("nodes_max", "most positions", 0),
            ("solution_len_median", "median turns of the first win found", 0),
            ("ms_median", "median ms a deal", 2),
        ):
            if col in df.columns:
                t[head] = df[col].map(lambda v, d=digits: _count(v, d))
        return t
    if name == "skill_gap":
        t = pd.DataFrame({"configuration": df["config"]})
        if "deals" in df.columns:
            t["deals"] = df["deals"].map(_count)
        for player in ("perfect", *HEURISTICS):
            if player in df.columns:
                head = "perfect play" if player == "perfect" else f"{player} player"
                t[f"{head} [95% CI]"] = [
                    _pct(r, lo, hi, 1)
                    for r, lo, hi in zip(
                        df[player], df[f"{player}_lo"], df[f"{player}_hi"], strict=True
                    )
                ]
        return t
    if name == "loss_reasons":
        return pd.DataFrame(
            {
                "configuration": df["config"],
                "how the lost deals' lines end": (
                    df["losing_ends"]
                    if "losing_ends" in df.columns
                    else df["loss_reason"].map(losing_ends_text)
                ),
                "deals": df["deals"].map(_count),
                "share of the losses": df["share_of_losses"].map(lambda v: _pct(v, digits=1)),
            }
        )
    if name == "hardest":
        return pd.DataFrame(
            {
                "configuration": df["config"],
                "case": df["case"].map(_count),
                "rank": df["rank"].astype(str),
                "verdict": df["outcome"].astype(str).str.upper(),
                "positions": df["nodes"].map(_count),
                "ms": df["ms"].map(lambda v: _count(v, 1)),
            }
        )
    if name == "positions":
        return pd.DataFrame(
            {
                "card": df["card"],
                "starting position (1 = top)": df["position"].map(_count),
                "deals": df["deals"].map(_count),
                "perfect-play win rate [95% CI]": [
                    _pct(r, lo, hi, 1)
                    for r, lo, hi in zip(df["win_rate"], df["win_lo"], df["win_hi"], strict=True)
                ],
            }
        )
    return df


def write_index_page(
    target: Path, text: str, manifests: Mapping[str, Any], skip: Sequence[str] = ()
) -> None:
    """Write the report folder's ``index.html``: the README's headline table first, then
    the charts (but the stems in `skip`: old charts that were not redrawn), then the detail
    tables folded, and each study's manifest."""
    from bombsolve.solvers.common.htmlpage import write_index_html

    summary = pd.read_csv(target / "summary.csv", keep_default_na=False, na_values=[""])
    headline = [("Perfect-play win rate by configuration", headline_frame(summary))]
    tables = []
    for name, title in PAGE_TABLES:
        path = target / f"{name}.csv"
        if not path.exists():
            continue
        df = pd.read_csv(path, keep_default_na=False, na_values=[""], dtype={"rank": str})
        if df.empty:
            continue
        if name == "positions" and "config" in df.columns:
            # one configuration's rows (the chart's); the CSV beside has them all
            first = df["config"].iloc[0]
            df, title = df[df["config"] == first], f"{title}: {first} (all in positions.csv)"
        tables.append((title, page_table(name, df)))
    charts = [
        (target / f"{stem}.png", words)
        for stem, words in PAGE_CHARTS
        if stem not in skip and (target / f"{stem}.png").exists()
    ]
    write_index_html(
        target, "All Is Bomb sweep report", text, tables, charts, manifests, headline=headline
    )


# --- campaign (rulebook H) --------------------------------------------------------------------

MEDAL_ORDER = ("gold", "silver", "bronze", "none")


def campaign_summary(rows: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Medal rates (at least that medal) and per-game outcome rates of a campaign study.

    With the per-game proof columns (``best:<game>``, studies made with branch and bound)
    the game table also gives how many wins were proven to keep the most cards
    (``proven_best``, its share of the wins) and the mean star cards lost in a win.
    """
    n = len(rows)
    medals = []
    for i, medal in enumerate(MEDAL_ORDER[:-1]):
        k = int(rows["medal"].isin(MEDAL_ORDER[: i + 1]).sum())
        lo, hi = wilson(k, n)
        medals.append(
            {
                "result": f"{medal} or better",
                "campaigns": n,
                "count": k,
                "rate": k / n,
                "lo": lo,
                "hi": hi,
            }
        )
    games = []
    for col in [c for c in rows.columns if c.startswith("game:")]:
        wins = int((rows[col] == "win").sum())
        und = int((rows[col] == "undecided").sum())
        lo, hi = wilson_undecided(wins, und, n)
        row = {
            "game": col[5:],
            "campaigns": n,
            "wins": wins,
            "undecided": und,
            "win_rate": wins / n,
            "win_lo": lo,
            "win_hi": hi,
        }
        if f"best:{col[5:]}" in rows.columns:
            proven = int((rows[f"best:{col[5:]}"].astype(bool) & (rows[col] == "win")).sum())
            row["proven_best"] = proven
            row["proven_share"] = proven / wins if wins else float("nan")
            lost = rows.loc[rows[col] == "win", f"stars_lost:{col[5:]}"].astype(float)
            row["stars_lost_mean"] = float(lost.mean()) if len(lost) else float("nan")
        games.append(row)
    return pd.DataFrame(medals), pd.DataFrame(games)


def campaign_caption(
    manifest: Mapping[str, Any], campaigns: str, seed: int, players: int, node_limit: int
) -> str:
    """The provenance line of a campaign study's tables and charts.

    `campaigns` says how many campaigns are in (e.g. "1,000 campaigns", or "120 campaigns
    of the planned 1,000 so far").
    """
    from bombsolve.solvers.common.runner import computed_by

    version = manifest.get("identity", {}).get("params", {}).get("cards_version", "standin-v1")
    return (
        "All Is Bomb campaign, STAND-IN card texts (bombsolve's own, not the printed cards), "
        f"set {version}; "
        f"{campaigns}, SeedSequence({seed}), {players} player(s), perfect play per game "
        f"(node limit {node_limit:,}; of a game's wins the one leaving the fewest star cards in "
        "the discard pile, by branch and bound, proven best unless the table says otherwise; "
        "lost or undecided games remove every circle and star card); "
        f"bombsolve {manifest['versions']['bombsolve']} @ {computed_by(manifest)}"
    )


def write_campaign_report(rows: pd.DataFrame, out_dir: str | os.PathLike, caption: str) -> str:
    """Write the campaign tables and charts; return the Markdown summary."""
    from bombsolve.solvers.allisbomb.studies import charts

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    medals, games = campaign_summary(rows)
    undecided = (rows[[c for c in rows.columns if c.startswith("game:")]] == "undecided").any(
        axis=1
    )
    pct = ["win_rate", "win_lo", "win_hi"] + (["proven_share"] if "proven_share" in games else [])
    proof = ""
    if "proven_best" in games:
        won, proven = int(games["wins"].sum()), int(games["proven_best"].sum())
        proof = (
            f"; {proven:,} of the {won:,} won games ({proven / max(won, 1):.1%}) proven to keep "
            "the most cards (branch and bound finished within the node limit; the others "
            "play the best win found)"
        )
    md = (
        to_markdown(medals, ["rate", "lo", "hi"])
        + "\n"
        + to_markdown(games, pct)
        + f"\nmean score {rows['points'].mean():.2f}, median {rows['points'].median():.0f} "
        f"(N = {len(rows):,} campaigns; {int(undecided.sum()):,} of them had an undecided game, "
        f"scored as a loss, so scores and medal rates are lower bounds{proof})\n"
    )
    write_text_atomic(out / "campaign_medals.csv", medals.to_csv(index=False))
    write_text_atomic(out / "campaign_games.csv", games.to_csv(index=False))
    write_text_atomic(out / "campaign.md", f"<!-- {caption} -->\n\n" + md)

    charts.campaign_charts(rows, games, out, caption)
    return md

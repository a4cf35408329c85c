"""Aggregates, tables and charts of an All Is Bomb sweep (issue 3 part 3).

Input: the sweep's rows, one per deal (see `solvers.allisbomb.study.SWEEP_COLUMNS`).
Output: per configuration, the perfect-play win rate with a Wilson 95% interval in which
undecided deals count against the claim at each end; difficulty (nodes to decide) and
solution-length distributions; loss reasons; win rate by the starting position of key
cards; and the skill gap (heuristic players next to perfect play). Tables as CSV and
Markdown, charts as PNG and SVG, every one captioned with its provenance.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from solvers.common.errors import BadInput
from solvers.common.files import write_text_atomic
from solvers.common.plots import (
    PALETTE,
    SEQUENTIAL,
    facets,
    interval_bars,
    new_figure,
    save_chart,
)
from solvers.common.stats import wilson, wilson_undecided

OUTCOMES = ("win", "loss", "undecided")
#: The heuristic players of the skill gap, strongest first (`solvers.allisbomb.agents`).
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
    return t[cols]


def losing_ends_text(names: str) -> str:
    """'NO_CARD_TO_PLAY+NO_WIN_REACHABLE' -> 'no card to play in the Play A Card phase;
    other lines proved to reach no win'."""
    from solvers.allisbomb.explain import ENDING_WORDS
    from solvers.allisbomb.rules import Ending

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
    recs = []
    for col in [c for c in g.columns if c.startswith("pos:")]:
        if g[col].isna().all():
            continue
        card = col[4:]
        for pos, h in g.groupby(col):
            wins, n = int((h["outcome"] == "win").sum()), len(h)
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
        if f"{player}_rate" in summary.columns:
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
    return to_markdown(t)


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


def write_report(
    rows: pd.DataFrame,
    out_dir: str | os.PathLike,
    caption: str,
    order: Sequence[str] | None = None,
    meta: Mapping[str, Any] | None = None,
) -> dict[str, Path]:
    """Write tables (CSV, Markdown) and charts (PNG, SVG) for a sweep into `out_dir`.

    Every chart is drawn from the tables written beside it (`draw_report`), so the report
    folder alone redraws it (`redraw_report`), without the study's chunks. Returns the
    paths written, by name.
    """
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
    return draw_report(tables, out_dir, caption)


#: What `redraw_report` needs of a report folder, and the file each table lives in.
REPORT_TABLES = {
    "summary": "summary.csv",
    "loss_reasons": "loss_reasons.csv",
    "positions": "positions.csv",
    "nodes": "difficulty_cdf.csv",
    "lengths": "solution_length_hist.csv",
}


def redraw_report(
    report_dir: str | os.PathLike, caption: str, out_dir: str | os.PathLike | None = None
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
        df = pd.read_csv(path, keep_default_na=False, na_values=[""]) if path.exists() else None
        if name in ("nodes", "lengths") and (df is None or "deals" not in df.columns):
            missing.append(file.removesuffix(".csv"))
            continue
        if df is not None:
            tables[name] = df
    return draw_report(tables, out_dir or src, caption), missing


def draw_report(
    tables: Mapping[str, pd.DataFrame], out_dir: str | os.PathLike, caption: str
) -> dict[str, Path]:
    """Write the report's tables (CSV, Markdown) and draw its charts from them alone.

    `tables`: ``summary`` (see `summarize`), ``loss_reasons``, ``positions``, ``nodes``
    (`node_counts`) and ``lengths`` (`length_counts`); a missing one leaves out its chart.
    """
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
    headline = out / "headline.md"
    write_text_atomic(headline, headline_table(summary))
    written["headline"] = headline

    configs = list(summary["config"])
    positions = tables.get("positions", pd.DataFrame())
    if not positions.empty:
        table("positions", positions, ["win_rate", "win_lo", "win_hi"])

    _chart_win_rates(summary, out, caption)
    if "nodes" in tables:
        _chart_difficulty(tables["nodes"], configs, out, caption)
    if "lengths" in tables:
        _chart_solution_length(tables["lengths"], configs, out, caption)
    if not positions.empty:
        _chart_positions(positions, configs[0], out, caption)
    if any(f"{p}_rate" in summary.columns for p in HEURISTICS):
        gap = skill_gap_table(summary)
        table("skill_gap", gap, [c for c in gap.columns if c not in ("config", "deals")])
        _chart_skill_gap(summary, out, caption)
    return written


#: The report's tables, in the page's order, with their titles.
PAGE_TABLES = (
    ("summary", "Win rates by configuration (Wilson 95% intervals)"),
    ("skill_gap", "Skill gap: heuristic players on the same deals"),
    ("loss_reasons", "Why lost deals are lost"),
    ("positions", "Win rate by key card's starting position"),
)


def write_index_page(
    target: Path, text: str, manifests: Mapping[str, Any], skip: Sequence[str] = ()
) -> None:
    """Write the report folder's ``index.html``: its tables and its charts (but the stems in
    `skip`: old charts that were not redrawn), with each study's manifest."""
    from solvers.common.htmlpage import write_index_html

    tables = []
    for name, title in PAGE_TABLES:
        if (target / f"{name}.csv").exists():
            df = pd.read_csv(target / f"{name}.csv")
            if name == "positions" and "config" in df.columns and len(df):
                # one configuration's rows (the chart's); the CSV beside has them all
                first = df["config"].iloc[0]
                df, title = df[df["config"] == first], f"{title}: {first} (all in positions.csv)"
            tables.append((title, df))
    charts = sorted(c for c in target.glob("*.png") if c.stem not in skip)
    write_index_html(target, "All Is Bomb sweep report", text, tables, charts, manifests)


def cards_tag(caption: str) -> str:
    """The chart titles' word on the cards, from the caption (which names them per set)."""
    if "STAND-IN card texts" in caption:
        return "STAND-IN cards"
    kinds = [k for k in ("PRINTED", "STAND-IN", "CUSTOM") if k in caption]
    return f"{kinds[0]} cards" if len(kinds) == 1 else "mixed cards: see the caption"


def _short(label: str) -> str:
    """A configuration label short enough for a chart axis, that tells the ALL expansion
    ("ALL", its printed name) from all six together ("6 expansions").

    >>> _short("base+mosquitos+dream_guide+gifts+the_juice+waking_up+all+hands/2p")
    'base+6 expansions+hands/2p'
    >>> _short("base+all")
    'base+ALL'
    """
    head, sep, tail = label.partition("/")
    parts = head.split("+")
    from solvers.allisbomb.config import EXPANSIONS as six

    if all(e in parts for e in six):
        at = parts.index(six[0])
        parts = [p for p in parts if p not in six]
        parts.insert(at, "6 expansions")
    else:
        parts = ["ALL" if p == "all" else p for p in parts]
    return "+".join(parts) + sep + tail


def _chart_win_rates(summary: pd.DataFrame, out: Path, caption: str) -> None:
    fig, ax = new_figure(8, 0.8 + 0.38 * len(summary))
    interval_bars(
        ax,
        [
            f"{_short(c)} (N={int(n):,})"
            for c, n in zip(summary["config"], summary["deals"], strict=True)
        ],
        summary["win_rate"],
        summary["win_lo"],
        summary["win_hi"],
    )
    und = summary["undecided"] / summary["deals"]
    if und.any():
        ax.barh(
            range(len(summary)),
            100 * und,
            left=100 * summary["win_rate"],
            color="none",
            edgecolor=PALETTE[0],
            hatch="///",
            lw=0.5,
            label="undecided (node limit)",
        )
        ax.legend(frameon=False, fontsize=8, loc="lower left")
    ax.set_xlabel("perfect-play win rate (%), Wilson 95% interval (undecided counted against)")
    ax.set_xlim(0, 110)
    ax.set_title(f"All Is Bomb: how often is a shuffle winnable? ({cards_tag(caption)})")
    cols = ["config", "deals", "wins", "undecided", "win_rate", "win_lo", "win_hi"]
    save_chart(fig, out, "win_rate_by_config", caption, summary[[c for c in cols if c in summary]])


def _panels(n_panels: int, width: float = 8.0, height: float = 2.6):
    """A column of `n_panels` axes sharing x, in the house style."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(
        n_panels, 1, figsize=(width, 0.8 + height * n_panels), sharex=True, layout="constrained"
    )
    axes = np.atleast_1d(axes)
    for ax in axes:
        ax.spines[["top", "right"]].set_visible(False)
        ax.grid(axis="y", alpha=0.3)
        ax.set_axisbelow(True)
    return fig, axes


def _chart_difficulty(
    counts: pd.DataFrame, configs: Sequence[str], out: Path, caption: str
) -> None:
    """The share of deals decided within x positions (`node_counts`), per configuration."""
    groups = facets(configs)
    fig, axes = _panels(len(groups))
    data = []
    for ax, group in zip(axes, groups, strict=True):
        for i, config in enumerate(group):
            c = counts[counts["config"] == config].sort_values("nodes")
            if c.empty:
                continue
            total = int(c["deals"].sum())
            cum = c["deals"].cumsum().to_numpy()
            ax.step(
                c["nodes"].to_numpy(),
                cum / total,
                where="post",
                color=PALETTE[i],
                lw=1.4,
                label=f"{_short(config)} (N={total:,})",
            )
            data.append(c.assign(deals_within=cum, share_within=cum / total))
        ax.set_xscale("log")
        ax.set_ylabel("share decided")
        ax.set_ylim(0, 1.01)
        # the legend beside the curves, not over them
        ax.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    axes[-1].set_xlabel(
        "search nodes to decide the deal (log scale; counts above 1,000 rounded up to 2 digits)"
    )
    axes[0].set_title(f"Difficulty: nodes the exhaustive search needs (CDF, {cards_tag(caption)})")
    save_chart(fig, out, "difficulty_cdf", caption, pd.concat(data) if data else counts)


def _chart_solution_length(
    counts: pd.DataFrame, configs: Sequence[str], out: Path, caption: str
) -> None:
    """The won deals' share by turns in the line found first (`length_counts`)."""
    groups = facets(configs)
    fig, axes = _panels(len(groups))
    data = []
    if not counts.empty:
        turns = np.arange(1, int(counts["turns"].max()) + 1)
        for ax, group in zip(axes, groups, strict=True):
            for i, config in enumerate(group):
                c = counts[counts["config"] == config].set_index("turns")["deals"]
                if c.empty:
                    continue
                won = int(c.sum())
                deals = c.reindex(turns, fill_value=0).to_numpy()
                ax.plot(
                    turns,
                    deals / won,
                    color=PALETTE[i],
                    lw=1.4,
                    marker="o",
                    ms=2.5,
                    label=f"{_short(config)} (N={won:,} won)",
                )
                data.append(
                    pd.DataFrame(
                        {"config": config, "turns": turns, "deals": deals, "share": deals / won}
                    )
                )
            ax.set_ylabel("share of won deals")
            ax.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    axes[-1].set_xlabel(
        "turns in the winning line the search found first (not the shortest; see --shortest)"
    )
    axes[0].set_title(f"Length of the winning lines found ({cards_tag(caption)})")
    save_chart(fig, out, "solution_length_hist", caption, pd.concat(data) if data else counts)


#: Heatmap cells with fewer deals than this are greyed and unlabelled: their Wilson 95%
#: interval is wider than about +-18 points, too wide to read a colour from.
MIN_CELL_DEALS = 30


def _chart_positions(positions: pd.DataFrame, config: str, out: Path, caption: str) -> None:
    p = positions[positions["config"] == config]
    grid = p.pivot(index="card", columns="position", values="win_rate")
    counts = p.pivot(index="card", columns="position", values="deals").reindex_like(grid)
    lows = p.pivot(index="card", columns="position", values="win_lo").reindex_like(grid)
    highs = p.pivot(index="card", columns="position", values="win_hi").reindex_like(grid)
    values = 100 * grid.to_numpy(dtype=float)
    thin = counts.fillna(0).to_numpy() < MIN_CELL_DEALS
    fig, ax = new_figure(11, 1.0 + 0.62 * len(grid))
    cmap = matplotlib_cmap(SEQUENTIAL).with_extremes(bad="#d9d9d9")
    im = ax.imshow(
        np.ma.masked_array(values, mask=thin | np.isnan(values)),
        aspect="auto",
        cmap=cmap,
        vmin=0,
        vmax=100,
    )
    ax.set_yticks(range(len(grid.index)), list(grid.index))
    ax.set_xticks(range(len(grid.columns)), [str(c) for c in grid.columns], fontsize=7)
    ax.set_xlabel(
        "starting position in the shuffled deck (1 = top; the first cards drawn are equipped)"
    )
    ax.grid(False)
    for y in range(grid.shape[0]):
        for x in range(grid.shape[1]):
            v, n = grid.iat[y, x], counts.iat[y, x]
            if pd.isna(v):
                continue
            if thin[y, x]:
                ax.text(x, y, f"N={int(n)}", ha="center", va="center", fontsize=5, color="#555555")
                continue
            half = 50 * (highs.iat[y, x] - lows.iat[y, x])
            colour = "black" if v > 0.55 else "white"
            ax.text(
                x,
                y,
                f"{100 * v:.0f}\n±{half:.0f}\nN={int(n)}",
                ha="center",
                va="center",
                fontsize=5,
                color=colour,
                linespacing=0.95,
            )
    fig.colorbar(im, ax=ax, label="perfect-play win rate (%)")
    ax.set_title(
        f"Win rate by where key cards start ({config}, {cards_tag(caption)})\n"
        f"cell: rate %, ± half its Wilson 95% interval, N deals; grey: N < {MIN_CELL_DEALS}",
        fontsize=10,
    )
    save_chart(fig, out, "position_heatmap", caption, p.reset_index(drop=True))


def matplotlib_cmap(name: str):
    """A copy of a Matplotlib colour map (so that set_bad does not change the shared one)."""
    import matplotlib

    return matplotlib.colormaps[name].copy()


def _chart_skill_gap(summary: pd.DataFrame, out: Path, caption: str) -> None:
    # perfect play on the same deals as the heuristic players (all deals in older studies)
    perfect = "perfect" if "perfect_rate" in summary.columns else "win"
    players = [(perfect, "perfect play")] + [
        (p, f"{p} player") for p in HEURISTICS if f"{p}_rate" in summary.columns
    ]
    fig, ax = new_figure(9, 1.8 + 0.55 * len(summary))
    n = len(players)
    labels = [_short(c) for c in summary["config"]]
    height = 0.8 / n
    y0 = np.arange(len(summary))
    for i, (key, label) in enumerate(players):
        rate = 100 * summary[f"{key}_rate"].to_numpy(dtype=float)
        lo = 100 * summary[f"{key}_lo"].to_numpy(dtype=float)
        hi = 100 * summary[f"{key}_hi"].to_numpy(dtype=float)
        ax.barh(
            y0 + i * height,
            rate,
            height,
            xerr=[rate - lo, hi - rate],
            color=PALETTE[i],
            label=label,
            capsize=2,
            error_kw={"lw": 0.8},
        )
    ax.set_yticks(y0 + height * (n - 1) / 2, labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.grid(axis="x", alpha=0.3)
    ax.grid(axis="y", visible=False)
    ax.set_xlabel("win rate (%) on the same deals, Wilson 95% interval")
    ax.set_title(
        f"Skill gap: perfect play against heuristic players ({cards_tag(caption)})", pad=24
    )
    # above the bars, under the title: the bars reach 100% and would hide it
    ax.legend(frameon=False, fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=n)
    if "perfect_deals" in summary.columns:
        for yi, d in zip(y0, summary["perfect_deals"], strict=True):
            ax.text(99, yi - height / 2, f"N={int(d):,} deals", ha="right", va="bottom", fontsize=7)
    # its data is the skill_gap table written beside it (same stem: not written twice)
    save_chart(fig, out, "skill_gap", caption)


# --- campaign (issue 3 part 5) --------------------------------------------------------------

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
    from solvers.common.runner import computed_by

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

    from solvers.allisbomb.campaign import MEDALS

    n_campaigns = len(rows)
    fig, ax = new_figure()
    lo_p, hi_p = int(rows["points"].min()), int(rows["points"].max())
    scores = np.arange(lo_p, hi_p + 1)
    counts = np.array([(rows["points"] == v).sum() for v in scores])
    # each score's bar in its medal's colour (rulebook H: 5, 10, 15 points), so no line
    # has to sit between two whole scores
    medal_of = [next((m for need, m in MEDALS if v >= need), "none") for v in scores]
    colours = {"gold": "#E69F00", "silver": "#56B4E9", "bronze": "#D55E00", "none": "#999999"}
    words = {
        "gold": "gold (15+ points)",
        "silver": "silver (10-14)",
        "bronze": "bronze (5-9)",
        "none": "no medal (0-4)",
    }
    for medal in ("none", "bronze", "silver", "gold"):
        sel = np.array([m == medal for m in medal_of])
        if sel.any():
            ax.bar(scores[sel], counts[sel], 0.85, color=colours[medal], label=words[medal])
    ax.legend(frameon=False, fontsize=8)
    ax.set_xticks(scores)
    ax.set_xlabel("campaign score (cards kept into the last game + wins, last win worth 3)")
    ax.set_ylabel(f"campaigns (of N={n_campaigns:,})")
    ax.set_title(f"All Is Bomb campaign scores under perfect play ({cards_tag(caption)})")
    score_data = pd.DataFrame({"points": scores, "campaigns": counts, "medal": medal_of})
    save_chart(fig, out, "campaign_scores", caption, score_data)

    fig, ax = new_figure(8, 3.6)
    interval_bars(ax, list(games["game"]), games["win_rate"], games["win_lo"], games["win_hi"])
    ax.set_xlim(0, 105)
    ax.set_xlabel("win rate of each campaign game (%), Wilson 95% interval, undecided against")
    ax.set_title(f"Campaign: which game breaks the run? ({cards_tag(caption)})")
    save_chart(fig, out, "campaign_games", caption)  # its data: the table campaign_games.csv
    return md

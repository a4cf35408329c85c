"""Charts of an All Is Bomb sweep and campaign (PNG and SVG, each with its provenance
caption, through `bombsolve.solvers.common.plots`), drawn from the tables of `report.py`: win rates
with Wilson intervals, difficulty and solution-length distributions, win rate by starting
position, the skill gap, the campaign's scores and games.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter, NullFormatter

from bombsolve.solvers.common.plots import (
    PALETTE,
    SEQUENTIAL,
    agg_figure,
    facets,
    interval_bars,
    new_figure,
    save_chart,
)


def cards_tag(caption: str) -> str:
    """The chart titles' word on the cards, from the caption (which names them per set)."""
    if "STAND-IN card texts" in caption:
        return "STAND-IN cards"
    kinds = [k for k in ("PRINTED", "STAND-IN", "CUSTOM") if k in caption]
    return f"{kinds[0]} cards" if len(kinds) == 1 else "mixed cards: see the caption"


def short_label(label: str) -> str:
    """A configuration label short enough for a chart axis, that tells the ALL expansion
    ("ALL", its printed name) from all six together ("6 expansions").

    >>> short_label("base+mosquitos+dream_guide+gifts+the_juice+waking_up+all+hands/2p")
    'base+6 expansions+hands/2p'
    >>> short_label("base+all")
    'base+ALL'
    """
    head, sep, tail = label.partition("/")
    parts = head.split("+")
    from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS as six

    if all(e in parts for e in six):
        at = parts.index(six[0])
        parts = [p for p in parts if p not in six]
        parts.insert(at, "6 expansions")
    else:
        parts = ["ALL" if p == "all" else p for p in parts]
    return "+".join(parts) + sep + tail


def win_rates_chart(summary: pd.DataFrame, out: Path, caption: str) -> None:
    fig, ax = new_figure(8, 0.8 + 0.38 * len(summary))
    interval_bars(
        ax,
        [
            f"{short_label(c)} (N={int(n):,})"
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
    fig = agg_figure(width, 0.8 + height * n_panels)
    axes = np.atleast_1d(fig.subplots(n_panels, 1, sharex=True))
    for ax in axes:
        ax.spines[["top", "right"]].set_visible(False)
        ax.grid(axis="y", alpha=0.3)
        ax.set_axisbelow(True)
    return fig, axes


def _thousands_text(value: float, _pos: int | None = None) -> str:
    # Whole numbers with thousands separators up to 10,000; past it the log axis's
    # decades would run into each other ("100,000,00010,000,000,000"), so 100k, 1M, 10M.
    if value < 1:
        return f"{value:g}"
    if value <= 10_000:
        return f"{value:,.0f}"
    for size, unit in ((1e9, "bn"), (1e6, "M"), (1e3, "k")):
        if value >= size:
            return f"{value / size:,.0f}{unit}"
    return f"{value:,.0f}"


_thousands = FuncFormatter(_thousands_text)


def difficulty_chart(counts: pd.DataFrame, configs: Sequence[str], out: Path, caption: str) -> None:
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
                label=f"{short_label(config)} (N={total:,})",
            )
            data.append(c.assign(deals_within=cum, share_within=cum / total))
        ax.set_xscale("log")
        # 1,000 rather than 10^3: no scientific notation, and no mathtext to typeset
        ax.xaxis.set_major_formatter(_thousands)
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_ylabel("share decided")
        ax.set_ylim(0, 1.01)
        # the legend beside the curves, not over them
        ax.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    axes[-1].set_xlabel(
        "search nodes to decide the deal (log scale; counts above 1,000 rounded up to 2 digits)"
    )
    axes[0].set_title(f"Difficulty: nodes the exhaustive search needs (CDF, {cards_tag(caption)})")
    save_chart(fig, out, "difficulty_cdf", caption, pd.concat(data) if data else counts)


def solution_length_chart(
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
                    label=f"{short_label(config)} (N={won:,} won)",
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


def positions_chart(positions: pd.DataFrame, config: str, out: Path, caption: str) -> None:
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
    # One short label a cell, the rate, large enough to read: each cell's N and interval
    # differ little in a sweep of uniform shuffles, so their ranges go in the title (each
    # cell's are in positions.csv). Three lines a cell were most of the chart's drawing.
    # Inside their cells, the labels cannot move the layout: left out of its measuring.
    cell = {"in_layout": False, "ha": "center", "va": "center"}
    shown = ~thin & ~np.isnan(values)
    for y, x in zip(*np.nonzero(~np.isnan(values)), strict=True):
        if thin[y, x]:
            n = int(counts.iat[y, x])
            ax.text(x, y, f"N={n}", fontsize=6, color="#555555", **cell)
        else:
            v = values[y, x]
            ax.text(x, y, f"{v:.0f}", fontsize=8, color="black" if v > 55 else "white", **cell)
    half = 50 * (highs.to_numpy(dtype=float) - lows.to_numpy(dtype=float))
    spread = (
        f"; {_span(counts.to_numpy(dtype=float)[shown])} deals a cell, "
        f"± {_span(np.round(half[shown]))} points (half the Wilson 95% interval)"
        if shown.any()
        else ""
    )
    fig.colorbar(im, ax=ax, label="perfect-play win rate (%)")
    ax.set_title(
        f"Win rate by where key cards start ({config}, {cards_tag(caption)})\n"
        f"cell: win rate %{spread}; grey: fewer than {MIN_CELL_DEALS} deals (N shown)",
        fontsize=10,
    )
    save_chart(fig, out, "position_heatmap", caption, p.reset_index(drop=True))


def _span(values: np.ndarray) -> str:
    """'88-138' (or '95' when all are equal), whole numbers with thousands separators."""
    lo, hi = int(values.min()), int(values.max())
    return f"{lo:,}" if lo == hi else f"{lo:,}-{hi:,}"


def matplotlib_cmap(name: str):
    """A copy of a Matplotlib colour map (so that set_bad does not change the shared one)."""
    import matplotlib

    return matplotlib.colormaps[name].copy()


def skill_gap_chart(
    summary: pd.DataFrame, out: Path, caption: str, heuristics: Sequence[str]
) -> None:
    """Perfect play next to each of `heuristics` (the players' names, strongest first) that
    has a ``NAME_rate`` column in `summary`."""
    # perfect play on the same deals as the heuristic players (all deals in older studies)
    perfect = "perfect" if "perfect_rate" in summary.columns else "win"
    players = [(perfect, "perfect play")] + [
        (p, f"{p} player") for p in heuristics if f"{p}_rate" in summary.columns
    ]
    fig, ax = new_figure(9, 1.8 + 0.55 * len(summary))
    n = len(players)
    labels = [short_label(c) for c in summary["config"]]
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


def campaign_charts(rows: pd.DataFrame, games: pd.DataFrame, out: Path, caption: str) -> None:
    """Draw the campaign's charts: the scores by medal, and each game's win rate (`games`:
    the table of `report.campaign_summary`)."""
    from bombsolve.solvers.allisbomb.studies.campaign import MEDALS

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

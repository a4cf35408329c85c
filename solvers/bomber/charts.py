"""Charts of the Catch the Bomber studies (PNG and SVG through `bombsolve.solvers.common.plots`):
outcome shares per condition, the Bomber's victories by achievement, one outcome's rate
with its Wilson 95% interval. The tables they draw are `study.summarise` and
`study.achievements`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from bombsolve.solvers.bomber.rules import OUTCOME_NAMES, Outcome

# The words of the tables (`study.summarise` columns) and of the charts. The short keys
# follow the Outcome values 0..3 (the kernel codes); the labels are the rulebook's names.
OUTCOME_KEYS = ("bomber", "police", "draw", "sole")
OUTCOME_LABELS = {key: OUTCOME_NAMES[Outcome(code)] for code, key in enumerate(OUTCOME_KEYS)}
# The Bomber's unlocked achievements ("Achievement Assessment"), one set per victory.
ACHIEVEMENT_SETS = (
    "Chaos",
    "Escape",
    "Bombing",
    "Chaos+Escape",
    "Chaos+Bombing",
    "Escape+Bombing",
    "all three",
)

# Okabe and Ito's colour-blind-safe colours (bombsolve.solvers.common.plots.PALETTE)
OUTCOME_COLOURS = {"bomber": "#D55E00", "police": "#0072B2", "draw": "#999999", "sole": "#E69F00"}
SET_COLOURS = ["#D55E00", "#E69F00", "#CC79A7", "#0072B2", "#56B4E9", "#009E73", "#000000"]


def chart_outcomes(summaries: Mapping[str, pd.DataFrame], title: str):
    """Return a figure: one panel per agent set, a 100% bar of outcomes per condition.

    The Bomber's victory share is written on each bar with its Wilson 95% interval.
    """
    from bombsolve.solvers.common.plots import new_figure

    n_panels = len(summaries)
    n_rows = max(len(s) for s in summaries.values())
    fig, ax0 = new_figure(9.0, 1.1 + 0.42 * n_rows * n_panels + 0.5 * n_panels)
    fig.clear()
    axes = fig.subplots(n_panels, 1, squeeze=False, sharex=True)[:, 0]
    for ax, (agents, summ) in zip(axes, summaries.items(), strict=True):
        y = np.arange(len(summ))
        left = np.zeros(len(summ))
        for key in OUTCOME_KEYS:
            vals = summ[key].to_numpy() * 100
            ax.barh(y, vals, left=left, color=OUTCOME_COLOURS[key], label=OUTCOME_LABELS[key])
            left += vals
        for yi, (_, r) in zip(y, summ.iterrows(), strict=True):
            ax.text(1, yi, f"{r['bomber']:.1%} [{r['bomber_lo']:.1%}, {r['bomber_hi']:.1%}]",
                    va="center", ha="left", fontsize=8, color="white")  # fmt: skip
        ax.set_yticks(y, [f"{c}  (N={n:,})" for c, n in zip(summ["condition"], summ["games"],
                                                            strict=True)])  # fmt: skip
        ax.invert_yaxis()
        ax.set_xlim(0, 100)
        ax.set_title(f"agents: {agents}", fontsize=10, loc="left")
        ax.spines[["top", "right"]].set_visible(False)
    axes[-1].set_xlabel("share of games (%)")
    axes[0].legend(ncols=4, fontsize=8, loc="lower left", bbox_to_anchor=(0, 1.12), frameon=False)
    fig.suptitle(title, fontsize=12, x=0.01, ha="left")
    return fig


def chart_achievements(tables: Mapping[str, pd.DataFrame], title: str):
    """Return a figure: the Bomber's victories split by the achievements he unlocked."""
    from bombsolve.solvers.common.plots import new_figure

    n_panels = len(tables)
    n_rows = max(len(t) for t in tables.values())
    fig, _ = new_figure(9.0, 1.1 + 0.42 * n_rows * n_panels + 0.5 * n_panels)
    fig.clear()
    axes = fig.subplots(n_panels, 1, squeeze=False, sharex=True)[:, 0]
    for ax, (agents, tab) in zip(axes, tables.items(), strict=True):
        y = np.arange(len(tab))
        left = np.zeros(len(tab))
        for name, colour in zip(ACHIEVEMENT_SETS, SET_COLOURS, strict=True):
            vals = tab[name].to_numpy() * 100
            ax.barh(y, vals, left=left, color=colour, label=name)
            left += vals
        ax.set_yticks(y, [f"{c}  ({n:,} wins)" for c, n in zip(tab["condition"], tab["bomber_wins"],
                                                              strict=True)])  # fmt: skip
        ax.invert_yaxis()
        ax.set_xlim(0, 100)
        ax.set_title(f"agents: {agents}", fontsize=10, loc="left")
        ax.spines[["top", "right"]].set_visible(False)
    axes[-1].set_xlabel("share of the Bomber's victories (%)")
    axes[0].legend(ncols=4, fontsize=8, loc="lower left", bbox_to_anchor=(0, 1.12), frameon=False)
    fig.suptitle(title, fontsize=12, x=0.01, ha="left")
    return fig


def chart_rate(summaries: Mapping[str, pd.DataFrame], key: str, title: str):
    """Return a figure: one outcome's rate with Wilson 95% interval, per condition and agents."""
    from bombsolve.solvers.common.plots import PALETTE, new_figure

    conds = list(next(iter(summaries.values()))["condition"])
    fig, ax = new_figure(8.0, 1.6 + 0.25 * len(conds) * max(len(summaries), 2))
    height = 0.8 / len(summaries)
    for k, (agents, summ) in enumerate(summaries.items()):
        y = np.arange(len(summ)) + k * height
        vals = summ[key].to_numpy() * 100
        err = [vals - summ[f"{key}_lo"].to_numpy() * 100, summ[f"{key}_hi"].to_numpy() * 100 - vals]
        ax.barh(y, vals, height=height * 0.9, xerr=err, color=PALETTE[k], capsize=2,
                label=f"agents: {agents}", error_kw={"lw": 1})  # fmt: skip
        highs = summ[f"{key}_hi"].to_numpy() * 100
        for yi, v, hi in zip(y, vals, highs, strict=True):
            ax.text(hi + 1.0, yi, f"{v:.1f}%", va="center", fontsize=8)
    games = {c: ", ".join(f"{int(summ.set_index('condition').loc[c, 'games']):,}"
                          for summ in summaries.values()) for c in conds}  # fmt: skip
    ax.set_yticks(
        np.arange(len(conds)) + height * (len(summaries) - 1) / 2,
        [f"{c}  (N={games[c]})" for c in conds],
    )
    ax.invert_yaxis()
    ax.set_xlim(0, 110)
    ax.set_xlabel(f"{OUTCOME_LABELS[key]} (% of games, Wilson 95% interval)")
    ax.grid(axis="x", alpha=0.3)
    ax.grid(axis="y", visible=False)
    # legend above the bars, never over them
    ax.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0, 1.0), ncols=2, frameon=False)
    fig.suptitle(title, fontsize=12, x=0.01, ha="left")
    return fig

"""Charts of the Bombastic reference study (PNG and SVG, with a provenance caption)."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from solvers.common.plots import PALETTE, interval_bars, new_figure, save_chart


def first_player_chart(first: pd.DataFrame, out: Path, caption: str) -> None:
    """First player's win rate with Wilson intervals, one bar per pairing."""
    fig, ax = new_figure(8.0, 0.35 * len(first) + 1.6)
    labels = [f"{p}  (n={n})" for p, n in zip(first["pairing"], first["games"], strict=True)]
    interval_bars(ax, labels, first["rate"], first["lo"], first["hi"])
    for patch, p in zip(ax.patches, first["pairing"], strict=True):
        if "kernel" in p:  # a million Numba games: a different source, a different colour
            patch.set_color(PALETTE[1])
    ax.axvline(50, color="#333333", lw=1, ls="--")
    ax.set_xlim(0, 105)
    ax.set_xlabel("first player (X) wins, % of games, both seatings pooled")
    ax.set_title("Does moving first help? First player's win rate by pairing")
    save_chart(fig, out, "first_player", caption)


def card_value_chart(variants: pd.DataFrame, usage: pd.DataFrame, out: Path, caption: str) -> None:
    """Left: first player's win rate per deck variant. Right: win rate of a card's users."""
    fig, (ax1, ax2) = plt.subplots(
        1, 2, figsize=(12, 0.35 * len(variants) + 2.0), layout="constrained"
    )
    for ax in (ax1, ax2):
        ax.spines[["top", "right"]].set_visible(False)
    labels = [
        f"{v} ({t:.1f} turns)"
        for v, t in zip(variants["variant"], variants["mean_turns"], strict=True)
    ]
    interval_bars(ax1, labels, variants["x_rate"], variants["x_lo"], variants["x_hi"])
    base = variants.iloc[0]["x_rate"] * 100
    ax1.axvline(base, color=PALETTE[1], lw=1, ls="--", label="base deck")
    ax1.set_xlim(0, 105)
    ax1.set_xlabel("first player (X) wins, %")
    ax1.set_title("Deck variants: leave one card out, add promos, drop ALARM")
    ax1.legend(loc="lower right", fontsize=8, frameon=False)
    u = usage.sort_values("win_rate", ascending=False)
    ulabels = [f"{c} (used {n}x)" for c, n in zip(u["card"], u["users"], strict=True)]
    interval_bars(ax2, ulabels, u["win_rate"], u["lo"], u["hi"], color=PALETTE[2])
    ax2.axvline(50, color="#333333", lw=1, ls="--")
    ax2.set_xlim(0, 105)
    ax2.set_xlabel("games won by a player who used the card at least once, %")
    ax2.set_title("Card value in use (base deck)")
    save_chart(fig, out, "card_values", caption)


def game_length_chart(tour: pd.DataFrame, out: Path, caption: str) -> None:
    """Left: distribution of game length for each mirror match. Right: how games end."""
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.8), layout="constrained")
    for ax in (ax1, ax2):
        ax.spines[["top", "right"]].set_visible(False)
    mirrors = [a for a in dict.fromkeys(tour["x"]) if ((tour["x"] == a) & (tour["o"] == a)).any()]
    top = int(tour["turns"].max())
    bins = np.arange(0.5, top + 1.5)
    for i, a in enumerate(mirrors):
        t = tour[(tour["x"] == a) & (tour["o"] == a)]["turns"].clip(upper=bins[-1] - 0.5)
        ax1.hist(
            t,
            bins=bins,
            histtype="step",
            lw=1.8,
            color=PALETTE[i % len(PALETTE)],
            density=True,
            label=f"{a} vs {a} (mean {t.mean():.1f})",
        )
    ax1.set_xlabel("turns played (both players' turns counted)")
    ax1.set_ylabel("share of games")
    ax1.set_title("Game length, each agent against itself")
    ax1.legend(fontsize=8, frameon=False)
    ends = how_agents_win_and_lose(tour)
    order = [c for c in OUTCOMES if c in ends.columns]
    colors = {c: col for c, col in zip(OUTCOMES, OUTCOME_COLORS, strict=True)}
    left = np.zeros(len(ends))
    for e in order:
        ax2.barh(range(len(ends)), ends[e], left=left, color=colors[e], label=e)
        left += ends[e].to_numpy()
    ax2.set_yticks(range(len(ends)), list(ends.index))
    ax2.invert_yaxis()
    ax2.set_xlim(0, 100)
    ax2.set_xlabel("% of the agent's games (both seats, all opponents)")
    ax2.set_title("How each agent wins and loses")
    ax2.legend(fontsize=7, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=3)
    save_chart(fig, out, "game_length", caption)


OUTCOMES = (
    "won: own line",
    "won: L shape",
    "won: opponent's failed gamble",
    "won: opponent showed the bomb",
    "turn cap",
    "lost: showed the bomb",
    "lost: own failed gamble",
    "lost: opponent's line",
)
OUTCOME_COLORS = (
    "#2f6f3e",
    "#4f9a55",
    "#8cc084",
    "#c5e0b4",
    "#bbbbbb",
    "#f2b8a0",
    "#d9822b",
    "#b8473d",
)
_WIN_LINE = {"GO_FOR_IT_WIN", "ALARM_GO_FOR_IT_WIN"}
_GAMBLE = {"GO_FOR_IT_BOMB", "ALARM_GO_FOR_IT_BOMB", "PEEKED_BOMB", "L_SHAPE_LOSS"}


def _outcome(won: bool, ending: str) -> str:
    if ending == "TURN_CAP":
        return "turn cap"
    if ending in _WIN_LINE:
        return "won: own line" if won else "lost: opponent's line"
    if ending == "L_SHAPE_WIN":
        return "won: L shape" if won else "lost: opponent's line"
    if ending in _GAMBLE:
        return "won: opponent's failed gamble" if won else "lost: own failed gamble"
    return "won: opponent showed the bomb" if won else "lost: showed the bomb"


def how_agents_win_and_lose(tour: pd.DataFrame) -> pd.DataFrame:
    """Percent of each agent's games (either seat, self-play left out) by outcome."""
    rows = []
    games = tour[tour["x"] != tour["o"]]
    for seat, col in ((0, "x"), (1, "o")):
        for agent, w, e in zip(games[col], games["winner"], games["ending"], strict=True):
            rows.append((agent, _outcome(w == seat, e)))
    df = pd.DataFrame(rows, columns=["agent", "outcome"])
    t = df.groupby(["agent", "outcome"]).size().unstack(fill_value=0)
    t = t.div(t.sum(axis=1), axis=0) * 100
    won = [c for c in t.columns if c.startswith("won")]
    return t.loc[t[won].sum(axis=1).sort_values(ascending=False).index]


def ladder_chart(rates: pd.DataFrame, out: Path, caption: str) -> None:
    """Agents ranked by Bradley-Terry rating: a dot each, with its bootstrap 95% interval
    when `rates` has ``lo``/``hi`` (`study.rating_intervals`), on an axis that spans the
    ratings (a bar from an arbitrary origin would make gaps look larger than they are)."""
    fig, ax = new_figure(8.0, 0.5 * len(rates) + 1.6)
    y = np.arange(len(rates))
    r = rates["rating"].to_numpy(dtype=float)
    has_ci = {"lo", "hi"} <= set(rates.columns)
    if has_ci:
        err = [r - rates["lo"].to_numpy(dtype=float), rates["hi"].to_numpy(dtype=float) - r]
        ax.errorbar(r, y, xerr=err, fmt="o", color=PALETTE[0], ecolor="#333333", capsize=3, lw=1)
        right = rates["hi"].to_numpy(dtype=float)
    else:
        ax.plot(r, y, "o", color=PALETTE[0])
        right = r
    for yi, v, s, n, x in zip(y, r, rates["score"], rates["games"], right, strict=True):
        ax.text(
            x + 15, yi, f"{v:.0f}  (score {100 * s:.0f}% of {n:,} games)", va="center", fontsize=8
        )
    ax.set_yticks(y, rates["agent"])
    ax.invert_yaxis()
    lo = rates["lo"].min() if has_ci else r.min()
    ax.set_xlim(lo - 60, right.max() + 380)
    interval = rates.attrs.get("bootstrap", "bootstrap 95% intervals") if has_ci else "no intervals"
    ax.set_xlabel(
        f"rating (Bradley-Terry on the Elo scale, mean 1500; self-play left out; {interval})"
    )
    ax.set_title("Ladder of agents (only differences between ratings mean anything)")
    ax.grid(axis="x", alpha=0.3)
    ax.grid(axis="y", visible=False)
    data = rates[[c for c in ("agent", "rating", "lo", "hi", "score", "games") if c in rates]]
    save_chart(fig, out, "ladder", caption, data)

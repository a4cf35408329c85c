"""Charts of the Bombastic reference study (PNG and SVG, with a provenance caption)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.patches import Patch

from bombsolve.solvers.common.plots import PALETTE, interval_bars, new_figure, save_chart

#: Games per seating below which a pairing's figures are listed, not compared: their
#: Wilson 95% interval is wider than about +-2.2 points.
MIN_COMPARED = 2000


def _per_seating(pairing: str, games: int) -> int:
    """Games per seating of a first-player row ('a / b': both seatings pooled)."""
    a, _, b = pairing.partition(" / ")
    return games if a == b or "kernel" in pairing else games // 2


def first_player_chart(first: pd.DataFrame, out: Path, caption: str) -> None:
    """First player's win rate with Wilson intervals, one bar per pairing; pairings of
    fewer than `MIN_COMPARED` games per seating drawn pale (listed, not compared)."""
    fig, ax = new_figure(8.5, 0.32 * len(first) + 1.9)
    labels = [f"{p}  (n={n:,})" for p, n in zip(first["pairing"], first["games"], strict=True)]
    interval_bars(ax, labels, first["rate"], first["lo"], first["hi"])
    few = [
        _per_seating(p, n) < MIN_COMPARED
        for p, n in zip(first["pairing"], first["games"], strict=True)
    ]
    for patch, p, f in zip(ax.patches, first["pairing"], few, strict=True):
        if "kernel" in p:  # a million Numba games: a different source, a different colour
            patch.set_color(PALETTE[1])
        elif f:
            patch.set_color("#b9cfe0")
    ax.legend(
        handles=[
            Patch(color=PALETTE[0], label=f"at least {MIN_COMPARED:,} games per seating"),
            Patch(color="#b9cfe0", label="fewer: listed, too few to compare"),
            Patch(color=PALETTE[1], label="random play in the Numba kernel"),
        ],
        loc="upper right",
        fontsize=7,
        frameon=True,
    )
    ax.axvline(50, color="#333333", lw=1, ls="--")
    ax.set_xlim(0, 105)
    ax.set_xlabel("first player (X) wins, % of games, both seatings pooled (Wilson 95%)")
    ax.set_title("Does moving first help? First player's win rate by pairing")
    # first_player.csv, the study's table, is this chart's data (one row a bar)
    save_chart(fig, out, "first_player", caption)


def card_value_chart(variants: pd.DataFrame, usage: pd.DataFrame, out: Path, caption: str) -> None:
    """Left: first player's win rate per deck variant. Right: win rate of a card's users."""
    fig, (ax1, ax2) = plt.subplots(
        1, 2, figsize=(12, 0.35 * len(variants) + 2.0), layout="constrained"
    )
    for ax in (ax1, ax2):
        ax.spines[["top", "right"]].set_visible(False)
    labels = [
        f"{v} (n={n:,}, {t:.1f} turns)"
        for v, n, t in zip(
            variants["variant"], variants["games"], variants["mean_turns"], strict=True
        )
    ]
    interval_bars(ax1, labels, variants["x_rate"], variants["x_lo"], variants["x_hi"])
    base = variants.iloc[0]["x_rate"] * 100
    ax1.axvline(base, color=PALETTE[1], lw=1, ls="--", label="base deck")
    ax1.set_xlim(0, 105)
    ax1.set_xlabel("first player (X) wins, % (Wilson 95%)")
    ax1.set_title("Deck variants: leave one card out, add promos, drop ALARM")
    ax1.legend(loc="lower right", fontsize=8, frameon=False)
    u = usage.sort_values("win_rate", ascending=False)
    ulabels = [f"{c} (n={n:,})" for c, n in zip(u["card"], u["users"], strict=True)]
    interval_bars(ax2, ulabels, u["win_rate"], u["lo"], u["hi"], color=PALETTE[2])
    ax2.axvline(50, color="#333333", lw=1, ls="--")
    ax2.set_xlim(0, 105)
    ax2.set_xlabel("games won by a player who used the card at least once, % (Wilson 95%)")
    ax2.set_title("Card value in use (base deck; users chose to play it)")
    v = variants[["variant", "games", "x_wins", "x_rate", "x_lo", "x_hi", "mean_turns"]]
    data = pd.concat(
        [
            v.assign(panel="deck variants"),
            u.rename(
                columns={
                    "card": "variant",
                    "users": "games",
                    "win_rate": "x_rate",
                    "lo": "x_lo",
                    "hi": "x_hi",
                }
            ).assign(panel="card users"),
        ],
        ignore_index=True,
    )
    save_chart(fig, out, "card_values", caption, data)


#: Turns at and beyond this are drawn as one last bin (the tail is thin).
LENGTH_TAIL = 25


def game_length_chart(
    lengths: pd.DataFrame,
    outcomes: pd.DataFrame,
    pairs: pd.DataFrame,
    out: Path,
    caption: str,
    order: Sequence[str] = (),
) -> None:
    """Left: game length of each agent against itself, one small panel per agent on shared
    axes. Right: how each agent's games end (all opponents, self-play left out).

    `lengths` is ``game_lengths.csv`` (x, o, turns, games), `outcomes` is
    `how_agents_win_and_lose` with the agent as a column, `pairs` is `study.pairing_table`
    (for the turn-capped games). `order` sets the panels' order (the study's agents).
    """
    agents = list(dict.fromkeys([*order, *lengths["x"]]))
    mirrors = [a for a in agents if ((lengths["x"] == a) & (lengths["o"] == a)).any()]
    fig = plt.figure(figsize=(13, 6.2), layout="constrained")
    left, right = fig.subfigures(1, 2, width_ratios=[1.25, 1.0])
    ncols = 2
    nrows = -(-len(mirrors) // ncols)
    axes = left.subplots(nrows, ncols, sharex=True, sharey=True, squeeze=False)
    bins = np.arange(1, LENGTH_TAIL + 1)
    rows = []
    for k, a in enumerate(mirrors):
        ax = axes[k // ncols][k % ncols]
        ax.spines[["top", "right"]].set_visible(False)
        g = lengths[(lengths["x"] == a) & (lengths["o"] == a)]
        n = int(g["games"].sum())
        t = g["turns"].clip(upper=LENGTH_TAIL)
        share = g.groupby(t)["games"].sum().reindex(bins, fill_value=0) / n * 100
        mean = float((g["turns"] * g["games"]).sum() / n)
        cap = pairs[(pairs["x"] == a) & (pairs["o"] == a)]["turn_cap"].sum()
        ax.bar(bins, share.to_numpy(), width=0.85, color=PALETTE[0])
        note = f"mean {mean:.1f} turns, n={n:,}"
        if cap:
            note += f"\nturn cap: {100 * cap / n:.0f}%"
        ax.set_title(f"{a} vs itself", fontsize=9, loc="left")
        ax.text(0.98, 0.92, note, transform=ax.transAxes, ha="right", va="top", fontsize=8)
        ax.grid(axis="y", alpha=0.3)
        for b, v in zip(bins, share.to_numpy(), strict=True):
            rows.append({"agent": a, "turns": b, "share_pct": v, "games": n})
    for k in range(len(mirrors), nrows * ncols):
        axes[k // ncols][k % ncols].set_visible(False)
        # the panel above an empty slot is the lowest of its column: it carries the ticks
        axes[k // ncols - 1][k % ncols].tick_params(labelbottom=True)
    ticks = [1, 5, 10, 15, 20, LENGTH_TAIL]
    axes[-1][0].set_xticks(ticks, [str(x) for x in ticks[:-1]] + [f"{LENGTH_TAIL}+"])
    left.supxlabel(
        f"turns played (both players' turns; {LENGTH_TAIL}+ includes turn-capped)", fontsize=9
    )
    left.supylabel("% of the games", fontsize=9)
    left.suptitle("Game length, each agent against itself", fontsize=11)

    ax2 = right.subplots()
    ax2.spines[["top", "right"]].set_visible(False)
    ends = outcomes.set_index("agent")
    order = [c for c in OUTCOMES if c in ends.columns]
    colors = dict(zip(OUTCOMES, OUTCOME_COLORS, strict=True))
    acc = np.zeros(len(ends))
    for e in order:
        vals = ends[e].to_numpy(dtype=float)
        ax2.barh(
            range(len(ends)), vals, left=acc, color=colors[e], label=e, edgecolor="white", lw=0.5
        )
        for yi, (x0, v) in enumerate(zip(acc, vals, strict=True)):
            if v >= 9:
                dark = colors[e] in _DARK
                ax2.text(
                    x0 + v / 2,
                    yi,
                    f"{v:.0f}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if dark else "black",
                )
        acc += vals
    n_games = ends["games"] if "games" in ends else None
    labels = [f"{a}\n(n={int(n_games[a]):,})" if n_games is not None else a for a in ends.index]
    ax2.set_yticks(range(len(ends)), labels, fontsize=8)
    ax2.invert_yaxis()
    ax2.set_xlim(0, 100)
    ax2.set_xlabel("% of the agent's games (both seats, all other agents)")
    ax2.set_title("How each agent wins (blues) and loses (oranges)", fontsize=11)
    ax2.legend(fontsize=7, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2)
    data = pd.DataFrame(rows)
    long = ends.reset_index().melt(
        id_vars=["agent"] + (["games"] if n_games is not None else []),
        value_vars=order,
        var_name="outcome",
        value_name="share_pct",
    )
    data = pd.concat(
        [data.assign(panel="game length"), long.assign(panel="outcomes")], ignore_index=True
    )
    save_chart(fig, out, "game_length", caption, data)


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
#: Wins in blues, losses in oranges (dark to light by how direct the outcome is), the
#: turn cap grey: blue against orange reads with every common colour-vision deficiency,
#: unlike green against red.
OUTCOME_COLORS = (
    "#08306b",
    "#2171b5",
    "#6baed6",
    "#c6dbef",
    "#bbbbbb",
    "#fdd0a2",
    "#E69F00",
    "#D55E00",
)
_DARK = {"#08306b", "#2171b5", "#D55E00"}
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
    n = t.sum(axis=1)
    t = t.div(n, axis=0) * 100
    won = [c for c in t.columns if c.startswith("won")]
    t["games"] = n
    return t.loc[t[won].sum(axis=1).sort_values(ascending=False).index]


def ladder_chart(rates: pd.DataFrame, out: Path, caption: str) -> None:
    """Agents ranked by Bradley-Terry rating: a dot each, with its bootstrap 95% interval
    when `rates` has ``lo``/``hi`` (`study.rating_intervals`), on an axis that spans the
    ratings (a bar from an arbitrary origin would make gaps look larger than they are)."""
    fig, ax = new_figure(10.0, 0.5 * len(rates) + 2.0)
    y = np.arange(len(rates))
    r = rates["rating"].to_numpy(dtype=float)
    has_ci = {"lo", "hi"} <= set(rates.columns)
    lows = rates["lo"].to_numpy(dtype=float) if has_ci else r
    highs = rates["hi"].to_numpy(dtype=float) if has_ci else r
    if has_ci:
        err = [r - lows, highs - r]
        ax.errorbar(r, y, xerr=err, fmt="o", color=PALETTE[0], ecolor="#333333", capsize=4, lw=1.2)
    else:
        ax.plot(r, y, "o", color=PALETTE[0])
    for yi, v, lo_, hi_, s, n in zip(
        y, r, lows, highs, rates["score"], rates["games"], strict=True
    ):
        # The share is of this agent's games against the others, and the others differ
        # from agent to agent: said in words beside the axes, so that it is not read as
        # a second rating.
        rating = f"{v:.0f} [{lo_:.0f}, {hi_:.0f}]" if has_ci else f"{v:.0f}"
        ax.annotate(
            f"{rating}: won {100 * s:.0f}% of its {n:,} games against the others",
            xy=(1.02, yi),
            xycoords=("axes fraction", "data"),
            va="center",
            fontsize=8,
        )
    ax.set_yticks(y, rates["agent"])
    ax.invert_yaxis()
    ax.set_xlim(lows.min() - 60, highs.max() + 60)
    interval = rates.attrs.get("bootstrap", "bootstrap 95% intervals") if has_ci else "no intervals"
    ax.set_xlabel(
        f"rating, Bradley-Terry on the Elo scale, mean 1500, self-play left out\n({interval})"
    )
    ax.set_title(
        "Ladder of agents: rating with its interval (only differences between ratings mean "
        "anything)",
        fontsize=10,
        loc="left",
    )
    ax.grid(axis="x", alpha=0.3)
    ax.grid(axis="y", visible=False)
    data = rates[[c for c in ("agent", "rating", "lo", "hi", "score", "games") if c in rates]]
    save_chart(fig, out, "ladder", caption, data)

"""Charts of the Bomb the Dragon studies (PNG and SVG, each with its provenance caption)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.patches import Patch

from bombsolve.solvers.common.plots import MIN_CELL_N, PALETTE, new_figure, save_chart


def seats_chart(seats: pd.DataFrame, out_dir: str | os.PathLike, caption: str) -> list[Path]:
    """Win rate by seat at each player count, one panel per strategy, fair share dashed."""
    strategies = list(dict.fromkeys(seats["strategy"]))
    fig, axes = new_figure(5.0 * len(strategies), 4.6)
    fig.clear()
    axes = fig.subplots(1, len(strategies), sharey=True, squeeze=False)[0]
    for ax, strat in zip(axes, strategies, strict=True):
        sub = seats[seats["strategy"] == strat]
        players = sorted(sub["players"].unique())
        for gi, p in enumerate(players):
            t = sub[sub["players"] == p].sort_values("seat")
            width = 0.8 / 6
            xs = gi + (t["seat"].to_numpy() - (p + 1) / 2) * width
            rate = t["win_rate"].to_numpy() * 100
            err = [rate - t["lo"].to_numpy() * 100, t["hi"].to_numpy() * 100 - rate]
            ax.bar(xs, rate, width * 0.9, color=[PALETTE[s - 1] for s in t["seat"]], alpha=0.85)
            ax.errorbar(xs, rate, yerr=err, fmt="none", ecolor="#333333", lw=0.8, capsize=2)
            ax.hlines(100 / p, gi - 0.45, gi + 0.45, colors="#333333", linestyles="dashed", lw=1)
        games = [int(sub[sub["players"] == p]["games"].iloc[0]) for p in players]
        ax.set_xticks(
            range(len(players)),
            [f"{p} players\nN={n:,}" for p, n in zip(players, games, strict=True)],
        )
        ax.set_title(f"all seats play {strat}", fontsize=10)
        ax.spines[["top", "right"]].set_visible(False)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("games won by the seat (%)")
    # only the seats these player counts have: a chart of 4 and 5 players has no seat 6
    handles = [
        Patch(color=PALETTE[i], label=f"seat {i + 1}") for i in range(int(seats["seat"].max()))
    ]
    axes[-1].legend(handles=handles, fontsize=8, ncols=2, frameon=False, loc="upper right")
    fig.suptitle("Seat advantage: win rate by seat (bars: Wilson 95%; dashed: fair share 1/P)")
    return save_chart(fig, out_dir, "seats", caption)


def _count(n: int) -> str:
    """A count short enough to print on a bar: 950, 12.8k, 1.2M."""
    if n >= 1_000_000:
        return f"N={n / 1e6:.1f}M"
    return f"N={n / 1e3:.1f}k" if n >= 10_000 else f"N={n:,}"


def ladder_chart(ladder: pd.DataFrame, out_dir: str | os.PathLike, caption: str) -> list[Path]:
    """Heat maps: win rate of one X seat against a field of Y, relative to the fair share.

    Each cell reads its win rate, the half-width of its Wilson 95% interval and its N;
    cells with fewer than `MIN_CELL_N` games are grey, their colour would be noise.
    """
    players = sorted(ladder["players"].unique())
    names = list(dict.fromkeys(ladder["strategy"]))
    fields = list(dict.fromkeys(ladder["field"]))
    fig, _ = new_figure(3.4 * len(players), 4.6)
    fig.clear()
    axes = fig.subplots(1, len(players), squeeze=False)[0]
    cmap = colormaps["RdBu"].with_extremes(bad="#d9d9d9")  # ColorBrewer: colour-blind safe
    im = None
    for ax, p in zip(axes, players, strict=True):
        grid = np.full((len(names), len(fields)), np.nan)
        cells: dict[tuple[int, int], pd.Series] = {}
        for _, r in ladder[ladder["players"] == p].iterrows():
            i, j = names.index(r["strategy"]), fields.index(r["field"])
            cells[i, j] = r
            if r["games"] >= MIN_CELL_N:
                grid[i, j] = r["win_rate"] * p
        im = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=0, vmax=2)
        for i in range(len(names)):
            for j in range(len(fields)):
                r = cells.get((i, j))
                if r is None:
                    ax.text(j, i, "not run", ha="center", va="center", fontsize=6, color="#555555")
                    continue
                n = int(r["games"])
                if np.isnan(grid[i, j]):
                    text, dark = f"N={n:,}\n(too few)", False
                else:
                    half = 50 * (r["hi"] - r["lo"])
                    text = f"{100 * r['win_rate']:.0f}%\n±{half:.1f}\nN={n:,}"
                    dark = abs(grid[i, j] - 1) > 0.6  # white text on the deep colours
                ax.text(
                    j,
                    i,
                    text,
                    ha="center",
                    va="center",
                    fontsize=6.5,
                    linespacing=1.0,
                    color="white" if dark else "black",
                )
        ax.set_xticks(range(len(fields)), fields, rotation=30, ha="right", fontsize=8)
        ax.set_yticks(
            range(len(names)), names if p == players[0] else [""] * len(names), fontsize=8
        )
        ax.set_title(f"{p} players (fair share {100 / p:.0f}%)", fontsize=9)
        ax.grid(False)
    axes[0].set_ylabel("one seat plays")
    fig.supxlabel("the other seats play", fontsize=9)
    if im is not None:
        cb = fig.colorbar(im, ax=list(axes), shrink=0.8)
        cb.set_label("win rate / fair share (1 = fair)", fontsize=8)
    fig.suptitle(
        "Strategy ladder: win rate of one seat against a field (seats rotated game by game)\n"
        f"cell: win %, ± half its Wilson 95% interval (points), N games; grey: N < {MIN_CELL_N}",
        fontsize=10,
    )
    return save_chart(fig, out_dir, "ladder", caption)


def lengths_chart(turns: pd.DataFrame, lengths: pd.DataFrame, out_dir, caption: str) -> list[Path]:
    """Distribution of turns per game by player count, one panel per strategy."""
    strategies = list(dict.fromkeys(turns["strategy"]))
    fig, _ = new_figure(5.0 * len(strategies), 4.2)
    fig.clear()
    axes = fig.subplots(1, len(strategies), sharey=True, squeeze=False)[0]
    for ax, strat in zip(axes, strategies, strict=True):
        sub = turns[turns["strategy"] == strat]
        for i, p in enumerate(sorted(sub["players"].unique())):
            t = sub[sub["players"] == p]
            share = t["games"] / t["games"].sum() * 100
            row = lengths[(lengths["players"] == p) & (lengths["strategy"] == strat)].iloc[0]
            ax.step(
                t["turns"],
                share,
                where="mid",
                color=PALETTE[i],
                lw=1.4,
                label=f"{p} players: {row['turns_mean']:.0f} turns, {row['rounds_mean']:.1f} rounds",
            )
        ax.set_title(f"all seats play {strat}", fontsize=10)
        ax.set_xlabel("turns in the game")
        ax.legend(fontsize=7, frameon=False)
        ax.spines[["top", "right"]].set_visible(False)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("share of games (%)")
    fig.suptitle("Game length: turns per game (legend: mean turns and rounds)")
    return save_chart(fig, out_dir, "lengths", caption)


def cards_chart(cards: pd.DataFrame, out_dir, caption: str) -> list[Path]:
    """Points per play of each firecracker kind, one panel per player count, a bar per
    strategy with its 95% interval (`study.card_table`: games as the observations) and
    each panel's N in games."""
    players = sorted(cards["players"].unique())
    strategies = list(dict.fromkeys(cards["strategy"]))
    kinds = list(dict.fromkeys(cards["kind"]))
    fig, _ = new_figure(3.6 * len(players) + 0.6, 4.6)
    fig.clear()
    axes = fig.subplots(1, len(players), sharey=True, squeeze=False)[0]
    width = 0.8 / len(strategies)
    for ax, p in zip(axes, players, strict=True):
        sub = cards[cards["players"] == p]
        for i, strat in enumerate(strategies):
            t = sub[sub["strategy"] == strat].set_index("kind").reindex(kinds)
            if t["points_per_play"].isna().all():
                continue
            xs = np.arange(len(kinds)) + (i - (len(strategies) - 1) / 2) * width
            v = t["points_per_play"].to_numpy()
            label = strat if p == players[0] else None
            ax.bar(xs, v, width * 0.9, color=PALETTE[i], label=label, alpha=0.85)
            if "ppp_lo" in t:  # (tables written before the interval have none)
                err = [v - t["ppp_lo"].to_numpy(), t["ppp_hi"].to_numpy() - v]
                ax.errorbar(xs, v, yerr=err, fmt="none", ecolor="#333333", lw=0.8, capsize=1.5)
        games = sorted({int(g) for g in sub["games"]}) if "games" in sub else []
        n = "/".join(f"{g:,}" for g in games) if games else "?"
        ax.set_title(f"{p} players, N={n} games", fontsize=9)
        ax.set_xticks(range(len(kinds)), kinds, rotation=60, fontsize=7)
        ax.spines[["top", "right"]].set_visible(False)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("victory points taken per play")
    fig.supxlabel("firecracker played (power, special)", fontsize=9)
    axes[0].legend(title="all seats play", fontsize=8, frameon=False, loc="upper left")
    fig.suptitle(
        "What each firecracker is worth, by player count (bars: 95% interval, games as "
        "observations)"
    )
    return save_chart(fig, out_dir, "cards", caption)


#: The chi-square distribution's 95% point by degrees of freedom (P - 1 seats; standard
#: tables, e.g. NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.4).
CHI2_95 = {1: 3.841, 2: 5.991, 3: 7.815, 4: 9.488, 5: 11.070}


def readings_chart(readings: pd.DataFrame, out_dir, caption: str) -> list[Path]:
    """Each rule reading: mean turns per game, and the best and worst seat's win rate."""
    fig, _ = new_figure(11.0, 0.42 * len(readings) + 1.8)
    fig.clear()
    ax1, ax2 = fig.subplots(1, 2, sharey=True)
    labels = list(readings["reading"])
    y = np.arange(len(labels))
    base = readings.iloc[0]
    colors = [PALETTE[7] if i == 0 else PALETTE[0] for i in range(len(labels))]
    ax1.barh(y, readings["turns_mean"], color=colors, alpha=0.85)
    for yi, v, r in zip(y, readings["turns_mean"], readings["rounds_mean"], strict=True):
        ax1.text(v + 0.3, yi, f"{v:.1f} turns, {r:.2f} rounds", va="center", fontsize=7)
    ax1.axvline(base["turns_mean"], color="#333333", ls="dashed", lw=1)
    ax1.set_yticks(y, labels, fontsize=8)
    ax1.invert_yaxis()
    ax1.set_xlabel("mean turns per game")
    ax1.set_xlim(0, readings["turns_mean"].max() * 1.35)
    for yi, (_, r) in zip(y, readings.iterrows(), strict=True):
        ax2.plot([r["worst_rate"] * 100, r["best_rate"] * 100], [yi, yi], color="#999999", lw=2)
        ax2.plot(r["worst_rate"] * 100, yi, "o", color=PALETTE[3], ms=5)
        ax2.plot(r["best_rate"] * 100, yi, "o", color=PALETTE[2], ms=5)
        ax2.errorbar(
            r["seat1_rate"] * 100,
            yi,
            xerr=[
                [(r["seat1_rate"] - r["seat1_lo"]) * 100],
                [(r["seat1_hi"] - r["seat1_rate"]) * 100],
            ],
            fmt="|",
            color="#333333",
            ms=10,
            capsize=2,
            lw=0.8,
        )
    players = int(round(1 / readings["fair_share"].iloc[0])) if "fair_share" in readings else None
    if players:
        ax2.axvline(100 / players, color="#333333", ls="dashed", lw=1)
    xlabel = "win rate: worst seat (red), best seat (green), seat 1 with Wilson 95% (|)"
    if players and "chi2" in readings and players - 1 in CHI2_95:
        # the best and worst of P seats differ even when the seats are equal: say by how much
        line = CHI2_95[players - 1]
        for yi, c in zip(y, readings["chi2"], strict=True):
            ax2.text(
                1.01, yi, f"χ² {c:.1f}", transform=ax2.get_yaxis_transform(), va="center",
                fontsize=7, color="#000000" if c > line else "#777777",
            )  # fmt: skip
        xlabel += (
            f"\nχ² of equal seats ({players - 1} df): over {line} (black) the seats differ at "
            "the 5% level; grey: the spread is within chance"
        )
    ax2.set_xlabel(xlabel)
    for ax in (ax1, ax2):
        ax.spines[["top", "right"]].set_visible(False)
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle("Effect of each rule reading (the same seeded games under every reading)")
    return save_chart(fig, out_dir, "readings", caption)


def specials_chart(specials: pd.DataFrame, out_dir, caption: str) -> list[Path]:
    """Win rate of players by how many 13s and bad-luck 4s they took, per player count."""
    fig, _ = new_figure(11.0, 4.2)
    fig.clear()
    axes = fig.subplots(1, 2, sharey=True)
    for ax, body in zip(axes, dict.fromkeys(specials["body"]), strict=True):
        sub = specials[specials["body"] == body]
        labels = list(dict.fromkeys(sub["taken in the game"]))
        players = sorted(sub["players"].unique())
        width = 0.8 / len(labels)
        for li, label in enumerate(labels):
            t = sub[sub["taken in the game"] == label].set_index("players").loc[players]
            xs = np.arange(len(players)) + (li - (len(labels) - 1) / 2) * width
            rate = t["win_rate"].to_numpy() * 100
            err = [rate - t["lo"].to_numpy() * 100, t["hi"].to_numpy() * 100 - rate]
            ax.bar(xs, rate, width * 0.9, color=PALETTE[li], alpha=0.85, label=f"took {label}")
            ax.errorbar(xs, rate, yerr=err, fmt="none", ecolor="#333333", lw=0.8, capsize=2)
            fair = 100 / t.index.to_numpy()
            tops = np.maximum(t["hi"].to_numpy() * 100, fair + 0.5)  # clear of the dashes
            for x, top, n in zip(xs, tops, t["player_games"], strict=True):
                ax.text(x, top + 1, _count(n), ha="center", va="bottom", fontsize=5.5,
                        rotation=90, color="#333333")  # fmt: skip
        for gi, p in enumerate(players):
            ax.hlines(100 / p, gi - 0.45, gi + 0.45, colors="#333333", linestyles="dashed", lw=1)
        ax.set_xticks(range(len(players)), [f"{p} players" for p in players])
        ax.set_title(f"the {body}", fontsize=10)
        ax.legend(fontsize=8, frameon=False)
        ax.spines[["top", "right"]].set_visible(False)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("games won (%)")
    axes[0].set_ylim(0, specials["hi"].max() * 100 * 1.18)
    played = ", ".join(dict.fromkeys(specials["strategy"])) if "strategy" in specials else "?"
    fig.suptitle(
        f"What the special bodies are worth: win rate by bodies taken (all seats play "
        f"{played})\nbars: Wilson 95%; dashed: fair share 1/P; above a bar: N player-games",
        fontsize=11,
    )
    return save_chart(fig, out_dir, "specials", caption)


def scores_chart(scores: pd.DataFrame, out_dir, caption: str) -> list[Path]:
    """Distribution of the winner's final score and of every player's, by player count."""
    strategies = list(dict.fromkeys(scores["strategy"]))
    fig, _ = new_figure(5.0 * len(strategies), 4.2)
    fig.clear()
    axes = fig.subplots(1, len(strategies), sharey=True, squeeze=False)[0]
    for ax, strat in zip(axes, strategies, strict=True):
        sub = scores[scores["strategy"] == strat]
        for i, p in enumerate(sorted(sub["players"].unique())):
            t = sub[sub["players"] == p].sort_values("score")
            win = t["winners"] / t["winners"].sum() * 100
            every = t["all_players"] / t["all_players"].sum() * 100
            mean_win = (t["score"] * t["winners"]).sum() / t["winners"].sum()
            ax.plot(
                t["score"],
                win,
                color=PALETTE[i],
                lw=1.4,
                label=f"{p} players: winner {mean_win:.0f} on average",
            )
            ax.plot(t["score"], every, color=PALETTE[i], lw=0.9, ls="dotted")
        ax.axvline(50, color="#333333", ls="dashed", lw=1)
        ax.set_title(f"all seats play {strat}", fontsize=10)
        ax.set_xlabel("final score (dashed: the 50-point target)")
        ax.legend(fontsize=7, frameon=False)
        ax.spines[["top", "right"]].set_visible(False)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("share (%): winners solid, every player dotted")
    fig.suptitle("Final scores: the winner's (solid) and every player's (dotted)")
    return save_chart(fig, out_dir, "scores", caption)


def paired_chart(paired: pd.DataFrame, out_dir, caption: str) -> list[Path]:
    """A preset minus the default rules, per metric and player count: the mean per-game
    difference on the same seeds, with its 95% interval; one line per strategy."""
    metrics = [
        ("turns", "turns per game", 1.0),
        ("rounds", "rounds per game", 1.0),
        ("winner_score", "winner's score", 1.0),
        ("double_points", "points taken by Doubles per game", 1.0),
        ("seat1_win", "seat 1's win rate (points of %)", 100.0),
        ("shared", "shared victories (points of %)", 100.0),
    ]
    fig, _ = new_figure(12.0, 6.4)
    fig.clear()
    axes = fig.subplots(2, 3, squeeze=False).ravel()
    strategies = list(dict.fromkeys(paired["strategy"]))
    for ax, (metric, title, k) in zip(axes, metrics, strict=True):
        sub = paired[paired["metric"] == metric]
        for i, strat in enumerate(strategies):
            t = sub[sub["strategy"] == strat].sort_values("players")
            x = t["players"].to_numpy() + (i - (len(strategies) - 1) / 2) * 0.12
            d = t["diff"].to_numpy() * k
            err = [d - t["lo"].to_numpy() * k, t["hi"].to_numpy() * k - d]
            ax.errorbar(
                x, d, yerr=err, fmt="o-", color=PALETTE[i], lw=1.2, ms=4, capsize=3, label=strat
            )
        ax.axhline(0, color="#333333", lw=0.8, ls="dashed")
        ax.set_title(title, fontsize=10)
        ax.set_xticks(sorted(sub["players"].unique()))
        ax.set_xlabel("players")
        ax.spines[["top", "right"]].set_visible(False)
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(fontsize=8, frameon=False, title="all seats play", title_fontsize=8)
    fig.suptitle(
        "Preset minus default rules on the same seeds: mean per-game difference (bars: 95%)"
    )
    return save_chart(fig, out_dir, "paired", caption)

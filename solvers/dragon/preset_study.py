"""Bomb the Dragon: a preset's figures against the default rules, paired on the same games.

Each cell (a player count and the strategies at the table) is played twice on the shared
runner with the same seed, once under the default options and once under the preset
(`readings.PRESETS`), so game i of both runs starts from the same seed and the same
agents' streams; only the rules differ. A figure's change is the mean of the per-game
differences, with a 95% interval from their spread (normal approximation; N is in the
thousands; for the 0/1 metrics, a shared victory or a seat's win, Tango's score interval
for paired proportions, `bombsolve.solvers.common.paired`), which is much tighter than comparing two
independent samples.

Tables: `seats` (win rate by seat under the preset, Wilson 95%), `paired` (per cell and
metric: default, preset, difference and its interval) and `ladder` (one seat of X against
a field of Y under both rules, seats rotated game by game).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from bombsolve.solvers.common.multiplicity import holm
from bombsolve.solvers.common.paired import METHOD as PAIRED_METHOD
from bombsolve.solvers.common.paired import paired_p_value, tango_paired
from bombsolve.solvers.common.progress import ProgressFactory
from bombsolve.solvers.common.runner import run_study
from bombsolve.solvers.dragon.readings import PRESETS
from bombsolve.solvers.dragon.rules import Options
from bombsolve.solvers.dragon.study import (
    build_reference,
    make_study,
    run_ladder,
    run_readings,
    run_seats,
    seat_table,
)

#: What each paired metric is, per game (column of `paired`).
METRICS = {
    "turns": "turns per game",
    "rounds": "rounds per game",
    "winner_score": "the winner's final score",
    "shared": "games with a shared victory (share)",
    "seat1_win": "games won by seat 1 (share)",
    "double_points": "points taken by Doubles per game",
    "focus_win": "games won by the one seat of X (share)",
}

#: Sizes of the committed preset study.
SIZES = {"seats_games": 40_000, "ladder_games": 8_000, "mc_games": 1_000}
#: The ladder cells: (one seat, the field); montecarlo cells only at 4 players.
LADDER = [
    ("greedy", "random"),
    ("position", "random"),
    ("greedy", "position"),
    ("position", "greedy"),
    ("random", "greedy"),
]
MC_LADDER = [("montecarlo", "greedy"), ("greedy", "montecarlo")]
Z95 = 1.959963984540054
#: Metrics that are 0 or 1 per game: their difference gets Tango's paired score interval.
BINARY = {"shared", "seat1_win", "focus_win"}


def per_game(df: pd.DataFrame, players: int) -> pd.DataFrame:
    """Return the paired metrics of each game of a runner table (one row per game)."""
    scores = df[[f"score_{s}" for s in range(players)]].to_numpy()
    wins = df[[f"win_{s}" for s in range(players)]].to_numpy()
    focus = df["focus_seat"].to_numpy()
    return pd.DataFrame(
        {
            "case": df["case"].to_numpy(),
            "seed": df["seed"].to_numpy(),
            "turns": df["turns"].to_numpy(),
            "rounds": df["rounds"].to_numpy(),
            "winner_score": scores.max(axis=1),
            "shared": (wins.sum(axis=1) > 1).astype(np.int64),
            "seat1_win": wins[:, 0],
            "double_points": df["pts_3"].to_numpy(),
            "focus_win": wins[np.arange(len(df)), focus],
        }
    )


def paired_rows(a: pd.DataFrame, b: pd.DataFrame, metrics: list[str]) -> list[dict]:
    """Return, per metric, the default mean (a), the preset mean (b) and b - a with its 95%
    interval; a and b are `per_game` tables of the same games (checked by seed)."""
    a = a.sort_values("case").reset_index(drop=True)
    b = b.sort_values("case").reset_index(drop=True)
    if not (a["seed"].to_numpy() == b["seed"].to_numpy()).all():
        raise ValueError("the two runs did not play the same seeds")
    n = len(a)
    rows = []
    for m in metrics:
        x, y = a[m].to_numpy(), b[m].to_numpy()
        d = y.astype(float) - x.astype(float)
        if m in BINARY:
            both = int(((x == 1) & (y == 1)).sum())
            first = int(((x == 1) & (y == 0)).sum())
            second = int(((x == 0) & (y == 1)).sum())
            _, lo, hi = tango_paired(both, first, second, n - both - first - second)
        else:
            half = Z95 * d.std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
            lo, hi = d.mean() - half, d.mean() + half
        rows.append(
            {
                "metric": m,
                "games": n,
                "default": float(x.mean()),
                "preset": float(y.mean()),
                "diff": float(d.mean()),
                "lo": float(lo),
                "hi": float(hi),
                "games_changed": int((d != 0).sum()),
            }
        )
    return rows


def run_pair(
    work: Path,
    players: int,
    strategies: list[str],
    n_games: int,
    seed: int,
    preset: str,
    rotate: bool,
    **kw,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play one cell under the default rules and under the preset; return both runner tables."""
    text = Options.parse("", preset=preset).describe()
    out = []
    for label, opts in (("default", ""), (preset, text)):
        name = "dragon.ladder" if rotate else "dragon.seats"
        study = make_study(name, players, strategies, n_games, seed, opts, rotate=rotate)
        tag = f"p{players}-{strategies[0]}" + (f"-vs-{strategies[1]}" if rotate else "")
        out.append(run_study(study, work / label / tag, **kw))
    return out[0], out[1]


def build_preset_study(
    out_dir: str | os.PathLike,
    work_dir: str | os.PathLike,
    preset: str = "gamepark",
    seed: int = 2026,
    sizes: Mapping[str, int] | None = None,
    workers: int | None = 1,
    progress: ProgressFactory | bool | None = None,
) -> dict[str, pd.DataFrame]:
    """Run the paired seat and strategy study; write CSV tables, charts and a manifest."""
    from bombsolve.solvers.common.files import write_text_atomic
    from bombsolve.solvers.common.runner import _git_commit, _versions

    sizes = {**SIZES, **(sizes or {})}
    out, work = Path(out_dir), Path(work_dir)
    out.mkdir(parents=True, exist_ok=True)
    kw = {"workers": workers, "progress": progress}
    seats, paired, ladder = [], [], []
    for p in (2, 3, 4, 5, 6):
        for s in ("random", "greedy"):
            a, b = run_pair(
                work / "seats", p, [s] * p, sizes["seats_games"], seed, preset, False, **kw
            )
            t = seat_table(b, p)
            t.insert(0, "strategy", s)
            t.insert(0, "players", p)
            seats.append(t)
            rows = paired_rows(
                per_game(a, p), per_game(b, p), [m for m in METRICS if m != "focus_win"]
            )
            paired += [{"players": p, "strategy": s, "field": "", **r} for r in rows]
    cells = [(p, x, y) for p in (2, 3, 4, 5, 6) for x, y in LADDER]
    cells += [(4, x, y) for x, y in MC_LADDER]
    for p, x, y in cells:
        n = sizes["mc_games"] if "montecarlo" in (x, y) else sizes["ladder_games"]
        a, b = run_pair(work / "ladder", p, [x] + [y] * (p - 1), n, seed, preset, True, **kw)
        (r,) = paired_rows(per_game(a, p), per_game(b, p), ["focus_win"])
        ladder.append({"players": p, "strategy": x, "field": y, "fair_share": 1 / p, **r})
    tables = {
        "seats": pd.concat(seats, ignore_index=True),
        "paired": pd.DataFrame(paired),
        "ladder": pd.DataFrame(ladder),
    }
    for name, table in tables.items():
        write_text_atomic(out / f"{name}.csv", table.to_csv(index=False, float_format="%.6g"))
    options = Options.parse("", preset=preset).describe()
    manifest = {
        "what": f"Bomb the Dragon under preset {preset}, paired with the default rules",
        "preset": preset,
        "preset_source": PRESETS[preset].source,
        "options": options,
        "seed": seed,
        "sizes": sizes,
        "ladder_cells": [list(c) for c in cells],
        "tables": sorted(f"{n}.csv" for n in tables),
        "charts": sorted(f"{n}.{e}" for n in ("seats", "paired") for e in ("png", "svg")),
        "intervals": "seats: Wilson 95%; paired: mean difference +- 1.96 sd / sqrt(N), "
        f"and for 0/1 metrics (shared, seat1_win, focus_win) {PAIRED_METHOD}",
        "runs": "per-study runner manifests in manifests/ (chunk files are not committed)",
        "git_commit": _git_commit(),
        "versions": _versions(),
    }
    write_text_atomic(out / "manifest.json", json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    for old in (out / "manifests").glob("*.json"):
        old.unlink()
    for m in sorted(work.rglob("manifest.json")):
        rel = m.parent.relative_to(work).as_posix().replace("/", "__")
        write_text_atomic(out / "manifests" / f"{rel}.json", m.read_text())
    draw_preset_charts(out, preset)
    return tables


def draw_preset_charts(out_dir: str | os.PathLike, preset: str) -> None:
    """Draw (or redraw) a preset study's charts from what its folder keeps: the tables
    ``seats.csv`` and ``paired.csv`` and the runner manifests in ``manifests/``, each
    chart captioned from the manifests of the studies it draws."""
    from bombsolve.solvers.dragon import charts
    from bombsolve.solvers.dragon.study import manifest_caption, select, study_manifests

    out = Path(out_dir)
    seats = select(study_manifests(out / "manifests"), "dragon.seats")
    under = [m for m in seats if m["identity"]["params"]["options"]]
    charts.seats_chart(
        pd.read_csv(out / "seats.csv"),
        out,
        manifest_caption(under, f"preset {preset}; all seats alike"),
    )
    charts.paired_chart(
        pd.read_csv(out / "paired.csv"),
        out,
        manifest_caption(
            seats, f"preset {preset} minus default rules, paired game by game on the same seeds"
        ),
    )


def difference_p_value(row: Mapping) -> float:
    """The two-sided p-value of "no change" that a paired table row's 95% interval inverts.

    A share (`BINARY`): Tango's paired score interval inverts McNemar's score test at 0
    (`bombsolve.solvers.common.paired.paired_p_value`), on the 2x2 table the row gives:
    ``games_changed`` games changed, ``diff * games`` more of them won under the preset
    than under the defaults. A mean: the normal interval mean +- Z95 sd / sqrt(n) inverts
    the z-test of the mean per-game difference, z = diff / ((hi - lo) / (2 Z95)).
    """
    n, diff = int(row["games"]), float(row["diff"])
    metric = row["metric"]
    if metric in BINARY:
        changed = int(row["games_changed"])
        gained = round(diff * n)  # preset-only wins minus default-only wins
        second, first = (changed + gained) // 2, (changed - gained) // 2
        both = round(float(row["default"]) * n) - first
        neither = n - both - first - second
        return paired_p_value([[neither, second, 0], [first, both, 0], [0, 0, 0]])
    se = (float(row["hi"]) - float(row["lo"])) / (2 * Z95)
    if se <= 0.0:
        return 1.0 if diff == 0.0 else 0.0
    return min(1.0, math.erfc(abs(diff / se) / math.sqrt(2)))


def preset_tests(paired: pd.DataFrame, ladder: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Both tables with each row's `difference_p_value` and whether it survives Holm's
    correction over every row of both at once (`bombsolve.solvers.common.multiplicity`,
    family-wise 5%): columns ``p_value`` and ``holm`` added."""
    paired = paired.copy()
    ladder = ladder.assign(metric=ladder.get("metric", "focus_win"))
    paired["p_value"] = [difference_p_value(r) for _, r in paired.iterrows()]
    ladder["p_value"] = [difference_p_value(r) for _, r in ladder.iterrows()]
    kept = holm(list(paired["p_value"]) + list(ladder["p_value"]))
    paired["holm"] = kept[: len(paired)]
    ladder["holm"] = kept[len(paired) :]
    return paired, ladder


#: The mark of a difference that survives Holm's correction over the whole comparison.
CHANGED = "†"


def comparison_markdown(paired: pd.DataFrame, ladder: pd.DataFrame, preset: str) -> str:
    """Return the paired comparison as Markdown tables (for the README's generated block),
    each difference that survives Holm's correction over both tables (`preset_tests`)
    marked `CHANGED`."""
    paired, ladder = preset_tests(paired, ladder)

    def cell(r: pd.Series, pct: bool) -> str:
        k = 100 if pct else 1
        mark = f" {CHANGED}" if r["holm"] else ""
        return (
            f"{r['default'] * k:.2f} → {r['preset'] * k:.2f} ({r['diff'] * k:+.2f} "
            f"[{r['lo'] * k:+.2f}, {r['hi'] * k:+.2f}]{mark})"
        )

    shown = ["turns", "rounds", "winner_score", "double_points", "seat1_win"]
    pct = {"seat1_win", "shared"}
    lines = [
        "| players | strategy | " + " | ".join(METRICS[m] for m in shown) + " |",
        "|---|---|" + "---|" * len(shown),
    ]
    for (p, s), g in paired.groupby(["players", "strategy"], sort=False):
        by = g.set_index("metric")
        cells = [cell(by.loc[m], m in pct) for m in shown]
        lines.append(f"| {p} | {s} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(
        f"Default → preset {preset} (difference [95% interval], paired on the same seeds); "
        f"shares in %; games per cell: {int(paired['games'].iloc[0]):,} under each rules."
    )
    lines.append("")
    lines.append("| players | one seat of | field | default win % | preset win % | difference |")
    lines.append("|---|---|---|---|---|---|")
    for r in ladder.itertuples():
        mark = f" {CHANGED}" if r.holm else ""
        lines.append(
            f"| {r.players} | {r.strategy} | {r.field} | {r.default * 100:.1f} | "
            f"{r.preset * 100:.1f} | {r.diff * 100:+.1f} [{r.lo * 100:+.1f}, "
            f"{r.hi * 100:+.1f}]{mark} |"
        )
    n = ", ".join(f"{k:,}" for k in sorted(set(ladder["games"]), reverse=True))
    total = len(paired) + len(ladder)
    kept = int(paired["holm"].sum() + ladder["holm"].sum())
    by_metric = paired[paired["holm"]].groupby("metric", sort=False).size()
    which = ", ".join(f"{METRICS[m]} {k}" for m, k in by_metric.items())
    lines.append("")
    lines.append(
        f"One seat against a field, seats rotated game by game; games per cell: {n}. "
        f"{CHANGED}: survives Holm's correction (family-wise 5%) over the study's {total} "
        f"differences ({len(paired)} of the seat study, shared victories included: they are "
        f"in paired.csv, not shown here; and "
        f"{len(ladder)} ladder cells), each by the test its interval inverts (McNemar's "
        f"score test for a share, the z-test of the mean difference otherwise): {kept} do"
        + (f" ({which}; ladder cells {int(ladder['holm'].sum())})." if kept else ".")
    )
    return "\n".join(lines) + "\n"


def replicate_check(first: pd.DataFrame, fresh: pd.DataFrame) -> pd.DataFrame:
    """Return, per metric, how many of a fresh-seed run's differences land inside the first
    run's 95% intervals (tables `paired` or `ladder`, matched on players, strategy, field)."""
    keys = ["players", "strategy", "field", "metric"]
    both = first.fillna({"field": ""}).merge(
        fresh.fillna({"field": ""}), on=keys, suffixes=("", "_fresh")
    )
    both["inside"] = (both["diff_fresh"] >= both["lo"]) & (both["diff_fresh"] <= both["hi"])
    return (
        both.groupby("metric", sort=False)["inside"].agg(inside="sum", cells="count").reset_index()
    )


#: The batch studies, the front door's `STUDIES`: {name: the function that runs it}.
STUDIES = {
    "seats": run_seats,
    "ladder": run_ladder,
    "readings": run_readings,
    "reference": build_reference,
    "preset": build_preset_study,
}

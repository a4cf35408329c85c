"""The paired preset study: same seeds under both rules, differences with intervals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bombsolve.solvers.dragon import kernel
from bombsolve.solvers.dragon.preset_study import (
    comparison_markdown,
    paired_rows,
    per_game,
    run_pair,
)
from bombsolve.solvers.dragon.rules import Options


def test_a_cell_is_played_on_the_same_seeds_under_both_rules(tmp_path):
    a, b = run_pair(tmp_path, 4, ["random"] * 4, 300, 11, "gamepark", False, workers=1)
    assert (a["seed"].to_numpy() == b["seed"].to_numpy()).all()
    # each run is what the kernel plays under its rules on those seeds
    seeds = a["seed"].to_numpy().astype(np.uint64)
    for df, opts in ((a, Options()), (b, Options.parse("", preset="gamepark"))):
        out = kernel.run_games(4, seeds, [0] * 4, opts)
        assert (df["turns"].to_numpy() == out["turns"]).all()
    rows = {r["metric"]: r for r in paired_rows(per_game(a, 4), per_game(b, 4), ["turns"])}
    t = rows["turns"]
    d = b["turns"].to_numpy() - a["turns"].to_numpy()
    assert t["diff"] == pytest.approx(d.mean())
    assert t["lo"] < t["diff"] < t["hi"]
    assert t["hi"] - t["diff"] == pytest.approx(1.96 * d.std(ddof=1) / np.sqrt(300), rel=1e-3)
    assert 0 < t["games_changed"] <= 300


def test_identical_games_differ_by_nothing_and_other_seeds_are_refused():
    df = pd.DataFrame(
        {"case": [0, 1, 2], "seed": [5, 6, 7], "turns": [30, 31, 29], "rounds": [3, 3, 3]}
    )
    (r,) = paired_rows(df, df, ["turns"])
    assert (r["diff"], r["lo"], r["hi"], r["games_changed"]) == (0, 0, 0, 0)
    other = df.assign(seed=[5, 6, 8])
    with pytest.raises(ValueError, match="same seeds"):
        paired_rows(df, other, ["turns"])


def test_comparison_markdown_names_the_preset_and_the_intervals():
    metrics = ["turns", "rounds", "winner_score", "double_points", "seat1_win"]
    paired = pd.DataFrame(
        [
            {
                "players": 4,
                "strategy": "random",
                "metric": m,
                "games": 10,
                "default": 1.0,
                "preset": 1.5,
                "diff": 0.5,
                "lo": 0.25,
                "hi": 0.75,
                "games_changed": 9,
            }
            for m in metrics
        ]
    )
    ladder = pd.DataFrame(
        [
            {
                "players": 4,
                "strategy": "greedy",
                "field": "random",
                "games": 10,
                "default": 0.8,
                "preset": 0.9,
                "diff": 0.1,
                "lo": 0.0,
                "hi": 0.2,
                "games_changed": 1,
            }
        ]
    )
    text = comparison_markdown(paired, ladder, "gamepark")
    # a mean 0.5 above 0 with a half-width of 0.25 survives Holm over the six (p < 1e-4)
    assert "1.00 → 1.50 (+0.50 [+0.25, +0.75] †)" in text
    # seat 1: 7 games won only under the preset, 2 only under the defaults (p = 0.096)
    assert "100.00 → 150.00 (+50.00 [+25.00, +75.00])" in text  # seat 1's share in %
    assert "| 4 | greedy | random | 80.0 | 90.0 | +10.0 [+0.0, +20.0] |" in text
    assert "preset gamepark" in text


def test_replicate_check_counts_fresh_differences_inside_the_intervals():
    from bombsolve.solvers.dragon.preset_study import replicate_check

    first = pd.DataFrame(
        [
            {
                "players": 4,
                "strategy": "random",
                "field": "",
                "metric": "turns",
                "diff": 0.1,
                "lo": 0.0,
                "hi": 0.2,
            },
            {
                "players": 5,
                "strategy": "random",
                "field": "",
                "metric": "turns",
                "diff": 0.1,
                "lo": 0.0,
                "hi": 0.2,
            },
        ]
    )
    fresh = first.assign(diff=[0.15, 0.3])
    t = replicate_check(first, fresh)
    assert t.to_dict("records") == [{"metric": "turns", "inside": 1, "cells": 2}]


def test_a_win_rate_difference_gets_the_paired_score_interval():
    from bombsolve.solvers.common.paired import tango_paired

    a = pd.DataFrame({"case": range(100), "seed": range(100), "seat1_win": [1] * 30 + [0] * 70})
    b = a.assign(seat1_win=[1] * 25 + [0] * 5 + [1] * 10 + [0] * 60)
    (r,) = paired_rows(a, b, ["seat1_win"])
    assert r["diff"] == pytest.approx(0.05)
    assert (r["diff"], r["lo"], r["hi"]) == pytest.approx(tango_paired(25, 5, 10, 60))
    (same,) = paired_rows(a, a, ["seat1_win"])
    assert same["diff"] == 0 and same["lo"] < 0 < same["hi"]  # no discordant game: not "exactly 0"

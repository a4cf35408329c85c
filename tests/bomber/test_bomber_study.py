"""Studies: conditions, chunks that replay game by game, tables with honest intervals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bombsolve.solvers.bomber import rules as R
from bombsolve.solvers.bomber.agents import parse_agents, play_game
from bombsolve.solvers.bomber.study import (
    achievement_set,
    achievements,
    case_game,
    conditions,
    extras_label,
    games_chunk,
    make_study,
    summarise,
)
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.runner import load_study, run_study
from bombsolve.solvers.common.stats import wilson


def test_conditions_of_each_part():
    assert [c["players"] for c in conditions("players")] == [3, 4, 5, 6]
    labels = [c["label"] for c in conditions("extras")]
    assert labels == ["4p YL", "4p HW", "4p SP", "5p YL+HW", "5p YL+SP", "5p HW+SP",
                      "6p YL+HW+SP"]  # fmt: skip
    readings = conditions("readings")
    assert readings[0]["rules"] == R.Options().as_dict()
    assert all(R.Options(**c["rules"]) for c in readings)
    assert len({tuple(sorted(c["rules"].items())) for c in readings}) == len(readings)
    with pytest.raises(BadInput, match="unknown study part"):
        conditions("seasons")


def test_extras_label():
    assert extras_label(0b101) == "YL+SP" and extras_label(0) == "none"


@pytest.mark.parametrize("agents", ["random", "heuristic"])
def test_chunk_rows_replay_through_the_reference_engine(agents, tmp_path):
    study = make_study("extras", agents, games=21, seed=9, chunk_size=8)
    df = run_study(study, tmp_path, workers=1, progress=False)
    assert list(df["case"]) == list(range(21))
    by_role = parse_agents(agents)
    for _, row in df.iterrows():
        game = case_game(tmp_path, int(row["case"]))
        cond = game["condition"]
        assert row["condition"] == cond["label"] and row["extras"] == cond["label"].split()[1]
        extras = tuple(c for i, c in enumerate(R.EXTRAS) if cond["extras"] >> i & 1)
        g = play_game(cond["players"], game["seed"], R.Options(), by_role, extras)
        assert int(g.result.outcome) == row["outcome"]
        assert len(g.history) == row["turns"]


def test_study_runs_and_reloads(tmp_path):
    study = make_study("players", "random", games=4000, seed=5, chunk_size=1000)
    df = run_study(study, tmp_path / "s", workers=1, progress=False)
    assert len(df) == 4000 and list(df["case"]) == list(range(4000))
    pd.testing.assert_frame_equal(df, load_study(tmp_path / "s"))
    # two workers, same rows
    df2 = run_study(study, tmp_path / "s2", workers=2, progress=False)
    pd.testing.assert_frame_equal(df, df2)


def test_summary_counts_and_wilson_intervals():
    df = pd.DataFrame(
        {
            "condition": ["a"] * 10 + ["b"] * 4,
            "outcome": [0] * 6 + [1] * 2 + [2, 3] + [1] * 4,
            "chaos": [1] * 14, "escape": [0] * 14, "bombing": [0] * 14, "survival": [1] * 14,
            "bomber_stuck": [0] * 14, "eliminated": [0] * 14,
        }
    )  # fmt: skip
    s = summarise(df).set_index("condition")
    assert s.loc["a", "games"] == 10 and s.loc["a", "bomber"] == 0.6
    assert (s.loc["a", "bomber_lo"], s.loc["a", "bomber_hi"]) == wilson(6, 10)
    assert s.loc["b", "police"] == 1.0 and s.loc["b", "police_hi"] == 1.0
    rates = s[["bomber", "police", "draw", "sole"]].sum(axis=1)
    assert np.allclose(rates, 1.0)


def test_achievement_shares_sum_to_one():
    study = make_study("players", "random", games=8000, seed=1)
    df = games_chunk(study.params, study.chunks()[0])
    tab = achievements(df)
    cols = ["Chaos", "Escape", "Bombing", "Chaos+Escape", "Chaos+Bombing", "Escape+Bombing",
            "all three"]  # fmt: skip
    assert np.allclose(tab[cols].sum(axis=1), 1.0)
    assert achievement_set(1, 0, 1) == "Chaos+Bombing" and achievement_set(1, 1, 1) == "all three"


def test_make_study_bad_input():
    with pytest.raises(BadInput, match="not positive"):
        make_study("players", "random", games=0, seed=1)
    with pytest.raises(BadInput, match="unknown agent"):
        make_study("players", "smart", games=10, seed=1)
    with pytest.raises(BadInput, match="expected 3 to 6"):
        make_study("players", "random", games=10, seed=1, players=8)


def test_case_game_bad_input(tmp_path):
    with pytest.raises(BadInput, match="no manifest.json"):
        case_game(tmp_path, 0)
    study = make_study("players", "random", games=8, seed=1, chunk_size=4)
    run_study(study, tmp_path, workers=1, progress=False)
    with pytest.raises(BadInput, match="case 8 out of range"):
        case_game(tmp_path, 8)


def test_study_on_a_real_dask_cluster_matches_local(tmp_path, dask_cluster):
    study = make_study("readings", "random", games=3000, seed=8, chunk_size=1000)
    local = run_study(study, tmp_path / "local", workers=1, progress=False)
    dist = run_study(study, tmp_path / "dask", scheduler=dask_cluster.address, progress=False)
    pd.testing.assert_frame_equal(local, dist)

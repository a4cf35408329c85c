"""Studies: the chunk function in both engines, the suites, the reference builder."""

from __future__ import annotations

import pandas as pd

from bombsolve.solvers.common.runner import ChunkSpec, load_study, run_study
from bombsolve.solvers.dragon import study as st


def test_games_chunk_kernel_equals_reference():
    chunk = ChunkSpec(index=3, start=30, stop=50, seed=11)
    params = {
        "players": 4,
        "strategies": ["greedy", "random", "position", "random"],
        "rotate": True,
        "options": "double_when=under",
    }
    k = st.games_chunk({**params, "engine": "kernel"}, chunk)
    r = st.games_chunk({**params, "engine": "reference"}, chunk)
    assert list(k["case"]) == list(range(30, 50))
    pd.testing.assert_frame_equal(k, r)
    assert list(k["focus_seat"]) == [c % 4 for c in range(30, 50)]


def test_seat_rotation():
    assert st.seat_strategies(["a", "b", "c"], 0) == ["a", "b", "c"]
    assert st.seat_strategies(["a", "b", "c"], 1) == ["c", "a", "b"]
    assert st.seat_strategies(["a", "b", "c"], 5) == ["b", "c", "a"]


def test_seats_suite_tables(tmp_path):
    t = st.run_seats(tmp_path, [2, 5], ["random"], 200, 3, chunk_size=100)
    seats = t["seats"]
    assert list(seats["players"]) == [2, 2, 5, 5, 5, 5, 5]
    assert (seats["lo"] <= seats["win_rate"]).all() and (seats["win_rate"] <= seats["hi"]).all()
    # Shared victories count for each tied winner, so wins add up to at least the games.
    assert seats.groupby("players")["wins"].sum().ge(200).all()
    sc = t["scores"]
    assert sc.groupby("players")["winners"].sum().eq(200).all()
    assert sc.groupby("players")["all_players"].sum().to_dict() == {2: 400, 5: 1000}
    assert sc[sc["winners"] > 0]["score"].min() >= 50
    cards = t["cards"]
    assert len(cards) == 18 and cards["plays"].gt(0).all()
    df = load_study(tmp_path / "p5-random")
    assert len(df) == 200 and df["score_0"].notna().all()
    # Points credited to the cards add up to the final scores of all players.
    score_cols = [f"score_{s}" for s in range(5)]
    pts_cols = [c for c in df.columns if c.startswith("pts_")]
    assert (df[score_cols].sum(axis=1) == df[pts_cols].sum(axis=1)).all()


def test_ladder_and_readings(tmp_path):
    lad = st.run_ladder(tmp_path / "l", [3], ["greedy", "random"], 150, 1, chunk_size=150)
    assert len(lad) == 4
    g = lad[(lad["strategy"] == "greedy") & (lad["field"] == "random")].iloc[0]
    assert g["win_rate"] > 0.5  # greedy against two random seats (150 seeded games)
    readings = {"default rules": "", "close": "placement=close_up"}
    rd = st.run_readings(tmp_path / "r", 3, "random", 100, 1, readings, chunk_size=100)
    assert list(rd["reading"]) == ["default rules", "close"]
    assert rd["turns_mean"].iloc[1] != rd["turns_mean"].iloc[0]


def test_study_is_resumable_and_identical(tmp_path):
    study = st.make_study("dragon.seats", 3, ["random"] * 3, 120, 8, chunk_size=40)
    a = run_study(study, tmp_path, workers=1, progress=False)
    (tmp_path / "chunks" / "chunk-000001.parquet").unlink()
    b = run_study(study, tmp_path, workers=1, progress=False)
    pd.testing.assert_frame_equal(a, b)


def test_build_reference_small(tmp_path):
    sizes = {"seats_games": 60, "ladder_games": 30, "mc_games": 2, "readings_games": 30}
    tables = st.build_reference(tmp_path / "out", tmp_path / "work", seed=1, sizes=sizes)
    for name in ("seats", "lengths", "cards", "ladder", "readings", "turns"):
        assert (tmp_path / "out" / f"{name}.csv").exists()
    for chart in ("seats", "lengths", "cards", "ladder", "readings"):
        assert (tmp_path / "out" / f"{chart}.png").stat().st_size > 1000
        assert (tmp_path / "out" / f"{chart}.svg").exists()
    assert "montecarlo" in set(tables["ladder"]["strategy"])
    assert (tmp_path / "out" / "manifest.json").exists()

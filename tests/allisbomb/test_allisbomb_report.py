"""Sweep aggregates and charts, on rows whose answers are known."""

from __future__ import annotations

import numpy as np
import pandas as pd

from bombsolve.solvers.allisbomb.studies.report import (
    hardest_deals,
    headline_table,
    loss_reasons,
    position_table,
    skill_gap_table,
    summarize,
    write_report,
)
from bombsolve.solvers.common.stats import wilson


def rows() -> pd.DataFrame:
    recs = []
    # config A: 6 wins, 3 losses, 1 undecided; config B: 1 win, 1 loss
    outcomes = {"A": ["win"] * 6 + ["loss"] * 3 + ["undecided"], "B": ["win", "loss"]}
    for config, outs in outcomes.items():
        for i, o in enumerate(outs):
            recs.append(
                {
                    "case": len(recs),
                    "config": config,
                    "outcome": o,
                    "nodes": 10 * (i + 1),
                    "seconds": 0.01 * ((7 * i) % 10),
                    "rank": 1000 + len(recs),
                    "solution_len": 5 + i if o == "win" else -1,
                    "loss_reason": "drew too many" if o == "loss" else "",
                    "pos:PRINCESS": i % 2,
                    "lookahead_win": float(i < 5) if i < 8 else np.nan,
                    "greedy_win": float(i < 2),
                    "random_win": np.nan,
                }
            )
    return pd.DataFrame(recs)


def test_summary_counts_undecided_against_the_claim():
    s = summarize(rows()).set_index("config")
    a = s.loc["A"]
    assert (a["deals"], a["wins"], a["losses"], a["undecided"]) == (10, 6, 3, 1)
    assert a["win_rate"] == 0.6
    assert a["win_lo"] == wilson(6, 10)[0]
    assert a["win_hi"] == wilson(7, 10)[1]
    assert a["solution_len_median"] == 7.5
    assert a["greedy_rate"] == 0.2 and a["greedy_deals"] == 10
    assert a["lookahead_rate"] == 5 / 8 and a["lookahead_deals"] == 8
    assert s.loc["B", "random_deals"] == 0
    # perfect play on the deals the heuristic players played (here all of A's ten)
    assert a["perfect_deals"] == 10 and a["perfect_rate"] == 0.6


def test_skill_gap_compares_players_on_the_same_deals():
    r = rows()
    r["greedy_win"] = np.where(r["case"] < 4, r["greedy_win"], np.nan)
    r["lookahead_win"] = np.where(r["case"] < 4, 1.0, np.nan)
    s = summarize(r).set_index("config")
    # A's first four deals: win, win, win, win under perfect play
    assert s.loc["A", "perfect_deals"] == 4 and s.loc["A", "perfect_rate"] == 1.0
    assert s.loc["A", "lookahead_rate"] == 1.0 and s.loc["A", "greedy_rate"] == 0.5
    assert s.loc["B", "perfect_deals"] == 0
    gap = skill_gap_table(summarize(r)).set_index("config")
    assert list(gap.columns[:2]) == ["deals", "perfect"]
    assert gap.loc["A", "lookahead"] == 1.0 and gap.loc["A", "random"] != gap.loc["A", "random"]


def test_loss_reasons_share():
    t = loss_reasons(rows())
    assert t.set_index("config").loc["A", "share_of_losses"] == 1.0


def test_losing_ends_show_the_pruning_as_what_it_is():
    from bombsolve.solvers.allisbomb.studies.report import losing_ends_text

    assert losing_ends_text("NO_CARD_TO_PLAY+NO_WIN_REACHABLE") == (
        "no card to play in the Play A Card phase; other lines proved to reach no win"
    )
    assert losing_ends_text("NO_WIN_REACHABLE") == "every line proved to reach no win"


def test_hardest_deals_name_the_deal_with_the_most_positions():
    t = hardest_deals(rows(), ["A", "B"]).set_index("config")
    # A's nodes are 10..100: its last deal (case 9, undecided, 0.03 s); B's second (case 11)
    assert t.loc["A", ["case", "rank", "outcome", "nodes", "ms"]].tolist() == [
        9,
        "1009",
        "undecided",
        100,
        30.0,
    ]
    assert t.loc["B", "case"] == 11 and t.loc["B", "nodes"] == 20


def test_position_table_rates():
    t = position_table(rows(), "A").set_index("position")
    # positions alternate 0,1,...: even i at position 1 -> i in 0,2,4,6,8 -> wins at 0,2,4
    assert t.loc[1, "win_rate"] == 3 / 5
    assert t.loc[2, "win_rate"] == 3 / 5


def test_position_table_counts_as_a_group_per_position_does():
    # random deals with missing positions (a card not in every deal), in no order
    rng = np.random.default_rng(3)
    n = 500
    outcome = rng.choice(["win", "loss", "undecided"], n, p=[0.7, 0.2, 0.1])
    pos = rng.integers(0, 18, n).astype(float)
    pos[rng.random(n) < 0.2] = np.nan
    deals = pd.DataFrame({"config": "A", "outcome": outcome, "pos:EGGS": pos})
    got = position_table(deals, "A")
    recs = []
    for p, h in deals.groupby("pos:EGGS"):
        wins = int((h["outcome"] == "win").sum())
        lo, hi = wilson(wins, len(h))
        recs.append([int(p) + 1, len(h), wins / len(h), lo, hi])
    want = pd.DataFrame(recs, columns=["position", "deals", "win_rate", "win_lo", "win_hi"])
    assert list(got["card"].unique()) == ["EGGS"]
    pd.testing.assert_frame_equal(got.drop(columns="card"), want)


def test_write_report_writes_tables_and_charts(tmp_path):
    written = write_report(rows(), tmp_path, "STAND-IN cards; test rows")
    assert {"summary", "loss_reasons", "headline", "positions", "skill_gap", "hardest"} <= set(
        written
    )
    for stem in (
        "win_rate_by_config",
        "difficulty_cdf",
        "solution_length_hist",
        "position_heatmap",
        "skill_gap",
    ):
        assert (tmp_path / f"{stem}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert b"<svg" in (tmp_path / f"{stem}.svg").read_bytes()[:2000]
        assert b"STAND-IN" in (tmp_path / f"{stem}.svg").read_bytes()
    head = headline_table(summarize(rows()))
    assert "60.00% [" in head and "lookahead player" in head and "62.5%" in head
    assert "STAND-IN" in (tmp_path / "summary.md").read_text()


def test_headline_has_no_column_for_a_player_who_played_no_deal():
    summary = summarize(rows())
    assert "lookahead player" in headline_table(summary)
    for player in ("lookahead", "greedy", "random"):
        if f"{player}_deals" in summary.columns:
            summary[f"{player}_deals"] = 0
    head = headline_table(summary)
    assert "player [95% CI]" not in head
    assert "perfect-play win rate" in head


def test_loss_reasons_keep_each_configuration_together_most_common_first():
    # deals of two configurations interleaved, as a sweep's cases are
    reasons = ["CYCLE", "DREW_TOO_MANY", "DREW_TOO_MANY", "CYCLE", "DREW_TOO_MANY", "CYCLE"]
    df = pd.DataFrame(
        {
            "config": ["a", "b"] * 6,
            "outcome": ["loss"] * 12,
            "loss_reason": [r for r in reasons for _ in (0, 1)],
        }
    )
    df.loc[df["config"] == "b", "loss_reason"] = ["CYCLE"] * 5 + ["DREW_TOO_MANY"]
    t = loss_reasons(df)
    assert list(t["config"]) == ["a", "a", "b", "b"]
    assert list(t["loss_reason"]) == ["CYCLE", "DREW_TOO_MANY", "CYCLE", "DREW_TOO_MANY"]
    assert list(t["deals"]) == [3, 3, 5, 1]


def test_difficulty_axis_prints_thousands_not_powers_of_ten(tmp_path):
    from bombsolve.solvers.allisbomb.studies.charts import difficulty_chart
    from tests.common.svg import svg_text

    counts = pd.DataFrame(
        {"config": "base", "nodes": [5, 50, 500, 5000, 20000], "deals": [1, 2, 3, 2, 1]}
    )
    difficulty_chart(counts, ["base"], tmp_path, "STAND-IN cards; test")
    text = svg_text(tmp_path / "difficulty_cdf.svg")
    assert "1,000" in text and "10,000" in text


def test_difficulty_axis_labels_stay_short_past_ten_thousand():
    """Decades past 10,000 are written 100k, 1M, ...: written out in full, the log axis's
    labels ran into each other."""
    from bombsolve.solvers.allisbomb.studies.charts import _thousands_text

    labels = [_thousands_text(10.0**k) for k in range(11)]
    assert labels == [
        "1", "10", "100", "1,000", "10,000", "100k", "1M", "10M", "100M", "1bn", "10bn"
    ]  # fmt: skip

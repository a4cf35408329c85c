"""The Bomb the Dragon ladder figures the READMEs quote are the ones the committed tables
give: the README's generated block is `ladder_markdown` of results/dragon/ladder.csv, and
the prose of results/dragon/README.md quotes its cells (rounded to whole percents, or with
their interval) and the seat study's count of wins."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from bombsolve.solvers.common.multiplicity import holm
from bombsolve.solvers.dragon import ladder_markdown, self_play_tests

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results" / "dragon"
LADDER = pd.read_csv(RESULTS / "ladder.csv")
SEATS = pd.read_csv(RESULTS / "seats.csv")
PROSE = " ".join((RESULTS / "README.md").read_text().split())


def _cell(players: int, strategy: str, field: str) -> pd.Series:
    r = LADDER[
        (LADDER["players"] == players)
        & (LADDER["strategy"] == strategy)
        & (LADDER["field"] == field)
    ]
    assert len(r) == 1
    return r.iloc[0]


def _whole(players, strategy: str, field: str) -> list[str]:
    return [f"{100 * _cell(p, strategy, field)['win_rate']:.0f}%" for p in players]


def test_the_readme_ladder_block_is_the_committed_table():
    text = (ROOT / "README.md").read_text()
    m = re.search(r"<!-- generated:dragon-ladder sha=\w+ -->\n(.*?)<!-- /generated", text, re.S)
    assert m and m.group(1) == ladder_markdown(LADDER, SEATS)


def test_the_ladder_prose_quotes_the_committed_cells():
    games = int(
        LADDER[~LADDER["strategy"].eq("montecarlo") & ~LADDER["field"].eq("montecarlo")][
            "games"
        ].max()
    )
    assert f"{games:,} games a cell, 1,000 with Monte Carlo" in PROSE
    two_to_six = range(2, 7)
    mc = ", ".join(_whole(two_to_six, "montecarlo", "greedy"))
    assert f"montecarlo seat wins {mc} against a greedy field" in PROSE
    g_r = _whole((2, 6), "greedy", "random")
    g_p = ", ".join(_whole(two_to_six, "greedy", "position"))
    p_r = _whole((2, 6), "position", "random")
    assert (
        f"greedy beats a random field {g_r[0]} to {g_r[1]} and a position field {g_p}; "
        f"position beats a random field {p_r[0]} to {p_r[1]}"
    ) in PROSE
    r = _cell(6, "random", "random")
    quoted = f"{100 * r.win_rate:.1f} [{100 * r.lo:.1f}, {100 * r.hi:.1f}] of {r.games:,}"
    assert f"at 6 players was 17.8 [16.6, 19.0] of 4,000 and is {quoted}" in PROSE


def test_the_fair_share_quoted_is_the_seat_studys():
    seats = pd.read_csv(RESULTS / "seats.csv")
    six = seats[(seats["players"] == 6) & (seats["strategy"] == "random")]
    wins, games = int(six["wins"].sum()), int(six["games"].iloc[0])
    assert f"the seat study: {wins:,} wins in {games:,} games" in PROSE
    assert f"{100 * wins / games / 6:.1f}% with the rare shared victories" in PROSE


def test_the_self_play_marks_are_holms_over_the_committed_cells():
    tests = self_play_tests(LADDER, SEATS)
    assert len(tests) == 20 and set(tests["fair_from"]) == {"seat study", "1/P"}
    assert list(tests["holm"]) == holm(list(tests["p_value"]))
    six = tests[(tests["players"] == 6) & (tests["strategy"] == "random")].iloc[0]
    seats = SEATS[(SEATS["players"] == 6) & (SEATS["strategy"] == "random")]
    assert six["fair_share"] == seats["wins"].sum() / (6 * seats["games"].iloc[0])
    # the cell the prose calls "the high end of chance": nominally off, not after Holm
    assert six["p_value"] < 0.05 and not six["holm"]
    assert six["p_value"] == tests["p_value"].min()
    assert f"this cell's p = {six['p_value']:.3f} alone, the smallest of the 20" in PROSE
    kept = int(tests["holm"].sum())
    block = ladder_markdown(LADDER, SEATS)
    assert f"Holm's correction over the 20 (family-wise 5%): {kept} differ" in block
    assert block.count("†") == kept
    assert "no self-play cell differs from the fair share after Holm's correction" in PROSE


def test_a_self_play_cell_far_from_the_fair_share_is_marked():
    ladder = LADDER.copy()
    row = (
        (ladder["players"] == 4)
        & (ladder["strategy"] == "position")
        & (ladder["field"] == "position")
    )
    ladder.loc[row, "wins"] = 4400  # 27.5% of 16,000 where the fair share is 25%
    tests = self_play_tests(ladder, SEATS)
    marked = tests[tests["holm"]]
    assert list(zip(marked["players"], marked["strategy"], strict=True)) == [(4, "position")]
    assert "†" in ladder_markdown(ladder, SEATS)


def test_no_readings_seat_spread_survives_holm():
    from scipy.stats import chi2

    readings = pd.read_csv(RESULTS / "readings.csv")
    p = chi2.sf(readings["chi2"], 3)  # 4 players: 3 degrees of freedom
    assert not any(holm(list(p)))
    worst = readings.iloc[int(p.argmin())]
    assert worst["reading"].startswith("bad_luck=false")
    assert (
        f"Holm's correction over the table's {len(readings)} chi-square tests of equal seats"
        in PROSE
    )
    assert (
        f"largest chi-square {worst['chi2']:.1f} on 3 degrees of freedom, p = {p.min():.3f}"
        in PROSE
    )

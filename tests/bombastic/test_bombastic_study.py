"""Studies on the shared runner: tables, charts, manifest, resume, ratings."""

import json

import pandas as pd
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.bombastic.rules import Options
from bombsolve.solvers.bombastic.study import (
    card_usage,
    card_variants,
    match_study,
    ratings,
    run_in_memory,
    summarize,
)
from bombsolve.solvers.common.runner import run_study


def test_match_study_same_rows_in_memory_and_on_the_runner(tmp_path):
    st = match_study("random", "heuristic", 12, 5, Options(), chunk_size=5)
    a = run_in_memory(st)
    b = run_study(st, tmp_path / "m", workers=1, progress=False)
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True))
    s = summarize(a)
    assert s["x_wins"] + s["o_wins"] + s["turn_cap"] == 12
    assert s["x_ci"][0] <= s["x_rate"] <= s["x_ci"][1]


def test_ratings_order_a_clear_ladder():
    rows = []
    # a beats b 9 of 10, b beats c 9 of 10, a beats c 10 of 10, both seatings.
    for x, o, wins_x in [("a", "b", 9), ("b", "c", 9), ("a", "c", 10)]:
        for i in range(10):
            rows.append({"x": x, "o": o, "winner": 0 if i < wins_x else 1})
            rows.append({"x": o, "o": x, "winner": 1 if i < wins_x else 0})
    r = ratings(pd.DataFrame(rows))
    assert list(r["agent"]) == ["a", "b", "c"]
    assert abs(r["rating"].mean() - 1500) < 1e-6


def test_card_variants_cover_every_card_once():
    names = [n for n, _ in card_variants()]
    assert names[0] == "base deck" and len(names) == 1 + 9 + 2
    assert all(
        len(o.deck_cards()) == 8
        for n, o in card_variants()
        if n.startswith("without ") and "ALARM" not in n
    )


def test_card_usage_counts_users():
    df = pd.DataFrame(
        {"winner": [0, 1, 0], "x_cards": [1, 1, 0], "o_cards": [0, 1, 1], "ending": ["a"] * 3}
    )
    u = card_usage(df).set_index("card")
    assert u.loc["peek2-show", "users"] == 4 and u.loc["peek2-show", "user_wins"] == 2


def test_study_command_writes_tables_charts_manifest_and_resumes(tmp_path):
    out = tmp_path / "ref"
    args = [
        "bombastic",
        "study",
        "--out",
        str(out),
        "--games",
        "2",
        "--card-games",
        "2",
        "--infostate-depth",
        "0",
        "--kernel-games",
        "300",
        "--agents",
        "random,omniscient",
        "--workers",
        "1",
    ]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    for stem in ("first_player", "card_values", "game_length", "ladder"):
        assert (out / f"{stem}.png").stat().st_size > 0 and (out / f"{stem}.svg").exists()
    for stem in (
        "pairings",
        "ratings",
        "first_player",
        "card_variants",
        "card_usage",
        "infostates",
    ):
        assert (out / f"{stem}.csv").exists() and (out / f"{stem}.parquet").exists()
    m = json.loads((out / "manifest.json").read_text())
    assert m["agents"] == ["random", "omniscient"] and m["kernel_games"] == 300
    for rt in m["headline"]["ratings"]:  # the summary gives each rating's interval
        assert f"{rt['rating']:>7.0f}  95% [{rt['lo']:.0f}, {rt['hi']:.0f}]" in r.output
    assert f"ratings: {m['ratings_intervals']}" in r.output
    before = (out / "pairings.csv").read_text()
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    assert (out / "pairings.csv").read_text() == before
    # A different study into the same folder is refused with one line.
    r = CliRunner().invoke(cli, args[:-2] + ["--seed", "9", "--workers", "1"])
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_worker_processes_give_the_same_games(tmp_path):
    """Chunk functions are picklable and pure: two processes give the rows of one."""
    st = match_study("heuristic", "random", 8, 11, Options(promos=True), chunk_size=2)
    one = run_study(st, tmp_path / "one", workers=1, progress=False)
    two = run_study(st, tmp_path / "two", workers=2, progress=False)
    pd.testing.assert_frame_equal(one.reset_index(drop=True), two.reset_index(drop=True))


def test_a_match_of_one_chunk_runs_in_parts_as_one(tmp_path):
    """A match of fewer chunks than workers plays parts of them side by side (games one
    by one when they take long); its rows and chunk files are those of one process."""
    st = match_study("heuristic", "random", 12, 5, Options())
    assert st.splits and st.least_part == 1 and len(st.chunks()) == 1
    one = run_study(st, tmp_path / "one", workers=1, progress=False)
    two = run_study(st, tmp_path / "two", workers=2, progress=False)
    pd.testing.assert_frame_equal(one, two)
    assert [p.name for p in (tmp_path / "two" / "chunks").iterdir()] == ["chunk-000000.parquet"]


def test_outcomes_credit_wins_and_losses_to_the_right_agent():
    from bombsolve.solvers.bombastic.charts import how_agents_win_and_lose

    tour = pd.DataFrame(
        {
            "x": ["a", "a", "b", "a"],
            "o": ["b", "b", "a", "a"],  # the self-play game is left out
            "winner": [0, 1, 0, 0],
            "ending": ["GO_FOR_IT_WIN", "GO_FOR_IT_BOMB", "PEEKED_BOMB", "GO_FOR_IT_WIN"],
        }
    )
    t = how_agents_win_and_lose(tour)
    # Game 1: a wins its line. Game 2: a goes for the bomb. Game 3: a (as O) peeks the bomb.
    assert round(t.loc["a", "won: own line"]) == 33
    assert round(t.loc["a", "lost: own failed gamble"]) == 67
    assert round(t.loc["b", "lost: opponent's line"]) == 33
    assert round(t.loc["b", "won: opponent's failed gamble"]) == 67


def test_rating_intervals_bracket_the_ratings_and_narrow_with_more_games(tmp_path):
    import numpy as np
    import pandas as pd

    from bombsolve.solvers.bombastic.charts import ladder_chart
    from bombsolve.solvers.bombastic.study import rating_intervals

    rng = np.random.default_rng(3)

    def games(n):
        rows = []
        for x, o, p in (("a", "b", 0.7), ("b", "a", 0.35), ("a", "c", 0.9), ("c", "b", 0.2)):
            rows += [{"x": x, "o": o, "winner": int(rng.random() > p)} for _ in range(n)]
        return pd.DataFrame(rows)

    small, large = rating_intervals(games(40), reps=60), rating_intervals(games(400), reps=60)
    for r in (small, large):
        assert (r["lo"] <= r["rating"]).all() and (r["rating"] <= r["hi"]).all()
        assert list(r["agent"]) == ["a", "b", "c"]
    assert ((large["hi"] - large["lo"]) < (small["hi"] - small["lo"])).all()
    ladder_chart(large, tmp_path, "caption")
    data = pd.read_csv(tmp_path / "ladder.csv")
    assert list(data.columns) == ["agent", "rating", "lo", "hi", "score", "games"]

"""The `bombsolve bombastic` commands: output, JSON, and one-line bad input (exit 2)."""

import json

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli


def run(*args):
    return CliRunner().invoke(cli, ["bombastic", *args])


def test_odds_text_and_json_agree():
    r = run("odds", "--as", "O", "--events", "peek 4=O; show 0=X")
    assert r.exit_code == 0, r.output
    assert "View of O" in r.output
    j = json.loads(run("odds", "--as", "O", "--events", "peek 4=O; show 0=X", "--json").stdout)
    assert j["as"] == "O" and j["events"] == ["peek 4=O", "show 0=X"]
    col2 = j["lines"][4]  # 1 4 7: tile 4 is O; 1 and 7 both O among 7 (3 X, 3 O, 1 B)
    assert col2["all_mine"]["fraction"] == "1/7"
    assert j["tiles"][4]["O"]["fraction"] == "1"
    assert j["possible_arrangements"] == 140


def test_odds_takes_the_survived_peek_many():
    events = "; ".join(f"not-bomb {t}" for t in range(8))
    j = json.loads(run("odds", "--as", "O", "--events", events, "--json").output)
    assert j["possible_arrangements"] == 70
    assert j["tiles"][8]["B"]["fraction"] == "1"
    assert j["events"][0] == "not-bomb 0"
    r = run("odds", "--help")
    assert "not-bomb 4" in r.output and "Peek at as many" in r.output


def test_odds_no_events_is_the_uniform_prior():
    j = json.loads(run("odds", "--json").stdout)
    assert {ln["all_mine"]["fraction"] for ln in j["lines"]} == {"1/21"}
    assert {ln["bomb"]["fraction"] for ln in j["lines"]} == {"1/3"}


@pytest.mark.parametrize(
    "args, words",
    [
        (["odds", "--events", "peek 0=X; peek 1=X; peek 2=X; peek 3=X; peek 4=X"], "impossible"),
        (["odds", "--events", "peek 0=X; peek 0=O"], "cannot be O"),
        (["odds", "--as", "Z"], "expected X or O"),
        (["odds", "--events", "look 3"], "unknown event"),
        (["odds", "--events", "show 4=B; not-bomb 4"], "tile 4 is the bomb"),
        (["play", "--x", "grandmaster", "--games", "1"], "unknown agent"),
        (["play", "--without", "peek-mny", "--games", "1"], "did you mean peek-many"),
        (["play", "--games", "0"], "not in the range 1<=x"),
        (["tournament", "--agents", "random", "--games", "1"], "at least 2"),
        (["play", "--x", "ismcts:0", "--games", "1"], "expected 1..10,000,000"),
    ],
)
def test_bad_input_is_one_line_exit_2(args, words):
    r = run(*args)
    assert r.exit_code == 2
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and words in lines[0]
    assert "Traceback" not in r.output


def test_play_reports_wins_with_intervals():
    r = run("play", "--x", "heuristic", "--o", "random", "--games", "12", "--seed", "3")
    assert r.exit_code == 0, r.output
    assert "X wins" in r.output and "Wilson 95% intervals" in r.output
    j = json.loads(
        run(
            "play", "--x", "heuristic", "--o", "random", "--games", "12", "--seed", "3", "--json"
        ).output
    )
    assert j["games"] == 12 and j["x_wins"] + j["o_wins"] + j["turn_cap"] == 12


def test_play_with_out_folder_resumes_to_the_same_result(tmp_path):
    args = ["play", "--x", "random", "--o", "heuristic", "--games", "30", "--seed", "2", "--json"]
    a = json.loads(run(*args, "--out", str(tmp_path / "m")).stdout)
    b = json.loads(run(*args, "--out", str(tmp_path / "m")).stdout)
    c = json.loads(run(*args).stdout)
    assert a == b == c
    assert (tmp_path / "m" / "manifest.json").exists()


def test_tournament_table_and_ratings():
    r = run("tournament", "--agents", "random,omniscient", "--games", "6", "--json")
    assert r.exit_code == 0, r.output
    j = json.loads(r.stdout)
    assert len(j["pairings"]) == 4
    assert j["ratings"][0]["agent"] == "omniscient"


def test_tournament_ratings_carry_seeded_bootstrap_intervals():
    args = ("tournament", "--agents", "random,heuristic", "-n", "8", "--seed", "3")
    j = json.loads(run(*args, "--json").stdout)
    assert "bootstrap 95% intervals" in j["ratings_intervals"]
    for r in j["ratings"]:
        assert r["lo"] - 1e-6 <= r["rating"] <= r["hi"] + 1e-6, r
        assert r["hi"] - r["lo"] > 10, r  # 8 games a seating: wide
    text = run(*args)
    assert text.exit_code == 0, text.output
    assert "95% interval" in text.output.split("(Bradley-Terry")[0].splitlines()[-1]
    assert "ratings: bootstrap 95% intervals" in text.output
    for r in j["ratings"]:  # the bootstrap is seeded with --seed: the same intervals
        assert f"[{r['lo']:.0f}, {r['hi']:.0f}]" in text.output


def test_replay_shows_turns_and_knowledge():
    r = run("replay", "--seed", "4", "--x", "heuristic", "--o", "random")
    assert r.exit_code == 0, r.output
    assert "Turn 1: X to play" in r.output and "Game over:" in r.output
    assert "arrangements possible" in r.output
    j = json.loads(
        run("replay", "--seed", "4", "--x", "heuristic", "--o", "random", "--json").output
    )
    assert j["turns"][0]["player"] == "X" and j["ending"]


def test_play_points_at_a_game_that_replay_reproduces():
    r = run("play", "--x", "greedy", "--o", "random", "--games", "6", "--promos", "--seed", "4")
    hint = [ln for ln in r.output.splitlines() if "replay game" in ln][0]
    who, ending = hint.split("(")[1].split(")")[0].split(", ")
    args = hint.split("bombsolve bombastic ")[1].split()
    again = run(*args)
    assert again.exit_code == 0, again.output
    last = again.output.strip().splitlines()[-1]
    assert last.endswith(f"({ending})")
    assert last.startswith(
        f"Game over: {who.split()[0]} wins" if "wins" in who else "Game over: nobody"
    )

"""`bombsolve bomber`: one convention with the other games (DESIGN.md, "Command line").

Every --json carries the seed, every rule option's value, where the cards come from and
the code version; `rules` explains each open point with --json; rule values print as
``--rule`` takes them (true/false); `study` takes --rule; ``play --workers`` splits the
games over processes and changes no result.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.bomber import rules as R

#: The rulebook: beside the checkout (shared/rules/), or the team's shared folder, where
#: the other games' quote checks read theirs.
RULEBOOK = next(
    (
        p / "catch-the-bomber.txt"
        for p in (
            Path(__file__).resolve().parents[3] / "shared" / "rules",
            Path("/work/shared/rules"),
        )
        if (p / "catch-the-bomber.txt").exists()
    ),
    Path("/work/shared/rules/catch-the-bomber.txt"),
)


def run(*args: str):
    return CliRunner().invoke(cli, ["bomber", *args])


def as_json(*args: str) -> dict:
    r = run(*args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_replay_json_carries_version_commit_cards_and_rules():
    doc = as_json("replay", "--seed", "42", "-p", "4", "--rule", "dog=forbid")
    for key in ("seed", "rules", "cards", "version", "commit"):
        assert key in doc, key
    assert doc["seed"] == 42 and doc["rules"] == {**R.Options().as_dict(), "dog": "forbid"}
    assert all(1 <= t["seat"] <= 4 for t in doc["turns"])


def test_rules_json_explains_every_option():
    doc = as_json("rules", "--rule", "move_optional=false")
    by_name = {o["name"]: o for o in doc["options"]}
    assert list(by_name) == list(R.RULE_OPTION_NAMES)
    assert by_name["move_optional"]["value"] is False
    assert by_name["move_optional"]["default"] is True
    assert by_name["dog"]["value"] == by_name["dog"]["default"] == "caught"
    for o in doc["options"]:
        assert o["choices"][0] == R.value_text(o["default"])  # the default first
        assert set(o["readings"]) == set(o["choices"]) and o["quote"] and o["section"]
    assert doc["fixed"] == list(R.FIXED_READINGS)
    assert [c["players"] for c in doc["cards"]] == [3, 4, 5, 6]
    assert doc["cards"][1]["Citizen"] == 16


def test_rules_text_marks_defaults_and_the_value_in_effect():
    r = run("rules", "--rule", "dog=forbid", "--rule", "warrior_bombing=false")
    assert r.exit_code == 0, r.output
    flat = " ".join(r.output.split())
    assert "dog = forbid (changed)" in flat and "caught (default):" in flat
    assert "* forbid:" in flat and "* true (default):" in flat  # move_optional
    assert "In effect: dog=forbid, warrior_bombing=false," in flat
    assert "True" not in r.output and "False" not in r.output


def test_every_open_reading_matches_the_rules():
    defaults = R.Options().as_dict()
    assert [r.name for r in R.OPEN_READINGS] == list(R.RULE_OPTION_NAMES) == list(defaults)
    for reading in R.OPEN_READINGS:
        assert reading.choices[0] == R.value_text(defaults[reading.name])
        for choice in reading.choices:  # every value the words name is one the engine takes
            assert R.parse_rules(f"{reading.name}={choice}").as_dict()[reading.name] in (
                choice,
                choice == "true",
            )


def test_every_open_reading_quotes_the_rulebook():
    text = " ".join(RULEBOOK.read_text(encoding="utf-8").split())
    for reading in R.OPEN_READINGS:
        for piece in reading.quote.split(" ... "):
            assert piece in text, (reading.name, piece)


def test_rules_lines_print_true_and_false_as_rule_takes_them():
    r = run("play", "-p", "4", "-n", "10", "--seed", "1", "--rule", "warrior_bombing=false")
    assert r.exit_code == 0, r.output
    assert "rules: dog=caught, warrior_bombing=false, stuck_bomber=loses, move_optional=true" in (
        r.output
    )
    r = run("replay", "--seed", "1", "-p", "4")
    assert r.exit_code == 0, r.output
    assert "warrior_bombing=true" in r.output and "True" not in r.output


def test_study_takes_rule_for_every_row(tmp_path):
    doc = as_json("study", "--part", "players", "--players", "4", "-n", "20", "--seed", "1",
                  "--rule", "dog=forbid", "--workers", "1", "--out", str(tmp_path / "s"))  # fmt: skip
    assert doc["rules"] == {"4p dog=forbid": {**R.Options().as_dict(), "dog": "forbid"}}
    assert [row["condition"] for row in doc["rows"]] == ["4p dog=forbid"]
    for key in ("seed", "cards", "version", "commit"):
        assert key in doc, key
    row = doc["rows"][0]
    assert row["n"] == 20 and row["rate"] == row["bomber"] and row["lo"] <= row["rate"]


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["--part", "readings", "--rule", "dog=forbid"], "does not apply to the readings part"),
        (["--rule", "dgo=forbid"], "did you mean dog?"),
        (["--rule", "move_optional=perhaps"], "true or false"),
    ],
)
def test_study_refuses_a_bad_rule_in_one_line(args, fragment, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("study", *args, "--out", "x")
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and fragment in lines[0], r.output
    assert list(tmp_path.iterdir()) == []


def test_play_workers_help_names_the_default():
    flat = " ".join(run("play", "--help").output.split())
    assert "--workers" in flat and "default: this process while" in flat
    assert "any --workers gives the same results" in flat


def test_play_gives_the_same_games_for_any_workers():
    # The reference engine plays chunks of 100 games: 150 games are two chunks, so two
    # workers each play one (spawned processes); the kernel plays the same games.
    args = ["play", "-p", "5", "-n", "150", "--seed", "11"]
    one = as_json(*args, "--engine", "reference", "--workers", "1")
    two = as_json(*args, "--engine", "reference", "--workers", "2")
    kernel = as_json(*args)
    for doc in (two, kernel):
        for key in ("outcomes", "achievement_rates", "bomber_wins_with", "bomber_stuck_rate"):
            assert doc[key] == one[key], key


def test_play_plays_game_i_with_seed_i_of_the_run():
    from bombsolve.solvers.bomber.kernel import run_random_games
    from bombsolve.solvers.common.seeds import game_seeds

    doc = as_json("play", "-p", "4", "-n", "1200", "--seed", "3")
    rows = run_random_games(game_seeds(3, 1200), 4, R.Options(), -1)
    bomber_wins = int((rows[:, 0] == 0).sum())
    assert doc["outcomes"]["bomber"]["rate"] == bomber_wins / 1200
    for o in doc["outcomes"].values():
        assert {"n", "rate", "lo", "hi"} <= o.keys() and o["n"] == 1200


@pytest.mark.parametrize("start,stop", [(0, 0), (0, 1), (999, 1001), (250, 3170)])
def test_run_seeds_is_a_slice_of_the_run(start, stop):
    from bombsolve.solvers.common.seeds import game_seeds, run_seeds

    assert (run_seeds(12, start, stop) == game_seeds(12, stop)[start:]).all()

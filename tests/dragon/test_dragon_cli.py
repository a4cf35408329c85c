"""`bombsolve dragon ...`: play, replay, study, rules, cards and the bad-input contract."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli


def run(*args: str):
    return CliRunner().invoke(cli, ["dragon", *args])


def test_play_reports_every_seat_with_intervals():
    r = run("play", "-p", "3", "-s", "greedy,random,position", "-n", "200", "--seed", "5", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert [s["strategy"] for s in out["seats"]] == ["greedy", "random", "position"]
    assert out["engine"] == "kernel" and out["games"] == 200
    assert sum(s["wins"] for s in out["seats"]) >= 200
    for s in out["seats"]:
        assert s["lo"] <= s["rate"] <= s["hi"]


def test_play_kernel_and_reference_agree():
    args = ["play", "-p", "4", "-s", "greedy,random", "-n", "30", "--seed", "9", "--json"]
    args[4] = "greedy,random,position,random"
    k = json.loads(run(*args, "--engine", "kernel").stdout)
    ref = json.loads(run(*args, "--engine", "reference").stdout)
    assert k["seats"] == ref["seats"] and k["mean_turns"] == ref["mean_turns"]


def test_play_text_output_and_montecarlo_in_both_engines():
    args = ["play", "-p", "3", "-s", "montecarlo,random,greedy", "-n", "2", "--seed", "1"]
    k = run(*args)
    r = run(*args, "--engine", "reference")
    assert k.exit_code == 0 and r.exit_code == 0, k.output + r.output
    assert "engine: kernel" in k.output and "engine: reference" in r.output
    # Same games, same table and replay line (only the engine name and the timing differ).
    kl, rl = k.stdout.splitlines(), r.stdout.splitlines()
    assert kl[1:-2] == rl[1:-2] and kl[-1] == rl[-1] and kl[-2].startswith("mean game:")


def test_replay_prints_the_game_and_is_reproducible():
    a = run("replay", "--seed", "7", "-p", "2", "-s", "greedy,position")
    b = run("replay", "--seed", "7", "-p", "2", "-s", "greedy,position")
    assert a.exit_code == 0 and a.output == b.output
    assert "turn 1.1" in a.output and "final scores" in a.output and "hands:" in a.output
    j = json.loads(run("replay", "--seed", "7", "--json").stdout)
    assert j["log"] and j["winners"]


def test_rule_flags_read_as_the_rules_text():
    args = ["play", "-p", "3", "-s", "greedy", "-n", "40", "--seed", "2", "--json"]
    one = run(*args, "--rule", "placement=close_up", "--rule", "target=30")
    text = run(*args, "--rules", "placement=close_up,target=30")
    assert one.exit_code == 0 and text.exit_code == 0, one.output + text.output
    a, b = json.loads(one.stdout), json.loads(text.stdout)
    assert a["rules"] == b["rules"] and a["rules"]["placement"] == "close_up"
    assert a["seats"] == b["seats"]
    r = run("rules", "--rule", "placement=close_up")
    assert r.exit_code == 0 and "placement = close_up   (changed)" in r.output


def test_replay_log_numbers_the_winners_from_1():
    r = run("replay", "--seed", "7", "-p", "3", "-s", "greedy")
    assert r.exit_code == 0, r.output
    over = [ln for ln in r.output.splitlines() if ln.startswith("game over")]
    assert len(over) == 1 and over[0].startswith("game over: winner(s) p"), over
    assert "[0]" not in r.output and " p0" not in r.output


def test_rules_and_cards_commands():
    r = run("rules", "--rules", "placement=close_up")
    assert r.exit_code == 0 and "(changed)" in r.output
    r = run("cards", "--json")
    data = json.loads(r.stdout)
    assert len(data["firecrackers"]) == 45 and len(data["bodies"]) == 19


def test_rules_explains_every_option_and_the_preset():
    from bombsolve.solvers.dragon.readings import READINGS

    r = run("rules")
    assert r.exit_code == 0, r.output
    flat = " ".join(r.output.split())
    for reading in READINGS:
        assert f"{reading.name} = " in r.output
        for value, words in reading.values:
            assert " ".join(words.split()) in flat, (reading.name, value)
    assert "gamepark: Game Park's digital edition" in r.output
    assert "equal_vitality=row_first (not the default): rules/src/material/" in flat
    r = run("rules", "--preset", "gamepark")
    assert r.exit_code == 0
    assert "reshuffle_when = empty (changed)" in " ".join(r.output.split())
    data = json.loads(run("rules", "--json", "--preset", "gamepark").stdout)
    by_name = {o["name"]: o for o in data["options"]}
    assert by_name["tiebreak"]["value"] == "round" and by_name["tiebreak"]["default"] == "game"
    assert by_name["equal_vitality"]["readings"].keys() == {"slot", "row_first"}
    assert len(data["presets"]["gamepark"]["settings"]) == len(READINGS)


def test_play_and_replay_under_the_preset():
    args = ["play", "-p", "4", "-s", "greedy,random", "-n", "20", "--seed", "3", "--json"]
    args[4] = "greedy,random,position,random"
    k = json.loads(run(*args, "--preset", "gamepark").stdout)
    ref = json.loads(run(*args, "--preset", "gamepark", "--engine", "reference").stdout)
    assert k["preset"] == "gamepark" and k["rules"]["reshuffle_when"] == "empty"
    assert [s["wins"] for s in k["seats"]] == [s["wins"] for s in ref["seats"]]
    r = run("replay", "--seed", "7", "--preset", "gamepark", "--rules", "tiebreak=game")
    assert r.exit_code == 0 and "preset gamepark (" in r.output and "tiebreak" not in r.output


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["play", "--preset", "gampark"], "unknown rule preset 'gampark' (did you mean gamepark?)"),
        (["play", "-p", "7"], "player count 7 is outside 2 to 6"),
        (["play", "-p", "1"], "player count 1 is outside 2 to 6"),
        (["play", "-s", "grady"], "unknown strategy 'grady' (did you mean greedy?)"),
        (["play", "-p", "3", "-s", "random,greedy"], "lists 2 names for 3 players"),
        (["play", "--rules", "placement=sideways"], "rule option placement 'sideways'"),
        (["play", "--rules", "nonsense"], "must look like name=value"),
        (["play", "--rules", "target=abc"], "must be an integer"),
        (["play", "--rule", "placment=close_up"], "(did you mean placement?)"),
        (["play", "--rule", "placement"], "expected NAME=VALUE"),
        (["play", "--rule", "target=30,placement=fixed"], "one option per --rule"),
        (["play", "--rule", "target=30", "--rules", "target=40"], "target given twice"),
        (["play", "-n", "0"], "--games 0 is not positive"),
        (["play", "-p", "four"], "four"),
        (["play", "--engine", "turbo"], "turbo"),
        (["replay", "--seed", "-1"], "seed -1 is out of range"),
        (["study", "seats", "--out", "x", "-p", "2,9"], "player count 9 is outside"),
        (["study", "seats", "--out", "x", "-p", "a"], "--players 'a' is not a number"),
        (["study", "sideways", "--out", "x"], "sideways"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, needle, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run(*args)
    assert r.exit_code == 2
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0], r.output
    assert "Traceback" not in r.output


def test_study_seats_writes_tables_and_charts(tmp_path):
    out = tmp_path / "seats"
    args = ["study", "seats", "-p", "3", "-s", "random", "-n", "300", "--seed", "4"]
    r = run(*args, "--out", str(out), "--workers", "1", "--chunk-size", "100")
    assert r.exit_code == 0, r.output
    for name in ("seats.csv", "lengths.csv", "cards.csv", "turns.csv", "seats.png", "seats.svg"):
        assert (out / name).exists(), name
    first = (out / "seats.csv").read_text()
    r = run(*args, "--out", str(out), "--workers", "1", "--chunk-size", "100")
    assert r.exit_code == 0 and (out / "seats.csv").read_text() == first
    r = run(*args[:-2], "--seed", "5", "--out", str(out), "--workers", "1", "--chunk-size", "100")
    assert r.exit_code == 2  # the folder holds a different study


def test_study_ladder_and_readings_json(tmp_path):
    r = run(
        "study",
        "ladder",
        "-p",
        "3",
        "-s",
        "greedy,random",
        "-n",
        "60",
        "--json",
        "--out",
        str(tmp_path / "l"),
        "--workers",
        "1",
    )
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)["ladder"]
    assert len(rows) == 4 and {x["strategy"] for x in rows} == {"greedy", "random"}
    r = run(
        "study",
        "readings",
        "-p",
        "4",
        "-s",
        "random",
        "-n",
        "20",
        "--rules",
        "target=40",
        "--out",
        str(tmp_path / "r"),
    )
    assert r.exit_code == 2 and "does not apply" in r.output


def test_study_prints_shares_as_percents_like_play(tmp_path):
    args = [
        "study",
        "seats",
        "-p",
        "3",
        "-s",
        "random",
        "-n",
        "60",
        "--seed",
        "4",
        "--workers",
        "1",
    ]
    r = run(*args, "--out", str(tmp_path / "s"))
    assert r.exit_code == 0, r.output
    rows = json.loads(run(*args, "--out", str(tmp_path / "s"), "--json").stdout)["seats"]
    lines = r.stdout.splitlines()
    assert "win rate [Wilson 95%]" in lines[0] and "win_rate" not in lines[0]
    for row, line in zip(rows, lines[1:4], strict=True):
        # the text as play prints it; --json keeps the fractions, as every game's --json does
        assert f"{row['rate']:.1%} [{row['lo']:.1%}, {row['hi']:.1%}]" in line, line
        assert 0 < row["rate"] < 1


def test_study_tables_print_every_share_as_a_percent():
    import pandas as pd

    from bombsolve.cli.dragon import _shares_table

    readings = pd.DataFrame(
        {
            "reading": ["default rules"],
            "turns_mean": [31.47],
            "best_rate": [0.2612],
            "worst_rate": [0.2424],
            "chi2": [6.13],
        }
    )
    text = _shares_table(readings).to_string(index=False, float_format=lambda x: f"{x:.4f}")
    assert "26.1%" in text and "24.2%" in text and "31.4700" in text and "0.2612" not in text


def _play_rows(players, names, games, seed, rules="", preset=None):
    """The per-game rows `dragon play` computes (kernel engine), one per game in order."""
    from bombsolve.solvers.common.runner import run_chunk
    from bombsolve.solvers.dragon import options_from_rules, play_study

    options = options_from_rules([t for t in rules.split(",") if t], preset)
    study = play_study(players, names, games, seed, options, "kernel", games)
    return run_chunk(study.chunk_fn, study.params, study.chunks()[0])


@pytest.mark.parametrize(
    ("players", "strategies", "flags"),
    [
        (4, "random", []),
        (3, "greedy,random,position", ["--preset", "gamepark", "--rules", "tiebreak=game"]),
        (2, "greedy", ["--rule", "placement=close_up"]),
    ],
)
def test_replay_game_k_is_game_k_of_play(players, strategies, flags):
    names = strategies.split(",") * (players if "," not in strategies else 1)
    preset = flags[1] if flags[:1] == ["--preset"] else None
    rules = flags[-1] if flags and flags[-2] in ("--rules", "--rule") else ""
    rows = _play_rows(players, names, 40, 11, rules, preset)
    base = ["replay", "--seed", "11", "-p", str(players), "-s", strategies, *flags]
    for k in (1, 7, 40):
        r = run(*base, "--game", str(k), "--json")
        assert r.exit_code == 0, r.output
        got = json.loads(r.stdout)
        want = [int(rows[f"score_{p}"].iloc[k - 1]) for p in range(players)]
        assert got["scores"] == want and got["game"] == k
        assert got["game_seed"] == int(rows["seed"].iloc[k - 1])
        won = [p + 1 for p in range(players) if rows[f"win_{p}"].iloc[k - 1]]
        assert got["winners"] == won


def test_play_ends_with_the_replay_command_of_one_of_its_games():
    import shlex

    args = ["-p", "3", "-s", "greedy,random,position", "--preset", "gamepark"]
    r = run("play", *args, "-n", "30", "--seed", "6")
    assert r.exit_code == 0, r.output
    last = r.stdout.splitlines()[-1]
    assert last.startswith("replay game ") and "bombsolve dragon replay" in last, last
    words = shlex.split(last.partition(": ")[2])
    assert words[:3] == ["bombsolve", "dragon", "replay"]
    k = int(words[words.index("--game") + 1])
    rows = _play_rows(3, ["greedy", "random", "position"], 30, 6, "", "gamepark")
    # the game it names is the first seat 1 did not win
    assert k == 1 + int((rows["win_0"] == 0).to_numpy().argmax())
    shown = run(*words[2:])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.startswith(f"Game {k} of `dragon play --seed 6`")
    scores = [int(rows[f"score_{p}"].iloc[k - 1]) for p in range(3)]
    assert f"final scores {scores}" in shown.stdout


def test_replay_refuses_game_0():
    r = run("replay", "--game", "0")
    assert r.exit_code == 2 and "Traceback" not in r.output and "--game" in r.output

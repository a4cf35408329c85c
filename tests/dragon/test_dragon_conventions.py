"""`bombsolve dragon`: one convention with the other games (DESIGN.md, "Command line").

Every --json carries the seed, every rule option's value (defaults included), where the
cards come from and the code version; a rate is ``rate`` with ``n``, ``lo`` and ``hi``;
rule values print as ``--rule`` takes them; ``play --workers`` splits the games over
processes and changes no result.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.dragon.rules import Options


def run(*args: str):
    return CliRunner().invoke(cli, ["dragon", *args])


def as_json(*args: str) -> dict:
    r = run(*args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


DEFAULTS = dataclasses.asdict(Options())


def test_replay_json_carries_version_commit_cards_and_every_rule():
    doc = as_json("replay", "--seed", "7", "-p", "3", "-s", "greedy", "--rule", "bad_luck=false")
    for key in ("seed", "rules", "cards", "version", "commit"):
        assert key in doc, key
    assert doc["seed"] == 7 and "cards.toml" in doc["cards"]
    assert doc["rules"] == {**DEFAULTS, "bad_luck": False}
    assert doc["winners"] and all(1 <= w <= 3 for w in doc["winners"])


def test_play_json_rules_are_every_option_value():
    doc = as_json("play", "-p", "3", "-s", "greedy", "-n", "20", "--seed", "2",
                  "--rule", "placement=close_up", "--rule", "target=30")  # fmt: skip
    assert doc["rules"] == {**DEFAULTS, "placement": "close_up", "target": 30}
    plain = as_json("play", "-p", "3", "-n", "20", "--seed", "2")
    assert plain["rules"] == DEFAULTS
    preset = as_json("play", "-p", "3", "-n", "20", "--seed", "2", "--preset", "gamepark")
    assert preset["preset"] == "gamepark"
    assert preset["rules"] == dataclasses.asdict(Options.parse("", "gamepark"))


def test_play_json_rate_has_no_duplicate_key():
    doc = as_json("play", "-p", "3", "-s", "greedy,random,position", "-n", "50", "--seed", "5")
    for s in doc["seats"]:
        assert {"n", "rate", "lo", "hi"} <= s.keys() and "win_rate" not in s
        assert s["n"] == 50 and s["rate"] == s["wins"] / 50 and s["lo"] <= s["rate"] <= s["hi"]
    assert [s["seat"] for s in doc["seats"]] == [1, 2, 3]


def test_study_json_rules_dict_and_rate_without_duplicate(tmp_path):
    doc = as_json("study", "seats", "-p", "3", "-s", "random", "-n", "20", "--seed", "1",
                  "--rule", "bad_luck=false", "--workers", "1", "--out", str(tmp_path / "s"))  # fmt: skip
    assert doc["rules"] == {**DEFAULTS, "bad_luck": False}
    for key in ("seed", "cards", "version", "commit"):
        assert key in doc, key
    for row in doc["seats"]:
        assert "win_rate" not in row and {"n", "rate", "lo", "hi"} <= row.keys()


def test_rules_lines_print_true_and_false_as_rule_takes_them():
    r = run("play", "-p", "3", "-n", "5", "--seed", "1", "--rule", "bad_luck=false")
    assert r.exit_code == 0, r.output
    assert "rules: bad_luck=false," in r.output and "False" not in r.output
    r = run("replay", "--seed", "1", "-p", "3", "--rule", "partial_refill=true")
    assert r.exit_code == 0, r.output
    assert "rules: partial_refill=true" in r.output and "True" not in r.output


def test_play_workers_help_names_the_default():
    r = run("play", "--help")
    assert r.exit_code == 0
    flat = " ".join(r.output.split())
    assert "--workers" in flat and "default: this process while" in flat
    assert "any --workers gives the same results" in flat


def test_play_gives_the_same_games_for_any_workers():
    # The reference engine plays chunks of 100 games: 150 games are two chunks, so two
    # workers each play one (spawned processes).
    args = ["play", "-p", "3", "-s", "greedy,random,position", "-n", "150", "--seed", "11"]
    one = as_json(*args, "--engine", "reference", "--workers", "1")
    two = as_json(*args, "--engine", "reference", "--workers", "2")
    auto = as_json(*args)  # the kernel, default workers
    for doc in (two, auto):
        assert doc["seats"] == one["seats"]
        assert doc["mean_turns"] == one["mean_turns"] and doc["mean_rounds"] == one["mean_rounds"]


def test_play_plays_game_i_with_seed_i_of_the_run():
    # The same games as one kernel call over the run's seeds (`game_seeds`).
    from bombsolve.solvers.common.seeds import game_seeds
    from bombsolve.solvers.dragon import kernel
    from bombsolve.solvers.dragon.agents import CODES

    names = ["greedy", "random", "position"]
    doc = as_json("play", "-p", "3", "-s", ",".join(names), "-n", "1100", "--seed", "3")
    out = kernel.run_games(3, game_seeds(3, 1100), [CODES[n] for n in names], Options())
    assert [s["wins"] for s in doc["seats"]] == [int(w) for w in out["winners"].sum(axis=0)]
    assert doc["mean_turns"] == float(np.mean(out["turns"]))


@pytest.mark.parametrize("start,stop", [(0, 0), (0, 1), (0, 1000), (999, 1001), (250, 3170)])
def test_run_seeds_is_a_slice_of_the_run(start, stop):
    from bombsolve.solvers.common.seeds import game_seeds, run_seeds

    assert (run_seeds(12, start, stop) == game_seeds(12, stop)[start:]).all()
    assert run_seeds(12, start, stop).dtype == np.uint64


def test_play_rows_carry_what_play_and_its_progress_read():
    from bombsolve.solvers.common.runner import run_chunk
    from bombsolve.solvers.dragon.study import play_study

    study = play_study(3, ["greedy", "random", "random"], 30, 4, Options(), "kernel", 1000)
    df = run_chunk(study.chunk_fn, study.params, study.chunks()[0])
    assert list(df["case"]) == list(range(30))
    assert study.progress_fn(df).startswith("seat 1 wins ")


def test_play_refuses_more_games_than_memory_holds(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("play", "-n", str(2**70))
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "too many for play" in lines[0], r.output

"""`bombsolve bomber ...`: play, replay, study, rules, and bad input (one line, exit 2)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"


def run(*args):
    return CliRunner().invoke(cli, ["bomber", *args])


def test_play_kernel_prints_rates_with_intervals():
    r = run("play", "--players", "5", "--games", "2000", "--seed", "3")
    assert r.exit_code == 0, r.output
    assert "kernel engine" in r.output and "Bomber's victory" in r.output and "[" in r.output


def test_play_json_kernel_and_reference_agree():
    k = run("play", "-p", "4", "-n", "60", "--seed", "11", "--json")
    ref = run("play", "-p", "4", "-n", "60", "--seed", "11", "--json", "--engine", "reference")
    assert k.exit_code == 0 and ref.exit_code == 0
    a, b = json.loads(k.stdout), json.loads(ref.stdout)
    assert a["engine"] == "kernel" and b["engine"] == "reference"
    assert a["outcomes"] == b["outcomes"]


def test_play_heuristic_with_options():
    r = run("play", "-p", "5", "--agents", "heuristic,bomber=random", "-n", "20",
            "--rules", "dog=forbid", "--extras", "holy-warrior,young-lady", "--json")  # fmt: skip
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["engine"] == "reference" and out["rules"]["dog"] == "forbid"
    assert out["extras"] == ["Young Lady", "Holy Warrior"]
    assert abs(sum(o["rate"] for o in out["outcomes"].values()) - 1) < 1e-9


def test_replay_prints_each_line_after_every_turn():
    r = run("replay", "--seed", "42", "--players", "5")
    assert r.exit_code == 0, r.output
    turns = r.output.count("\nturn ")
    assert turns >= 30  # 5 players x 7 cards, minus any who left play
    assert r.output.count("\n  Bridge ") == turns
    assert "end (" in r.output and "Chaos" in r.output


def test_rule_flags_read_as_the_rules_text():
    one = run("play", "-p", "4", "-n", "40", "--seed", "3", "--json",
              "--rule", "dog=forbid", "--rule", "move_optional=false")  # fmt: skip
    text = run("play", "-p", "4", "-n", "40", "--seed", "3", "--json",
               "--rules", "dog=forbid,move_optional=false")  # fmt: skip
    assert one.exit_code == 0 and text.exit_code == 0, one.output + text.output
    a, b = json.loads(one.stdout), json.loads(text.stdout)
    assert a["rules"] == b["rules"] and a["rules"]["dog"] == "forbid"
    assert a["rules"]["move_optional"] is False and a["outcomes"] == b["outcomes"]


def test_replay_numbers_seats_from_1():
    r = run("replay", "--seed", "42", "--players", "5")
    assert r.exit_code == 0, r.output
    assert "  seat 1: " in r.output and "  seat 5: " in r.output
    assert "seat 0" not in r.output and "]0" not in r.output
    game = json.loads(run("replay", "--seed", "42", "--players", "5", "--json").stdout)
    assert {t["seat"] for t in game["turns"]} <= {1, 2, 3, 4, 5}
    assert all(1 <= w <= 5 for w in game["end"]["winners"])


def test_replay_json_matches_play():
    r = run("replay", "--seed", "5", "-p", "3", "--agents", "heuristic", "--json")
    game = json.loads(r.stdout)
    assert game["seed"] == 5 and len(game["characters"]) == 3
    assert len(game["turns"][0]["lines"]) == 7


def test_rules_lists_every_reading():
    r = run("rules")
    assert r.exit_code == 0
    for key in ("dog", "warrior_bombing", "stuck_bomber", "move_optional", "Citizen 16"):
        assert key in r.output


def test_study_writes_tables_and_charts(tmp_path):
    out = tmp_path / "st"
    r = run("study", "--part", "readings", "--games", "100", "--seed", "2", "--out", str(out),
            "--workers", "1")  # fmt: skip
    assert r.exit_code == 0, r.output
    r2 = run("study", "--part", "readings", "--agents", "heuristic", "--games", "2", "--seed",
             "2", "--out", str(out), "--workers", "1")  # fmt: skip
    assert r2.exit_code == 0, r2.output
    for name in ("summary.csv", "summary.parquet", "achievements.csv", "outcomes.png",
                 "outcomes.svg", "bomber_rate.svg", "achievements.png"):  # fmt: skip
        assert (out / name).exists(), name
    text = (out / "summary.csv").read_text()
    assert "random,default" in text and "heuristic,dog=forbid" in text
    assert (out / "random" / "manifest.json").exists()
    # re-running the same command resumes (nothing to compute) and prints the same table
    again = run("study", "--part", "readings", "--games", "100", "--seed", "2", "--out",
                str(out), "--workers", "1")  # fmt: skip
    assert again.stdout == r.stdout  # stderr: the progress summary, with its timing


def test_replay_a_study_case(tmp_path):
    out = tmp_path / "st"
    r = run("study", "--part", "extras", "--agents", "heuristic", "--games", "2", "--out",
            str(out), "--workers", "1", "--seed", "4")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "2 games per cell" in r.output
    from bombsolve.solvers.common.runner import load_study

    df = load_study(out / "heuristic")
    assert len(df) == 14 and (df.groupby("condition").size() == 2).all()  # 7 cells of 2
    names = {0: "Bomber's victory", 1: "Police side's victory", 2: "draw", 3: "sole victory"}
    for case in (0, 5, 13):
        rp = run("replay", "--study", str(out / "heuristic"), "--case", str(case))
        assert rp.exit_code == 0, rp.output
        last = rp.output.strip().splitlines()[-3]
        assert names[int(df.loc[case, "outcome"])] in last
        assert rp.output.count("\nturn ") == df.loc[case, "turns"]


BAD = [
    (["play", "--players", "7"], "player count 7"),
    (["play", "--players", "2"], "expected 3 to 6"),
    (["play", "--agents", "clever"], "unknown agent 'clever'"),
    (["play", "--agents", "boss=random"], "unknown role"),
    (["play", "--rules", "dog=cat"], "unknown dog reading"),
    (["play", "--rules", "dog"], "expected key=value"),
    (["play", "--rules", "move_optional=perhaps"], "true or false"),
    (["play", "--rule", "dgo=forbid"], "did you mean dog?"),
    (["play", "--rule", "dog"], "expected NAME=VALUE"),
    (["play", "--rule", "dog=forbid", "--rules", "dog=caught"], "given twice"),
    (["replay", "--study", "x", "--case", "1", "--rule", "dog=forbid"], "expected no --rule"),
    (["play", "--extras", "young-lady", "-p", "5"], "take 2 extra"),
    (["play", "--extras", "duke", "-p", "4"], "unknown extra character"),
    (["play", "--games", "0"], "not positive"),
    (["play", "--seed", "-1"], "seed -1"),
    (["play", "--seed", str(2**64), "-n", "1"], "out of range"),
    (["play", "-n", "10000000000"], "is too many for play"),
    (["play", "--engine", "kernel", "--agents", "heuristic"], "random agents only"),
    (["play", "--players", "five"], "five"),
    (["replay", "--seed", "1", "--players", "9"], "player count 9"),
    (["replay"], "missing --seed"),
    (["replay", "--case", "3"], "go together"),
    (["replay", "--study", "nowhere", "--case", "3"], "no manifest.json"),
    (["study", "--part", "colours", "--out", "x"], "unknown study part"),
    (["study", "--part", "extras", "--players", "3", "--out", "x"], "no extra characters"),
    (["play", "-p", "5", "--extras", "young-lady,young-lady"], "distinct names"),
    (["play", "--rules", "colour=red"], "unknown rule option 'colour'"),
    (["play", "--rules", "=forbid"], "malformed rule option"),
    (["play", "--rules", "dog="], "malformed rule option"),
    (["play", "--rules", "dog=caught,dog=forbid"], "given twice"),
    (["play", "--rules", "stuck_bomber=sulks"], "unknown stuck-bomber reading"),
    (["play", "--agents", "random,bomber"], "unknown agent 'bomber'"),
    (["play", "--agents", ""], "empty agent spec"),
    (["replay", "--seed", "1", "--players", "2"], "player count 2"),
    (["replay", "--seed", "1", "--agents", "clever"], "unknown agent 'clever'"),
    (["replay", "--seed", "1", "--rules", "dog"], "expected key=value"),
    (["replay", "--seed", "1", "--extras", "duke", "-p", "4"], "unknown extra character"),
    (["study", "--players", "2", "--out", "x"], "player count 2"),
    (["study", "--players", "7", "--out", "x"], "player count 7"),
    (["study", "--agents", "clever", "--out", "x"], "unknown agent 'clever'"),
    (["study", "--rules", "dog=cat", "--out", "x"], "No such option"),
    (["study", "--games", "0", "--out", "x"], "not positive"),
    (["study", "--seed", "-3", "--out", "x"], "seed -3"),
]


@pytest.mark.parametrize("args,fragment", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_is_one_line_exit_2(args, fragment, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run(*args)
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1, r.output
    assert fragment in lines[0]
    assert "Traceback" not in r.output
    assert list(tmp_path.iterdir()) == []  # nothing written on bad input


def _snapshot(folder):
    return {p: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _one_line_exit_2(r, fragment):
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and fragment in lines[0], r.output


def test_study_refuses_the_folder_of_another_study(tmp_path):
    # Another game's results folder, a runner study folder itself, a part folder of
    # another part, and a folder of unrelated files: refused, and not one byte changes.
    from bombsolve.solvers.common.runner import MANIFEST

    other = tmp_path / "other"
    other.mkdir()
    (other / MANIFEST).write_text('{"identity": {"study": "dragon.seats"}}')
    (other / "summary.csv").write_text("keep me")
    foreign_sub = tmp_path / "foreign"
    (foreign_sub / "random").mkdir(parents=True)
    (foreign_sub / "random" / MANIFEST).write_text('{"identity": {"study": "allisbomb.x"}}')
    extras = tmp_path / "extras"
    r = run("study", "--part", "extras", "-n", "8", "--out", str(extras), "--workers", "1")
    assert r.exit_code == 0, r.output
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "todo.txt").write_text("mine")
    before = _snapshot(tmp_path)
    cases = [
        (other, "players", "itself a study folder"),
        (extras / "random", "extras", "itself a study folder"),
        (extras, "players", "holds another study (bomber.extras in random)"),
        (foreign_sub, "players", "holds another study (allisbomb.x in random)"),
        (notes, "players", "holds todo.txt"),
    ]
    for out, part, fragment in cases:
        _one_line_exit_2(run("study", "--part", part, "-n", "8", "--out", str(out)), fragment)
    assert _snapshot(tmp_path) == before


def test_replay_refuses_a_folder_of_another_study(tmp_path):
    from bombsolve.solvers.common.runner import MANIFEST, Study
    from bombsolve.solvers.common.toy import coin_chunk

    other = Study("dragon.seats", {"conditions": []}, 5, 1, coin_chunk, 5)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / MANIFEST).write_text(
        json.dumps(
            {"identity": other.identity(), "identity_hash": other.identity_hash(), "runs": []}
        )
    )
    before = _snapshot(tmp_path)
    _one_line_exit_2(run("replay", "--study", str(tmp_path / "d"), "--case", "0"),
                     "expected a bomber study")  # fmt: skip
    _one_line_exit_2(run("replay", "--study", str(tmp_path), "--case", "0"), "no manifest.json")
    assert _snapshot(tmp_path) == before


@pytest.mark.parametrize("command", ["", "rules", "play", "replay", "study"])
def test_help_shows_an_example_that_parses(command):
    # Every bomber command's --help carries an example, and the example's arguments are
    # accepted by the command's own option parser (parsed only, not run).
    from bombsolve.cli.bomber import bomber

    r = run(*([command] if command else []), "--help")
    assert r.exit_code == 0
    examples = [ln.split() for ln in r.output.splitlines() if ln.strip().startswith("bombsolve")]
    assert "Example" in r.output and examples, r.output
    for words in examples:
        assert words[:2] == ["bombsolve", "bomber"]
        name = words[2]
        assert not command or name == command
        cmd = bomber.commands[name]
        with cmd.make_context(name, words[3:]) as ctx:
            assert ctx.command is cmd

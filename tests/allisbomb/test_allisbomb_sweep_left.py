"""A sweep that ends with undecided deals says how many, and the one command that decides
them: the same sweep, escalated and split, into a folder of its own (the study made keeps
its identity)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.common.runner import load_manifest, load_study

pytestmark = pytest.mark.slow  # sweeps through the kernel


def _run(monkeypatch, args: list[str]):
    monkeypatch.setattr(sys, "argv", ["bombsolve", *args])  # what command_line() reads
    return CliRunner().invoke(cli, args)


def test_undecided_deals_are_counted_and_the_printed_command_decides_them(tmp_path, monkeypatch):
    out = tmp_path / "s"
    args = ["allisbomb", "sweep", "--deals", "30", "--seed", "3", "--node-limit", "20"]
    args += ["--no-report", "--chunk-size", "10", "--out", str(out)]
    r = _run(monkeypatch, args)
    assert r.exit_code == 0, r.output
    rows = load_study(out)
    und = int((rows["outcome"] == "undecided").sum())
    assert und > 0
    identity = load_manifest(out)["identity"]
    line = [x for x in r.stderr.splitlines() if "left undecided" in x]
    assert len(line) == 1 and line[0].startswith(f"{und:,} of 30 deals left undecided"), r.stderr
    cmd = shlex.split(line[0].split(": ", 1)[1])
    assert cmd[0] == "bombsolve" and "--node-limit" not in cmd
    assert cmd[-2:] == ["--out", f"{out}-decided"] and "--escalate" in cmd
    r2 = _run(monkeypatch, cmd[1:])
    assert r2.exit_code == 0, r2.output
    assert "left undecided" not in r2.stderr
    again = load_study(tmp_path / "s-decided")
    assert (again["outcome"] != "undecided").all()
    # the same deals, and the verdicts decided the first time stand
    assert list(again["rank"]) == list(rows["rank"])
    decided = rows["outcome"] != "undecided"
    assert (again["outcome"][decided] == rows["outcome"][decided]).all()
    assert load_manifest(out)["identity"] == identity  # the first study is left as it was


def test_an_escalated_sweep_keeps_its_ceiling_and_adds_the_split(tmp_path, monkeypatch):
    out = tmp_path / "e"
    args = ["allisbomb", "sweep", "--deals", "10", "--seed", "3", "--escalate"]
    args += ["--first-limit", "5", "--node-limit", "10", "--no-report", "--out", str(out)]
    r = _run(monkeypatch, args)
    assert r.exit_code == 0, r.output
    line = [x for x in r.stderr.splitlines() if "left undecided" in x]
    assert len(line) == 1, r.stderr
    cmd = shlex.split(line[0].split(": ", 1)[1])
    assert cmd[cmd.index("--node-limit") + 1] == "10" and cmd.count("--escalate") == 1
    assert cmd[cmd.index("--split-depth") + 1] == "4"


def test_a_few_undecided_deals_are_named_with_a_re_solve_each(tmp_path, monkeypatch):
    """With few deals left, a second line gives each one's re-solve alone (its study row,
    split), which decides it without playing the sweep's decided deals again."""
    out = tmp_path / "f"
    args = ["allisbomb", "sweep", "--deals", "8", "--seed", "3", "--node-limit", "20"]
    args += ["--no-report", "--out", str(out)]
    r = _run(monkeypatch, args)
    assert r.exit_code == 0, r.output
    rows = load_study(out)
    left = rows.loc[rows["outcome"] == "undecided", "case"].astype(int).tolist()
    assert 0 < len(left) <= 8
    lines = r.stderr.splitlines()
    at = [i for i, x in enumerate(lines) if "left undecided" in x]
    assert len(at) == 1 and lines[at[0] + 1].startswith("or, without the sweep's decided deals")
    each = lines[at[0] + 1].split(": ", 1)[1].split("; ")
    assert len(each) == len(left)
    for k, command in zip(left, each, strict=True):
        cmd = shlex.split(command)
        assert cmd[cmd.index("--case") + 1] == str(k) and cmd[cmd.index("--study") + 1] == str(out)
    r2 = _run(monkeypatch, [*shlex.split(each[0])[1:], "--json"])
    assert r2.exit_code == 0, r2.output
    assert json.loads(r2.stdout)["outcome"] in ("win", "loss")


def test_a_card_file_with_the_extended_vocabulary_escalates_by_itself(tmp_path, monkeypatch):
    """With no --escalate and no --node-limit, a sweep of a card file with the extended
    vocabulary escalates to RICH_CEILING and says so; --node-limit alone is one pass, and
    the stand-in's cards never escalate by themselves."""
    from bombsolve.solvers.allisbomb import FIRST_LIMIT, RICH_CEILING

    vocab = str(Path(__file__).parent / "data" / "vocab_actions.toml")
    base = ["allisbomb", "sweep", "--deals", "4", "--seed", "3", "--no-report"]
    rich = [*base, "--cards", vocab, "--allow-nonstandard"]
    r = _run(monkeypatch, [*rich, "--out", str(tmp_path / "a")])
    assert r.exit_code == 0, r.output
    note = [x for x in r.stderr.splitlines() if "extended vocabulary" in x]
    assert len(note) == 1 and f"{2 * FIRST_LIMIT:,} and then {RICH_CEILING:,}" in note[0]
    params = load_manifest(tmp_path / "a")["identity"]["params"]
    assert params["escalation"]["ceiling"] == RICH_CEILING == params["node_limit"]
    r = _run(monkeypatch, [*rich, "--node-limit", "3000000", "--out", str(tmp_path / "b")])
    assert r.exit_code == 0 and "extended vocabulary" not in r.stderr, r.output
    assert "escalation" not in load_manifest(tmp_path / "b")["identity"]["params"]
    r = _run(monkeypatch, [*base, "--out", str(tmp_path / "c")])
    assert r.exit_code == 0 and "extended vocabulary" not in r.stderr, r.output
    assert "escalation" not in load_manifest(tmp_path / "c")["identity"]["params"]


def test_a_case_of_a_study_made_with_allow_nonstandard_re_solves(tmp_path, monkeypatch):
    """The re-solve a sweep names for an open deal plays the study's cards as the study did:
    a card file that needs --allow-nonstandard (a step that can never act as written) is
    not refused when `--study DIR --case K` takes its options from the study."""
    from tests.allisbomb.test_allisbomb_card_slips import PATCH

    step = '{op = "move", zone = "deck", pick = "top", to = "deck_above", next_to = "self"}'
    path = tmp_path / "slip.toml"
    path.write_text(PATCH.format(text="A slip.", steps=step))
    out = tmp_path / "n"
    args = ["allisbomb", "sweep", "--deals", "3", "--seed", "3", "--node-limit", "5"]
    args += ["--cards", str(path), "--no-report", "--out", str(out)]
    r = _run(monkeypatch, args)
    assert r.exit_code == 2 and "--allow-nonstandard" in r.output  # refused without it
    r = _run(monkeypatch, [*args, "--allow-nonstandard"])
    assert r.exit_code == 0, r.output
    each = [x for x in r.stderr.splitlines() if x.startswith("or, without the sweep's")]
    assert len(each) == 1, r.stderr
    cmd = shlex.split(each[0].split(": ", 1)[1].split("; ")[0])
    r = _run(monkeypatch, cmd[1:])
    assert r.exit_code == 0, r.output
    assert "verdict:" in r.output

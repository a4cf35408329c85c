"""A sweep that ends with undecided deals says how many, and the one command that decides
them: an escalating sweep grows in place, searching on only its undecided deals; a
one-pass sweep is made again, escalated and split, into a folder of its own (the study
made keeps its identity)."""

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


def _same_as_afresh(monkeypatch, cmd: list[str], fresh: Path, grown) -> None:
    """The printed command `cmd` run into the new folder `fresh` gives the rows `grown`
    (every column but the seconds)."""
    at = cmd.index("--out")
    r = _run(monkeypatch, [*cmd[1:at], *cmd[at + 2 :], "--out", str(fresh)])
    assert r.exit_code == 0, r.output
    same = [c for c in grown.columns if c != "seconds"]
    assert grown[same].equals(load_study(fresh)[same])


def test_a_one_pass_sweep_is_finished_in_place_from_its_limit(tmp_path, monkeypatch):
    """A one-pass sweep's undecided deals are counted, and the printed command escalates it
    in place from its limit: the same deals, the verdicts decided the first time stand,
    and the rows are those of the same command run afresh (but for the seconds)."""
    out = tmp_path / "s"
    args = ["allisbomb", "sweep", "--deals", "30", "--seed", "3", "--node-limit", "20"]
    args += ["--no-report", "--chunk-size", "10", "--out", str(out)]
    r = _run(monkeypatch, args)
    assert r.exit_code == 0, r.output
    rows = load_study(out)
    und = int((rows["outcome"] == "undecided").sum())
    assert und > 0
    line = [x for x in r.stderr.splitlines() if "left undecided" in x]
    assert len(line) == 1 and line[0].startswith(f"{und:,} of 30 deals left undecided"), r.stderr
    assert "in place" in line[0]
    cmd = shlex.split(line[0].split(": ", 1)[1])
    assert cmd[0] == "bombsolve" and "--escalate" in cmd
    assert cmd[cmd.index("--first-limit") + 1] == "20" and cmd.count("--node-limit") == 1
    assert cmd[cmd.index("--out") + 1] == str(out)
    r2 = _run(monkeypatch, cmd[1:])
    assert r2.exit_code == 0, r2.output
    assert "left undecided" not in r2.stderr and f"grew {out} in place" in r2.stderr
    again = load_study(out)
    assert (again["outcome"] != "undecided").all()
    assert list(again["rank"]) == list(rows["rank"])
    decided = rows["outcome"] != "undecided"
    assert again[decided][["outcome", "nodes"]].equals(rows[decided][["outcome", "nodes"]])
    _same_as_afresh(monkeypatch, cmd, tmp_path / "fresh", again)


def test_a_sweep_no_escalation_continues_is_made_again_in_a_folder_of_its_own(
    tmp_path, monkeypatch
):
    """A ceiling that is no doubling of the first pass cannot be continued in place: the
    printed command makes the same deals again, escalated and split, in a new folder, and
    leaves the first study as it was."""
    out = tmp_path / "n"
    args = ["allisbomb", "sweep", "--deals", "12", "--seed", "3", "--escalate"]
    args += ["--first-limit", "15", "--node-limit", "25", "--no-report", "--out", str(out)]
    r = _run(monkeypatch, args)
    assert r.exit_code == 0, r.output
    rows, identity = load_study(out), load_manifest(out)["identity"]
    line = [x for x in r.stderr.splitlines() if "left undecided" in x]
    assert len(line) == 1 and "in place" not in line[0], r.stderr
    cmd = shlex.split(line[0].split(": ", 1)[1])
    assert cmd[-2:] == ["--out", f"{out}-decided"] and cmd.count("--escalate") == 1
    r2 = _run(monkeypatch, cmd[1:])
    assert r2.exit_code == 0, r2.output
    again = load_study(tmp_path / "n-decided")
    assert (again["outcome"] != "undecided").all()
    decided = rows["outcome"] != "undecided"
    assert (again["outcome"][decided] == rows["outcome"][decided]).all()
    assert load_manifest(out)["identity"] == identity  # the first study is left as it was


def test_an_escalated_sweep_is_finished_in_place_searching_only_its_undecided_deals(
    tmp_path, monkeypatch
):
    """The printed command raises the ceiling and adds the split in the same folder: the
    decided rows are kept, each undecided deal is searched on from the ceiling it reached
    (no pass below it again), and the rows are those of the same command run afresh."""
    from bombsolve.solvers.allisbomb import CEILING
    from bombsolve.solvers.allisbomb.studies import study

    out = tmp_path / "e"
    args = ["allisbomb", "sweep", "--deals", "12", "--seed", "3", "--escalate"]
    args += ["--first-limit", "40", "--node-limit", "80", "--chunk-size", "4", "--workers", "1"]
    args += ["--no-report", "--out", str(out)]
    r = _run(monkeypatch, args)
    assert r.exit_code == 0, r.output
    before = load_study(out)
    open_ = before.loc[before["outcome"] == "undecided", "case"].astype(int).tolist()
    assert 0 < len(open_) < 12
    line = [x for x in r.stderr.splitlines() if "left undecided" in x]
    assert len(line) == 1 and "in place" in line[0], r.stderr
    cmd = shlex.split(line[0].split(": ", 1)[1])
    assert cmd[cmd.index("--node-limit") + 1] == str(CEILING) and cmd.count("--escalate") == 1
    assert cmd[cmd.index("--split-depth") + 1] == "4"
    assert cmd[cmd.index("--out") + 1] == str(out)

    calls: list[int] = []
    real = study.solve_escalating

    def counted(config, decks, policy, **kw):
        calls.append(kw.get("after", 0))
        return real(config, decks, policy, **kw)

    monkeypatch.setattr(study, "solve_escalating", counted)
    r2 = _run(monkeypatch, cmd[1:])
    assert r2.exit_code == 0, r2.output
    assert "left undecided" not in r2.stderr
    grew = f"kept the rows of the {12 - len(open_)} deals decided there, searched on the"
    assert f"grew {out} in place: {grew} {len(open_)} undecided ones" in r2.stderr, r2.stderr
    assert calls == [80] * len(open_)  # only the open deals, from their ceiling
    assert not list((out / "chunks").glob("*.prior"))  # the kept rows are gone once used
    grown = load_study(out)
    monkeypatch.setattr(study, "solve_escalating", real)
    _same_as_afresh(monkeypatch, cmd, tmp_path / "fresh", grown)
    kept = before["outcome"] != "undecided"
    assert (grown.loc[kept, "seconds"] == before.loc[kept, "seconds"]).all()


def test_a_few_undecided_deals_are_named_with_a_re_solve_each(tmp_path, monkeypatch):
    """With few deals left, a second line gives each one's re-solve alone (its study row,
    split), which decides that deal alone."""
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
    assert len(at) == 1 and lines[at[0] + 1].startswith("or, each alone: ")
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
    vocabulary escalates to RICH_CEILING, then splits what is left with a bound on its
    positions, and says so; --node-limit alone is one pass, and the stand-in's cards never
    escalate by themselves."""
    from bombsolve.solvers.allisbomb import FIRST_LIMIT, RICH_CEILING, RICH_ESCALATION

    vocab = str(Path(__file__).parent / "data" / "vocab_actions.toml")
    base = ["allisbomb", "sweep", "--deals", "4", "--seed", "3", "--no-report"]
    rich = [*base, "--cards", vocab, "--allow-nonstandard"]
    r = _run(monkeypatch, [*rich, "--out", str(tmp_path / "a")])
    assert r.exit_code == 0, r.output
    note = [x for x in r.stderr.splitlines() if "extended vocabulary" in x]
    assert len(note) == 1 and f"{2 * FIRST_LIMIT:,} and then {RICH_CEILING:,}" in note[0]
    assert f"then split {RICH_ESCALATION.split} turns deep" in note[0]
    params = load_manifest(tmp_path / "a")["identity"]["params"]
    assert params["escalation"]["ceiling"] == RICH_CEILING == params["node_limit"]
    assert params["escalation"] == RICH_ESCALATION.to_dict()
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
    each = [x for x in r.stderr.splitlines() if x.startswith("or, each alone: ")]
    assert len(each) == 1, r.stderr
    cmd = shlex.split(each[0].split(": ", 1)[1].split("; ")[0])
    r = _run(monkeypatch, cmd[1:])
    assert r.exit_code == 0, r.output
    assert "verdict:" in r.output


def test_a_one_pass_sweep_grows_only_from_its_own_limit(tmp_path, monkeypatch):
    """A one-pass sweep escalates in place only with --first-limit its --node-limit (its
    rows are that pass's); another first pass is refused in one line, the folder kept."""
    out = tmp_path / "o"
    base = ["allisbomb", "sweep", "--deals", "6", "--seed", "3", "--no-report", "--out", str(out)]
    assert _run(monkeypatch, [*base, "--node-limit", "20"]).exit_code == 0
    rows = load_study(out)
    r = _run(monkeypatch, [*base, "--escalate", "--first-limit", "40", "--node-limit", "80"])
    assert r.exit_code == 2 and "--first-limit its --node-limit" in r.output, r.output
    assert load_study(out).equals(rows)


def test_a_bounded_split_names_each_open_deals_unbounded_re_solve(tmp_path, monkeypatch):
    """The default sweep of an extended card file splits the deals its passes leave open
    with a bound on the split's positions; a deal still open is named with its re-solve
    alone, which splits it as the study did, without the bound (here the bound is made
    small enough to leave deals open)."""
    import bombsolve.solvers.allisbomb as allisbomb
    from bombsolve.solvers.allisbomb import Escalation

    small = Escalation(5, 10, split=2, split_limit=5, split_total=6)
    monkeypatch.setattr(allisbomb, "RICH_ESCALATION", small)
    vocab = str(Path(__file__).parent / "data" / "vocab_actions.toml")
    out = tmp_path / "b"
    args = ["allisbomb", "sweep", "--deals", "6", "--seed", "3", "--no-report"]
    args += ["--cards", vocab, "--allow-nonstandard", "--out", str(out)]
    r = _run(monkeypatch, args)
    assert r.exit_code == 0, r.output
    rows = load_study(out)
    left = rows.loc[rows["outcome"] == "undecided", "case"].astype(int).tolist()
    assert left and (rows["split_searches"] > 0).any()
    assert load_manifest(out)["identity"]["params"]["escalation"]["split_total"] == 6
    lines = r.stderr.splitlines()
    at = [i for i, x in enumerate(lines) if "left undecided" in x]
    assert len(at) == 1 and "at most 6 positions a deal" in lines[at[0]], r.stderr
    each = lines[at[0] + 1].split(": ", 1)[1].split("; ")
    assert len(each) == len(left)
    cmd = shlex.split(each[0])
    assert "--split-depth" not in cmd and cmd[cmd.index("--case") + 1] == str(left[0])
    r2 = _run(monkeypatch, [*cmd[1:], "--json"])
    assert r2.exit_code == 0, r2.output
    got = json.loads(r2.stdout)
    assert got["split"]["depth"] == 2 and got["split"]["limit"] == 5

"""Sweep tools: a combined report over several studies, CSV export, re-solving a case."""

from __future__ import annotations

import json
import shlex

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.common.runner import load_study


def invoke(*args: str):
    return CliRunner().invoke(cli, ["allisbomb", *args])


@pytest.fixture(scope="module")
def two_sweeps(tmp_path_factory):
    root = tmp_path_factory.mktemp("sweeps")
    common = ["--deals", "12", "--seed", "2", "--chunk-size", "5", "--workers", "1", "--no-report"]
    a = invoke(
        "sweep",
        "--configs",
        "blitz,base/2p",
        *common,
        "--heuristic-deals",
        "3",
        "--out",
        str(root / "a"),
    )
    b = invoke("sweep", "--configs", "base", *common, "--out", str(root / "b"))
    assert a.exit_code == 0 and b.exit_code == 0, a.output + b.output
    return root


def test_report_combines_several_studies(two_sweeps, tmp_path):
    r = invoke(
        "report", str(two_sweeps / "a"), str(two_sweeps / "b"), "--out", str(tmp_path / "both")
    )
    assert r.exit_code == 0, r.output
    summary = pd.read_csv(tmp_path / "both" / "summary.csv")
    assert list(summary["config"]) == ["blitz", "base/2p", "base"]
    assert summary["deals"].tolist() == [12, 12, 12]
    assert (tmp_path / "both" / "win_rate_by_config.png").stat().st_size > 0
    # each study's own provenance line is kept
    assert r.output.count("SeedSequence(2)") == 2
    again = invoke(
        "report", str(two_sweeps / "a"), str(two_sweeps / "a"), "--out", str(tmp_path / "x")
    )
    assert again.exit_code == 2 and "configuration blitz is in both" in again.output
    alone = invoke("report", str(two_sweeps / "a"), str(two_sweeps / "b"))
    assert alone.exit_code == 2 and "need --out" in alone.output


def test_export_writes_one_row_per_deal_with_solvitaire_columns_first(two_sweeps, tmp_path):
    path = tmp_path / "a.csv"
    r = invoke("export", str(two_sweeps / "a"), "--csv", str(path))
    assert r.exit_code == 0, r.output
    df = pd.read_csv(path, dtype={"seed": "uint64", "rank": str})
    assert list(df.columns[:8]) == [
        "seed", "rank", "outcome", "seconds", "positions", "config", "deal", "case"
    ]  # fmt: skip
    rows = load_study(two_sweeps / "a")
    assert len(df) == len(rows) == 24
    assert (df["seed"].to_numpy() == rows["seed"].to_numpy().astype(np.uint64)).all()
    assert (df["positions"] == rows["nodes"]).all() and (df["rank"] == rows["rank"]).all()
    # each row's command solves its deal again, in its configuration
    assert list(df.columns)[-1] == "rerun"
    for i in (0, 23):
        words = shlex.split(df.at[i, "rerun"])
        flags = {"blitz": ["--blitz"], "base/2p": ["--players", "2"]}[df.at[i, "config"]]
        assert words == ["bombsolve", "allisbomb", "--rank", df.at[i, "rank"], *flags,
                         "--cards", "standin-v2"]  # fmt: skip
    (tmp_path / "file").write_text("x")
    bad = invoke("export", str(two_sweeps / "a"), "--csv", str(tmp_path / "file" / "x.csv"))
    assert bad.exit_code == 2 and "cannot write --csv" in bad.output


def test_study_case_resolves_the_row_it_names(two_sweeps):
    rows = load_study(two_sweeps / "a")
    for case in (0, 5, 23):
        r = invoke("--study", str(two_sweeps / "a"), "--case", str(case), "--json")
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
        row = rows[rows["case"] == case].iloc[0]
        assert out["rank"] == row["rank"] and out["outcome"] == row["outcome"]
        assert out["config"]["label"] == row["config"]
        assert out["study_case"]["seed"] == str(row["seed"])
    text = invoke("--study", str(two_sweeps / "a"), "--case", "3")
    assert text.exit_code == 0 and "the study's row:" in text.output
    # the two searches' figures differ by design, and the output says why
    assert "tries moves in another order than this solve" in text.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--case", "3"], "--study and --case go together"),
        (["--case", "99"], "outside the study's cases 0 to 23"),
        (["--case", "1", "--seed", "4"], "drop --seed"),
        (["--case", "1", "--blitz"], "takes the game options from the study"),
    ],
)
def test_study_case_bad_input(two_sweeps, args, message):
    full = args if args == ["--case", "3"] else ["--study", str(two_sweeps / "a"), *args]
    r = invoke(*full)
    assert r.exit_code == 2 and message in r.output


def test_study_case_honours_an_explicit_node_limit(tmp_path):
    # a sweep too small to decide its deals; re-solving a case with a larger limit is what
    # a user does with an undecided case, and the limit given is the one searched
    out = tmp_path / "tiny"
    r = invoke(
        "sweep", "--configs", "blitz", "--deals", "3", "--seed", "2", "--node-limit", "2",
        "--chunk-size", "3", "--workers", "1", "--no-report", "--out", str(out),
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert (load_study(out)["outcome"] == "undecided").all()
    as_study = json.loads(invoke("--study", str(out), "--case", "1", "--json").stdout)
    assert as_study["node_limit"] == 2 and as_study["outcome"] == "undecided"
    more = invoke("--study", str(out), "--case", "1", "--node-limit", "1000000", "--json")
    assert more.exit_code == 0, more.output
    again = json.loads(more.stdout)
    assert again["node_limit"] == 1_000_000 and again["outcome"] in ("win", "loss")
    assert 2 < again["nodes"] <= 1_000_000
    assert again["rank"] == as_study["rank"] and again["config"] == as_study["config"]
    text = invoke("--study", str(out), "--case", "1", "--node-limit", "1000000")
    assert text.exit_code == 0
    assert "re-solved with --node-limit 1,000,000 (the study's: 2)" in text.output
    assert "the study's row: undecided" in text.output

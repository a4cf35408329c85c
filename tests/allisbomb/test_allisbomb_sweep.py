"""All Is Bomb sweeps: rows, reproducibility, resume, Dask, bad input."""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS, Options
from bombsolve.solvers.allisbomb.rules.deals import rank
from bombsolve.solvers.allisbomb.search.solver import solve
from bombsolve.solvers.allisbomb.studies.study import heuristic_deal, matrix_configs, sweep_study
from bombsolve.solvers.common.runner import load_manifest, load_study, run_study
from tests.common.reporters import recording_updates

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

ROOT = Path(__file__).resolve().parents[2]
BLITZ = [Options(blitz=True)]


def stable(df: pd.DataFrame) -> pd.DataFrame:
    """Every column but the wall-clock one."""
    return df.drop(columns=["seconds"])


def test_matrix_has_every_standard_configuration():
    labels = [c.label() for c in matrix_configs()]
    assert labels[:2] == ["base", "base+hands"]
    for e in EXPANSIONS:
        assert f"base+{e}" in labels and f"base+{e}+hands" in labels
    assert "blitz" in labels and "blitz+hands" not in labels
    assert "base/2p" in labels and "base+hands/2p" in labels
    assert len(labels) == len(set(labels)) == 19


def test_rows_replay_alone_from_seed_and_rank(tmp_path):
    study = sweep_study(BLITZ + [Options()], deals=12, seed=3, heuristic_deals=4, chunk_size=5)
    df = run_study(study, tmp_path, workers=1, progress=False)
    assert len(df) == 24 and list(df["case"]) == list(range(24))
    assert set(df["config"]) == {"blitz", "base"}
    assert set(df["outcome"]) <= {"win", "loss", "undecided"}
    for _, row in df.iloc[[0, 7, 13, 23]].iterrows():
        config = Options(blitz=row["config"] == "blitz")
        n = 13 if config.blitz else 18
        deck = np.random.default_rng(int(row["seed"])).permutation(n)
        assert str(rank(deck)) == row["rank"]
        alone = solve(config, deck.tolist())
        assert alone.outcome == row["outcome"] and alone.nodes == row["nodes"]
        if alone.outcome == "win":
            assert len(alone.solution) == row["solution_len"]
    # 4 of the 12 deals of each configuration, every third: deals 0, 3, 6, 9
    chosen = df["deal"].isin([0, 3, 6, 9])
    assert (chosen == heuristic_deal(df["deal"].to_numpy(), 12, 4)).all()
    heur = df[chosen]
    for player in ("lookahead", "greedy", "random"):
        col = f"{player}_win"
        assert heur[col].isin([0.0, 1.0]).all() and df[~chosen][col].isna().all()
    # the configurations interleaved: case k is deal k // 2 of configuration k % 2
    assert (df["config"] == np.where(df["case"] % 2 == 0, "blitz", "base")).all()
    assert (df["deal"] == df["case"] // 2).all()
    # a lookahead win is a win under perfect play
    assert (df.loc[df["lookahead_win"] == 1, "outcome"] == "win").all()
    assert df["pos:PRINCESS"].between(0, 17).all()


def test_lookahead_budget_and_weights_are_part_of_the_study_identity():
    from dataclasses import replace

    from bombsolve.solvers.allisbomb.search.agents import DEFAULT_WEIGHTS, Budget

    default = sweep_study(BLITZ, deals=5, seed=1, heuristic_deals=5)
    look = default.params["players"]["lookahead"]
    assert look["budget"] == {"depth": Budget().depth, "positions": Budget().positions}
    assert look["weights"]["hand"] == DEFAULT_WEIGHTS.hand
    smaller = sweep_study(BLITZ, deals=5, seed=1, heuristic_deals=5, budget=Budget(2, 40))
    other = sweep_study(
        BLITZ, deals=5, seed=1, heuristic_deals=5, weights=replace(DEFAULT_WEIGHTS, hand=1.0)
    )
    assert smaller.params != default.params and other.params != default.params


def test_a_sweep_counts_each_deal_as_it_is_decided(tmp_path):
    """The sweep's chunks say each deal decided (`progress.cases_done`), so the runner
    reports every case while its chunk runs (a rich card file's deal can take minutes),
    once each: a chunk's end then has none left to report."""
    Recorder, calls = recording_updates()

    study = sweep_study(BLITZ + [Options()], deals=6, seed=3, chunk_size=5)
    run_study(study, tmp_path, workers=1, progress=Recorder)
    assert calls == ([(0, 1)] * 5 + [(1, 0)]) * 2 + [(0, 1)] * 2 + [(1, 0)]


def test_a_chunk_run_in_parts_on_two_workers_is_the_chunk(tmp_path, monkeypatch):
    """A sweep of one chunk (fewer chunks than workers) runs parts of it side by side in a
    pool; the chunk's rows and file are those of the chunk run whole."""
    from bombsolve.solvers.common import runner

    sent = []
    real = runner._run_pool

    def pool(study, todo, n_workers, finish, *args):
        todo = list(todo)
        sent.extend((c.index, c.start, c.stop) for c in todo)
        return real(study, todo, n_workers, finish, *args)

    study = sweep_study(BLITZ + [Options()], deals=100, seed=4, chunk_size=200)
    whole = run_study(study, tmp_path / "whole", workers=1, progress=False)
    monkeypatch.setattr(runner, "_run_pool", pool)
    split = run_study(study, tmp_path / "split", workers=2, progress=False)
    # 200 cases in parts of at least its least part, all of chunk 0, covering it once
    assert len(sent) == 200 // study.least_part and {i for i, _, _ in sent} == {0}
    assert sorted(sent)[0][1] == 0 and sorted(sent)[-1][2] == 200
    assert all(a[2] == b[1] for a, b in itertools.pairwise(sorted(sent)))
    pd.testing.assert_frame_equal(stable(whole), stable(split))
    (a,) = (tmp_path / "whole" / "chunks").iterdir()
    (b,) = (tmp_path / "split" / "chunks").iterdir()
    assert a.name == b.name
    pd.testing.assert_frame_equal(stable(pd.read_parquet(a)), stable(pd.read_parquet(b)))


def test_one_two_workers_and_dask_agree(tmp_path, dask_cluster):
    study = sweep_study(BLITZ, deals=40, seed=5, heuristic_deals=5, chunk_size=10)
    a = run_study(study, tmp_path / "a", workers=1, progress=False)
    b = run_study(study, tmp_path / "b", workers=2, progress=False)
    c = run_study(study, tmp_path / "c", scheduler=dask_cluster.address, progress=False)
    pd.testing.assert_frame_equal(stable(a), stable(b))
    pd.testing.assert_frame_equal(stable(a), stable(c))


def _sweep_args(out: Path) -> list[str]:
    return [
        "allisbomb",
        "sweep",
        "--blitz",
        "--deals",
        "60",
        "--seed",
        "9",
        "--chunk-size",
        "5",
        "--heuristic-deals",
        "60",
        "--workers",
        "1",
        "--no-report",
        "--out",
        str(out),
    ]


def test_sweep_killed_then_rerun_matches_uninterrupted(tmp_path):
    killed = tmp_path / "killed"
    proc = subprocess.Popen(
        [sys.executable, "-m", "bombsolve.cli.main", *_sweep_args(killed)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    chunks = killed / "chunks"
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None:
        if chunks.exists() and len(list(chunks.glob("*.parquet"))) >= 2:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    n_before = len(list(chunks.glob("*.parquet")))
    assert 1 <= n_before < 12, f"the kill must land mid-run ({n_before} chunks)"
    result = CliRunner().invoke(cli, _sweep_args(killed))
    assert result.exit_code == 0, result.output
    clean = tmp_path / "clean"
    assert CliRunner().invoke(cli, _sweep_args(clean)).exit_code == 0
    pd.testing.assert_frame_equal(stable(load_study(killed)), stable(load_study(clean)))
    assert load_manifest(killed)["runs"][-1]["chunks_computed"] == 12 - n_before


def test_sweep_command_writes_report(tmp_path):
    out = tmp_path / "s"
    args = [
        "allisbomb",
        "sweep",
        "--blitz",
        "--deals",
        "20",
        "--seed",
        "2",
        "--chunk-size",
        "10",
        "--heuristic-deals",
        "5",
        "--workers",
        "1",
        "--out",
        str(out),
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "| blitz | 20 |" in result.output and "STAND-IN" in result.output
    for name in (
        "summary.csv",
        "summary.md",
        "headline.md",
        "win_rate_by_config.png",
        "win_rate_by_config.svg",
        "difficulty_cdf.svg",
        "skill_gap.png",
    ):
        assert (out / "report" / name).exists(), name
    again = CliRunner().invoke(cli, ["allisbomb", "report", str(out)])
    assert again.exit_code == 0 and "| blitz | 20 |" in again.output


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--matrix", "--blitz"], "--matrix runs every standard configuration"),
        (["--expansions", "mosquitoz"], "unknown expansion 'mosquitoz' (did you mean mosquitos?)"),
        (["--blitz", "--expansions", "all"], "Blitz"),
    ],
)
def test_bad_sweep_input_is_one_line_exit_2(tmp_path, extra, message):
    out = tmp_path / "x"
    result = CliRunner().invoke(
        cli, ["allisbomb", "sweep", "--deals", "5", "--out", str(out), *extra]
    )
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1
    assert not out.exists()


def test_different_parameters_into_existing_folder_is_refused(tmp_path):
    out = tmp_path / "s"
    base = [
        "allisbomb",
        "sweep",
        "--blitz",
        "--deals",
        "5",
        "--workers",
        "1",
        "--no-report",
        "--heuristic-deals",
        "0",
        "--out",
        str(out),
    ]
    assert CliRunner().invoke(cli, base).exit_code == 0
    result = CliRunner().invoke(cli, [*base[:-2], "--seed", "8", "--out", str(out)])
    assert result.exit_code == 2 and "different study" in result.output


def test_report_of_a_non_study_folder_is_bad_input(tmp_path):
    result = CliRunner().invoke(cli, ["allisbomb", "report", str(tmp_path)])
    assert result.exit_code == 2 and "manifest.json" in result.output


def _configs_sweep(out: Path, deals: int, heuristic: int, *extra: str):
    return CliRunner().invoke(
        cli,
        [
            "allisbomb",
            "sweep",
            "--configs",
            "blitz,base/2p,base+hands",
            "--deals",
            str(deals),
            "--heuristic-deals",
            str(heuristic),
            "--seed",
            "4",
            "--chunk-size",
            "7",
            "--workers",
            "1",
            "--no-report",
            "--out",
            str(out),
            *extra,
        ],
    )


def test_a_grown_sweep_equals_one_run_at_the_larger_size(tmp_path):
    small = _configs_sweep(tmp_path / "grown", 10, 2)
    assert small.exit_code == 0, small.output
    before = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "grown" / "chunks").iterdir()}
    grown = _configs_sweep(tmp_path / "grown", 25, 5)
    assert grown.exit_code == 0, grown.output
    once = _configs_sweep(tmp_path / "once", 25, 5)
    assert once.exit_code == 0, once.output
    a, b = load_study(tmp_path / "grown"), load_study(tmp_path / "once")
    assert len(a) == 75 and stable(a).equals(stable(b))
    assert a.groupby("config")["lookahead_win"].count().tolist() == [5, 5, 5]
    m = load_manifest(tmp_path / "grown")
    # 30 cases in chunks of 7: the four full chunks are kept, the partial fifth redone
    assert m["grown"][0]["from_cases"] == 30 and m["grown"][0]["chunks_kept"] == 4
    assert m["identity"]["params"]["deals"] == 25
    assert len(before) == 5


def test_growing_refusals_name_the_parameter_in_words(tmp_path):
    assert _configs_sweep(tmp_path, 10, 2).exit_code == 0
    moved = _configs_sweep(tmp_path, 20, 2)
    assert moved.exit_code == 2
    assert "--heuristic-deals 2 of 20 deals would move the heuristic players' deals" in moved.output
    assert "e.g. --heuristic-deals 4" in moved.output
    shrunk = _configs_sweep(tmp_path, 5, 1)
    assert shrunk.exit_code == 2 and "--deals is 10 there and 5 now" in shrunk.output
    other = _configs_sweep(tmp_path, 10, 2, "--node-limit", "5000")
    assert (
        other.exit_code == 2 and "--node-limit is" in other.output and "5,000 now" in other.output
    )


def _blitz_escalating(out: Path, first: int, ceiling: int):
    return CliRunner().invoke(
        cli,
        [
            "allisbomb",
            "sweep",
            "--blitz",
            "--deals",
            "28",
            "--seed",
            "4",
            "--chunk-size",
            "7",
            "--workers",
            "1",
            "--no-report",
            "--escalate",
            "--first-limit",
            str(first),
            "--node-limit",
            str(ceiling),
            "--out",
            str(out),
        ],
    )


def test_a_higher_ceiling_decides_again_only_the_chunks_left_undecided(tmp_path):
    # passes of 25 .. 400 positions leave some Blitz deals undecided; 25 .. 3,200 continues them
    assert _blitz_escalating(tmp_path / "raised", 25, 400).exit_code == 0
    before = load_study(tmp_path / "raised")
    again = set(before.loc[before["outcome"] == "undecided", "case"] // 7)
    assert 0 < len(again) < 4  # some chunks, not all: the test sees both kinds
    raised = _blitz_escalating(tmp_path / "raised", 25, 3200)
    assert raised.exit_code == 0, raised.output
    once = _blitz_escalating(tmp_path / "once", 25, 3200)
    assert once.exit_code == 0, once.output
    a, b = load_study(tmp_path / "raised"), load_study(tmp_path / "once")
    assert stable(a).equals(stable(b))
    assert (a["outcome"] == "undecided").sum() < (before["outcome"] == "undecided").sum()
    grown = load_manifest(tmp_path / "raised")["grown"][0]
    assert (grown["chunks_redone"], grown["chunks_kept"]) == (len(again), 4 - len(again))
    assert grown["from_cases"] == grown["to_cases"] == 28
    lower = _blitz_escalating(tmp_path / "raised", 25, 1600)
    assert lower.exit_code == 2 and "--node-limit 1,600 is lower than the 3,200" in lower.output
    first = _blitz_escalating(tmp_path / "raised", 50, 6400)
    assert first.exit_code == 2 and "--first-limit 50 differs from the 25 there" in first.output
    # a last pass off the doubling (25 .. 200, then 300) cannot be continued
    assert _blitz_escalating(tmp_path / "off", 25, 300).exit_code == 0
    off = _blitz_escalating(tmp_path / "off", 25, 1000)
    assert off.exit_code == 2 and "300, which is not a doubling of 25" in off.output


def test_configs_parse_report_labels(tmp_path):
    from bombsolve.solvers.allisbomb.studies.study import parse_configs

    text = "base,base+mosquitos,base+all+hands,blitz,base/2p,base+hands/2p/give-optional"
    assert [c.label() for c in parse_configs(text)] == text.split(",")
    typo = CliRunner().invoke(
        cli,
        [
            "allisbomb",
            "sweep",
            "--configs",
            "base+mosqitos",
            "--deals",
            "3",
            "--out",
            str(tmp_path / "x"),
        ],
    )
    assert typo.exit_code == 2 and "mosqitos" in typo.output and "mosquitos" in typo.output
    both = CliRunner().invoke(
        cli,
        [
            "allisbomb",
            "sweep",
            "--configs",
            "base",
            "--matrix",
            "--deals",
            "3",
            "--out",
            str(tmp_path / "x"),
        ],
    )
    assert both.exit_code == 2 and "not both" in both.output

"""``--time-budget`` on study commands: stop with exit code 3, keep the chunks, resume."""

from __future__ import annotations

import click
import pandas as pd
from click.testing import CliRunner

from bombsolve.cli.common import EXIT_PAUSED, study_options
from bombsolve.solvers.common.runner import Study, load_study, run_study
from bombsolve.solvers.common.toy import coin_chunk


@click.command()
@study_options(default_chunk=100)
def toy(out, workers, scheduler, chunk_size):
    study = Study("toy.coin", {"p": 0.3, "sleep": 0.01}, 1000, 4, coin_chunk, chunk_size)
    df = run_study(study, out, workers=workers, progress=False)
    click.echo(f"rows {len(df)}")


def test_budget_pauses_with_exit_3_then_resumes(tmp_path):
    out = tmp_path / "s"
    runner = CliRunner()
    res = runner.invoke(toy, ["--out", str(out), "--workers", "1", "--time-budget", "0"])
    assert res.exit_code == EXIT_PAUSED
    assert "0 of 10 chunks" in res.output and "re-run the same command" in res.output
    assert "rows" not in res.output  # no report from a partial study
    res = runner.invoke(toy, ["--out", str(out), "--workers", "1", "--time-budget", "0.002"])
    assert res.exit_code in (0, EXIT_PAUSED)
    res = runner.invoke(toy, ["--out", str(out), "--workers", "1"])
    assert res.exit_code == 0 and "rows 1000" in res.output
    whole = run_study(
        Study("toy.coin", {"p": 0.3, "sleep": 0.01}, 1000, 4, coin_chunk, 100),
        tmp_path / "w",
        workers=1,
        progress=False,
    )
    pd.testing.assert_frame_equal(load_study(out), whole)


def test_generous_budget_changes_nothing(tmp_path):
    res = CliRunner().invoke(toy, ["--out", str(tmp_path), "--workers", "1", "--time-budget", "60"])
    assert res.exit_code == 0 and "rows 1000" in res.output

"""The progress of work done in named steps (a report): a line every LOG_EVERY seconds off a
terminal, naming the step under way; nothing in between; the bar filled at the end."""

from __future__ import annotations

import bombsolve.cli.progress as progress
from bombsolve.cli.progress import StepProgress


def test_off_a_terminal_a_line_names_the_step_once_the_interval_passed(monkeypatch, capsys):
    clock = iter([0.0, 3.0, 12.0, 13.0])
    monkeypatch.setattr(progress.time, "monotonic", lambda: next(clock))
    with StepProgress("report", 7, enabled=False) as step:  # starts at 0.0
        step("tables")  # 3 s: too soon
        step("difficulty_cdf")  # 12 s: a line
        step("position_heatmap")  # 13 s: too soon after the last
    err = capsys.readouterr().err.splitlines()
    assert err == ["report: step 2 of at most 7 (difficulty_cdf), 12 s so far"]


def test_the_report_command_reports_its_steps(monkeypatch, tmp_path):
    from click.testing import CliRunner

    from bombsolve.cli.main import cli

    seen = []
    real_call = StepProgress.__call__
    monkeypatch.setattr(
        StepProgress, "__call__", lambda self, name: (seen.append(name), real_call(self, name))
    )
    common = ["--deals", "4", "--seed", "3", "--workers", "1", "--out", str(tmp_path / "s")]
    r = CliRunner().invoke(cli, ["allisbomb", "sweep", "--configs", "blitz", *common])
    assert r.exit_code == 0, r.output
    assert seen[0] == "tables" and seen[-1] == "index.html"
    assert "win_rate_by_config" in seen and "skill_gap" not in seen

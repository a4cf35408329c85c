"""A sweep's report redraws from its report folder alone (the chunks are not committed).

`allisbomb report DIR` on a finished sweep whose chunks are gone reads the tables of
DIR/report and draws every chart again: the same tables, the same charts (their text and
their data), the same page; a report older than the charts' data says which charts it
could not draw and leaves them off the page.
"""

from __future__ import annotations

import shutil

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.studies.report import _node_grid, node_counts
from tests.common.svg import svg_text

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

CHARTS = (
    "win_rate_by_config",
    "difficulty_cdf",
    "solution_length_hist",
    "position_heatmap",
    "skill_gap",
)


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    root = tmp_path_factory.mktemp("redraw")
    r = CliRunner().invoke(
        cli,
        ["allisbomb", "sweep", "--configs", "base,blitz", "--deals", "40", "--seed", "8",
         "--chunk-size", "20", "--heuristic-deals", "4", "--workers", "1",
         "--out", str(root / "s")],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    return root / "s"


def _files(report) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in report.iterdir() if p.suffix in (".csv", ".md")}


def test_report_without_chunks_redraws_the_same_report(sweep, tmp_path):
    kept = tmp_path / "s"
    shutil.copytree(sweep, kept)
    shutil.rmtree(kept / "chunks")
    before = _files(kept / "report")
    charts = {c: svg_text(kept / "report" / f"{c}.svg") for c in CHARTS}
    for p in (kept / "report").glob("*.svg"):
        p.unlink()
    r = CliRunner().invoke(cli, ["allisbomb", "report", str(kept)])
    assert r.exit_code == 0, r.output
    assert "keeps no chunks: redrawn from the tables" in r.output
    assert "not drawn" not in r.output
    assert _files(kept / "report") == before
    assert {c: svg_text(kept / "report" / f"{c}.svg") for c in CHARTS} == charts
    page = (kept / "report" / "index.html").read_text()
    assert page.count("<img") == len(CHARTS)


def test_an_older_report_without_the_counts_says_which_charts_it_cannot_draw(sweep, tmp_path):
    kept = tmp_path / "s"
    shutil.copytree(sweep, kept)
    shutil.rmtree(kept / "chunks")
    for stem in ("difficulty_cdf", "solution_length_hist"):
        (kept / "report" / f"{stem}.csv").unlink()
    r = CliRunner().invoke(cli, ["allisbomb", "report", str(kept)])
    assert r.exit_code == 0, r.output
    assert "not drawn, their per-deal counts are not there: difficulty_cdf" in r.output
    page = (kept / "report" / "index.html").read_text()
    assert page.count("<img") == len(CHARTS) - 2  # the old charts stay off the page


def test_a_study_with_its_chunks_is_solved_from_its_rows_not_redrawn(sweep, tmp_path):
    r = CliRunner().invoke(cli, ["allisbomb", "report", str(sweep), "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    assert "keeps no chunks" not in r.output


def test_node_grid_keeps_every_count_to_1000_then_two_digits_rounded_up():
    nodes = np.array([1, 7, 999, 1000, 1001, 1100, 1101, 12_345, 99_001, 200_000])
    assert list(_node_grid(nodes)) == [
        1, 7, 999, 1000, 1100, 1100, 1200, 13_000, 100_000, 200_000,
    ]  # fmt: skip
    rng = np.random.default_rng(1)
    rows = pd.DataFrame({"config": "x", "nodes": rng.integers(1, 300_000, 5000), "outcome": "win"})
    counts = node_counts(rows, ["x"])
    # the share decided within each grid value is exact
    for v, within in zip(counts["nodes"], counts["deals"].cumsum(), strict=True):
        assert within == int((rows["nodes"] <= v).sum())
    assert len(counts) < 1000 + 3 * 90 + 10


def test_the_committed_matrix_report_redraws_from_the_committed_files(tmp_path):
    """The 1.9M-deal reference sweep keeps no chunks: its report redraws from its tables,
    and the two charts whose per-deal counts it lacks are removed and explained."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "ab"
    for name in ("matrix", "campaign"):
        shutil.copytree(root / "results" / "allisbomb" / "standin-v1" / name, out / name)
    tables = {p.name: p.read_bytes() for p in (out / "matrix" / "report").glob("*.csv")}
    r = subprocess.run(
        [sys.executable, str(root / "scripts" / "results" / "allisbomb_results.py"), "--redraw",
         "--out", str(out), "--no-readme"],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    report = out / "matrix" / "report"
    assert {p.name: p.read_bytes() for p in report.glob("*.csv")} == tables
    for stem in ("win_rate_by_config", "position_heatmap", "skill_gap"):
        assert "100,000 deals per configuration" in svg_text(report / f"{stem}.svg")
    note = (report / "NOT-REDRAWN.md").read_text()
    for stem in ("difficulty_cdf", "solution_length_hist"):
        assert not (report / f"{stem}.png").exists() and stem in note
    assert "--deals 100000" in note and "hours wall" in note
    page = (report / "index.html").read_text()
    assert page.count("<img") == 3
    # its tables, written by an earlier version with fewer columns, read as the page's do
    assert "perfect-play win rate [95% CI]" in page and "<th>win_lo</th>" not in page

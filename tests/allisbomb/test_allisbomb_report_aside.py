"""The report draws its position heatmap in a forked process beside the other charts
(results/PERFORMANCE.md, "The report step"): the same files as drawn in one process, and
a failure there is the report's failure."""

from __future__ import annotations

from pathlib import Path

import pytest

from bombsolve.solvers.allisbomb.studies import charts, report

REPORT = Path(__file__).parents[2] / "results/allisbomb/standin-v2/matrix/report"


def _draw(out: Path, fork: bool, monkeypatch) -> list[str]:
    monkeypatch.setattr(report, "_can_fork_aside", lambda: fork)
    steps: list[str] = []
    report.redraw_report(REPORT, "a caption", out, steps.append)
    return steps


def test_the_forked_heatmap_is_the_same_as_drawn_here(tmp_path, monkeypatch) -> None:
    here = _draw(tmp_path / "here", False, monkeypatch)
    aside = _draw(tmp_path / "aside", True, monkeypatch)
    assert here == aside and here[-1] == "position_heatmap"
    names = sorted(p.name for p in (tmp_path / "here").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "aside").iterdir())
    assert "position_heatmap.png" in names
    for name in names:
        if name.endswith(".svg"):  # Matplotlib names an SVG's parts at random
            continue
        assert (tmp_path / "here" / name).read_bytes() == (
            tmp_path / "aside" / name
        ).read_bytes(), name


def _broken(*_args) -> None:
    raise OSError("no room for the heatmap")


def test_a_failure_in_the_forked_process_is_raised_here(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(charts, "positions_chart", _broken)
    with pytest.raises(OSError, match="no room for the heatmap"):
        _draw(tmp_path / "out", True, monkeypatch)
    assert not (tmp_path / "out" / "position_heatmap.png").exists()


def _slow_writer(out: Path) -> None:
    import time

    from bombsolve.solvers.common.files import atomic_path

    with atomic_path(out / "chart.png") as tmp:
        tmp.write_text("half a chart")
        time.sleep(60)


def test_a_stopped_aside_ends_quietly_and_leaves_no_file(tmp_path, monkeypatch, capfd) -> None:
    import time

    monkeypatch.setattr(report, "_can_fork_aside", lambda: True)
    aside = report._Aside(_slow_writer, tmp_path)
    for _ in range(100):  # until the forked process has begun writing
        if any(tmp_path.iterdir()):
            break
        time.sleep(0.05)
    assert any(tmp_path.iterdir())
    start = time.monotonic()
    aside.close()  # as after Ctrl-C or a failure in the main process
    assert time.monotonic() - start < 10
    assert list(tmp_path.iterdir()) == []
    assert capfd.readouterr().err == ""

"""save_chart draws a figure once per format after one layout pass (bbox_inches='tight' drew
each format twice, re-running the constrained layout), and keeps the caption under the
axes."""

from __future__ import annotations

import matplotlib.figure

from bombsolve.solvers.common.plots import new_figure, save_chart
from tests.common.svg import svg_text, words


def test_save_chart_draws_each_format_once(tmp_path, monkeypatch):
    draws = []
    real = matplotlib.figure.Figure.draw
    monkeypatch.setattr(
        matplotlib.figure.Figure, "draw", lambda self, r: (draws.append(1), real(self, r))[1]
    )
    fig, ax = new_figure()
    ax.plot([1, 2, 3], [3, 1, 2])
    caption = "a provenance caption long enough to wrap " * 8
    paths = save_chart(fig, tmp_path, "chart", caption)
    # one layout pass without rendering, then one draw for the PNG and one for the SVG
    assert len(draws) == 3, len(draws)
    assert [p.suffix for p in paths] == [".png", ".svg"]
    assert words(caption) in words(svg_text(tmp_path / "chart.svg"))

"""save_chart draws a figure once per format, the PNG's draw laying it out (a separate
layout pass before it, or bbox_inches='tight', drew it more often), and keeps the caption
under the axes, inside the picture."""

from __future__ import annotations

import matplotlib.figure
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from PIL import Image

from bombsolve.solvers.common.plots import DPI, new_figure, save_chart
from tests.common.svg import svg_text, words


def test_save_chart_draws_each_format_once(tmp_path, monkeypatch):
    draws = []
    real = matplotlib.figure.Figure.draw
    monkeypatch.setattr(
        matplotlib.figure.Figure, "draw", lambda self, r: (draws.append(1), real(self, r))[1]
    )
    layouts = []
    real_layout = matplotlib.layout_engine.ConstrainedLayoutEngine.execute
    monkeypatch.setattr(
        matplotlib.layout_engine.ConstrainedLayoutEngine,
        "execute",
        lambda self, fig: (layouts.append(1), real_layout(self, fig))[1],
    )
    fig, ax = new_figure()
    ax.plot([1, 2, 3], [3, 1, 2])
    caption = "a provenance caption long enough to wrap " * 8
    paths = save_chart(fig, tmp_path, "chart", caption)
    # one draw for the PNG (which lays the figure out) and one for the SVG
    assert len(draws) == 2, len(draws)
    assert len(layouts) == 1, len(layouts)
    assert [p.suffix for p in paths] == [".png", ".svg"]
    assert words(caption) in words(svg_text(tmp_path / "chart.svg"))


def test_the_caption_is_in_the_picture_under_the_axes(tmp_path):
    fig, ax = new_figure(6, 3)
    ax.plot([1, 2, 3], [3, 1, 2])
    save_chart(fig, tmp_path, "chart", "a provenance caption long enough to wrap " * 8)
    width, height = fig.get_size_inches()
    # the figure grew by the caption's band, and the PNG is the whole figure
    assert height > 3 and width == 6
    with Image.open(tmp_path / "chart.png") as png:
        assert png.size == (round(width * DPI), round(height * DPI))
        pixels = np.asarray(png.convert("L"))
    renderer = FigureCanvasAgg(fig).get_renderer()  # pyplot's canvas went with close
    box = fig.texts[-1].get_window_extent(renderer)
    axes_box = ax.get_tightbbox(renderer)
    assert box.y0 >= 0 and box.x1 <= width * DPI, box
    assert box.y1 < axes_box.y0, (box, axes_box)
    # and it is drawn: the rows of the caption's band hold grey text, not only white
    rows = pixels[round(height * DPI - box.y1) : round(height * DPI - box.y0)]
    assert (rows < 200).any()

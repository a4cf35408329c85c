"""save_chart lays a figure out once and draws it once per format (a tight box around a
caption below the figure, or bbox_inches='tight', drew it more often), and keeps the
caption under the axes and a figure's supxlabel, inside the picture."""

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
    # one layout, then one draw for the PNG and one for the SVG
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


def test_a_figures_supxlabel_stays_above_the_caption(tmp_path):
    fig, ax = new_figure(6, 3)
    ax.plot([1, 2, 3], [3, 1, 2])
    label = fig.supxlabel("a label under every panel")
    save_chart(fig, tmp_path, "chart", "a provenance caption long enough to wrap " * 8)
    renderer = FigureCanvasAgg(fig).get_renderer()
    caption = fig.texts[-1].get_window_extent(renderer)
    below = label.get_window_extent(renderer)
    assert below.y0 > caption.y1, (below, caption)
    assert below.y1 < ax.get_tightbbox(renderer).y0


def test_a_part_the_layout_cannot_fit_grows_the_picture(tmp_path):
    # one row of cells: the colour bar is shorter than its label
    fig, ax = new_figure(6, 1.0)
    image = ax.imshow(np.array([[0.2, 0.8]]), aspect="auto")
    fig.colorbar(image, ax=ax, label="a colour bar's label longer than its bar")
    save_chart(fig, tmp_path, "chart", "a caption")
    box = fig.get_tightbbox(FigureCanvasAgg(fig).get_renderer())
    assert box.y1 > fig.get_size_inches()[1]  # the label passes the figure's top
    with Image.open(tmp_path / "chart.png") as png:
        # the whole label is in the picture (with its margin), not cut at the figure's top
        assert png.size[1] >= round(box.height * DPI)

"""Charts as PNG and SVG with a provenance caption (DESIGN.md, "Truth of results").

Every chart says which rules, cards, options, agents and seeds made it: the caption is
drawn under the axes so that a pasted picture still carries it.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display in CI or on servers
# Text stays text in SVG: selectable, searchable, and much smaller than glyph paths.
matplotlib.rcParams["svg.fonttype"] = "none"

import matplotlib.image  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.transforms import Bbox  # noqa: E402

from bombsolve.solvers.common.files import atomic_path  # noqa: E402

#: Okabe and Ito's colour-blind-safe palette ("Color Universal Design", 2008), the yellow
#: moved last (it is faint on white). At most `MAX_SERIES` of them share a panel.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#F0E442"]
#: Series per panel: more are split into facets (small multiples), never told apart by
#: repeated colours.
MAX_SERIES = 6
#: A sequential colour map that reads the same with every common colour-vision deficiency.
SEQUENTIAL = "cividis"
#: Heat-map cells of fewer cases than this are greyed: their Wilson 95% interval is wider
#: than about +-18 points, too wide to read a colour from.
MIN_CELL_N = 30
#: Resolution of the PNG charts (dots per inch).
DPI = 150
#: White space around a chart and its caption, in inches.
MARGIN = 0.1


def facets(items: Sequence[str], per_panel: int = MAX_SERIES) -> list[list[str]]:
    """Split `items` into panels of at most `per_panel`, as evenly as possible."""
    items = list(items)
    if not items:
        return [[]]
    n = -(-len(items) // per_panel)
    size = -(-len(items) // n)
    return [items[i : i + size] for i in range(0, len(items), size)]


def agg_figure(width: float, height: float) -> Figure:
    """A figure on an Agg canvas, with the constrained layout, outside pyplot: a
    chart that is saved and closed needs none of pyplot's figure managers (nor its import)."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def new_figure(width: float = 8.0, height: float = 4.8) -> tuple[Figure, Axes]:
    """Return a figure and axes in the project's house style."""
    fig = agg_figure(width, height)
    ax = fig.subplots()
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    return fig, ax


def save_chart(
    fig: Figure,
    out_dir: str | os.PathLike,
    stem: str,
    caption: str,
    data: pd.DataFrame | None = None,
) -> list[Path]:
    """Write ``stem.png`` and ``stem.svg`` into `out_dir`, with `caption` as a footer, and
    the chart's `data` (every number drawn) beside them as ``stem.csv``.

    Returns the paths. Each file is written atomically.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if data is not None:
        with atomic_path(out / f"{stem}.csv") as tmp:
            data.to_csv(tmp, index=False, float_format="%.6g")
    # whole words only: an option such as --heuristic-deals stays one piece
    lines = textwrap.wrap(
        caption,
        width=int(fig.get_figwidth() * 15),
        break_on_hyphens=False,
        break_long_words=False,
    )
    wrapped = "\n".join(lines)
    fig.set_dpi(DPI)  # the PNG's: its text measured once, for the layout and the draw
    # already wrapped to the figure's width: matplotlib's own wrapping (wrap=True) would
    # measure the caption word by word at every draw, the costliest part of a chart
    text = fig.text(0, 0, wrapped, ha="left", va="bottom", fontsize=7, color="#555555")
    # The caption inside the figure, in a band below the laid-out area that the figure
    # grows by: a caption hung below the figure needed a tight box around it, measured in
    # a draw of its own after the layout's.
    width, height = fig.get_size_inches()
    band = text.get_window_extent(fig.canvas.get_renderer()).height / DPI + MARGIN
    fig.set_size_inches(width, height + band)
    total = height + band
    text.set_position((MARGIN / width, MARGIN / total))
    engine = fig.get_layout_engine()
    engine.set(
        h_pad=0.1,
        rect=(MARGIN / width, band / total, 1 - 2 * MARGIN / width, 1 - (band + MARGIN) / total),
    )
    # Laid out once, on the PNG's renderer (its text measured once for the layout and the
    # draw), then frozen: the PNG's draw and the SVG's draw run no layout of their own (a
    # savefig with a layout engine lays the figure out in a dry run first).
    engine.execute(fig)
    fig.set_layout_engine(None)
    # The layout puts a figure's supxlabel at the figure's foot whatever its rect: lifted
    # above the caption's band, into the margin the layout kept for it at the rect's foot.
    name = fig.get_supxlabel()
    for label in fig.texts:
        if name and label is not text and label.get_text() == name:
            x, y = label.get_position()
            label.set_position((x, y + band / total))
    png, svg = out / f"{stem}.png", out / f"{stem}.svg"
    box = fig.get_tightbbox(fig.canvas.get_renderer())
    whole = fig.bbox_inches
    if box.x0 < -0.01 or box.y0 < -0.01 or box.x1 > whole.x1 + 0.01 or box.y1 > whole.y1 + 0.01:
        # a part the layout could not fit (a colour bar's label longer than its bar): the
        # picture grows to hold it, as a tight box did, at the cost of savefig's own draw
        grown = Bbox.union([box.padded(MARGIN), whole])
        for path, ext in ((png, "png"), (svg, "svg")):
            with atomic_path(path) as tmp:
                fig.savefig(tmp, format=ext, dpi=DPI, bbox_inches=grown)
    else:
        # the PNG as savefig writes it: the Agg canvas drawn, its pixels saved
        with atomic_path(png) as tmp:
            fig.canvas.draw()
            matplotlib.image.imsave(
                tmp, fig.canvas.buffer_rgba(), format="png", origin="upper", dpi=DPI
            )
        with atomic_path(svg) as tmp:
            fig.savefig(tmp, format="svg", dpi=DPI)
    paths = [png, svg]
    if fig.canvas.manager is not None:  # made by pyplot: leave its list of open figures
        import matplotlib.pyplot as plt

        plt.close(fig)
    return paths + ([out / f"{stem}.csv"] if data is not None else [])


def interval_bars(
    ax: Axes,
    labels: Sequence[str],
    values: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    color: str = PALETTE[0],
    percent: bool = True,
) -> None:
    """Draw horizontal bars with interval whiskers and value labels (rates in 0..1)."""
    scale = 100.0 if percent else 1.0
    y = range(len(labels))
    vals = [v * scale for v in values]
    err = [
        [max(v - lo * scale, 0) for v, lo in zip(vals, lows, strict=True)],
        [max(hi * scale - v, 0) for v, hi in zip(vals, highs, strict=True)],
    ]
    ax.barh(y, vals, xerr=err, color=color, alpha=0.85, capsize=3, error_kw={"lw": 1})
    ax.set_yticks(list(y), labels)
    ax.invert_yaxis()
    for yi, v, hi in zip(y, vals, highs, strict=True):
        ax.text(
            hi * scale + (1 if percent else 0.01),
            yi,
            f"{v:.1f}%" if percent else f"{v:.3g}",
            va="center",
            fontsize=8,
        )
    ax.grid(axis="x", alpha=0.3)
    ax.grid(axis="y", visible=False)

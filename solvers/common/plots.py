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

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from solvers.common.files import atomic_path  # noqa: E402

PALETTE = ["#3b6ea8", "#d9822b", "#4f9a55", "#b8473d", "#7d5ba6", "#8c6d4f", "#c2569a", "#6b6b6b"]


def new_figure(width: float = 8.0, height: float = 4.8) -> tuple[Figure, plt.Axes]:
    """Return a figure and axes in the project's house style."""
    fig, ax = plt.subplots(figsize=(width, height), layout="constrained")
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    return fig, ax


def save_chart(fig: Figure, out_dir: str | os.PathLike, stem: str, caption: str) -> list[Path]:
    """Write ``stem.png`` and ``stem.svg`` into `out_dir`, with `caption` as a footer.

    Returns the two paths. Each file is written atomically.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    wrapped = "\n".join(textwrap.wrap(caption, width=int(fig.get_figwidth() * 15)))
    fig.get_layout_engine().set(h_pad=0.1)
    fig.text(0.01, 0.0, wrapped, ha="left", va="top", fontsize=7, color="#555555", wrap=True)
    paths = []
    for ext in ("png", "svg"):
        path = out / f"{stem}.{ext}"
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=ext, dpi=150, bbox_inches="tight", pad_inches=0.15)
        paths.append(path)
    plt.close(fig)
    return paths


def interval_bars(
    ax: plt.Axes,
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

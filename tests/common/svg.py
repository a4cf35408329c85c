"""Read the text of a chart as its reader sees it (matplotlib writes SVG text as text)."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path


def svg_text(path: str | Path) -> str:
    """Every text of an SVG chart joined as one line, runs of white space as one space (a
    caption is wrapped over several lines)."""
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", Path(path).read_text())
    return " ".join(" ".join(unescape(t) for t in texts).split())


def words(text: str) -> str:
    """`text` with every run of white space as one space."""
    return " ".join(text.split())

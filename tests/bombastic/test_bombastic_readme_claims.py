"""Every figure the Bombastic prose quotes by hand is one a study's generated block prints.

The prose of results/bombastic/README.md and of the README's Bombastic section (outside
the `generated:` blocks and code fences) quotes rates as "R [LO, HI]"; each such triple
must appear in a generated block of either file, which the block tests tie to the
committed study data. A figure typed from memory or left behind when a study changed
fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STUDIES = ROOT / "results" / "bombastic" / "README.md"
GUIDE = ROOT / "README.md"

BLOCK = re.compile(r"<!-- generated:([\w-]+) sha=\w+ -->\n(.*?)<!-- /generated:\1 -->", re.S)
FENCE = re.compile(r"```.*?```", re.S)
#: a rate with its interval: "56.6% [55.1, 58.2]", "-2.1 [-5.2, +0.9]", "2041 [2028, 2053]"
FIGURE = re.compile(r"([+-]?\d+(?:\.\d+)?)%? \[([+-]?\d+(?:\.\d+)?)%?, ([+-]?\d+(?:\.\d+)?)%?\]")


def _key(m: re.Match) -> tuple[str, ...]:
    return tuple(g.lstrip("+") for g in m.groups())


def _bombastic_section(text: str) -> str:
    start = text.index("\n## Bombastic\n")
    return text[start : text.index("\n## ", start + 1)]


def _prose(text: str) -> str:
    return FENCE.sub("", BLOCK.sub("", text))


def _quoted() -> list[tuple[str, str]]:
    found = []
    for name, text in (
        ("results/bombastic/README.md", STUDIES.read_text()),
        ("README.md", _bombastic_section(GUIDE.read_text())),
    ):
        found += [(name, m.group(0)) for m in FIGURE.finditer(_prose(text))]
    return found


def _printed() -> set[tuple[str, ...]]:
    blocks = "".join(m.group(2) for f in (STUDIES, GUIDE) for m in BLOCK.finditer(f.read_text()))
    return {_key(m) for m in FIGURE.finditer(blocks)}


def test_the_prose_quotes_figures_at_all():
    # the check below would pass on prose with no figures: there are dozens
    assert len(_quoted()) > 20


def _missing(quoted: list[tuple[str, str]], printed: set[tuple[str, ...]]) -> list[str]:
    return [f"{name}: {fig}" for name, fig in quoted if _key(FIGURE.fullmatch(fig)) not in printed]


def test_every_quoted_figure_is_printed_by_a_generated_block():
    missing = _missing(_quoted(), _printed())
    assert not missing, "figures quoted by hand that no generated block prints: " + "; ".join(
        missing
    )


def test_a_figure_one_tenth_off_is_caught():
    name, fig = _quoted()[0]
    rate, lo, hi = _key(FIGURE.fullmatch(fig))
    drifted = fig.replace(rate, f"{float(rate) + 0.1:.1f}", 1)
    assert _missing([(name, fig)], _printed()) == []
    assert _missing([(name, drifted)], _printed()) == [f"{name}: {drifted}"]

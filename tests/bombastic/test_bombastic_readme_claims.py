"""Every figure the Bombastic prose quotes by hand is one a study's generated block prints.

The prose of results/bombastic/README.md and of the README's Bombastic section (outside
the `generated:` blocks and code fences) quotes rates as "R [LO, HI]"; each such triple
must appear in a generated block of either file, which the block tests tie to the
committed study data, or be an effect on part of a paired study's deals, computed here from
the committed games (`PARTS`). A figure typed from memory or left behind when a study changed
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


def test_a_figure_one_tenth_off_is_caught():
    name, fig = _quoted()[0]
    rate, lo, hi = _key(FIGURE.fullmatch(fig))
    drifted = fig.replace(rate, f"{float(rate) + 0.1:.1f}", 1)
    assert _missing([(name, fig)], _printed()) == []
    assert _missing([(name, drifted)], _printed()) == [f"{name}: {drifted}"]


# --- effects quoted on part of a study's deals ------------------------------------------------

PAIRED = ROOT / "results" / "bombastic" / "paired"

#: (deck, first case, end case): the parts of a paired study the prose quotes apart from the
#: block's whole-study figure (a study re-run larger keeps its first deals: the runner seeds
#: chunk by chunk).
PARTS = (
    ("without peek-line-shuffle", 0, 4000),
    ("without peek-line-shuffle", 4000, 10000),
    ("without peek-line-shuffle", 0, 10000),
)


def _paired_effect(deck: str, start: int, stop: int) -> str:
    """X's rate without `deck` minus the base deck's on the committed deals start..stop-1,
    in points with its 95% interval, as `bombastic_paired_decks.py` prints it."""
    import math

    from bombsolve.solvers.common.runner import load_study

    def x_wins(name: str):
        df = load_study(PAIRED / name.replace(" ", "_"), partial=True).set_index("case")
        return (df["winner"] == 0).astype(float), df["seed"]

    (base, base_seed), (other, other_seed) = x_wins("base deck"), x_wins(deck)
    cases = [c for c in range(start, stop)]
    assert (other_seed.loc[cases] == base_seed.loc[cases]).all()  # the same deals
    d = other.loc[cases] - base.loc[cases]
    se = d.std(ddof=1) / math.sqrt(len(d))
    m, lo, hi = (100 * x for x in (d.mean(), d.mean() - 1.96 * se, d.mean() + 1.96 * se))
    return f"{m:+.1f} [{lo:+.1f}, {hi:+.1f}]"


def _derived() -> set[tuple[str, ...]]:
    return {_key(FIGURE.fullmatch(_paired_effect(*part))) for part in PARTS}


def test_every_quoted_figure_is_printed_by_a_block_or_computed_from_the_committed_games():
    missing = _missing(_quoted(), _printed() | _derived())
    assert not missing, "figures quoted by hand that no block or study gives: " + "; ".join(missing)


def test_the_peek_line_shuffle_effect_quoted_is_the_one_the_committed_games_give():
    prose = " ".join(_prose(STUDIES.read_text()).split())
    first, added, whole = (_paired_effect(*part) for part in PARTS)
    assert f"Its first 4,000 deals gave {first}" in prose
    assert f"the 6,000 deals added give {added} on their own" in prose
    m = FIGURE.fullmatch(whole)
    rate, lo, hi = (g.lstrip("+") for g in m.groups())
    assert f"raises X's rate by {rate} points [{lo}, {hi}] over 10,000 deals" in prose
    assert "| without peek-line-shuffle | 10,000 |" in STUDIES.read_text()
    assert whole in STUDIES.read_text()  # the block's figure, from the same games

"""CARDS.md's examples (the `steps` lists in its TOML blocks, "Effect vocabulary" and after):
every op of the vocabulary has at least one, and every one loads as a card's steps."""

from __future__ import annotations

import re
import tomllib

import pytest

from bombsolve.solvers.allisbomb.cards import cards as C
from bombsolve.solvers.allisbomb.cards.cards import DATA_DIR, load_cards
from tests.allisbomb.vocab_helpers import game


def _examples() -> list[str]:
    """Each `steps = [...]` statement of the TOML blocks from "Effect vocabulary" on."""
    doc = (DATA_DIR / "CARDS.md").read_text()
    doc = doc[doc.index("## Effect vocabulary") :]
    found = []
    for block in re.findall(r"```toml\n(.*?)```", doc, flags=re.S):
        current: list[str] = []
        for line in block.splitlines():
            starts = line.startswith(("#", "[", "number", "keyword", "text", "steps ="))
            if starts and current:
                found.append("\n".join(current))
                current = []
            if line.startswith("steps ="):
                current = [line]
            elif current:
                current.append(line)
        if current:
            found.append("\n".join(current))
    return found


EXAMPLES = _examples()


def test_every_op_has_an_example():
    ops = set()
    for text in EXAMPLES:
        ops |= set(re.findall(r'op = "(\w+)"', text))
    assert set(C.OPS) <= ops, sorted(set(C.OPS) - ops)


@pytest.mark.parametrize("text", EXAMPLES, ids=range(len(EXAMPLES)))
def test_each_example_loads(tmp_path, text):
    steps = tomllib.loads(text)["steps"]
    assert steps and all("op" in s for s in steps)
    inner = text.split("=", 1)[1].strip()
    assert inner.startswith("[") and inner.endswith("]")
    cards = load_cards(game(tmp_path, inner[1:-1], players=2))
    assert "TESTER" in [c.name for c in cards.cards]


@pytest.mark.parametrize("text", EXAMPLES, ids=range(len(EXAMPLES)))
def test_no_example_is_a_slip(tmp_path, text):
    """CARDS.md, "Slips": an example acts as written (the test game's TESTER is no PROPHET
    and draws nothing, NUMBER 0: a PROPHECY example and an equip_win on the card drawn may
    show that, and nothing else)."""
    from bombsolve.solvers.allisbomb.cards.slips import slips

    inner = text.split("=", 1)[1].strip()[1:-1]
    cards = load_cards(game(tmp_path, inner, players=2))
    found = [s.reason for s in slips(cards.cards, "test", C.MAX_CARDS)]
    allowed = ["not a PROPHET"] if 'op = "prophecy"' in text else []
    allowed += ["has NUMBER 0 and no draw step"] if 'zone = "drawn"' in text else []
    assert all(any(a in r for a in allowed) for r in found), found


def test_the_patched_prophet_example_replaces_one(tmp_path):
    """CARDS.md, "Patch mode": the PROPHET example, with its label, replaces a PROPHET."""
    doc = (DATA_DIR / "CARDS.md").read_text()
    block = next(
        b
        for b in re.findall(r"```toml\n(.*?)```", doc, flags=re.S)
        if b.startswith('[[card]]\nname = "PROPHET"')
    )
    path = tmp_path / "prophet.toml"
    path.write_text('[set]\nname = "base"\nmode = "patch"\n\n' + block)
    from bombsolve.solvers.allisbomb.cards.config import Options

    cs = load_cards(Options(cards_file=path))
    assert cs.n == 18 and cs.warnings == () and cs.labels.count("PROPHET OF EGGS") == 1
    assert cs.cards[cs.labels.index("PROPHET OF EGGS")].source == str(path.resolve())

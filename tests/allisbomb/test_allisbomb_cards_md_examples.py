"""CARDS.md's examples (the `steps` lists in its TOML blocks, "Effect vocabulary" and after):
every op of the vocabulary has at least one, and every one loads as a card's steps."""

from __future__ import annotations

import re
import tomllib

import pytest

from solvers.allisbomb import cards as C
from solvers.allisbomb.cards import DATA_DIR, load_cards
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

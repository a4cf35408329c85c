"""The 20 card actions (and the all-or-nothing optional) written exactly in the effect
vocabulary (data/vocab_actions.toml): the file loads, `cards check` reads every side back in
words, `cards try` plays them, and the kernel agrees with the reference on seeded deals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.rules.rules import new_game
from bombsolve.solvers.allisbomb.search.search import reference_search
from bombsolve.solvers.allisbomb.search.solver import solve

FILE = Path(__file__).parent / "data" / "vocab_actions.toml"
CFG = Options(cards_file=FILE, allow_nonstandard=True)
LETTERS = "abcdefghijklmnoqrst"


def test_every_action_loads_and_reads_back_in_words():
    cs = load_cards(CFG)
    texts = " ".join(s.text for c in cs.cards for s in (c.passive, c.ignited))
    for letter in LETTERS:
        assert f"({letter})" in texts, letter
    out = CliRunner().invoke(cli, ["allisbomb", "cards", "check", str(FILE), "--allow-nonstandard"])
    assert out.exit_code == 0, out.output
    for words in (
        "2 times, one choice each, each a different card",  # (g)
        "Put every passive card of your EQUIPPED CARDS on top of the DISCARD PILE",  # (j)
        "If the PRINCESS is ignited: the Draw & Equip phase draws 1 card more",  # (k)
        "Reverse the order of the top 5 cards of the DECK",  # (l)
        "Turn every card of the DECK over",  # (m)
        "Put a COURT card from anywhere",  # (o)
        "draws cards as many as the ignited cards in the DECK",  # (q)
        "Exchange this card with a card of your choice from the DISCARD PILE",  # (r)
        "IGNITE the card directly below this card in the DECK",  # (t)
        "Look at the top 6 cards of the DECK",
        "Look at the top 3 cards of the DISCARD PILE",
        "You may do all of this, or none of it",
        "The next card played plays ignited",  # (n)
        "The next card played draws 1 card more",
    ):
        assert words in out.output, words


def test_cards_try_plays_the_new_actions():
    for card in ("RASCAL", "LIBRARIAN", "GUARDIAN", "CROISSANT", "EGGS", "PANCAKES"):
        for side in ("passive", "ignited"):
            out = CliRunner().invoke(
                cli,
                ["allisbomb", "cards", "try", str(FILE), "--allow-nonstandard", "--card", card]
                + ["--side", side],
            )
            assert out.exit_code == 0, (card, side, out.output)
            if card == "PANCAKES" and side == "passive":  # (n): the effect waits, in words
                assert "waiting: the next card played plays ignited" in out.output


def test_kernel_matches_reference_on_deals_of_the_actions_file():
    cs = load_cards(CFG)
    rng = np.random.default_rng(15)
    for _ in range(8):
        deck = rng.permutation(cs.n)
        a = solve(CFG, deck, node_limit=1500, portfolio=False)
        b = reference_search(new_game(CFG, deck), node_limit=1500)
        assert (a.outcome, a.nodes, a.loss_reason, a.solution) == (
            b.outcome,
            b.nodes,
            b.loss_reason,
            b.solution,
        )

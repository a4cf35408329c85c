"""Skipping the dead check on a child that provably stays alive (prune.still_alive).

The search skips `prune.dead` on a child when `still_alive(parent, child)` holds and the
parent is not dead. The fact this rests on (prune.py, "skipping the check"): such a child
is not dead either. These tests check it with the plain-Python predicate on every child
of random lines, check the Numba twin against the plain one, and pin the inert cards of
the stand-in set.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS, Options
from bombsolve.solvers.allisbomb.kernel import prune
from bombsolve.solvers.allisbomb.kernel.program import compile_program
from bombsolve.solvers.allisbomb.rules.rules import new_game
from bombsolve.solvers.allisbomb.search.solver import to_kernel_state
from tests.allisbomb.helpers import position

GIFTS = Options(expansions=("gifts",))
CONFIGS = [
    Options(),
    Options(blitz=True),
    Options(players=2),
    Options(expansions=("mosquitos",)),
    Options(expansions=("dream_guide",)),
    GIFTS,
    replace(GIFTS, gifts_distinct=False),
    Options(expansions=("the_juice",)),
    Options(expansions=("waking_up",)),
    Options(expansions=("all",), hands=True),
    Options(expansions=EXPANSIONS, hands=True),
]


def walk(config: Options, deals: int, seed: int):
    """(parent, child) pairs: every unfinished child of every position of random lines of
    seeded deals whose parent is not dead (the only parents the search asks about)."""
    cs = load_cards(config)
    rng = np.random.default_rng(seed)
    for _ in range(deals):
        s = new_game(cs, list(rng.permutation(cs.n)))
        while not s.is_over() and prune.dead_reason(s) is None and s.turn < 60:
            kids = s.children()
            for _move, child in kids:
                if not child.is_over():
                    yield s, child
            s = kids[int(rng.integers(len(kids)))][1]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.label())
def test_a_child_that_still_alive_accepts_is_not_dead(config):
    info = compile_program(load_cards(config)).info
    n = load_cards(config).n
    skipped = grown = 0
    for parent, child in walk(config, 20, 2027):
        says = prune.skips_dead_check(parent, child)
        kernel = prune.still_alive(to_kernel_state(parent), to_kernel_state(child), n, info)
        assert kernel == says, (parent.to_json(), child.to_json())
        if says:
            skipped += 1
            grown += len(child.discard) > len(parent.discard)
            assert prune.dead_reason(child) is None, (parent.to_json(), child.to_json())
    assert skipped > 20
    if prune.inert_cards(load_cards(config))[0]:
        assert grown > 5  # the new part of the skip (cards put on the pile) was exercised


def test_the_inert_cards_of_the_stand_in_sets():
    cs = load_cards(Options())
    before, after = prune.inert_cards(cs)
    plain = {"JOKER", "MENDER", "RASCAL", "LIBRARIAN", "GUARDIAN"}
    assert {cs.labels[c] for c in before} == plain
    dishes = {"CROISSANT", "EGGS", "PANCAKES"}
    prophets = {"PROPHET OF " + d for d in dishes}
    assert {cs.labels[c] for c in after} == plain | dishes | prophets
    # a depth-limited retrieval (ALL takes the top card back) makes burial matter: none
    assert prune.inert_cards(load_cards(Options(expansions=("all",)))) == (set(), set())
    # a win condition's card is never inert
    dg = load_cards(Options(expansions=("dream_guide",)))
    assert dg.ids_named("DREAM GUIDE")[0] not in prune.inert_cards(dg)[1]


def test_the_deck_rule_stops_the_skip():
    """Discarding inert cards shrinks R by one each: the DECK rule may then fire, so the skip
    needs the cards outside the pile to pay for the PRINCESS's draw (guard (c))."""
    cfg = Options()  # the PRINCESS's ignited NUMBER is 3: R needs 4 cards
    pile = ["RASCAL", "LIBRARIAN", "GUARDIAN"]
    kw = {"equipped": [["PRINCESS"]], "desired": "CROISSANT"}
    parent = position(cfg, deck=["JOKER", "MENDER", "CROISSANT"], discard=pile, **kw)
    child = position(cfg, deck=["MENDER", "CROISSANT"], discard=[*pile, "JOKER"], **kw)
    assert prune.dead_reason(parent) is None
    assert prune.dead_reason(child) == "DECK"
    assert not prune.skips_dead_check(parent, child)
    info = compile_program(load_cards(cfg)).info
    st_p, st_c = to_kernel_state(parent), to_kernel_state(child)
    assert not prune.still_alive(st_p, st_c, load_cards(cfg).n, info)
    # the same pile grown by a card that is not inert: no skip either
    kw["equipped"] = [["JOKER"]]
    child2 = position(cfg, deck=["MENDER", "CROISSANT"], discard=[*pile, "PRINCESS"], **kw)
    assert not prune.skips_dead_check(parent, child2)


def test_a_king_turned_ignited_is_not_skipped():
    """(d): a child in which the KING (stand-in v2, a retriever on his passive side only)
    turned ignited may be dead though its pile is the parent's: the check is not skipped."""
    cfg = Options(expansions=("waking_up",))
    cs = load_cards(cfg)
    info = compile_program(cs).info
    parent = position(
        cfg,
        deck=["MENDER", "RASCAL", "THRONE", "GUARDIAN"],
        equipped=[["KING"]],
        discard=["EGGS", "PRINCESS"],
        desired="EGGS",
    )
    assert prune.dead_reason(parent) is None
    # the KING declines to take her back ("you may"): he turns ignited, the pile is the same
    kids = [c for m, c in parent.children() if c.discard == parent.discard]
    assert kids and all(c.ignited[cs.labels.index("KING")] for c in kids)
    for child in kids:
        assert prune.dead_reason(child) == "PRINCESS"
        assert not prune.skips_dead_check(parent, child)
        assert not prune.still_alive(to_kernel_state(parent), to_kernel_state(child), cs.n, info)


def test_a_throne_that_turns_ignited_and_equipped_is_not_skipped():
    """(e): under WAKING UP, a child whose ignited THRONE was just EQUIPPED may be dead
    (nothing puts it back into the DECK) though the parent, with the same pile, is not."""
    cfg = Options(expansions=("waking_up",))
    cs = load_cards(cfg)
    info = compile_program(cs).info
    parent = position(
        cfg,
        deck=["RASCAL", "THRONE", "MENDER", "GUARDIAN"],
        equipped=[["LIBRARIAN", "PRINCESS"]],
        discard=["EGGS"],
        ignited=["THRONE"],
        desired="EGGS",
    )
    assert prune.dead_reason(parent) is None
    # the LIBRARIAN (NUMBER 2) draws RASCAL and EQUIPs the ignited THRONE
    kids = [c for m, c in parent.children() if c.zone[cs.labels.index("THRONE")] == 1]
    assert kids
    for child in kids:
        assert prune.dead_reason(child) == "THRONE"
        assert not prune.skips_dead_check(parent, child)
        assert not prune.still_alive(to_kernel_state(parent), to_kernel_state(child), cs.n, info)

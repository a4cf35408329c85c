"""Picks asked for as a set (CARDS.md "Moves and the `solution` of a result",
`Step.picks_as_set`): a step that picks cards one after another, where the order of the
picks cannot change the position, lists each choice of cards once, in the order its first
pick lists them. The positions reached must be exactly those of every order (nothing lost,
nothing added), and the kernel must list the same moves as the reference engine.
"""

from __future__ import annotations

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import Step, load_cards
from bombsolve.solvers.allisbomb.kernel import kernel as K
from bombsolve.solvers.allisbomb.rules.rules import State, TooManyMoves
from bombsolve.solvers.allisbomb.search.solver import compiled, to_kernel_state
from bombsolve.solvers.common.errors import BadInput
from tests.allisbomb.helpers import position
from tests.allisbomb.odd_sets import random_game, random_positions
from tests.allisbomb.vocab_helpers import game, play, zones


def _every_order(monkeypatch) -> None:
    monkeypatch.setattr(Step, "picks_as_set", lambda self: False)


def test_equip_two_of_the_deck_lists_each_pair_once(tmp_path, monkeypatch):
    """'EQUIP 2 cards of the DECK': 4 cards give 6 pairs, not the 12 ordered picks, and the
    same 6 positions."""
    cfg = game(tmp_path, '{op = "move", zone = "deck", pick = "any", count = 2, to = "equipped"}')
    deck = ["KING", "EGGS", "JOKER", "MENDER"]
    kids = play(cfg, deck=deck)
    hands = sorted(tuple(zones(c)["equipped"]) for _, c in kids)
    assert len(kids) == 6 and len(set(hands)) == 6
    _every_order(monkeypatch)  # (the reference alone: the kernel's program is compiled)
    ordered = position(cfg, deck, [["TESTER"]]).children()
    assert len(ordered) == 12
    assert sorted({tuple(zones(c)["equipped"]) for _, c in ordered}) == hands


def test_the_picks_of_a_set_go_down_the_first_list(tmp_path):
    """After a pick, only the cards the first pick listed after it (or itself) are offered:
    'KING, then EGGS' is the move (the DECK lists KING first) and 'EGGS, then KING' is not;
    asked for, the second is refused as the other order of a listed move."""
    cfg = game(tmp_path, '{op = "move", zone = "deck", pick = "any", count = 2, to = "out"}')
    kids = play(cfg, deck=["KING", "EGGS"])
    assert [m for m, _ in kids] == [(0,)]  # KING, then EGGS (the single card left)
    assert zones(kids[0][1])["deck"] == ["TESTER*"]  # (played passive: to the bottom)
    s = position(cfg, ["KING", "EGGS", "JOKER"], [["TESTER"]])
    # KING then EGGS or JOKER; EGGS then JOKER; JOKER (listed last) first leaves no card
    assert s.legal_moves() == [(0, 0), (0, 1), (1,)]
    with pytest.raises(BadInput, match="another move"):
        s.copy().apply((2, 0))


def test_picks_with_a_range_or_into_an_ordered_pile_keep_every_order(tmp_path):
    """`within` (the range moves as cards leave it), the DISCARD PILE and the DECK (both
    ordered) and IGNITE (which discards an ignited card) keep one move per order."""
    for steps in (
        '{op = "move", zone = "deck", pick = "any", within = 3, count = 2, to = "equipped"}',
        '{op = "move", zone = "equipped", pick = "any", count = 2, to = "discard"}',
        '{op = "move", zone = "discard", pick = "any", count = 2, to = "deck_top"}',
        '{op = "ignite", zone = "deck", pick = "any", count = 2}',
    ):
        st = load_cards(game(tmp_path, steps)).cards[-1].passive.steps[0]
        assert not st.picks_as_set(), steps
    for steps in (
        '{op = "move", zone = "anywhere", pick = "class", class = "COURT", count = 3, '
        'to = "equipped"}',
        '{op = "flip_back", zone = "equipped", pick = "any", count = 2}',
        '{op = "turn_over", zone = "deck", pick = "any", count = 2}',
        '{op = "move", zone = "equipped", pick = "name", name = "JOKER", count = 2, '
        'to = "partner"}',
    ):
        st = load_cards(game(tmp_path, steps)).cards[-1].passive.steps[0]
        assert st.picks_as_set(), steps


def _children_keys(s: State) -> tuple[int, set]:
    try:
        kids = s.children()
    except TooManyMoves:
        return -1, set()
    return len(kids), {c.key() for _, c in kids}


def _kernel_moves(s: State) -> list[tuple[int, ...]]:
    """Every move of the kernel's turn from `s`, by the odometer `kernel._next_child` runs
    (driven from Python here), skipping the moves it finds to be another order's."""
    c = compiled(s.config)
    n = c.prog.n
    row = to_kernel_state(s)
    moves: list[tuple[int, ...]] = []
    ch = np.zeros(K.MAXC, np.int32)
    chk = np.zeros(K.MAXC, np.int32)
    plen, first = 0, True
    while True:
        if not first:
            p = plen
            while p > 0 and ch[p - 1] + 1 >= chk[p - 1]:
                p -= 1
            if p == 0:
                return moves
            ch[p - 1] += 1
            plen = p
        first = False
        out = row.copy()
        cs = np.array([0, plen, 0, 0], np.int64)
        buf = np.zeros(2 * n + 8, np.int64)
        tmp = np.zeros(2 * n + 8, np.int64)
        status = K.run_turn(row, out, n, *c.rule_args, ch, chk, cs, buf, tmp)
        plen = int(cs[1])
        if status == K.OTHER_ORDER:
            continue
        assert status == 0
        moves.append(tuple(int(x) for x in ch[:plen]))


def test_sets_reach_the_same_positions_on_random_files(tmp_path, monkeypatch):
    """On random card files drawn from the whole vocabulary (counts of 1 to 3 and counting
    numbers included), every position met on random playouts has the same children with
    picks as sets as with every order, never more moves; the kernel lists the same moves
    as the reference."""
    positions: list[State] = []
    for i in range(400):
        rng, _, cs = random_game(tmp_path, "sets", 7100, i, 9)
        steps = [st for c in cs.cards for sd in (c.passive, c.ignited) for st in sd.all_steps()]
        if any(st.picks_as_set() and st.count != 1 for st in steps):
            positions += random_positions(cs, rng, 7, turns=30)
    fewer = 0
    as_sets = []
    for s in positions:
        k, keys = _children_keys(s)
        as_sets.append((k, keys))
        if k >= 0 and s.turn % 3 == 0:
            assert _kernel_moves(s) == s.legal_moves()
    _every_order(monkeypatch)
    for s, (k, keys) in zip(positions, as_sets, strict=True):
        k2, keys2 = _children_keys(s)
        if k < 0 or k2 < 0:
            continue
        assert keys == keys2
        assert k <= k2
        fewer += k < k2
    # the files do ask for several picks at once, and sets do list fewer moves
    assert len(positions) >= 2500 and fewer >= 60, (len(positions), fewer)

"""Positions name each copy of a card: `LABEL#k` is the k-th copy, counted from 1."""

from __future__ import annotations

import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.rules.rules import new_game, state_from_json
from bombsolve.solvers.common.errors import BadInput

CS = load_cards(Options())
JOKERS = [i for i, lab in enumerate(CS.labels) if lab == "JOKER"]


def _pos(**kw):
    base = {"deck": [x for x in CS.labels if x != "PRINCESS"], "equipped": [["PRINCESS"]]}
    base.update(kw)
    return base


def test_one_joker_of_two_can_be_ignited():
    s = state_from_json(_pos(ignited=["JOKER#2"]), CS)
    assert [s.ignited[c] for c in JOKERS] == [False, True]
    s = state_from_json(_pos(ignited=["JOKER#1", "JOKER#2"]), CS)
    assert all(s.ignited[c] for c in JOKERS)


def test_a_plain_label_of_several_copies_is_refused_in_ignited():
    with pytest.raises(BadInput, match=r"JOKER has 2 copies; name each ignited one \(JOKER#1"):
        state_from_json(_pos(ignited=["JOKER"]), CS)


def test_zone_lists_place_a_named_copy():
    deck = [x for x in CS.labels if x not in ("PRINCESS", "JOKER")] + ["JOKER#2", "JOKER#1"]
    s = state_from_json(_pos(deck=deck, ignited=["JOKER#1"]), CS)
    assert s.deck[-2:] == [JOKERS[1], JOKERS[0]]
    assert s.ignited[JOKERS[0]] and s.deck[-1] == JOKERS[0]


def test_bad_copy_numbers_and_twice_placed_copies():
    with pytest.raises(BadInput, match=r"JOKER has 2 copies; expected JOKER#1..JOKER#2"):
        state_from_json(_pos(ignited=["JOKER#3"]), CS)
    deck = [x for x in CS.labels if x not in ("PRINCESS", "JOKER")] + ["JOKER#1", "JOKER#1"]
    with pytest.raises(BadInput, match="JOKER#1 is placed twice"):
        state_from_json(_pos(deck=deck), CS)


def test_to_json_names_copies_and_reads_back_the_same():
    s = new_game(CS, list(range(CS.n)))
    s.ignited[JOKERS[1]] = True
    data = s.to_json()
    assert data["ignited"] == ["JOKER#2"]
    data.pop("ignited_ids")
    back = state_from_json(data, CS)
    assert back.ignited == s.ignited

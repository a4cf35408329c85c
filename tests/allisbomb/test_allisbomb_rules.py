"""The reference engine, rule by rule (rulebook sections cited per test)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS, Options
from bombsolve.solvers.allisbomb.rules.rules import (
    DECK,
    DISCARD,
    EQUIP0,
    EQUIP1,
    OUT,
    Ending,
    Outcome,
    new_game,
)
from bombsolve.solvers.common.errors import BadInput
from tests.allisbomb.helpers import labels, position

#: The rule tests build positions on the stand-in set version 1's cards, loaded by name.
V1 = "standin-v1"
BASE = Options(cards_version=V1)


def test_setup_equips_three_and_two_player_three_plus_two():
    """B. Setup / F. Setup: 3 equipped; in the two-player game 3 and 2."""
    s = new_game(BASE, list(range(18)))
    assert s.equipped(0) == [0, 1, 2] and s.deck == list(range(3, 18))
    s2 = new_game(Options(players=2), list(range(18)))
    assert s2.equipped(0) == [0, 1, 2] and s2.equipped(1) == [3, 4]
    assert s2.deck == list(range(5, 18))
    assert not any(s.ignited), "all cards start passive side up"


def test_guardian_example_draw_three_equip_third_rest_to_bottom_in_order():
    """D.2: 'Guardian is played; its number is 3. You draw 3 cards, EQUIP the third card
    and put the other two cards to the bottom of the DECK.'"""
    s = position(
        BASE, deck=["EGGS", "KING", "CROISSANT", "PANCAKES"], equipped=[["GUARDIAN", "LIBRARIAN"]]
    )
    # the stand-in GUARDIAN then discards one of the equipped cards: choose LIBRARIAN
    g, lib = (s.cards.labels.index(x) for x in ("GUARDIAN", "LIBRARIAN"))
    # choose the move that plays GUARDIAN and then discards LIBRARIAN
    for m in s.legal_moves():
        t = s.copy().apply(m)
        if s.card_of(m) == g and t.zone[lib] == DISCARD:
            s = t
            break
    assert labels(s, s.equipped(0)) == ["CROISSANT"]
    assert labels(s, s.deck) == ["PANCAKES", "EGGS", "KING", "GUARDIAN"]
    assert s.ignited[g], "D.4: the played passive card turns to its ignited side"


def test_drawing_more_than_the_deck_loses():
    """E. Losing: 'you would draw more cards than there are available in the DECK'."""
    s = position(BASE, deck=["EGGS", "KING"], equipped=[["GUARDIAN"]])
    (m,) = s.legal_moves()
    s.apply(m)
    assert s.outcome is Outcome.LOSS and s.ending is Ending.DREW_TOO_MANY


def test_no_card_to_play_loses():
    """E. Losing: 'you can't play any card in the Play A Card phase'."""
    # stand-in passive JOKER: URGENT, number 1, discard one of your equipped cards
    s = position(BASE, deck=["EGGS", "KING", "PANCAKES"], equipped=[["JOKER"]])
    s.apply(s.legal_moves()[0])  # draws EGGS, then must discard it: nothing equipped
    assert s.outcome is Outcome.LOSS and s.ending is Ending.NO_CARD_TO_PLAY


def test_urgent_must_be_played_first_but_royal_may_be_played():
    """D.1 URGENT / ROYAL."""
    s = position(
        BASE, deck=["EGGS", "KING", "PANCAKES"], equipped=[["JOKER", "LIBRARIAN", "PRINCESS"]]
    )
    assert labels(s, s.playable()) == ["PRINCESS", "JOKER"]
    s = position(BASE, deck=["EGGS"], equipped=[["LIBRARIAN", "MENDER"]])
    assert labels(s, s.playable()) == ["MENDER", "LIBRARIAN"]


def test_two_urgent_cards_player_chooses():
    s = position(BASE, deck=["EGGS", "KING"], equipped=[["JOKER", "JOKER", "LIBRARIAN"]])
    assert labels(s, s.playable()) == ["JOKER", "JOKER"]


def test_ignited_card_played_is_discarded_and_passive_goes_to_bottom():
    """D.4 Ignite and D.5 Clean-Up."""
    s = position(
        BASE, deck=["EGGS", "KING", "PANCAKES"], equipped=[["LIBRARIAN"]], ignited=["LIBRARIAN"]
    )
    s.apply(s.legal_moves()[-1])  # "may": last option = do not
    lib = s.cards.labels.index("LIBRARIAN")
    assert s.zone[lib] == DISCARD and s.discard == [lib]
    s = position(BASE, deck=["EGGS", "KING", "PANCAKES"], equipped=[["CROISSANT"]])
    s.apply(s.legal_moves()[0])
    cro = s.cards.labels.index("CROISSANT")
    assert s.deck[-1] == cro and s.ignited[cro]


def test_orientation_rule_cards_keep_their_side_when_moved():
    """C. Orientation Rule: drawing, discarding, moving never turns a card over."""
    s = position(
        BASE, deck=["EGGS", "KING", "PANCAKES"], equipped=[["LIBRARIAN"]], ignited=["EGGS", "KING"]
    )
    s.apply(s.legal_moves()[0])  # passive LIBRARIAN: reorder top 2, draw 2 first
    eggs, king = (s.cards.labels.index(x) for x in ("EGGS", "KING"))
    assert s.ignited[eggs] and s.ignited[king]


def test_rascal_ignites_from_the_top_down_discarding_in_order():
    """FAQ: RASCAL ignites top-down, one by one, discarding ignited ones in that order."""
    cs = load_cards(BASE)
    number = cs.cards[cs.labels.index("RASCAL")].passive.number
    drawn = ["EGGS", "KING", "MENDER"][:number]
    s = position(
        BASE,
        deck=[*drawn, "PANCAKES", "CROISSANT", "LIBRARIAN"],
        equipped=[["RASCAL"]],
        ignited=["CROISSANT", "PANCAKES"],
    )
    s.apply(s.legal_moves()[0])  # then ignite PANCAKES (discard), CROISSANT (discard)
    assert labels(s, s.discard) == ["PANCAKES", "CROISSANT"]
    assert labels(s, s.deck) == ["LIBRARIAN", *drawn[:-1], "RASCAL"]


def test_first_prophecy_only_and_prophet_set_aside():
    """E.1: the first ignited PROPHET fixes the DESIRED DISH and is set aside; later ones
    have no effect and are discarded in the Ignite phase."""
    s = position(
        BASE,
        deck=["KING", "EGGS", "PANCAKES"],
        equipped=[["PROPHET OF EGGS", "PROPHET OF PANCAKES"]],
        ignited=["PROPHET OF EGGS", "PROPHET OF PANCAKES"],
    )
    pe, pp = (s.cards.labels.index(x) for x in ("PROPHET OF EGGS", "PROPHET OF PANCAKES"))
    s.apply((s.playable().index(pe),))
    assert s.desired == s.cards.labels.index("EGGS") and s.zone[pe] == OUT
    s.apply((s.playable().index(pp),) if len(s.playable()) > 1 else ())
    assert s.desired == s.cards.labels.index("EGGS"), "only the first PROPHECY counts"
    assert s.zone[pp] == DISCARD


def test_discarding_a_card_already_in_the_discard_pile_is_ignored():
    """G. Discard Pile: discarding a card already there is ignored; order is kept."""
    s = position(BASE, deck=["EGGS"], equipped=[["KING"]], discard=["PANCAKES", "CROISSANT"])
    before = list(s.discard)
    s._discard(s.discard[0])
    assert s.discard == before


def _win_position(config, extra_deck=(), extra_equipped=(), discard=(), played=()):
    """The ignited PRINCESS equipped; ignited CROISSANT third from the top; prophecy made."""
    deck = ["KING", "EGGS", "CROISSANT", *extra_deck]
    return position(
        config,
        deck=deck,
        equipped=[["PRINCESS", *extra_equipped]],
        discard=list(discard),
        ignited=["PRINCESS", "CROISSANT"],
        desired="CROISSANT",
        played=played,
    )


def test_base_win_the_ignited_princess_equips_the_ignited_desired_dish():
    """E. How to Win: three conditions; the game ends when they are met."""
    s = _win_position(BASE)
    s.apply((0,) if len(s.playable()) > 1 else ())
    assert s.outcome is Outcome.WIN


def test_no_win_if_the_dish_is_passive_or_prophecy_missing():
    s = position(
        BASE,
        deck=["KING", "EGGS", "CROISSANT"],
        equipped=[["PRINCESS"]],
        ignited=["PRINCESS"],
        desired="CROISSANT",
    )
    s.apply(s.legal_moves()[0])
    assert s.outcome is not Outcome.WIN
    s = position(
        BASE,
        deck=["KING", "EGGS", "CROISSANT"],
        equipped=[["PRINCESS"]],
        ignited=["PRINCESS", "CROISSANT"],
    )
    s.apply(s.legal_moves()[0])
    assert s.outcome is not Outcome.WIN


def test_mosquitos_condition_both_in_discard():
    """G. Mosquitos: both MOSQUITO cards must be in the DISCARD PILE."""
    cfg = Options(expansions=("mosquitos",))
    s = _win_position(cfg, discard=["SKOOT"])
    s.apply(s.legal_moves()[0])
    assert s.outcome is Outcome.LOSS and s.ending is Ending.CONDITIONS_UNMET
    s = _win_position(cfg, discard=["SKOOT", "SQUEEK"])
    s.apply(s.legal_moves()[0])
    assert s.outcome is Outcome.WIN


def test_dream_guide_condition_played_once():
    cfg = Options(expansions=("dream_guide",))
    s = _win_position(cfg)
    s.apply(s.legal_moves()[0])
    assert s.outcome is Outcome.LOSS
    dg = load_cards(cfg).labels.index("DREAM GUIDE")
    s = _win_position(cfg, played=[dg])
    s.apply(s.legal_moves()[0])
    assert s.outcome is Outcome.WIN


@pytest.mark.parametrize("distinct", [True, False])
def test_gifts_condition_three_gifts_played(distinct):
    """G. Gifts: at least 3 GIFT cards played; open point: distinct cards (default) or plays."""
    cfg = Options(expansions=("gifts",), gifts_distinct=distinct)
    cs = load_cards(cfg)
    gifts = [cs.labels.index(x) for x in ("MUSIC BOX", "PERFUME", "JEWEL")]
    s = _win_position(cfg, played=gifts[:2])
    s.gift_plays = 2
    s.apply(s.legal_moves()[0])
    assert s.outcome is Outcome.LOSS
    s = _win_position(cfg, played=gifts)
    s.gift_plays = 3 if distinct else 2
    s.apply(s.legal_moves()[0])
    assert (s.outcome is Outcome.WIN) == distinct


def test_juice_condition_desired_dish_must_be_the_juice():
    cfg = Options(expansions=("the_juice",))
    s = _win_position(cfg)
    s.apply(s.legal_moves()[0])
    assert s.outcome is Outcome.LOSS
    s = position(
        cfg,
        deck=["KING", "EGGS", "THE JUICE"],
        equipped=[["PRINCESS"]],
        ignited=["PRINCESS", "THE JUICE"],
        desired="THE JUICE",
    )
    s.apply(s.legal_moves()[0])
    assert s.outcome is Outcome.WIN


def test_all_condition_all_equipped_at_the_end():
    cfg = Options(expansions=("all",))
    s = _win_position(cfg)
    s.apply(
        (s.playable().index(s.cards.labels.index("PRINCESS")),) if len(s.playable()) > 1 else ()
    )
    assert s.outcome is Outcome.LOSS
    s = _win_position(cfg, extra_equipped=["ALL"])
    s.apply((s.playable().index(s.cards.labels.index("PRINCESS")),))
    assert s.outcome is Outcome.WIN


def test_waking_up_replaces_princess_and_king_and_its_win_conditions():
    """G. Waking Up: its PRINCESS and KING replace the base ones; new conditions."""
    cfg = Options(expansions=("waking_up",))
    cs = load_cards(cfg)
    assert cs.n == 18 + 6 - 2
    assert [c.expansion for c in cs.cards if c.name in ("PRINCESS", "KING")] == ["waking_up"] * 2
    # desired dish in the discard pile + ignited PRINCESS equips the ignited THRONE
    s = position(
        cfg,
        deck=["EGGS", "THRONE"],
        equipped=[["PRINCESS"]],
        discard=["CROISSANT"],
        ignited=["PRINCESS", "THRONE"],
        desired="CROISSANT",
    )
    s.apply(s.legal_moves()[0])
    assert s.outcome is Outcome.WIN
    s = position(
        cfg,
        deck=["EGGS", "THRONE", "CROISSANT"],
        equipped=[["PRINCESS"]],
        ignited=["PRINCESS", "THRONE"],
        desired="CROISSANT",
    )
    s.apply(s.legal_moves()[0])
    assert s.outcome is Outcome.LOSS and s.ending is Ending.CONDITIONS_UNMET


def test_blitz_has_13_cards_one_of_each_pair():
    cs = load_cards(Options(blitz=True))
    assert cs.n == 13
    for name in ("JOKER", "MENDER", "RASCAL", "LIBRARIAN", "GUARDIAN"):
        assert cs.names.count(name) == 1


def test_two_player_give_and_own_cards_only():
    """F: play only your own card; give an equipped card at clean-up; turns alternate."""
    cfg = Options(players=2, cards_version=V1)
    s = position(
        cfg,
        deck=["EGGS", "KING", "PANCAKES", "MENDER"],
        equipped=[["CROISSANT", "LIBRARIAN"], ["GUARDIAN"]],
    )
    assert labels(s, s.playable()) == ["LIBRARIAN", "CROISSANT"]
    moves = s.legal_moves()
    # play CROISSANT (passive, number 2): equip KING; then give one of LIBRARIAN / KING
    cro = s.cards.labels.index("CROISSANT")
    gives = [m for m in moves if s.card_of(m) == cro]
    assert len(gives) == 2
    t = s.copy().apply(gives[0])
    assert t.active == 1
    assert sorted(labels(t, t.equipped(1))) in (["GUARDIAN", "LIBRARIAN"], ["GUARDIAN", "KING"])
    assert len(t.equipped(0)) == 1
    assert t.zone[cro] == DECK


def test_two_player_by_name_reaches_partner_cards():
    """F. Card Action: the ignited CROISSANT can take PANCAKES from the other player."""
    cfg = Options(players=2)
    s = position(
        cfg,
        deck=["EGGS", "KING", "MENDER"],
        equipped=[["CROISSANT"], ["PANCAKES"]],
        ignited=["CROISSANT"],
    )
    pan = s.cards.labels.index("PANCAKES")
    results = [s.copy().apply(m) for m in s.legal_moves()]
    assert any(t.zone[pan] == DECK and t.deck[0] == pan for t in results)
    assert any(t.zone[pan] in (EQUIP0, EQUIP1) for t in results)


def test_give_optional_option():
    cfg = Options(players=2, give_optional=True)
    s = position(
        cfg, deck=["EGGS", "KING", "MENDER"], equipped=[["CROISSANT", "LIBRARIAN"], ["PANCAKES"]]
    )
    cro = s.cards.labels.index("CROISSANT")
    assert len([m for m in s.legal_moves() if s.card_of(m) == cro]) == 3


def test_legal_moves_apply_and_illegal_move():
    s = new_game(BASE, np.random.default_rng(5).permutation(18).tolist())
    for m in s.legal_moves():
        s.copy().apply(m)
    with pytest.raises(BadInput):
        s.copy().apply((9, 9, 9))


def test_random_playouts_conserve_cards():
    """Every card is always in exactly one place; the deck and pile lists match zones."""
    rng = np.random.default_rng(0)
    for cfg in [BASE, Options(players=2), Options(expansions=EXPANSIONS, hands=True)]:
        n = load_cards(cfg).n
        for _ in range(15):
            s = new_game(cfg, rng.permutation(n).tolist())
            while not s.is_over():
                moves = s.legal_moves()
                s.apply(moves[rng.integers(len(moves))])
                assert sorted(s.deck) == [c for c in range(n) if s.zone[c] == DECK]
                assert sorted(s.discard) == [c for c in range(n) if s.zone[c] == DISCARD]
                if not s.is_over():  # a turn lost mid-way leaves its card in the play area
                    assert all(z in (DECK, EQUIP0, EQUIP1, DISCARD, OUT) for z in s.zone)
                assert s.turn < 500


def test_json_position_round_trip():
    s = new_game(Options(players=2), np.random.default_rng(3).permutation(18).tolist())
    s.apply(s.legal_moves()[0])
    from bombsolve.solvers.allisbomb.rules.rules import state_from_json

    t = state_from_json(s.to_json())
    assert t.key() == s.key()


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.sampled_from(["KING", "JOKER", "X"]),
    lambda kids: (
        st.lists(kids, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "deck",
                    "equipped",
                    "discard",
                    "out",
                    "ignited",
                    "desired",
                    "active",
                    "config",
                    "deck_ids",
                    "zone_ids",
                    "discard_ids",
                    "played",
                ]
            ),
            kids,
            max_size=5,
        )
    ),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(_json)
def test_random_json_positions_never_crash(data):
    from bombsolve.solvers.allisbomb.rules.rules import state_from_json

    try:
        state_from_json(data)
    except BadInput:
        pass

"""The effect vocabulary beyond the first one (CARDS.md, "Effect vocabulary"): one fixed
position per op and option, each played by the reference engine and checked move by move
against the kernel's turn (vocab_helpers.play), with the rulebook's "If you're not able to
fully perform the CARD ACTION, perform as much of it as possible" (D.3) on each.
"""

from __future__ import annotations

import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.rules.transcribe import step_words
from bombsolve.solvers.common.errors import BadInput
from tests.allisbomb.vocab_helpers import game, play, zones


def results(kids) -> list[dict]:
    return [zones(c) for _, c in kids]


# --- side filter ------------------------------------------------------------------------------


def test_side_filter_passive_only_on_a_choice(tmp_path):
    """'Discard a passive EQUIPPED card': the ignited MENDER is not offered."""
    cfg = game(
        tmp_path, '{op = "move", zone = "equipped", pick = "any", side = "passive", to = "discard"}'
    )
    kids = play(cfg, deck=["KING"], equipped=["JOKER", "MENDER", "EGGS"], ignited=["MENDER"])
    assert [z["discard"] for z in results(kids)] == [["EGGS"], ["JOKER"]]  # by card id


def test_side_filter_ignited_only_on_fixed_cards(tmp_path):
    """'IGNITE the ignited cards among the top 3 of the DECK': only those are discarded, the
    passive ones stay passive (the filter narrows, it never turns a card)."""
    cfg = game(
        tmp_path, '{op = "ignite", zone = "deck", pick = "top", count = 3, side = "ignited"}'
    )
    (kid,) = play(cfg, deck=["KING", "JOKER", "EGGS", "MENDER"], ignited=["JOKER", "EGGS"])
    z = zones(kid[1])
    assert z["discard"] == ["JOKER*", "EGGS*"]
    assert z["deck"] == ["KING", "MENDER", "TESTER*"]


def test_side_filter_with_nothing_matching_does_nothing(tmp_path):
    """As much as possible: no passive card in the DISCARD PILE, the step does nothing."""
    cfg = game(
        tmp_path,
        '{op = "move", zone = "discard", pick = "any", side = "passive", to = "deck_top"}',
    )
    (kid,) = play(cfg, deck=["KING"], discard=["EGGS"], ignited=["EGGS"])
    assert zones(kid[1])["discard"] == ["EGGS*"]


# --- the `all` quantifier -----------------------------------------------------------------------


def test_all_discards_every_passive_equipped_card(tmp_path):
    """Action (j), 'discard all passive EQUIPPED cards': one result, by card id order."""
    cfg = game(
        tmp_path,
        '{op = "move", zone = "equipped", pick = "any", all = true, side = "passive", '
        'to = "discard"}',
    )
    kids = play(cfg, deck=["KING"], equipped=["JOKER", "MENDER", "EGGS"], ignited=["MENDER"])
    assert len(kids) == 1
    z = zones(kids[0][1])
    assert z["discard"] == ["EGGS", "JOKER"]  # EGGS has the lower card id
    assert z["equipped"] == ["MENDER*"]


def test_all_with_may_is_all_or_none(tmp_path):
    cfg = game(
        tmp_path,
        '{op = "ignite", zone = "deck", pick = "class", class = "COURT", all = true, may = true}',
    )
    kids = play(cfg, deck=["KING", "EGGS", "JOKER"], ignited=["JOKER"])
    assert [m for m, _ in kids] == [(0,), (1,)]
    done, not_done = results(kids)
    assert done["deck"] == ["KING*", "EGGS", "TESTER*"] and done["discard"] == ["JOKER*"]
    assert not_done["deck"] == ["KING", "EGGS", "JOKER*", "TESTER*"]


def test_all_within_the_top_k(tmp_path):
    cfg = game(
        tmp_path,
        '{op = "move", zone = "deck", pick = "class", class = "COURT", within = 2, all = true, '
        'to = "deck_bottom"}',
    )
    (kid,) = play(cfg, deck=["KING", "EGGS", "JOKER", "MENDER"])
    assert zones(kid[1])["deck"] == ["EGGS", "JOKER", "MENDER", "KING", "TESTER*"]


def test_all_with_no_matching_card_asks_nothing(tmp_path):
    cfg = game(
        tmp_path,
        '{op = "turn_over", zone = "discard", pick = "name", name = "KING", all = true, may = true}',
    )
    (kid,) = play(cfg, deck=["JOKER"], discard=["EGGS"])
    assert kid[0] == ()


# --- turn over -----------------------------------------------------------------------------------


def test_turn_over_two_equipped_cards_never_discards(tmp_path):
    """Action (g), 'turn over two EQUIPPED cards': two different cards, each side flips,
    an ignited card turns passive (it is not discarded, unlike IGNITE)."""
    cfg = game(tmp_path, '{op = "turn_over", zone = "equipped", pick = "any", count = 2}')
    kids = play(cfg, deck=["KING"], equipped=["JOKER", "MENDER", "EGGS"], ignited=["MENDER"])
    hands = {tuple(z["equipped"]) for z in results(kids)}
    assert hands == {
        ("EGGS", "JOKER*", "MENDER"),
        ("EGGS*", "JOKER", "MENDER"),
        ("EGGS*", "JOKER*", "MENDER*"),
    }
    assert all(z["discard"] == [] for z in results(kids))
    # never the same card twice, and each pair once: the two picks are asked for as a set
    # (CARDS.md "Moves and the `solution` of a result"), so the 6 orders are 3 moves
    assert len(kids) == 3


def test_turn_over_all_of_a_selection_and_one_card(tmp_path):
    """'Turn over every card of the DECK' (action (m)) and 'turn over the top card'."""
    cfg = game(tmp_path, '{op = "turn_over", zone = "deck", pick = "any", all = true}')
    (kid,) = play(cfg, deck=["KING", "EGGS", "JOKER"], ignited=["EGGS"])
    assert zones(kid[1])["deck"] == ["KING*", "EGGS", "JOKER*", "TESTER*"]
    cfg = game(tmp_path, '{op = "turn_over", zone = "discard", pick = "top"}')
    (kid,) = play(cfg, deck=["KING"], discard=["JOKER", "EGGS"], ignited=["EGGS"])
    assert zones(kid[1])["discard"] == ["JOKER", "EGGS"]  # in place, passive now


def test_turn_over_the_played_card(tmp_path):
    """Turning the played card over before the Ignite phase: passive -> ignited, so the
    Ignite phase then discards it (D.4)."""
    cfg = game(tmp_path, '{op = "turn_over", zone = "play", pick = "self"}')
    (kid,) = play(cfg, deck=["KING"])
    assert zones(kid[1])["discard"] == ["TESTER*"]


# --- the loader and the words -----------------------------------------------------------------


@pytest.mark.parametrize(
    "step, message",
    [
        ('{op = "turn_over", zone = "deck", pick = "top", all = true}', "'all' goes with pick"),
        (
            '{op = "move", zone = "deck", pick = "any", all = true, count = 2, to = "out"}',
            "leave 'count' out",
        ),
        ('{op = "ignite", zone = "deck", pick = "top", side = "burning"}', "unknown side"),
        ('{op = "turn_over", zone = "deck", pick = "top", to = "out"}', "takes no field 'to'"),
        ('{op = "turn_ovr", zone = "deck", pick = "top"}', "did you mean turn_over"),
    ],
)
def test_loader_refuses_misused_new_fields(tmp_path, step, message):
    cfg = game(tmp_path, step)
    with pytest.raises(BadInput, match=message):
        load_cards(cfg)


def test_words_of_the_new_fields(tmp_path):
    cfg = game(
        tmp_path,
        '{op = "move", zone = "equipped", pick = "any", all = true, side = "passive", '
        'to = "discard"}, {op = "turn_over", zone = "equipped", pick = "any", count = 2}, '
        '{op = "ignite", zone = "deck", pick = "top", count = 3, side = "ignited", may = true}',
    )
    cs = load_cards(cfg)
    steps = cs.cards[cs.labels.index("TESTER")].passive.steps
    assert [step_words(st) for st in steps] == [
        "Put every passive card of your EQUIPPED CARDS on top of the DISCARD PILE, one by one "
        "by card id",
        "Turn one of your EQUIPPED CARDS (your choice) over (passive to ignited, ignited to "
        "passive; never discarded); 2 times, one choice each, each a different card",
        "You may IGNITE the top 3 cards of the DECK (ignited side up only) (passive turns "
        "ignited; ignited goes to the DISCARD PILE), from the top down, one by one",
    ]


# --- groups, conditions, "if you do" -----------------------------------------------------------


def test_all_or_nothing_group(tmp_path):
    """'You may IGNITE the top 3 cards of the DECK' as all-or-nothing: two results only
    (all three ignited, in order from the top, or none), never 'stop when you like'."""
    cfg = game(
        tmp_path,
        '{op = "group", may = true, steps = [{op = "ignite", zone = "deck", pick = "top", '
        "count = 3}]}",
    )
    kids = play(cfg, deck=["KING", "JOKER", "EGGS", "MENDER"], ignited=["JOKER"])
    assert [m for m, _ in kids] == [(0,), (1,)]
    done, not_done = results(kids)
    assert done["deck"] == ["KING*", "EGGS*", "MENDER", "TESTER*"]
    assert done["discard"] == ["JOKER*"]
    assert not_done["deck"] == ["KING", "JOKER*", "EGGS", "MENDER", "TESTER*"]


def test_group_of_several_steps_as_much_as_possible(tmp_path):
    """Inside an accepted group each step does what it can: the DISCARD PILE is empty, so
    the first step does nothing, and the second still runs."""
    cfg = game(
        tmp_path,
        '{op = "group", may = true, steps = [{op = "move", zone = "discard", pick = "top", '
        'to = "deck_top"}, {op = "ignite", zone = "deck", pick = "top"}]}',
    )
    kids = play(cfg, deck=["KING", "EGGS"])
    assert results(kids)[0]["deck"] == ["KING*", "EGGS", "TESTER*"]


def test_if_you_do(tmp_path):
    """'You may discard an EQUIPPED card. If you do, IGNITE the top card of the DECK.'"""
    cfg = game(
        tmp_path,
        '{op = "move", zone = "equipped", pick = "any", to = "discard", may = true}, '
        '{op = "ignite", zone = "deck", pick = "top", if_done = true}',
    )
    kids = play(cfg, deck=["KING", "EGGS"], equipped=["JOKER"])
    assert [m for m, _ in kids] == [(0,), (1,)]
    did, did_not = results(kids)
    assert did["deck"][0] == "KING*" and did["discard"] == ["JOKER"]
    assert did_not["deck"][0] == "KING" and did_not["discard"] == []
    # nothing to discard: the first step cannot act, so "if you do" does not run
    (kid,) = play(cfg, deck=["KING", "EGGS"])
    assert zones(kid[1])["deck"][0] == "KING"


def test_condition_card_on_a_side(tmp_path):
    """(k)'s condition 'if the PRINCESS is ignited' on a step."""
    cfg = game(
        tmp_path,
        '{op = "ignite", zone = "deck", pick = "top", if = {card = "PRINCESS", side = "ignited"}}',
    )
    (kid,) = play(cfg, deck=["KING", "PRINCESS"], ignited=["PRINCESS"])
    assert zones(kid[1])["deck"][0] == "KING*"
    (kid,) = play(cfg, deck=["KING", "PRINCESS"])
    assert zones(kid[1])["deck"][0] == "KING"


@pytest.mark.parametrize(
    "cond, holds",
    [
        ('{card = "PRINCESS", zone = "discard"}', True),
        ('{card = "PRINCESS", zone = "discard", not = true}', False),
        ('{card = "PRINCESS", zone = "deck"}', False),
        ('{card = "JOKER", zone = "equipped"}', True),  # EQUIPPED by the active player
        ('{card = "MENDER", zone = "equipped"}', False),  # the partner's
        ('{card = "self", zone = "play"}', True),
        ('{card = "self", side = "ignited"}', False),
        ('{class = "COURT", zone = "deck", at_least = 2}', True),
        ('{class = "COURT", zone = "deck", at_least = 3}', False),
        ('{class = "COURT", zone = "deck", side = "ignited", at_most = 0}', True),
        ('{zone = "deck", at_least = 3, at_most = 3}', True),
        ('{zone = "out", at_least = 1}', False),
    ],
)
def test_condition_kinds(tmp_path, cond, holds):
    """Each kind of condition, two players (so 'EQUIPPED' means the active player's)."""
    cfg = game(
        tmp_path, '{op = "ignite", zone = "deck", pick = "bottom", if = ' + cond + "}", players=2
    )
    deck = ["KING", "JOKER", "EGGS"]
    kids = play(
        cfg, deck=deck, equipped=["JOKER"], discard=["PRINCESS"], partner=["MENDER", "PROPHET"]
    )
    bottoms = {zones(c)["deck"][-2] for _, c in kids}  # (the TESTER goes below it)
    assert bottoms == ({"EGGS*"} if holds else {"EGGS"})


def test_conditioned_group_is_not_offered_when_false(tmp_path):
    cfg = game(
        tmp_path,
        '{op = "group", may = true, if = {card = "EGGS", zone = "deck"}, steps = ['
        '{op = "turn_over", zone = "deck", pick = "any", all = true}]}',
    )
    assert [m for m, _ in play(cfg, deck=["KING", "EGGS"])] == [(0,), (1,)]
    assert [m for m, _ in play(cfg, deck=["KING"], discard=["EGGS"])] == [()]


@pytest.mark.parametrize(
    "steps, message",
    [
        ('{op = "ignite", zone = "deck", pick = "top", if_done = true}', "needs a step before"),
        (
            '{op = "reorder", n = 2}, {op = "ignite", zone = "deck", pick = "top", if_done = true}',
            "not 'reorder'",
        ),
        (
            '{op = "group", steps = [{op = "reorder", n = 2}]}, '
            '{op = "ignite", zone = "deck", pick = "top", if_done = true}',
            "inside the group",
        ),
        ('{op = "group", steps = []}', "at least one step"),
        ('{op = "reorder", n = 2, if = {card = "PRINCES"}}', "did you mean PRINCESS"),
        ('{op = "reorder", n = 2, if = {card = "KING", zon = "deck"}}', "did you mean zone"),
        (
            '{op = "reorder", n = 2, if = {class = "COURT", at_least = 3, at_most = 2}}',
            "never holds",
        ),
        ('{op = "reorder", n = 2, if = {card = "KING", class = "COURT"}}', "not both"),
    ],
)
def test_loader_refuses_bad_groups_and_conditions(tmp_path, steps, message):
    with pytest.raises(BadInput, match=message):
        load_cards(game(tmp_path, steps))


def test_words_of_groups_and_conditions(tmp_path):
    cfg = game(
        tmp_path,
        '{op = "group", may = true, steps = [{op = "ignite", zone = "deck", pick = "top", '
        'count = 3}]}, {op = "move", zone = "equipped", pick = "any", to = "discard", may = true, '
        'if = {class = "COURT", zone = "deck", side = "ignited", at_least = 2}}, '
        '{op = "ignite", zone = "deck", pick = "top", if_done = true}',
    )
    cs = load_cards(cfg)
    steps = cs.cards[cs.labels.index("TESTER")].passive.steps
    assert [step_words(st) for st in steps] == [
        "You may do all of this, or none of it: (1) IGNITE the top 3 cards of the DECK (passive "
        "turns ignited; ignited goes to the DISCARD PILE), from the top down, one by one",
        "If at least 2 COURT cards are in the DECK and ignited: you may put one of your EQUIPPED "
        "CARDS (your choice) on top of the DISCARD PILE",
        "If you do, IGNITE the top card of the DECK (passive turns ignited; ignited goes to the "
        "DISCARD PILE)",
    ]


# --- anywhere, choose one -------------------------------------------------------------------------


def test_a_court_card_from_anywhere_to_the_top_of_the_deck(tmp_path):
    """Action (o): one COURT card, from the DECK, the DISCARD PILE or the EQUIPPED CARDS,
    offered in that order (the DECK and the pile from the top down), moves to the top."""
    cfg = game(
        tmp_path,
        '{op = "move", zone = "anywhere", pick = "class", class = "COURT", to = "deck_top"}',
    )
    kids = play(
        cfg, deck=["EGGS", "KING"], equipped=["JOKER", "MENDER"], discard=["PRINCESS", "PROPHET"]
    )
    tops = [zones(c)["deck"][0] for _, c in kids]
    assert tops == ["KING", "PRINCESS", "JOKER"]
    assert [zones(c)["deck"][:2] for _, c in kids][0] == ["KING", "EGGS"]
    assert zones(kids[1][1])["discard"] == ["PROPHET"]
    assert zones(kids[2][1])["equipped"] == ["MENDER"]


def test_anywhere_in_the_two_player_game_reaches_the_partner_by_class(tmp_path):
    cfg = game(
        tmp_path,
        '{op = "move", zone = "anywhere", pick = "class", class = "COURT", to = "equipped"}',
        players=2,
    )
    kids = play(cfg, deck=["EGGS", "JOKER"], partner=["KING", "PROPHET"])
    # the JOKER from the DECK, or the partner's KING (a class reaches either player's), each
    # then given back at the Clean-Up (player 1 holds no other card)
    assert len(kids) == 2
    partner = [sorted(c.cards.labels[x] for x in c.equipped(1)) for _, c in kids]
    assert partner == [["JOKER", "KING", "PROPHET"], ["KING", "PROPHET"]]


def test_choose_one_of_these(tmp_path):
    """'Choose one: IGNITE the top card of the DECK, or put it at the bottom.' Each option
    does as much as it can; with `may`, 'none' is the last option."""
    cfg = game(
        tmp_path,
        '{op = "choose", may = true, steps = [{op = "ignite", zone = "deck", pick = "top"}, '
        '{op = "group", steps = [{op = "move", zone = "deck", pick = "top", to = "deck_bottom"}, '
        '{op = "turn_over", zone = "deck", pick = "top"}]}]}',
    )
    kids = play(cfg, deck=["KING", "EGGS", "JOKER"])
    assert [m for m, _ in kids] == [(0,), (1,), (2,)]
    one, two, none = results(kids)
    assert one["deck"] == ["KING*", "EGGS", "JOKER", "TESTER*"]
    assert two["deck"] == ["EGGS*", "JOKER", "KING", "TESTER*"]
    assert none["deck"] == ["KING", "EGGS", "JOKER", "TESTER*"]


def test_choose_then_more_steps_and_a_condition_inside(tmp_path):
    """The steps after a choice run whichever option was chosen; an option whose condition
    fails does nothing."""
    cfg = game(
        tmp_path,
        '{op = "choose", steps = [{op = "ignite", zone = "deck", pick = "top", '
        'if = {card = "PRINCESS", zone = "deck"}}, {op = "ignite", zone = "deck", pick = "bottom"}]}, '
        '{op = "turn_over", zone = "deck", pick = "nth", n = 2}',
    )
    first, second = results(play(cfg, deck=["KING", "EGGS", "JOKER"]))
    assert first["deck"] == ["KING", "EGGS*", "JOKER", "TESTER*"]
    assert second["deck"] == ["KING", "EGGS*", "JOKER*", "TESTER*"]


@pytest.mark.parametrize(
    "steps, message",
    [
        ('{op = "move", zone = "anywhere", pick = "top", to = "out"}', "use any/name/class"),
        ('{op = "move", zone = "anywhere", pick = "any", within = 2, to = "out"}', "has no top"),
        ('{op = "choose", steps = [{op = "reorder", n = 2}]}', "2..8 options"),
    ],
)
def test_loader_refuses_bad_anywhere_and_choose(tmp_path, steps, message):
    with pytest.raises(BadInput, match=message):
        load_cards(game(tmp_path, steps))


# --- exchange --------------------------------------------------------------------------------------


def test_exchange_this_card_with_a_card_of_the_discard_pile(tmp_path):
    """Action (r): the played card lands in the taken card's place in the pile (not on
    top); the taken card, now in the PLAY AREA, is IGNITED and cleaned up in its stead
    (`taken = "play"`, the default)."""
    cfg = game(tmp_path, '{op = "exchange", zone = "discard", pick = "any"}')
    kids = play(cfg, deck=["KING"], discard=["EGGS", "JOKER", "MENDER"], ignited=["JOKER"])
    got = results(kids)
    # the pile from the top down: MENDER, JOKER, EGGS
    assert got[0]["discard"] == ["EGGS", "JOKER*", "TESTER"]
    assert got[0]["deck"] == ["KING", "MENDER*"]  # passive: ignited, to the bottom
    assert got[1]["discard"] == ["EGGS", "TESTER", "MENDER", "JOKER*"]  # ignited: on top
    assert got[2]["discard"] == ["TESTER", "JOKER*", "MENDER"]
    assert got[2]["deck"] == ["KING", "EGGS*"]


def test_exchange_taken_card_equipped_and_within_the_deck(tmp_path):
    cfg = game(
        tmp_path, '{op = "exchange", zone = "deck", pick = "nth", n = 2, taken = "equipped"}'
    )
    (kid,) = play(cfg, deck=["KING", "EGGS", "JOKER"])
    z = zones(kid[1])
    assert z["deck"] == ["KING", "TESTER", "JOKER"] and z["equipped"] == ["EGGS"]
    # as much as possible: no second card in the DECK, nothing to exchange
    (kid,) = play(cfg, deck=["KING"])
    assert zones(kid[1])["deck"] == ["KING", "TESTER*"]


def test_exchange_after_this_card_moved(tmp_path):
    """'Put this card on top of the DECK, then exchange it with a COURT card EQUIPPED':
    the EQUIPPED card takes its place on top; this card is EQUIPPED; nothing is in the
    PLAY AREA, so the Ignite phase has no card."""
    cfg = game(
        tmp_path,
        '{op = "move", zone = "play", pick = "self", to = "deck_top"}, '
        '{op = "exchange", zone = "equipped", pick = "class", class = "COURT", side = "passive"}',
    )
    (kid,) = play(cfg, deck=["EGGS"], equipped=["KING", "JOKER"], ignited=["KING"])
    z = zones(kid[1])
    assert z["deck"] == ["JOKER", "EGGS"] and z["equipped"] == ["KING*", "TESTER"]


# --- reorder beyond 4, of the DISCARD PILE; reverse --------------------------------------------


def test_reorder_the_top_six_of_the_deck(tmp_path):
    """6! = 720 orders, the first leaving the DECK as it is, the last reversing it."""
    cfg = game(tmp_path, '{op = "reorder", n = 6}')
    deck = ["PRINCESS", "PROPHET", "EGGS", "KING", "JOKER", "JOKER"]
    kids = play(cfg, deck=[*deck, "MENDER"])
    assert len(kids) == 720
    assert zones(kids[0][1])["deck"][:6] == deck
    assert zones(kids[-1][1])["deck"][:7] == [*deck[::-1], "MENDER"]


def test_reorder_the_top_of_the_discard_pile(tmp_path):
    """Rulebook G, "Discard Pile": a CARD ACTION may change its order. The orders list the
    old cards from the top down (1 = the old top); fewer cards than n: all of them."""
    cfg = game(tmp_path, '{op = "reorder", n = 3, zone = "discard"}')
    kids = play(cfg, deck=["KING"], discard=["EGGS", "JOKER"])
    # the pile bottom first: EGGS, JOKER (JOKER on top); order 1 keeps it, order 2 swaps
    assert [zones(c)["discard"] for _, c in kids] == [["EGGS", "JOKER"], ["JOKER", "EGGS"]]


def test_reverse_the_top_five_of_the_deck_and_of_the_pile(tmp_path):
    """Action (l), 'reverse the top 5 cards of the DECK', in one step, with no choice."""
    cfg = game(tmp_path, '{op = "reverse", n = 5}')
    deck = ["PRINCESS", "PROPHET", "EGGS", "KING", "JOKER", "MENDER"]
    (kid,) = play(cfg, deck=deck)
    assert kid[0] == ()
    assert zones(kid[1])["deck"] == [*deck[:5][::-1], "MENDER", "TESTER*"]
    cfg = game(tmp_path, '{op = "reverse", n = 2, zone = "discard"}')
    (kid,) = play(cfg, deck=["KING"], discard=["EGGS", "JOKER", "MENDER"])
    assert zones(kid[1])["discard"] == ["EGGS", "MENDER", "JOKER"]


@pytest.mark.parametrize(
    "steps, message",
    [
        ('{op = "reorder", n = 7}', "must be in 2..6"),
        ('{op = "reorder", n = 3, zone = "equipped"}', "unknown zone"),
        ('{op = "reverse", n = 1}', "must be in 2..62"),
    ],
)
def test_loader_refuses_bad_reorders(tmp_path, steps, message):
    with pytest.raises(BadInput, match=message):
        load_cards(game(tmp_path, steps))


# --- counting numbers; the number drawn -------------------------------------------------------


def test_if_the_princess_is_ignited_draw_one_extra_card(tmp_path):
    """Action (k): the Draw & Equip phase draws NUMBER + 1 cards (TESTER's NUMBER is 0:
    one card) when the PRINCESS is ignited, else NUMBER."""
    cfg = game(tmp_path, '{op = "draw", add = 1, if = {card = "PRINCESS", side = "ignited"}}')
    (kid,) = play(cfg, deck=["KING", "EGGS"], discard=["PRINCESS"], ignited=["PRINCESS"])
    assert zones(kid[1])["equipped"] == ["KING"]
    (kid,) = play(cfg, deck=["KING", "EGGS"], discard=["PRINCESS"])
    assert zones(kid[1])["equipped"] == []


def test_draw_as_many_as_the_ignited_cards_in_the_deck(tmp_path):
    """Action (q): 2 ignited cards in the DECK: draw 2, EQUIP the second, the first to the
    bottom; too many to draw loses (rulebook D.2)."""
    cfg = game(tmp_path, '{op = "draw", number = {zone = "deck", side = "ignited"}}')
    (kid,) = play(cfg, deck=["KING", "EGGS", "JOKER"], ignited=["KING", "JOKER"])
    z = zones(kid[1])
    assert z["equipped"] == ["EGGS"] and z["deck"] == ["JOKER*", "KING*", "TESTER*"]
    (kid,) = play(cfg, deck=["KING"], ignited=["KING"], equipped=["JOKER"], discard=["EGGS"])
    assert kid[1].outcome.value == "ongoing"
    cfg = game(tmp_path, '{op = "draw", number = {side = "ignited"}}')
    (kid,) = play(cfg, deck=["KING"], ignited=["KING", "JOKER"], equipped=["JOKER"])
    assert kid[1].outcome.value == "loss"  # 2 to draw from a DECK of 1


def test_count_that_counts(tmp_path):
    """'IGNITE as many cards of the top of the DECK as you have COURT cards EQUIPPED'."""
    cfg = game(
        tmp_path,
        '{op = "ignite", zone = "deck", pick = "top", count = {class = "COURT", zone = "equipped"}}',
    )
    (kid,) = play(cfg, deck=["EGGS", "MENDER", "PROPHET"], equipped=["KING", "JOKER"])
    assert zones(kid[1])["deck"] == ["EGGS*", "MENDER*", "PROPHET", "TESTER*"]
    (kid,) = play(cfg, deck=["EGGS", "MENDER"], equipped=["PROPHET"])
    assert zones(kid[1])["deck"] == ["EGGS", "MENDER", "TESTER*"]


@pytest.mark.parametrize(
    "steps, message",
    [
        ('{op = "draw"}', "'add' or 'number'"),
        ('{op = "draw", add = 1, number = 2}', "'add' or 'number'"),
        ('{op = "group", steps = [{op = "draw", add = 1}]}', "stands on its own"),
        ('{op = "draw", number = {side = "ignited", at_least = 2}}', "card, class, zone and side"),
    ],
)
def test_loader_refuses_bad_draws(tmp_path, steps, message):
    with pytest.raises(BadInput, match=message):
        load_cards(game(tmp_path, steps))


# --- places in the DECK; the card above / below -----------------------------------------------


@pytest.mark.parametrize(
    "dest, deck",
    [
        ('to = "deck_place", place = 2', ["KING", "EGGS", "JOKER", "MENDER"]),
        ('to = "deck_place", place = 9', ["KING", "JOKER", "MENDER", "EGGS"]),  # fewer: bottom
        ('to = "deck_place", place = 2, from_bottom = true', ["KING", "JOKER", "EGGS", "MENDER"]),
        ('to = "deck_above", next_to = "MENDER"', ["KING", "JOKER", "EGGS", "MENDER"]),
        ('to = "deck_below", next_to = "KING"', ["KING", "EGGS", "JOKER", "MENDER"]),
    ],
)
def test_put_a_card_at_a_place_in_the_deck(tmp_path, dest, deck):
    """The EGGS of the DISCARD PILE into the DECK KING, JOKER, MENDER (the TESTER then
    goes to the bottom, below them)."""
    cfg = game(tmp_path, '{op = "move", zone = "discard", pick = "top", ' + dest + "}")
    (kid,) = play(cfg, deck=["KING", "JOKER", "MENDER"], discard=["EGGS"])
    assert zones(kid[1])["deck"] == [*deck, "TESTER*"]


def test_next_to_a_card_not_in_the_deck_does_nothing(tmp_path):
    cfg = game(
        tmp_path,
        '{op = "move", zone = "discard", pick = "top", to = "deck_below", next_to = "PRINCESS"}',
    )
    (kid,) = play(cfg, deck=["KING"], discard=["EGGS"])
    assert zones(kid[1])["discard"] == ["EGGS"]


def test_the_card_below_this_one_in_the_deck(tmp_path):
    """Action (t): 'put this card on top of the DECK; IGNITE the card below it'."""
    cfg = game(
        tmp_path,
        '{op = "move", zone = "play", pick = "self", to = "deck_top"}, '
        '{op = "ignite", zone = "deck", pick = "below", of = "self"}',
    )
    (kid,) = play(cfg, deck=["KING", "EGGS"])
    assert zones(kid[1])["deck"] == ["TESTER", "KING*", "EGGS"]
    cfg = game(
        tmp_path, '{op = "turn_over", zone = "deck", pick = "above", of = "EGGS", may = true}'
    )
    kids = play(cfg, deck=["KING", "EGGS"])
    assert [zones(c)["deck"][0] for _, c in kids] == ["KING*", "KING"]
    (kid,) = play(cfg, deck=["EGGS", "KING"])  # nothing above the top card
    assert zones(kid[1])["deck"][:2] == ["EGGS", "KING"]


# --- two players: give to the other player ------------------------------------------------------


def test_give_a_card_to_the_other_players_equipped_cards(tmp_path):
    cfg = game(tmp_path, '{op = "move", zone = "deck", pick = "top", to = "partner"}', players=2)
    kids = play(cfg, deck=["KING", "EGGS"], equipped=["JOKER"], partner=["MENDER", "PROPHET"])
    for _, c in kids:
        assert "KING" in [c.cards.labels[x] for x in c.equipped(1 - c.active)] + [
            c.cards.labels[x] for x in c.equipped(c.active)
        ]
        assert "KING" not in [c.cards.labels[x] for x in c.deck]
    # solo: no other player, nothing happens
    cfg = game(tmp_path, '{op = "move", zone = "deck", pick = "top", to = "partner"}')
    (kid,) = play(cfg, deck=["KING", "EGGS"])
    assert zones(kid[1])["deck"][:2] == ["KING", "EGGS"]


@pytest.mark.parametrize(
    "steps, message",
    [
        (
            '{op = "move", zone = "discard", pick = "top", to = "deck_place"}',
            "missing field 'place'",
        ),
        (
            '{op = "move", zone = "discard", pick = "top", to = "deck_top", place = 2}',
            "goes with to",
        ),
        (
            '{op = "move", zone = "discard", pick = "top", to = "deck_above"}',
            "missing field 'next_to'",
        ),
        ('{op = "ignite", zone = "discard", pick = "below", of = "KING"}', "DECK only"),
        ('{op = "ignite", zone = "deck", pick = "below", of = "KINGG"}', "did you mean KING"),
        ('{op = "ignite", zone = "deck", pick = "below", of = "JOKER"}', "has 2 copies"),
    ],
)
def test_loader_refuses_bad_places(tmp_path, steps, message):
    with pytest.raises(BadInput, match=message):
        load_cards(game(tmp_path, steps))

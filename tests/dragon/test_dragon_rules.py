"""The reference engine, rule by rule (rulebook shared/rules/bomb-the-dragon.txt)."""

from __future__ import annotations

import collections
import itertools

import pytest

from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.rng import SplitMix64
from bombsolve.solvers.dragon.agents import make_agents
from bombsolve.solvers.dragon.cards import load_cards, parse_cards
from bombsolve.solvers.dragon.rules import GameState, Options, play_game
from tests.dragon.dragon_helpers import CARDS, bodies, fc, place, position, row_summary

# --- Components (data note shared/data/dragon-bomb.md) ---------------------------------


def test_card_lists_match_the_data_note():
    fires, bods = CARDS.firecrackers, CARDS.bodies
    assert len(fires) == 45 and len(bods) == 19
    assert sum(c.power for c in fires) == 255
    assert sum(b.vitality for b in bods) == 255
    assert sum(b.points for b in bods) == 66
    kinds = collections.Counter((c.power, c.special) for c in fires)
    assert all(n == 5 for n in kinds.values()) and len(kinds) == 9
    assert {c.lanterns for c in fires} == {1, 2, 3, 4, 5}
    assert [b.points for b in bods if b.vitality == 4] == [-3, -3]
    assert [b.special for b in bods if b.vitality == 13] == ["hand_limit"]


def test_bad_card_data_names_the_key():
    with pytest.raises(BadInput, match=r"\[firecracker 0\]\[power\]"):
        parse_cards({"firecracker": [{"power": "x", "lanterns": [1]}], "body": []})
    with pytest.raises(BadInput, match=r"\[body 0\]\[special\]"):
        parse_cards(
            {
                "firecracker": [{"power": 1, "lanterns": [1]}],
                "body": [{"vitality": 3, "count": 1, "points": 3, "special": "boom"}],
            }
        )
    with pytest.raises(BadInput, match="not found"):
        load_cards("/no/such/cards.toml")


# --- Chance -------------------------------------------------------------------------------


def test_rng_bounded_draws_are_uniform():
    rng = SplitMix64(123)
    counts = collections.Counter(rng.below_exact(6) for _ in range(60_000))
    chi2 = sum((counts[k] - 10_000) ** 2 / 10_000 for k in range(6))
    assert chi2 < 20.5  # chi-square, 5 degrees of freedom, p = 0.001


def test_shuffle_is_uniform_over_permutations():
    rng = SplitMix64(99)
    counts = collections.Counter()
    for _ in range(24_000):
        items = [0, 1, 2, 3]
        rng.shuffle(items)
        counts[tuple(items)] += 1
    assert len(counts) == 24
    chi2 = sum((n - 1000) ** 2 / 1000 for n in counts.values())
    assert chi2 < 49.7  # 23 degrees of freedom, p = 0.001


# --- Setup --------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_row_hands_and_decks(n):
    s = GameState(n, seed=n)
    slots = 4 if n == 2 else n
    assert len(s.row) == slots
    vits = [CARDS.bodies[x.body].vitality for x in s.row]
    assert vits == sorted(vits)
    assert len(s.dragon) == 19 - slots
    hand = 4 if n == 2 else 3
    assert [len(h) for h in s.hands] == [hand] * n
    assert len(s.deck) == 45 - hand * n
    s.check()


def test_two_player_deal_reading_three():
    s = GameState(2, seed=1, options=Options(two_player_deal=3))
    assert [len(h) for h in s.hands] == [3, 3]


@pytest.mark.parametrize("n", [0, 1, 7, "4"])
def test_player_count_outside_two_to_six(n):
    with pytest.raises(BadInput, match="player count must be 2 to 6"):
        GameState(n, seed=0)


# --- Step 2: placement ----------------------------------------------------------------


def test_rulebook_example_christophe_yoann_miguel_oranne():
    # "two Firecracker cards (Power 7 and 9) are already in the Bombing Zone" under the 12
    # and the 17; 3, 5, 6 and 8 are played.
    s = position(
        4,
        [(11, []), (11, []), (12, [fc(7)]), (17, [fc(9)])],
        hands=[[fc(3)], [fc(5)], [fc(6)], [fc(8)]],
        dragon=bodies(12, 4),  # the next two bodies drawn: 4 then 12
    )
    place(s, [[fc(3)], [fc(5)], [fc(6)], [fc(8)]])
    assert s.round_points == [0, 0, 3, 5]  # Miguel 6 + 7 = 13 >= 12; Oranne 8 + 9 = 17
    assert fc(7) in s.discard and fc(6) in s.discard and fc(9) in s.discard
    assert row_summary(s) == [(11, 3), (11, 5), (-1, 0), (-1, 0)]
    assert s.complete_dragon()
    # "4 first, shifting the other cards, and 12 at the far right"
    assert row_summary(s) == [(4, 0), (11, 3), (11, 5), (12, 0)]


def test_placement_order_lowest_power_then_fewer_lanterns():
    s = position(3, [(18, []), (23, []), (25, [])])
    choices = [[fc(7, 3)], [fc(7, 1)], [fc(5, 5)]]
    s.hands = [c[:] for c in choices]
    order = s.placement_order(choices)
    assert [p for _, p in order] == [2, 1, 0]
    place(s, choices)
    assert row_summary(s) == [(18, 5), (23, 7), (25, 7)]


def test_power_below_vitality_stays_for_next_turn():
    s = position(
        2, [(11, [fc(5)]), (12, []), (15, []), (16, [])], hands=[[fc(5, 2), fc(6)], [fc(7), fc(8)]]
    )
    place(s, [[fc(5, 2), fc(6)], [fc(7), fc(8)]])
    # 5 + 5 = 10 < 11: nothing happens, both cards stay.
    assert s.round_points == [0, 0]
    assert row_summary(s) == [(11, 10), (12, 6), (15, 7), (16, 8)]


def test_equal_to_vitality_takes_the_body():
    s = position(3, [(5, []), (12, []), (16, [fc(10)])], hands=[[fc(5)], [fc(6)], [fc(7)]])
    place(s, [[fc(5)], [fc(6)], [fc(7)]])
    assert s.round_points == [3, 0, 4]  # 5 >= 5; 6 < 12; 10 + 7 = 17 >= 16
    assert s.bodies_round == [1, 0, 1]


def test_capture_goes_to_the_placer_and_discards_all_cards():
    s = position(
        3, [(5, []), (12, []), (16, [fc(10), fc(1, 2)])], hands=[[fc(5)], [fc(6)], [fc(8)]]
    )
    place(s, [[fc(5)], [fc(6)], [fc(8)]])
    assert s.round_points == [3, 0, 4]
    assert s.bodies_round == [1, 0, 1]
    assert all(c in s.discard for c in (fc(10), fc(1, 2), fc(8), fc(5)))
    assert row_summary(s) == [(-1, 0), (12, 6), (-1, 0)]


@pytest.mark.parametrize("placement", ["fixed", "close_up"])
def test_placement_reading_after_an_earlier_capture(placement):
    s = position(
        3,
        [(3, []), (11, []), (12, [])],
        hands=[[fc(5)], [fc(6)], [fc(7)]],
        options=Options(placement=placement),
    )
    place(s, [[fc(5)], [fc(6)], [fc(7)]])
    if placement == "fixed":
        # The 6 still goes under "its" slot 1 (the 11), the 7 under the 12.
        assert row_summary(s) == [(-1, 0), (11, 6), (12, 7)]
    else:
        # The row closed up: the 6 goes under the 12; the 7 has no body left.
        assert row_summary(s) == [(-1, 0), (11, 0), (12, 6)]
        assert fc(7) in s.discard


# --- Specials -------------------------------------------------------------------------


def test_rocket_is_placed_last_under_any_body():
    s = position(3, [(5, []), (11, [fc(9)]), (17, [])], hands=[[fc(2, 1)], [fc(5)], [fc(6)]])
    agents = place(s, [[fc(2, 1)], [fc(5)], [fc(6)]], rockets={0: [2]})
    # 5 and 6 go to slots 0 and 1 first (5 takes the 5; 9 + 6 = 15 takes the 11), so the
    # Rocket chooses among the bodies still there.
    assert agents[0].slots_offered == [2]
    s2 = position(3, [(5, []), (11, [fc(9)]), (17, [])], hands=[[fc(2, 1)], [fc(5)], [fc(5, 2)]])
    place(s2, [[fc(2, 1)], [fc(5)], [fc(5, 2)]], rockets={0: [2]})
    # 9 + 5 = 14 >= 11 taken by p2 first; offer only slot 2 again.
    assert s2.round_points == [0, 3, 3]


def test_rocket_takes_a_body_it_completes():
    s = position(3, [(4, []), (11, [fc(9)]), (17, [fc(10)])], hands=[[fc(2, 1)], [fc(3)], [fc(5)]])
    place(s, [[fc(2, 1)], [fc(3)], [fc(5)]], rockets={0: [2]})
    # 3 < 4; 9 + 5 = 14 takes the 11; the Rocket reaches 12 < 17.
    assert s.round_points == [0, 0, 3]
    s = position(
        3, [(4, []), (11, [fc(9)]), (17, [fc(10), fc(5, 3)])], hands=[[fc(2, 1)], [fc(3)], [fc(5)]]
    )
    place(s, [[fc(2, 1)], [fc(3)], [fc(5)]], rockets={0: [2]})
    assert s.round_points == [5, 0, 3]


def test_several_rockets_go_by_ascending_lanterns():
    s = position(
        3, [(11, []), (12, []), (17, [fc(10), fc(5)])], hands=[[fc(2, 4)], [fc(2, 2)], [fc(6)]]
    )
    place(s, [[fc(2, 4)], [fc(2, 2)], [fc(6)]], rockets={0: [1], 1: [2]})
    # p1's Rocket (2 lanterns) goes first: 15 + 2 = 17 takes the 17; p0 must go elsewhere.
    assert s.round_points == [0, 5, 0]


def test_rocket_timing_in_order_reading():
    s = position(
        3,
        [(4, []), (11, [fc(9)]), (17, [])],
        hands=[[fc(2, 1)], [fc(5)], [fc(6)]],
        options=Options(rocket_timing="in_order"),
    )
    place(s, [[fc(2, 1)], [fc(5)], [fc(6)]], rockets={0: [1]})
    # The Rocket (power 2) acts before the 5 and 6: 9 + 2 = 11 takes the 11; then the 5
    # goes under slot 0 (the 4: taken at -3) and the 6 under slot 1, now empty.
    assert s.round_points == [3, -3, 0]
    assert row_summary(s) == [(-1, 0), (-1, 6), (17, 0)]


@pytest.mark.parametrize("allowed", [False, True])
def test_rocket_under_an_exploded_slot_reading(allowed):
    s = position(
        3,
        [(5, []), (11, []), (17, [])],
        hands=[[fc(2, 1)], [fc(5)], [fc(6)]],
        options=Options(rocket_empty_slot=allowed),
    )
    agents = place(s, [[fc(2, 1)], [fc(5)], [fc(6)]], rockets={0: [0 if allowed else 2]})
    if allowed:
        assert agents[0].slots_offered == [0, 1, 2]
        assert row_summary(s)[0] == (-1, 2)
        assert s.complete_dragon()
        # The Rocket moves with the body drawn into its slot.
        assert 2 in [p for _, p in row_summary(s)]
    else:
        assert agents[0].slots_offered == [1, 2]


def test_double_doubles_points_and_negative_points():
    s = position(3, [(3, []), (11, [fc(8)]), (17, [])], hands=[[fc(3, 1)], [fc(3, 2)], [fc(5)]])
    place(s, [[fc(3, 1)], [fc(3, 2)], [fc(5)]])
    assert s.round_points == [6, 6, 0]
    s = position(3, [(4, [fc(1)]), (11, []), (17, [])], hands=[[fc(3, 1)], [fc(5)], [fc(6)]])
    place(s, [[fc(3, 1)], [fc(5)], [fc(6)]])
    assert s.round_points[0] == -6  # "Negative points are also doubled."


@pytest.mark.parametrize("reading", ["placer", "under"])
def test_double_already_under_the_body_reading(reading):
    s = position(
        3,
        [(5, []), (11, []), (12, [fc(3, 1), fc(5, 2)])],
        hands=[[fc(5)], [fc(6)], [fc(7)]],
        options=Options(double_when=reading),
    )
    place(s, [[fc(5)], [fc(6)], [fc(7)]])
    # 8 + 7 = 15 >= 12: p2 takes the 12 with a Double that lay there from an earlier turn.
    assert s.round_points[2] == (3 if reading == "placer" else 6)


@pytest.mark.parametrize("reading", ["kept", "discard"])
def test_double_card_afterwards_reading(reading):
    s = position(
        3,
        [(3, []), (11, []), (17, [])],
        hands=[[fc(3, 1)], [fc(5)], [fc(6)]],
        options=Options(double_card=reading),
    )
    place(s, [[fc(3, 1)], [fc(5)], [fc(6)]])
    assert s.round_points[0] == 6
    assert (fc(3, 1) in s.kept[0]) == (reading == "kept")
    assert (fc(3, 1) in s.discard) == (reading == "discard")
    s.check()


@pytest.mark.parametrize("reading", ["slot", "discard"])
def test_string_draws_and_adds_power_reading(reading):
    s = position(
        3,
        [(11, []), (12, []), (17, [])],
        hands=[[fc(1, 1)], [fc(5)], [fc(6)]],
        deck=[fc(8)],  # the String draws the 8
        options=Options(string_card=reading),
        discard=[],
    )
    place(s, [[fc(1, 1)], [fc(5)], [fc(6)]])
    assert s.round_points == [0, 0, 0]  # 1 + 8 = 9 < 11
    if reading == "slot":
        assert row_summary(s)[0] == (11, 9)
        assert fc(8) in s.row[0].cards
    else:
        assert row_summary(s)[0] == (11, 1)
        assert s.discard == [fc(8)]


def test_string_drawn_special_adds_power_without_effect():
    s = position(
        3,
        [(3, []), (11, []), (17, [])],
        hands=[[fc(1, 1)], [fc(5)], [fc(6)]],
        deck=[fc(3, 4)],
        discard=[],
    )
    place(s, [[fc(1, 1)], [fc(5)], [fc(6)]])
    assert s.round_points[0] == 3  # 1 + 3 = 4 >= 3, the drawn Double does not double


@pytest.mark.parametrize("reshuffle", [True, False])
def test_string_with_empty_deck_reading(reshuffle):
    s = position(
        3,
        [(5, []), (11, []), (17, [])],
        hands=[[fc(1, 1)], [fc(5)], [fc(6)]],
        options=Options(string_reshuffle=reshuffle),
    )
    s.deck = []
    assert s.discard  # every other card lies in the discard pile
    place(s, [[fc(1, 1)], [fc(5)], [fc(6)]])
    if reshuffle:
        assert len(s.row[0].cards) == 2 or s.round_points[0] == 3
        assert s.deck  # the discard pile became the deck
    else:
        assert s.row[0].cards == [fc(1, 1)] and s.row[0].power == 1


def test_string_with_both_piles_empty_adds_nothing():
    s = position(3, [(5, []), (11, []), (17, [])], hands=[[fc(1, 1)], [fc(5)], [fc(6)]])
    s.deck, s.discard = [], []
    place(s, [[fc(1, 1)], [fc(5)], [fc(6)]])
    assert row_summary(s)[0] == (5, 1)


def test_bad_luck_four_and_its_study_knob():
    for bad_luck, pts in [(True, -3), (False, 3)]:
        s = position(
            3,
            [(4, []), (11, []), (17, [])],
            hands=[[fc(5)], [fc(6)], [fc(7)]],
            options=Options(bad_luck=bad_luck),
        )
        place(s, [[fc(5)], [fc(6)], [fc(7)]])
        assert s.round_points[0] == pts


@pytest.mark.parametrize("bonus", [1, 0])
def test_thirteen_raises_the_hand_limit_until_the_round_ends(bonus):
    s = position(
        3,
        [(13, [fc(8)]), (16, []), (17, [])],
        hands=[[fc(5), fc(9), fc(10)], [fc(6), fc(7), fc(7, 2)], [fc(6, 2), fc(7, 3), fc(9, 2)]],
        options=Options(thirteen_bonus=bonus),
    )
    place(s, [[fc(5)], [fc(6)], [fc(6, 2)]])
    assert s.round_points[0] == 3
    assert s.complete_dragon()
    s.draw_cards()
    assert [len(h) for h in s.hands] == [3 + bonus, 3, 3]
    s.round = 1
    s.end_round()  # a new round: the limit is 3 again
    assert [len(h) for h in s.hands] == [3, 3, 3]


# --- Step 3 and 4 --------------------------------------------------------------------------


def test_refill_sorts_and_firecrackers_move_with_their_body():
    s = position(
        3,
        [(11, [fc(5)]), (16, []), (17, [fc(6)])],
        hands=[[fc(9)], [fc(8)], [fc(7)]],
        dragon=bodies(3),
    )
    place(s, [[fc(9)], [fc(8)], [fc(7)]])
    # 5 + 7? No: 7 goes first to slot 0: 12 >= 11 taken; 8 < 16; 6 + 9 = 15 < 17.
    assert row_summary(s) == [(-1, 0), (16, 8), (17, 15)]
    assert s.complete_dragon()
    assert row_summary(s) == [(3, 0), (16, 8), (17, 15)]


def test_draw_up_to_the_limit_reshuffles_the_discard_pile():
    s = position(3, [(11, []), (16, []), (17, [])], hands=[[], [fc(5)], [fc(6), fc(7)]])
    s.deck = [fc(8)]
    n_discard = len(s.discard)
    s.draw_cards()
    assert [len(h) for h in s.hands] == [3, 3, 3]
    assert s.hands[0][0] == fc(8)
    assert len(s.deck) == n_discard - 5 and s.discard == []


@pytest.mark.parametrize("reading", ["draw", "empty"])
def test_when_the_discard_pile_becomes_the_deck_reading(reading):
    # Step 4 "If the Firecracker deck is empty, shuffle the discard pile to form a new deck":
    # the last draw of step 4 empties the deck; `empty` forms the new deck at once, `draw`
    # only when the next draw finds the deck empty.
    s = position(
        3,
        [(11, []), (16, []), (17, [])],
        hands=[[fc(5, 1), fc(5, 2)], [fc(6, 1), fc(6, 2)], [fc(7, 1), fc(7, 2)]],
        deck=[fc(8, 1), fc(8, 2), fc(8, 3)],
        options=Options(reshuffle_when=reading),
    )
    old_discard = sorted(s.discard)
    s.draw_cards()
    assert [len(h) for h in s.hands] == [3, 3, 3]
    if reading == "empty":
        assert sorted(s.deck) == old_discard and s.discard == []
    else:
        assert s.deck == [] and sorted(s.discard) == old_discard
    s.check()


@pytest.mark.parametrize("reading", ["draw", "empty"])
def test_cards_taken_after_the_deck_ran_out_join_the_new_deck_reading(reading):
    # The next turn's captured cards reach the discard pile: with `draw` they are in the new
    # deck formed at the next draw; with `empty` the deck was formed before they arrived.
    s = position(
        3,
        [(11, [fc(6, 1)]), (16, []), (17, [])],
        hands=[[fc(5, 1)], [fc(6, 2)], [fc(7, 2)]],
        options=Options(reshuffle_when=reading),
    )
    old_discard = sorted(s.discard)
    s.deck = []
    s.keep_deck()
    place(s, [[fc(5, 1)], [fc(6, 2)], [fc(7, 2)]])  # 6 + 5 = 11 takes the 11
    assert s.round_points == [3, 0, 0]
    taken = sorted([fc(6, 1), fc(5, 1)])
    if reading == "empty":
        assert sorted(s.deck) == old_discard and sorted(s.discard) == taken
    else:
        assert s.deck == [] and sorted(s.discard) == sorted(old_discard + taken)
        s.draw_firecracker()
        assert len(s.deck) == len(old_discard) + 1  # the captured cards are in the new deck


def test_discarding_to_an_empty_deck_forms_the_deck_at_once():
    # With both piles empty, the cards of a capture become the deck as they are discarded.
    s = position(
        3,
        [(11, [fc(6, 1)]), (16, []), (17, [])],
        hands=[[fc(5, 1)], [fc(6, 2)], [fc(7, 2)]],
        options=Options(reshuffle_when="empty"),
    )
    rest = list(s.discard)
    s.hands[1].extend(rest)  # every other card in a hand: deck and discard pile empty
    s.discard = []
    s.deck = []
    place(s, [[fc(5, 1)], [fc(6, 2)], [fc(7, 2)]])
    assert sorted(s.deck) == sorted([fc(6, 1), fc(5, 1)]) and s.discard == []
    s.check()


@pytest.mark.parametrize("reading", ["slot", "row_first"])
def test_equal_vitality_order_after_step_3_reading(reading):
    # Step 3 "Rearrange the cards in ascending order": a new 18 drawn into the left slot
    # meets an 18 already in the row with a 7 under it.
    s = position(
        4,
        [(12, []), (18, [fc(7)]), (23, []), (25, [])],
        hands=[[fc(5, 1)], [fc(6, 1)], [fc(7, 2)], [fc(8, 1)]],
        dragon=[],
        options=Options(equal_vitality=reading),
    )
    other_18 = [b.id for b in CARDS.bodies if b.vitality == 18 and b.id != s.row[1].body]
    s.row[0].body = -1  # the 12 was taken this turn
    s.dragon = [bodies(3)[0]] + other_18
    assert s.complete_dragon()
    if reading == "slot":
        assert row_summary(s) == [(18, 0), (18, 7), (23, 0), (25, 0)]
    else:
        assert row_summary(s) == [(18, 7), (18, 0), (23, 0), (25, 0)]


def test_equal_vitality_row_first_still_sorts_by_vitality():
    s = position(
        4,
        [(12, []), (18, [fc(7)]), (23, []), (25, [])],
        dragon=[],
        options=Options(equal_vitality="row_first"),
    )
    s.row[0].body = -1
    s.row[3].body = -1
    s.dragon = [bodies(11)[0], bodies(3)[0]]  # the 3 is drawn first, into the left gap
    assert s.complete_dragon()
    assert row_summary(s) == [(3, 0), (11, 0), (18, 7), (23, 0)]


@pytest.mark.parametrize("partial", [False, True])
def test_round_ends_when_the_dragon_deck_runs_short(partial):
    s = position(
        3,
        [(3, []), (5, []), (17, [])],
        hands=[[fc(5)], [fc(6)], [fc(7)]],
        dragon=bodies(25),
        options=Options(partial_refill=partial),
    )
    place(s, [[fc(5)], [fc(6)], [fc(7)]])
    assert not s.complete_dragon()  # two gaps, one body left
    if partial:
        assert row_summary(s) == [(17, 7), (25, 0), (-1, 0)]
    else:
        assert row_summary(s) == [(-1, 0), (-1, 0), (17, 7)]


@pytest.mark.parametrize("reading", ["short", "empty"])
def test_round_end_when_refill_empties_the_deck_reading(reading):
    s = position(
        3,
        [(3, []), (11, []), (17, [])],
        hands=[[fc(5)], [fc(6)], [fc(7)]],
        dragon=bodies(25),
        options=Options(round_end=reading),
    )
    place(s, [[fc(5)], [fc(6)], [fc(7)]])
    assert s.complete_dragon() == (reading == "short")


@pytest.mark.parametrize("reading", ["rebuild", "continue"])
def test_new_round_reading(reading):
    s = GameState(3, seed=5, options=Options(new_round=reading))
    hands = [list(h) for h in s.hands]
    s.row[0].cards.append(s.deck.pop())
    s.row[0].power = 1
    s.round_points = [4, 0, 0]
    s.end_round()
    assert s.round == 2 and s.scores == [4, 0, 0] and not s.over
    assert len(s.dragon) == 19 - 3
    assert all(x.cards == [] for x in s.row)
    if reading == "continue":
        assert s.hands == hands
    s.check()


def test_game_ends_at_the_target_after_the_round():
    s = GameState(3, seed=5)
    s.scores = [45, 10, 10]
    s.round_points = [5, 0, 0]
    s.end_round()
    assert s.over and s.winners() == [0]
    s = GameState(3, seed=5, options=Options(target=60))
    s.scores = [45, 10, 10]
    s.round_points = [5, 0, 0]
    s.end_round()
    assert not s.over


def test_tie_breaks_fewest_bodies_then_shared():
    s = GameState(3, seed=5)
    s.scores = [52, 52, 40]
    s.bodies_game = [12, 11, 9]
    assert s.winners() == [1]
    s.bodies_game = [11, 11, 9]
    assert s.winners() == [0, 1]


@pytest.mark.parametrize("reading", ["game", "round"])
def test_tiebreak_counts_reading(reading):
    s = GameState(3, seed=5, options=Options(tiebreak=reading))
    s.scores = [52, 52, 40]
    s.bodies_game = [12, 11, 9]
    s.bodies_round = [2, 3, 1]
    assert s.winners() == ([1] if reading == "game" else [0])


def test_two_players_play_two_cards_per_turn():
    agents = make_agents(["random", "random"])
    rngs = [SplitMix64(1), SplitMix64(2)]
    s = GameState(2, seed=3)
    before = sum(len(x.cards) for x in s.row) + len(s.discard)
    s.play_turn(agents, rngs)
    assert len(s.log) >= 3
    placed = [line for line in s.log if line.startswith("  p") and "->" in line]
    assert len(placed) == 4 and before == 0


# --- Options and whole games ------------------------------------------------------------


def test_options_parse_and_errors():
    o = Options.parse("placement=close_up, rocket_empty_slot=true,target=40")
    assert o.placement == "close_up" and o.rocket_empty_slot and o.target == 40
    assert o.describe() == "placement=close_up,rocket_empty_slot=True,target=40"
    with pytest.raises(BadInput, match="unknown rule option 'placment' \\(did you mean placement"):
        Options.parse("placment=fixed")
    with pytest.raises(BadInput, match="name=value"):
        Options.parse("placement")
    with pytest.raises(BadInput, match="must be an integer"):
        Options.parse("target=fifty")
    with pytest.raises(BadInput, match="true or false"):
        Options.parse("bad_luck=maybe")
    with pytest.raises(BadInput, match="unknown value of rule option placement"):
        Options.parse("placement=sideways")
    with pytest.raises(BadInput, match="1..10000"):
        Options.parse("target=0")


READINGS = [
    Options(),
    Options(placement="close_up", rocket_timing="in_order", rocket_empty_slot=True),
    Options(double_when="under", double_card="discard", string_card="discard"),
    Options(string_reshuffle=False, round_end="empty", partial_refill=True),
    Options(new_round="continue", tiebreak="round", two_player_deal=3, thirteen_bonus=0),
]


@pytest.mark.parametrize(("options", "n"), list(itertools.product(READINGS, [2, 4, 6])))
def test_whole_games_conserve_cards_and_end(options, n):
    for seed in range(3):
        names = ["random", "greedy", "position", "random", "greedy", "position"][:n]
        game = play_game(n, make_agents(names), seed, options, on_turn=lambda s: s.check())
        assert game.over
        assert max(game.scores) >= 50
        assert game.winners()
        points = sum(game.scores)
        assert points == sum(
            (CARDS.bodies[b].points * (2 if x2 else 1)) for _, _, _, b, x2, _ in game.captures
        )

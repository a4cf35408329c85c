"""The reference engine, rule by rule, from hand-laid positions (rules/catch-the-bomber.txt)."""

from __future__ import annotations

import collections
import itertools

import pytest

from bombsolve.solvers.bomber import rules as R
from bombsolve.solvers.bomber.rules import (
    BRIDGE,
    SHELTER_ONLY,
    Card,
    Options,
    Outcome,
    apply,
    assess,
    decode,
    from_bridge_action,
    legal_actions,
    new_game,
    play_action,
    to_bridge_action,
)
from bombsolve.solvers.common.errors import BadInput
from tests.bomber.positions import parse_line, position

HW, YL, SP = Card.HOLY_WARRIOR, Card.YOUNG_LADY, Card.SUSPICIOUS_PERSON


def lines_text(state, loc):
    return [(s.card, s.face_up) for s in state.lines[loc]]


# --- Preparation ---------------------------------------------------------------------------


@pytest.mark.parametrize("players,hand", [(3, 11), (4, 8), (5, 7), (6, 6)])
def test_card_counts_by_player_count(players, hand):
    g = new_game(players, seed=7)
    total = collections.Counter()
    for p in range(players):
        assert g.hand_size(p) == hand
        for c in Card:
            total[c] += g.hands[p][c]
    assert total[Card.BOMBER] == 1 and total[Card.POLICE] == 2
    assert total[YL] + total[HW] + total[SP] == players - 3
    assert total[Card.POLICE_DOG] == 2 and total[Card.BOMB] == 4 and total[Card.BOMB_SQUAD] == 6
    assert total[Card.CITIZEN] == (16 if players == 4 else 18)  # "Remove 2 Citizens" at 4
    # one character card each, and it is the player's character
    for p in range(players):
        assert sum(g.hands[p][c] for c in R.CHARACTERS) == 1
        assert g.hands[p][g.characters[p]] == 1


def test_extras_at_random_cover_each_character():
    seen = collections.Counter()
    for seed in range(300):
        g = new_game(4, seed)
        seen.update(c for c in g.characters if c in R.EXTRAS)
    assert set(seen) == set(R.EXTRAS)
    assert min(seen.values()) > 60  # about 100 each


def test_extras_named():
    g = new_game(5, seed=3, extras=(SP, HW))
    assert sorted(g.characters) == [Card.BOMBER, Card.POLICE, Card.POLICE, HW, SP]


@pytest.mark.parametrize("players", [2, 7, 0, -1])
def test_player_count_outside_3_to_6(players):
    with pytest.raises(BadInput, match="expected 3 to 6"):
        new_game(players, seed=1)


def test_wrong_number_of_extras():
    with pytest.raises(BadInput, match="take 1 extra"):
        new_game(4, seed=1, extras=(YL, HW))
    with pytest.raises(BadInput, match="distinct"):
        new_game(5, seed=1, extras=(YL, YL))


def test_shuffle_is_uniform():
    counts = collections.Counter()
    rng = R.SplitMix64(12345)
    n = 12000
    for _ in range(n):
        items = [0, 1, 2, 3]
        R.shuffle(items, rng)
        counts[tuple(items)] += 1
    assert len(counts) == 24
    expected = n / 24
    chi2 = sum((counts[p] - expected) ** 2 / expected for p in itertools.permutations(range(4)))
    assert chi2 < 49.7  # chi-square, 23 degrees of freedom, p = 0.001


def test_deal_depends_on_seed_only():
    a, b = new_game(6, seed=99), new_game(6, seed=99)
    assert a.hands == b.hands and a.characters == b.characters
    assert new_game(6, seed=100).hands != a.hands


# --- A Playing a card ----------------------------------------------------------------------


def test_first_third_fifth_face_up_second_fourth_face_down():
    st = position(hands={0: {Card.CITIZEN: 6}}, characters=[Card.POLICE] * 3)
    for _ in range(5):
        st.current = 0
        apply(st, play_action(Card.CITIZEN, 2))
    assert [s.face_up for s in st.lines[2]] == [True, False, True, False, True]


def test_at_most_five_cards_per_location():
    st = position(lines={0: "CIT [CIT] CIT [CIT] CIT"}, hands={0: {Card.BOMB: 2}})
    acts = legal_actions(st)
    assert play_action(Card.BOMB, 0) not in acts
    assert play_action(Card.BOMB, 1) in acts


def test_bridge_never_takes_a_played_card():
    st = position(hands={0: {c: 1 for c in Card}})
    assert all(decode(a).dst != BRIDGE for a in legal_actions(st) if decode(a).kind == "play")


def test_police_dog_face_up_only():
    st = position(lines={0: "CIT", 1: "CIT [CIT]"}, hands={0: {Card.POLICE_DOG: 1, Card.BOMB: 1}})
    acts = legal_actions(st)
    assert play_action(Card.POLICE_DOG, 0) not in acts  # would be 2nd, face down
    assert play_action(Card.POLICE_DOG, 1) in acts  # 3rd, face up
    assert play_action(Card.POLICE_DOG, 2) in acts  # 1st


def test_young_lady_face_down_only():
    st = position(lines={0: "CIT"}, hands={0: {YL: 1, Card.BOMB: 1}})
    acts = legal_actions(st)
    assert play_action(YL, 0) in acts
    assert play_action(YL, 1) not in acts


def test_bomber_as_last_card_face_down():
    st = position(lines={0: "CIT"}, hands={0: {Card.BOMBER: 1}})
    acts = legal_actions(st)
    assert acts == [play_action(Card.BOMBER, 0)]


def test_bomber_not_last_may_go_face_up():
    st = position(hands={0: {Card.BOMBER: 1, Card.BOMB: 1}})
    assert play_action(Card.BOMBER, 3) in legal_actions(st)


def test_suspicious_person_only_as_last_card():
    st = position(hands={0: {SP: 1, Card.BOMB: 1}}, characters=[SP, Card.BOMBER, Card.POLICE])
    assert all(decode(a).card != SP for a in legal_actions(st))
    st.hands[0][Card.BOMB] = 0
    assert play_action(SP, 0) in legal_actions(st)


@pytest.mark.parametrize("reading,allowed", [("caught", True), ("forbid", False)])
def test_dog_reading_playing_bomber_after_a_dog(reading, allowed):
    st = position(lines={0: "DOG"}, hands={0: {Card.BOMBER: 1, Card.BOMB: 1}},
                  rules=Options(dog=reading))  # fmt: skip
    assert (play_action(Card.BOMBER, 0) in legal_actions(st)) is allowed
    assert play_action(Card.BOMBER, 1) in legal_actions(st)


def test_illegal_action_raises_bad_input():
    st = position(hands={0: {Card.BOMB: 1}})
    with pytest.raises(BadInput, match="not legal"):
        apply(st, play_action(Card.CITIZEN, 0))


# --- B Moving a card -----------------------------------------------------------------------


def test_moving_needs_a_citizen_in_hand():
    st = position(lines={0: "CIT"}, hands={0: {Card.BOMB: 1}})
    assert all(decode(a).kind == "play" for a in legal_actions(st))
    st.hands[0][Card.CITIZEN] = 1
    assert to_bridge_action(0, 0) in legal_actions(st)


def test_move_to_bridge_rightmost_gap_closes_orientation_kept():
    # The rulebook's example: a Citizen leaves a line for the Bridge, rightmost behind the
    # card already there, and the cards to its right slide left keeping their faces.
    st = position(lines={0: "SQD [BMB] CIT [POL] DOG", BRIDGE: "CIT"}, hands={0: {Card.CITIZEN: 2}})
    apply(st, to_bridge_action(0, 2))
    assert lines_text(st, 0) == [
        (Card.BOMB_SQUAD, True),
        (Card.BOMB, False),
        (Card.POLICE, False),
        (Card.POLICE_DOG, True),
    ]
    assert lines_text(st, BRIDGE) == [(Card.CITIZEN, True), (Card.CITIZEN, True)]
    assert st.sheltered[0] == 1 and st.hands[0][Card.CITIZEN] == 1


def test_move_from_bridge_back_to_a_gathering_point():
    st = position(lines={BRIDGE: "SQD DOG", 4: "CIT"}, hands={0: {Card.CITIZEN: 1}})
    apply(st, from_bridge_action(0, 4))
    assert lines_text(st, 4) == [(Card.CITIZEN, True), (Card.BOMB_SQUAD, True)]
    assert lines_text(st, BRIDGE) == [(Card.POLICE_DOG, True)]


def test_no_move_into_a_full_location():
    full = "CIT [CIT] CIT [CIT] CIT"
    st = position(lines={BRIDGE: full, 0: full, 1: "SQD"}, hands={0: {Card.CITIZEN: 1}})
    acts = legal_actions(st)
    assert to_bridge_action(1, 0) not in acts  # Bridge full
    assert from_bridge_action(0, 0) not in acts  # G1 full
    assert from_bridge_action(0, 1) in acts


def test_only_face_up_citizen_dog_squad_move():
    st = position(lines={0: "BMB [SQD] POL [CIT] SQD", 1: "CIT DOG"}, hands={0: {Card.CITIZEN: 1}})
    moves = [a for a in legal_actions(st) if decode(a).kind == "move"]
    assert moves == [to_bridge_action(0, 4), to_bridge_action(1, 0), to_bridge_action(1, 1)]


@pytest.mark.parametrize("optional", [True, False])
def test_move_optional_reading(optional):
    st = position(hands={0: {Card.CITIZEN: 1}}, rules=Options(move_optional=optional))
    acts = legal_actions(st)
    assert (SHELTER_ONLY in acts) is optional
    st2 = position(
        lines={0: "SQD"}, hands={0: {Card.CITIZEN: 1}}, rules=Options(move_optional=optional)
    )
    assert to_bridge_action(0, 0) in legal_actions(st2)
    assert (SHELTER_ONLY in legal_actions(st2)) is optional


def test_turn_is_one_action_then_next_player():
    st = position(hands={0: {Card.CITIZEN: 2}, 1: {Card.BOMB: 1}, 2: {Card.BOMB: 1}})
    apply(st, play_action(Card.CITIZEN, 0))
    assert st.current == 1


# --- no possible action ---------------------------------------------------------------------


def _full_board() -> dict[int, str]:
    # nothing here can move: Bombs and Police never move, face-down cards neither
    return {g: "BMB [BMB] POL [POL] BMB" for g in range(6)}


def test_player_with_no_possible_action_leaves_play():
    st = position(
        lines={**_full_board(), 0: "BMB [BMB]"},
        hands={0: {Card.CITIZEN: 1}, 1: {Card.POLICE_DOG: 1}, 2: {Card.BOMB: 1}},
        rules=Options(move_optional=False),
    )
    assert legal_actions(st) == [play_action(Card.CITIZEN, 0)]  # nothing can be moved
    apply(st, play_action(Card.CITIZEN, 0))
    # player 1 holds only a Police Dog and the one open place is a 4th, face down: out
    assert st.out == [False, True, False] and st.eliminations == [1]
    assert st.current == 2 and not st.over
    apply(st, play_action(Card.BOMB, 0))
    assert st.over and st.hands[1][Card.POLICE_DOG] == 1  # his card stays unplayed


@pytest.mark.parametrize("reading", ["loses", "assess"])
def test_stuck_bomber_reading(reading):
    # G1 holds 2 cards: its 3rd card goes face up, so the Bomber as a last card cannot
    st = position(
        lines={**_full_board(), 0: "CIT [CIT]"},
        hands={0: {Card.CITIZEN: 1}, 1: {Card.BOMBER: 1}, 2: {Card.BOMB: 1}},
        characters=[Card.POLICE, Card.BOMBER, Card.POLICE],
        rules=Options(stuck_bomber=reading),
    )
    apply(st, SHELTER_ONLY)
    assert st.out[1]
    if reading == "loses":
        assert st.over and st.result.termination == "bomber_stuck"
        assert st.result.outcome == Outcome.POLICE_VICTORY
    else:
        assert not st.over and st.current == 2
        apply(st, play_action(Card.BOMB, 0))
        assert st.over and st.result.termination == "assessment"
        assert not st.result.escape  # a Bomber never played is at no location
        # no face up Citizen anywhere: Chaos, and the Bomber survives; but he left play
        # ("loses the game immediately"), so he cannot win: a draw, and nobody wins
        assert st.result.chaos and st.result.survival
        assert st.result.outcome == Outcome.DRAW and R.winners(st) == []


def test_game_ends_when_every_hand_is_exhausted():
    st = position(hands={0: {Card.CITIZEN: 1}, 1: {Card.CITIZEN: 1}, 2: {Card.CITIZEN: 1}})
    for _ in range(3):
        assert not st.over
        apply(st, legal_actions(st)[0])
    assert st.over and st.result.termination == "assessment"


# --- Achievement Assessment ------------------------------------------------------------------


def assessed(lines, rules=None, characters=None):
    return assess(position(lines=lines, rules=rules, characters=characters))


def test_chaos_four_locations_unlocked():
    r = assessed({0: "CIT", 1: "CIT", 2: "BMR CIT", BRIDGE: "CIT", 3: "POL"})
    assert r.chaos_locations == 4 and r.chaos


def test_chaos_five_locations_failed_bridge_counts():
    r = assessed({0: "CIT", 1: "CIT", 2: "CIT", 3: "CIT", BRIDGE: "CIT"})
    assert r.chaos_locations == 5 and not r.chaos


def test_chaos_counts_only_face_up_citizens():
    r = assessed({0: "CIT", 1: "CIT", 2: "CIT", 3: "CIT", 4: "SQD [CIT]", 5: "DOG"})
    assert r.chaos_locations == 4 and r.chaos


def test_explosion_kills_dead_cards_and_spares_alive_ones():
    r = assessed({0: "BMB [CIT] POL [YL] DOG", 1: "BMR"}, characters=[Card.BOMBER, YL, Card.POLICE])
    assert sorted(r.killed) == [YL, Card.CITIZEN]
    assert r.bombing and r.survival


def test_bomb_squad_defuses_even_face_down():
    r = assessed({0: "BMB [SQD] CIT", 1: "BMR"})
    assert r.killed == () and not r.bombing


def test_holy_warrior_is_a_bomb_and_a_squad_defuses_him():
    chars = [Card.BOMBER, Card.POLICE, Card.POLICE, HW]
    assert assessed({0: "HW CIT", 1: "BMR"}, characters=chars).killed == (HW, Card.CITIZEN)
    assert assessed({0: "HW CIT SQD", 1: "BMR"}, characters=chars).killed == ()


@pytest.mark.parametrize("counts", [True, False])
def test_warrior_bombing_reading(counts):
    chars = [Card.BOMBER, Card.POLICE, Card.POLICE, HW]
    r = assessed({0: "[HW] CIT", 1: "BMR POL", 2: "CIT", 3: "CIT", 4: "CIT", 5: "CIT"},
                 rules=Options(warrior_bombing=counts), characters=chars)  # fmt: skip
    assert r.killed == (HW, Card.CITIZEN)
    assert r.bombing is counts
    # with a Bomb in the line the kills count under both readings
    r2 = assessed({0: "[HW] BMB", 1: "BMR POL"}, rules=Options(warrior_bombing=counts),
                  characters=chars)  # fmt: skip
    assert r2.bombing


def test_bombing_needs_a_victim_other_than_the_bomber():
    r = assessed({0: "BMB BMR POL", 1: "CIT", 2: "CIT", 3: "CIT", 4: "CIT", 5: "CIT"})
    assert r.killed == (Card.BOMBER,) and not r.bombing and not r.survival


def test_escape_bomber_apart_from_every_police():
    r = assessed({0: "[BMR] CIT", 1: "POL", 2: "POL"})
    assert r.escape


def test_escape_prevented_by_police_at_the_bomber_location():
    r = assessed({0: "CIT [BMR] POL", 1: "POL"})
    assert not r.escape


def test_escape_prevented_when_the_bomber_is_bombed_dead():
    r = assessed({0: "BMB [BMR]", 1: "POL", 2: "POL"})
    assert not r.survival and not r.escape


@pytest.mark.parametrize("reading", ["caught", "forbid"])
def test_dog_reading_dog_before_the_bomber(reading):
    r = assessed({0: "DOG [BMR]", 1: "POL"}, rules=Options(dog=reading))
    assert r.escape is (reading == "forbid")
    # a Dog after (to the right of) the Bomber smells nothing under both readings
    r2 = assessed({0: "CIT [BMR] DOG", 1: "POL"}, rules=Options(dog=reading))
    assert r2.escape


SPREAD = {1: "CIT", 2: "CIT", 3: "CIT", 4: "CIT", 5: "CIT"}  # five Citizen locations: no Chaos


def test_outcome_bomber_victory():
    r = assessed({**SPREAD, 0: "[BMR]", 1: "CIT POL", 2: "CIT POL"})
    assert (r.chaos, r.escape, r.bombing, r.survival) == (False, True, False, True)
    assert r.outcome == Outcome.BOMBER_VICTORY


def test_outcome_police_victory():
    r = assessed({**SPREAD, 1: "CIT [BMR] POL", 2: "CIT POL"})
    assert not (r.chaos or r.escape or r.bombing)
    assert r.outcome == Outcome.POLICE_VICTORY


def test_outcome_draw():
    # the Bomber unlocks Bombing but is bombed dead by his own Bomb
    r = assessed({**SPREAD, 1: "CIT POL BMB [BMR]", 2: "CIT POL"})
    assert r.bombing and not r.survival
    assert r.outcome == Outcome.DRAW


def test_outcome_sole_victory():
    chars = [Card.BOMBER, Card.POLICE, Card.POLICE, HW]
    r = assessed({**SPREAD, 1: "CIT [BMR] HW POL", 2: "CIT POL"}, characters=chars)
    assert r.bombing and not r.survival
    assert r.outcome == Outcome.SOLE_VICTORY


def test_sole_victory_when_a_bomb_and_the_warrior_kill_the_bomber_together():
    # Both explode at the Bomber's location: the Holy Warrior is among his killers.
    chars = [Card.BOMBER, Card.POLICE, Card.POLICE, HW]
    r = assessed({**SPREAD, 1: "CIT [BMR] HW BMB", 2: "CIT POL"}, characters=chars)
    assert not r.survival and r.bombing and r.outcome == Outcome.SOLE_VICTORY
    # with only a Bomb there (the Warrior elsewhere) it is a plain draw
    r2 = assessed({**SPREAD, 1: "CIT [BMR] BMB", 2: "CIT POL HW"}, characters=chars)
    assert r2.outcome == Outcome.DRAW


def test_a_warrior_who_left_play_has_no_sole_victory():
    # "the player loses the game immediately and stops playing": the Holy Warrior who
    # left play with no possible action cannot win later, so his sole victory is a draw.
    chars = [Card.BOMBER, Card.POLICE, Card.POLICE, HW]
    st = position(lines={**SPREAD, 1: "CIT [BMR] HW POL", 2: "CIT POL"}, characters=chars)
    assert assess(st).outcome == Outcome.SOLE_VICTORY
    st.out[3] = True
    assert assess(st).outcome == Outcome.DRAW


def test_chaos_alone_wins_for_a_surviving_bomber():
    r = assessed({0: "CIT [BMR] POL", 1: "POL"})
    assert r.chaos and not r.escape and r.outcome == Outcome.BOMBER_VICTORY


def test_winners_by_outcome():
    st = position(lines={**SPREAD, 1: "CIT [BMR] POL", 2: "CIT POL"})
    st.result = assess(st)
    assert R.winners(st) == [1, 2]
    st.result = assess(position(lines={0: "[BMR]", 1: "POL"}))
    assert R.winners(st) == [0]


# --- views, actions, options ----------------------------------------------------------------


def test_view_hides_other_players_face_down_cards_and_hands():
    st = position(
        lines={0: "CIT [BMR]@1 SQD [YL]@0"}, hands={0: {Card.BOMB: 2}, 1: {Card.CITIZEN: 3}}
    )
    v = R.observe(st, 0)
    assert [c for c, _, _ in v.lines[0]] == [Card.CITIZEN, R.HIDDEN, Card.BOMB_SQUAD, YL]
    assert [o for _, _, o in v.lines[0]] == [0, 1, 0, 0]
    assert v.hand[Card.BOMB] == 2 and v.hand_sizes == (2, 3, 0)
    assert not hasattr(v, "hands") and not hasattr(v, "characters")


def test_view_legal_actions_match_on_random_states():
    for seed in range(60):
        g = new_game(3 + seed % 4, seed)
        rng = R.SplitMix64(seed)
        while not g.over:
            v = R.observe(g, g.current)
            acts = legal_actions(g)
            assert R.view_legal_actions(v) == acts
            apply(g, acts[rng.below(len(acts))])


def test_action_encoding_round_trip():
    for a in range(R.N_ACTIONS):
        d = decode(a)
        if d.kind == "play":
            assert play_action(d.card, d.dst) == a
        elif d.kind == "move" and d.dst == BRIDGE:
            assert to_bridge_action(d.src, d.index) == a
        elif d.kind == "move":
            assert from_bridge_action(d.index, d.dst) == a
        else:
            assert a == SHELTER_ONLY
    with pytest.raises(BadInput):
        decode(R.N_ACTIONS)


def test_parse_rules():
    r = R.parse_rules("dog=forbid, warrior-bombing=no,stuck_bomber=assess,move_optional=false")
    assert r == Options(
        dog="forbid", warrior_bombing=False, stuck_bomber="assess", move_optional=False
    )
    assert R.parse_rules(None) == Options()
    bad_specs = [
        ("dog=cat", "unknown dog reading"),
        ("colour=red", "unknown rule option"),
        ("dog", "expected key=value"),
        ("move_optional=maybe", "true or false"),
    ]
    for bad, msg in bad_specs:
        with pytest.raises(BadInput, match=msg):
            R.parse_rules(bad)


def test_parse_line_helper():
    assert [(s.card, s.face_up, s.owner) for s in parse_line("CIT [BMR]@2")] == [
        (Card.CITIZEN, True, 0),
        (Card.BOMBER, False, 2),
    ]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_opening_move_count_derived_by_hand(seed):
    # On the empty board every card goes 1st (face up) at any of 6 Gathering Points,
    # except the Young Lady (face down only) and the Suspicious Person (last card only);
    # a Citizen also allows sheltering with nothing to move: 6 per playable kind, +1.
    for players in (3, 4, 5, 6):
        g = new_game(players, seed)
        hand = g.hands[0]
        kinds = [c for c in Card if hand[c] and c not in (YL, SP)]
        assert len(legal_actions(g)) == 6 * len(kinds) + (1 if hand[Card.CITIZEN] else 0)


def perft(state, depth):
    """Count the action sequences of length `depth` (fewer if the game ends first)."""
    if depth == 0 or state.over:
        return 1
    total = 0
    for a in legal_actions(state):
        child = state.clone()
        apply(child, a)
        total += perft(child, depth - 1)
    return total


def test_perft_counts_from_a_fixed_deal():
    # Regression guard on move generation: sequences from new_game(3, seed=11).
    # Depth 1 follows from the deal by hand (see the test above); depth 2 and 3 were
    # counted by this engine when its rule tests passed and pin it against drift.
    g = new_game(3, seed=11)
    hand0 = g.hands[0]
    kinds = [c for c in Card if hand0[c] and c not in (YL, SP)]
    assert perft(g, 1) == 6 * len(kinds) + 1
    assert [perft(g, d) for d in (1, 2, 3)] == PERFT_3P_SEED_11


PERFT_3P_SEED_11 = [25, 763, 19885]


def test_clone_is_independent():
    g = new_game(4, seed=2)
    c = g.clone()
    apply(c, legal_actions(c)[0])
    assert g.history == [] and all(not line for line in g.lines)
    assert g.hands != c.hands


def _count(state) -> collections.Counter:
    total = collections.Counter()
    for h in state.hands:
        for c in Card:
            total[c] += h[c]
    for line in state.lines:
        total.update(s.card for s in line)
    total[Card.CITIZEN] += sum(state.sheltered)
    return total


def test_invariants_over_random_games():
    # Cards are conserved (hands + lines + Shelters = the deal), no line exceeds 5 cards,
    # the Bridge only ever holds movable face up cards, and every placed card's face
    # follows its position when it was played.
    for seed in range(200):
        g = new_game(3 + seed % 4, seed)
        dealt = _count(g)
        rng = R.SplitMix64(seed * 7 + 1)
        while not g.over:
            acts = legal_actions(g)
            a = acts[rng.below(len(acts))]
            before = {loc: len(line) for loc, line in enumerate(g.lines)}
            apply(g, a)
            d = decode(a)
            if d.kind == "play":
                assert g.lines[d.dst][-1].face_up == (before[d.dst] % 2 == 0)
            assert _count(g) == dealt
            assert all(len(line) <= R.LINE_MAX for line in g.lines)
            assert all(s.face_up and s.card in R.MOVABLE for s in g.lines[BRIDGE])


# --- audit additions: rulebook sentences and FAQ points without a direct test before --------


def test_played_character_card_does_not_change_the_character():
    # "Character cards ... after being played, do not change a player's character."
    st = position(
        hands={0: {Card.BOMBER: 1, Card.CITIZEN: 1}, 1: {Card.CITIZEN: 1}, 2: {Card.CITIZEN: 1}}
    )
    apply(st, play_action(Card.BOMBER, 0))
    assert st.characters == [Card.BOMBER, Card.POLICE, Card.POLICE]
    assert st.bomber_player() == 0 and st.lines[0][0].owner == 0


def test_after_a_move_the_next_card_takes_the_face_of_its_new_position():
    # The gap closes ("moving the cards behind leftwards"), so a line of 3 that loses a
    # card holds 2: the next card played there is the 3rd and goes face up.
    st = position(lines={0: "CIT [BMB] CIT"}, hands={0: {Card.CITIZEN: 1, Card.BOMB: 1},
                  1: {Card.BOMB: 1}, 2: {Card.BOMB: 1}})  # fmt: skip
    apply(st, to_bridge_action(0, 0))
    assert lines_text(st, 0) == [(Card.BOMB, False), (Card.CITIZEN, True)]
    apply(st, play_action(Card.BOMB, 0))
    assert lines_text(st, 0)[-1] == (Card.BOMB, True)
    apply(st, play_action(Card.BOMB, 0))
    assert lines_text(st, 0)[-1] == (Card.BOMB, False)  # 4th: face down


def test_a_line_shortened_by_a_move_takes_cards_again():
    # "Cards shall not be moved to a location already with 5 cards": the limit is the
    # current count, so a full line that loses a card may receive one again.
    st = position(lines={0: "CIT [CIT] CIT [CIT] CIT"}, hands={0: {Card.CITIZEN: 2}})
    assert play_action(Card.CITIZEN, 0) not in legal_actions(st)
    apply(st, to_bridge_action(0, 0))
    st.current = 0
    assert play_action(Card.CITIZEN, 0) in legal_actions(st)
    assert from_bridge_action(0, 0) in legal_actions(st)


def test_face_down_bomb_explodes_at_game_end():
    # Destiny: "flip over all face down cards" before the explosions.
    r = assessed({0: "CIT [BMB]", 1: "BMR"})
    assert r.killed == (Card.CITIZEN,) and r.bombing


def test_police_dog_bomb_squad_police_and_bombs_are_alive():
    # Shields: Police, Police Dog, Bomb Squad are alive; a Bomb is no victim either.
    r = assessed({0: "POL [BMB] DOG", 1: "BMR"})
    assert r.killed == () and not r.bombing


def test_every_dead_in_explosion_card_dies():
    # Skulls: Bomber, Young Lady, Holy Warrior, Suspicious Person, Citizen.
    chars = [Card.BOMBER, Card.POLICE, Card.POLICE, YL, HW, SP]
    r = assessed({0: "BMB [YL] SP [CIT] HW", 1: "BMR"}, characters=chars)
    assert sorted(r.killed) == sorted([YL, SP, Card.CITIZEN, HW])


def test_sheltered_citizens_are_at_no_location():
    # A Citizen placed on a Shelter is not beneath any Location: it neither counts for
    # Chaos nor dies in an explosion.
    st = position(lines={0: "CIT", 1: "BMB"}, hands={0: {Card.CITIZEN: 3}})
    before = assess(st)
    for _ in range(3):
        st.current = 0
        apply(st, SHELTER_ONLY)
    assert st.sheltered[0] == 3
    after = assess(st)
    assert (after.chaos_locations, after.killed) == (before.chaos_locations, before.killed)


def test_gathering_point_arrangement_has_no_effect():
    # FAQ: where the Gathering Points lie around the Bridge has no effect on play.
    lines = {0: "CIT [BMR] HW", 1: "POL", 2: "CIT BMB", 3: "DOG", BRIDGE: "CIT SQD"}
    chars = [Card.BOMBER, Card.POLICE, Card.POLICE, HW]
    base = assessed(lines, characters=chars)
    for perm in ((5, 4, 3, 2, 1, 0), (2, 0, 1, 5, 3, 4)):
        moved = {(perm[k] if k != BRIDGE else k): v for k, v in lines.items()}
        assert assessed(moved, characters=chars) == base


def test_police_cannot_be_moved_or_played_to_the_bridge():
    # "the Police cannot be moved but only stationed at the 6 Gathering Points".
    st = position(lines={0: "POL", BRIDGE: "CIT"}, hands={0: {Card.POLICE: 1, Card.CITIZEN: 1}})
    acts = legal_actions(st)
    assert to_bridge_action(0, 0) not in acts
    assert all(decode(a).dst != BRIDGE for a in acts if decode(a).kind == "play")

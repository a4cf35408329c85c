"""Effects on the next card played (CARDS.md, "Effects on the next card"): the `next` step's
three effects from fixed positions, two turns each (the card that makes the effect, then
the card it changes), every move checked against the kernel's turn (vocab_helpers), with
the rulebook's D.2 (draw the NUMBER), D.3 (the CARD ACTION), D.4 (IGNITE the played card)
and E.3 (the ignited PRINCESS EQUIPS the ignited DESIRED DISH) under each effect.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel import prune
from bombsolve.solvers.allisbomb.rules.rules import Ending, State, state_from_json
from bombsolve.solvers.allisbomb.rules.transcribe import step_words
from bombsolve.solvers.common.errors import BadInput
from tests.allisbomb.vocab_helpers import CARDS, game, kernel_matches, play, zones

IGNITED = '{op = "next", effect = "ignited"}'
NO_ACTION = '{op = "next", effect = "no_action"}'


def next_turn(s: State) -> list[tuple[tuple[int, ...], State]]:
    """Every way to play the turn after (kernel checked against the reference)."""
    kids = s.children()
    kernel_matches(s, kids)
    return kids


def after_tester(cfg, **where) -> State:
    """The position after the TESTER (NUMBER 0, so it draws nothing) made its effect."""
    (kid,) = play(cfg, **where)
    return kid[1]


def test_the_effect_waits_in_the_position_and_is_used_up_by_one_play(tmp_path):
    cfg = game(tmp_path, '{op = "next", add = 1}')
    s = after_tester(cfg, deck=["KING", "JOKER", "EGGS", "PROPHET"], equipped=["MENDER"])
    assert s.next_card == ("add", 1)
    assert s.key() != replace(s, next_card=None).key()
    (kid,) = next_turn(s)  # MENDER (NUMBER 1) draws 2: KING to the bottom, JOKER EQUIPPED
    after = kid[1]
    assert after.next_card is None
    assert zones(after)["equipped"] == ["JOKER"]
    assert after.deck[-2:] == [load_cards(cfg).labels.index(x) for x in ("KING", "MENDER")]
    (kid2,) = next_turn(after)  # JOKER draws its own NUMBER again: 1
    assert zones(kid2[1])["equipped"] == ["EGGS"]


def test_plays_ignited_lets_a_passive_princess_win(tmp_path):
    """E.3 needs the ignited PRINCESS: a passive one played under the effect plays her
    ignited side, EQUIPS the ignited EGGS (the DESIRED DISH) and wins."""
    where = dict(deck=["EGGS", "KING"], equipped=["PRINCESS"], ignited=["EGGS"], desired="EGGS")
    s = after_tester(game(tmp_path, IGNITED), **where)
    (kid,) = [k for k in next_turn(s) if s.card_of(k[0]) == s.cards.labels.index("PRINCESS")]
    assert kid[1].result() == "win"
    # without the effect her passive side has no action: the game goes on
    plain = after_tester(game(tmp_path, '{op = "reverse", n = 2, zone = "discard"}'), **where)
    (kid,) = next_turn(plain)
    assert kid[1].result() == "ongoing"


def test_plays_ignited_draws_the_ignited_number_and_is_discarded(tmp_path):
    """D.4 discards an ignited played card: the passive MENDER played ignited ends in the
    DISCARD PILE, ignited side up, instead of at the bottom of the DECK; an ignited card
    plays as it would have (the effect changes nothing)."""
    text = CARDS.replace(
        'name = "MENDER"\n[card.passive]\nnumber = 1\n[card.ignited]\nnumber = 1',
        'name = "MENDER"\n[card.passive]\nnumber = 1\n[card.ignited]\nnumber = 2',
    )
    path = tmp_path / "mender2.toml"
    path.write_text(text.replace("{steps}", IGNITED))
    cfg = Options(cards_file=path, allow_nonstandard=True)
    s = after_tester(cfg, deck=["KING", "JOKER", "EGGS"], equipped=["MENDER"])
    (kid,) = next_turn(s)
    z = zones(kid[1])
    assert z["discard"] == ["MENDER*"]  # ignited, discarded by D.4
    assert z["equipped"] == ["JOKER"]  # its ignited NUMBER 2: KING to the bottom
    s2 = after_tester(cfg, deck=["KING", "JOKER", "EGGS"], equipped=["MENDER"], ignited=["MENDER"])
    (kid,) = next_turn(s2)
    assert zones(kid[1])["discard"] == ["MENDER*"] and zones(kid[1])["equipped"] == ["JOKER"]


def test_no_action_skips_the_action_and_its_draw_steps(tmp_path):
    """The ignited PROPHET under "no CARD ACTION" makes no PROPHECY (D.3 has nothing to
    carry out), still draws its NUMBER (D.2) and is discarded (D.4); a side's `draw` step is
    part of its action and is left out too."""
    s = after_tester(
        game(tmp_path, NO_ACTION), deck=["KING", "JOKER"], equipped=["PROPHET"], ignited=["PROPHET"]
    )
    assert s.next_card == ("no_action", 0)
    (kid,) = next_turn(s)
    after = kid[1]
    assert after.desired == -1
    assert zones(after) == {
        "deck": ["JOKER", "TESTER*"],
        "equipped": ["KING"],
        "discard": ["PROPHET*"],
    }
    text = CARDS.replace(
        'name = "MENDER"\n[card.passive]\nnumber = 1',
        'name = "MENDER"\n[card.passive]\nnumber = 1\nsteps = [{op = "draw", add = 1}]',
    )
    path = tmp_path / "menderdraw.toml"
    path.write_text(text.replace("{steps}", NO_ACTION))
    cfg = Options(cards_file=path, allow_nonstandard=True)
    s = after_tester(cfg, deck=["KING", "JOKER", "EGGS"], equipped=["MENDER"])
    (kid,) = next_turn(s)
    assert zones(kid[1])["equipped"] == ["KING"]  # its NUMBER 1, not 1 + 1


def test_draws_more_or_fewer_after_the_cards_own_draw_steps_never_below_zero(tmp_path):
    text = CARDS.replace(
        'name = "MENDER"\n[card.passive]\nnumber = 1',
        'name = "MENDER"\n[card.passive]\nnumber = 1\nsteps = [{op = "draw", number = 3}]',
    )
    path = tmp_path / "mender3.toml"
    path.write_text(text.replace("{steps}", '{op = "next", add = -1}'))
    cfg = Options(cards_file=path, allow_nonstandard=True)
    s = after_tester(cfg, deck=["KING", "JOKER", "EGGS", "PROPHET"], equipped=["MENDER"])
    (kid,) = next_turn(s)  # its draw step makes it 3, the effect 2: JOKER EQUIPPED
    assert zones(kid[1])["equipped"] == ["JOKER"]
    s = after_tester(
        game(tmp_path, '{op = "next", add = -2}'), deck=["KING", "JOKER"], equipped=["MENDER"]
    )
    (kid,) = next_turn(s)  # NUMBER 1 - 2: nothing is drawn (never below 0)
    assert zones(kid[1])["equipped"] == [] and kid[1].result() == "loss"
    assert kid[1].ending == Ending.NO_CARD_TO_PLAY
    s = after_tester(game(tmp_path, '{op = "next", add = 2}'), deck=["KING"], equipped=["MENDER"])
    (kid,) = next_turn(s)  # 3 from a DECK of 2: "you immediately lose the game" (D.2)
    assert kid[1].ending == Ending.DREW_TOO_MANY


def test_a_later_effect_replaces_a_waiting_one_and_the_next_player_gets_it(tmp_path):
    s = after_tester(
        game(tmp_path, f'{{op = "next", add = 2}}, {IGNITED}'),
        deck=["KING", "JOKER"],
        equipped=["MENDER"],
    )
    assert s.next_card == ("ignited", 0)
    cfg = game(tmp_path, NO_ACTION, players=2)
    s = after_tester(
        cfg,
        deck=["KING", "JOKER", "EGGS"],
        equipped=["MENDER"],
        partner=["PROPHET"],
        ignited=["PROPHET"],
    )
    assert s.active == 1 and s.next_card == ("no_action", 0)
    kids = next_turn(s)  # player 2's PROPHET: no PROPHECY
    assert kids and all(k.desired == -1 and k.next_card is None for _, k in kids)


def test_the_effect_needs_a_later_turn_and_no_if_done_follows_it(tmp_path):
    """The card that makes the effect is not "the next card played": its own Ignite phase
    (D.4) turns it as usual. A `next` step acts on no card, so "if you do" cannot follow."""
    s = after_tester(game(tmp_path, '{op = "next", add = 3}'), deck=["KING"], equipped=["MENDER"])
    assert zones(s)["deck"] == ["KING", "TESTER*"]
    with pytest.raises(BadInput, match="'if you do' follows a move"):
        load_cards(game(tmp_path, f'{NO_ACTION}, {{op = "reverse", n = 2, if_done = true}}'))


@pytest.mark.parametrize(
    "step, message",
    [
        ('{op = "next"}', "gives 'effect' or 'add'"),
        ('{op = "next", effect = "ignited", add = 1}', "gives 'effect' or 'add'"),
        ('{op = "next", add = 0}', "add = 0 changes nothing"),
        ('{op = "next", add = 7}', r"must be in -6\.\.6, not 7"),
        ('{op = "next", effect = "ignite"}', "did you mean ignited"),
        ('{op = "next", effect = "ignited", zone = "deck"}', "takes no field 'zone'"),
    ],
)
def test_loader_refuses_a_malformed_next_step(tmp_path, step, message):
    with pytest.raises(BadInput, match=message):
        load_cards(game(tmp_path, step))


def test_words_of_the_next_step(tmp_path):
    cs = load_cards(game(tmp_path, f'{IGNITED}, {NO_ACTION}, {{op = "next", add = -1}}'))
    words = [step_words(st) for st in cs.cards[cs.labels.index("TESTER")].passive.steps]
    assert words == [
        "The next card played plays ignited (a passive one turns to its ignited side first)",
        "The next card played has no CARD ACTION (it still draws its NUMBER)",
        "The next card played draws 1 card fewer",
    ]


def test_positions_write_and_read_the_waiting_effect(tmp_path):
    s = after_tester(game(tmp_path, '{op = "next", add = -2}'), deck=["KING"], equipped=["MENDER"])
    data = s.to_json()
    assert data["next_card"] == {"add": -2}
    back = state_from_json(data, s.cards)
    assert back.next_card == ("add", -2) and back.key() == s.key()
    assert "next_card" not in replace(s, next_card=None).to_json()
    for bad, message in (
        ({"add": 0}, r"next_card: \{'add': 0\}"),
        ({"effect": "ignitd"}, "did you mean ignited"),
        ("ignited", "expected"),
    ):
        with pytest.raises(BadInput, match=message):
            state_from_json({**data, "next_card": bad}, s.cards)


def test_pruning_deck_rule_assumes_the_fewest_cards_an_effect_leaves(tmp_path):
    """The DECK rule (prune.py) counts the cards the PRINCESS must draw in the winning turn:
    with a "draws 2 fewer" step in the set, 2 fewer than her ignited NUMBER (here 1: 0)."""
    plain = prune.analyse(load_cards(game(tmp_path, IGNITED)))
    fewer = prune.analyse(load_cards(game(tmp_path, '{op = "next", add = -2}')))
    assert (plain.princess_number, fewer.princess_number) == (1, 0)

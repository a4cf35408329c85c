"""The reference engine one decision at a time (rules.py, "Actions"; solvers/common/game.py):
the stepped game is the game `play_game` plays, decision for decision and draw for draw."""

from __future__ import annotations

import hashlib
import itertools
import json

import pytest

from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.game import IllegalAction
from bombsolve.solvers.common.rng import SplitMix64, derive_seed
from bombsolve.solvers.dragon import game
from bombsolve.solvers.dragon.agents import AGENTS, STRATEGIES, make_agent, make_agents
from bombsolve.solvers.dragon.rules import (
    PICK,
    ROCKET,
    RULE_SAMPLES,
    Options,
    options_from_rules,
    pick_action,
    pick_cards,
    play_game,
    rocket_action,
    rocket_base,
    rules_of,
)
from tests.dragon.dragon_helpers import fc

OPTIONS = {
    "default": Options(),
    "gamepark": Options.parse("", preset="gamepark"),
    "close": Options(placement="close_up", rocket_timing="in_order", rocket_empty_slot=True),
    "under": Options(
        double_when="under", double_card="discard", string_card="discard", reshuffle_when="empty"
    ),
    "cont": Options(
        new_round="continue",
        tiebreak="round",
        two_player_deal=3,
        string_reshuffle=False,
        round_end="empty",
        partial_refill=True,
    ),
}
NAMES = ["random", "greedy", "position", "random", "greedy", "position"]


def _seats(n: int, seed: int) -> list[str]:
    return (NAMES[seed % 3 :] + NAMES)[:n]


def _record(g) -> list:
    return [
        g.scores,
        g.captures,
        g.round,
        g.turns_total,
        g.plays,
        g.stalled_rounds,
        g.reshuffles,
        g.winners(),
    ]


def test_play_game_gives_the_games_it_gave_before_the_stepping():
    """300 games (five readings, 2 to 6 players, mixed strategies), digested as the engine
    played them when it called the agents from inside the turn, before it went one
    decision at a time: scores, captures, lengths, plays, reshuffles, winners."""
    records = [
        _record(play_game(n, make_agents(_seats(n, seed)), seed, options))
        for (_, options), n, seed in itertools.product(OPTIONS.items(), range(2, 7), range(12))
    ]
    digest = hashlib.sha256(json.dumps(records).encode()).hexdigest()[:16]
    assert digest == "52811eb4c98a80fb"


def _stepped(n: int, seed: int, options: Options, names: list[str]):
    """Play through the front door: new_game, then apply each agent's act, state by state."""
    agents = make_agents(names)
    rngs = [SplitMix64(derive_seed(seed, p + 1)) for p in range(n)]
    state = game.new_game(seed, players=n, options=options)
    decisions = 0
    while game.outcome(state) is None:
        p = game.to_move(state)
        legal = game.legal_actions(state)
        state = game.apply(state, agents[p].act(game.view(state, p), legal, rngs[p]))
        decisions += 1
    return state, decisions


@pytest.mark.parametrize("reading", list(OPTIONS))
def test_stepped_games_are_play_game_games(reading):
    options = OPTIONS[reading]
    for n, seed in itertools.product(range(2, 7), range(4)):
        names = _seats(n, seed)
        state, decisions = _stepped(n, seed, options, names)
        ref = play_game(n, make_agents(names), seed, options)
        assert _record(state) == _record(ref), (reading, n, seed)
        assert decisions >= ref.turns_total * n
        assert game.outcome(state).winners == tuple(ref.winners())


def test_pick_actions_round_trip_and_the_ranges_do_not_overlap():
    f = 45
    singles = {pick_action([c], f) for c in range(f)}
    pairs = {pick_action([a, b], f) for a in range(f) for b in range(a + 1, f)}
    rockets = {rocket_action(s, f) for s in range(6)}
    assert singles == set(range(f))
    assert pairs == set(range(f, rocket_base(f))) and len(pairs) == f * (f - 1) // 2
    assert min(rockets) == rocket_base(f)
    for a, b in itertools.combinations(range(f), 2):
        assert pick_cards(pick_action([b, a], f), f) == [a, b]


def test_the_choices_are_face_down_until_all_have_chosen():
    state = game.new_game(3, players=3)
    assert state.decision == PICK and game.to_move(state) == 0
    before = [game.view(state, p) for p in range(3)]
    card = game.legal_actions(state)[0]
    after = game.apply(state, card)
    assert game.to_move(after) == 1
    assert game.view(after, 0).chosen == (card,)
    seen = game.view(after, 1)
    assert seen.decision == PICK and card in seen.unseen()
    assert seen.hand == before[1].hand and seen.row == before[1].row
    assert seen.hand_sizes == before[1].hand_sizes  # the chosen card is still in hand
    assert game.view(after, 2) == before[2]  # nothing of seat 1's choice shows to seat 2
    with pytest.raises(IllegalAction):
        game.apply(after, card)  # seat 1 does not hold seat 0's card


def _first_rocket(n: int):
    for seed in range(200):
        rng = SplitMix64(seed)
        state = game.new_game(seed, players=n)
        while game.outcome(state) is None:
            if state.decision == ROCKET:
                return state
            legal = game.legal_actions(state)
            state = game.apply(state, legal[rng.below(len(legal))])
    raise AssertionError("no Rocket in 200 games")


def test_a_rocket_asks_its_player_for_a_slot():
    state = _first_rocket(3)
    p = game.to_move(state)
    v = game.view(state, p)
    assert v.decision == ROCKET and state.fc(v.rocket).special == "rocket"
    assert v.rocket not in v.hand  # placed: out of the hand
    legal = game.legal_actions(state)
    assert legal == [rocket_action(s, 45) for s in v.slots]
    assert "Rocket" in game.describe(state, legal[0])
    others = [q for q in range(3) if q != p]
    assert all(game.view(state, q).decision == "" for q in others)
    after = game.apply(state, legal[-1])
    assert v.rocket in [c for s in after.row for c in s.cards] + after.discard + [
        c for k in after.kept for c in k
    ]


def test_greedy_sends_a_rocket_through_act_as_smart_rocket_does():
    from bombsolve.solvers.dragon.agents import smart_rocket

    state = _first_rocket(4)
    v = game.view(state, game.to_move(state))
    action = make_agent("greedy").act(v, game.legal_actions(state), SplitMix64(0))
    assert action == rocket_action(smart_rocket(v, v.rocket, list(v.slots)), 45)


def test_registry_and_specs():
    assert set(AGENTS) == set(STRATEGIES)
    assert make_agent("mc:8").samples == 8 and make_agent("pos").name == "position"
    for bad, needle in (
        ("greddy", "did you mean greedy"),
        ("montecarlo:x", "montecarlo:N"),
        ("montecarlo:0", "montecarlo:N"),
        ("random:3", "takes no parameter"),
    ):
        with pytest.raises(BadInput, match=needle):
            make_agent(bad)


def test_two_player_picks_are_pairs_and_a_lone_card_is_its_id():
    state = game.new_game(5, players=2)
    hand = sorted(state.hands[0])
    assert game.legal_actions(state) == sorted(
        pick_action([a, b], 45) for a, b in itertools.combinations(hand, 2)
    )
    state.hands[0] = [fc(5)]
    assert game.legal_actions(state) == [fc(5)]


def test_options_from_rules_reads_as_the_command_line():
    for name, values in RULE_SAMPLES.items():
        for value in values:
            text = f"{name}={str(value).lower() if isinstance(value, bool) else value}"
            assert options_from_rules([text]) == Options.parse(text)
    gp = Options.parse("", preset="gamepark")
    assert options_from_rules([], "gamepark") == gp
    assert options_from_rules(rules_of(gp)) == gp
    assert rules_of(Options(target=40, bad_luck=False)) == ["bad_luck=false", "target=40"]
    with pytest.raises(BadInput, match="target given twice"):
        options_from_rules(["target=40", "target=30"])
    with pytest.raises(BadInput, match="one option per --rule"):
        options_from_rules(["target=40,bad_luck=false"])


def test_new_game_is_the_replay_game():
    from click.testing import CliRunner

    from bombsolve.cli.main import cli

    r = CliRunner().invoke(cli, ["dragon", "replay", "--seed", "11", "-p", "3", "--json"])
    assert r.exit_code == 0, r.output
    state, _ = _stepped(3, 11, Options(), ["random"] * 3)
    assert json.loads(r.stdout)["scores"] == state.scores


def test_resample_keeps_the_view_and_redraws_the_hidden():
    state = _first_rocket(3)
    p = game.to_move(state)
    rng = SplitMix64(1)
    changed = False
    for q in range(3):
        for _ in range(4):
            other = game.resample(state, q, rng)
            assert game.view(other, q) == game.view(state, q)
            assert sorted(other.deck + [c for h in other.hands for c in h]) == sorted(
                state.deck + [c for h in state.hands for c in h]
            )
            for card, owner in other.queue[other.queue_at :]:
                assert card in other.hands[owner]  # revealed cards stay where they are
            changed |= other.hands != state.hands
            game.apply(other, game.legal_actions(other)[0])  # still a playable state
    assert changed and game.to_move(state) == p

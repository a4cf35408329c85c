"""One set of checks over every game's front door (solvers/common/game.py): a game that
passes them keeps the contract the CLI, the scripts and the studies rely on."""

from __future__ import annotations

import dataclasses
import importlib
import pickle

import pytest

from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.game import FRONT_DOOR, IllegalAction, Kernel, Result
from bombsolve.solvers.common.rng import SplitMix64

GAMES = ("allisbomb", "bombastic", "dragon", "bomber")
#: A safeguard for the playouts below: no game of these four lasts this many actions.
MAX_ACTIONS = 20_000
#: Games whose rulebook hides nothing from a player, so that `resample` has nothing to
#: draw again: All Is Bomb (rulebook B: "You can examine the DECK anytime you wish"; the
#: EQUIPPED CARDS and the piles lie open on the table).
OPEN_INFORMATION = {"allisbomb"}


@pytest.fixture(params=GAMES)
def game(request):
    return importlib.import_module(f"bombsolve.solvers.{request.param}")


def random_playout(game, seed: int, players: int, options=None):
    """Play uniformly random legal actions from `new_game(seed)`; return the actions taken,
    the states met and the final state."""
    rng = SplitMix64(seed)
    state = game.new_game(seed, players=players, options=options)
    actions, states = [], [state]
    while game.outcome(state) is None:
        legal = game.legal_actions(state)
        assert legal, "a game that is not over has legal actions"
        action = legal[rng.below(len(legal))]
        state = game.apply(state, action)
        actions.append(action)
        states.append(state)
        assert len(actions) < MAX_ACTIONS, "the game does not end"
    return actions, states


def test_front_door_exports_the_contract(game):
    missing = [name for name in FRONT_DOOR if not hasattr(game, name)]
    assert not missing, f"{game.__name__} lacks {missing}"
    assert game.NAME == game.__name__.rsplit(".", 1)[1]
    assert list(game.PLAYERS) == sorted(game.PLAYERS) and game.PLAYERS
    assert dataclasses.is_dataclass(game.Options)
    assert game.Options.__dataclass_params__.frozen
    assert all(isinstance(k, Kernel) and k.game == game.NAME for k in game.KERNELS)
    assert game.KERNELS, "every game has at least one kernel"
    assert game.STUDIES and all(callable(s) for s in game.STUDIES.values())


def test_seeded_games_are_deterministic(game):
    for players in game.PLAYERS:
        first = random_playout(game, 7, players)
        again = random_playout(game, 7, players)
        assert first[0] == again[0]
        assert game.outcome(first[1][-1]) == game.outcome(again[1][-1])
    games = {tuple(random_playout(game, seed, game.PLAYERS[0])[0]) for seed in range(6)}
    assert len(games) > 1, "different seeds give different games"


def test_actions_are_dense_sorted_and_apply_leaves_the_state(game):
    for seed in range(4):
        for players in game.PLAYERS:
            actions, states = random_playout(game, seed, players)
            for state, action in zip(states, actions, strict=False):
                legal = game.legal_actions(state)
                assert legal == sorted(set(legal)) and all(a >= 0 for a in legal)
                assert 0 <= game.to_move(state) < players
                assert isinstance(game.describe(state, action), str)
                before = game.view(state, game.to_move(state))
                game.apply(state, action)
                assert game.view(state, game.to_move(state)) == before
                assert game.legal_actions(state) == legal, "apply changed its argument"
            final = states[-1]
            assert game.legal_actions(final) == [] and game.to_move(final) == -1
            result = game.outcome(final)
            assert isinstance(result, Result) and isinstance(result.ending, str)
            assert all(0 <= w < players for w in result.winners)


def test_an_illegal_action_is_refused(game):
    state = game.new_game(3)
    legal = game.legal_actions(state)
    for action in (-1, max(legal) + 1):
        with pytest.raises(IllegalAction):
            game.apply(state, action)


def test_a_view_hides_what_the_player_may_not_see(game):
    """Resampling what a player does not see never changes their view; and over a few
    resamples, the hidden part does change (in each game that hides something), or never
    does (in a game of open information)."""
    rng = SplitMix64(11)
    hidden_changed = False
    for seed in range(3):
        players = game.PLAYERS[-1]
        _, states = random_playout(game, seed, players)
        for state in states[:: max(1, len(states) // 5)][:5]:
            if game.outcome(state) is not None:
                continue
            for player in range(players):
                seen = game.view(state, player)
                for _ in range(3):
                    other = game.resample(state, player, rng)
                    assert game.view(other, player) == seen
                    hidden_changed |= pickle.dumps(other) != pickle.dumps(state)
    if game.NAME in OPEN_INFORMATION:
        assert not hidden_changed, "a game of open information resampled a position"
    else:
        assert hidden_changed, "resample never changed what the player does not see"


def test_options_round_trip_through_rule(game):
    assert game.options_from_rules([]) == game.Options()
    assert game.rules_of(game.Options()) == []
    fields = {f.name for f in dataclasses.fields(game.Options)}
    assert set(game.RULE_SAMPLES) <= fields and game.RULE_SAMPLES
    for name, values in game.RULE_SAMPLES.items():
        for value in values:
            text = f"{name}={str(value).lower() if isinstance(value, bool) else value}"
            options = game.options_from_rules([text])
            assert getattr(options, name) == value, text
            assert game.options_from_rules(game.rules_of(options)) == options
    name = next(iter(game.RULE_SAMPLES))
    with pytest.raises(BadInput, match="did you mean"):
        game.options_from_rules([f"{name}x={game.RULE_SAMPLES[name][0]}"])


def test_every_agent_plays_legal_actions(game):
    names = {spec.split(":", 1)[0] for spec in game.QUICK_AGENTS}
    assert names == set(game.AGENTS), "QUICK_AGENTS covers every registered agent"
    with pytest.raises(BadInput):
        game.make_agent("no-such-agent")
    for spec in game.QUICK_AGENTS:
        agent = game.make_agent(spec)
        rng = SplitMix64(5)
        for seed in range(2):
            state = game.new_game(seed, players=game.PLAYERS[0])
            steps = 0
            while game.outcome(state) is None and steps < 400:
                legal = game.legal_actions(state)
                action = agent.act(game.view(state, game.to_move(state)), legal, rng)
                assert action in legal, f"{spec} chose {action}, not in {legal}"
                state = game.apply(state, action)
                steps += 1


@pytest.mark.slow
def test_reference_and_kernel_agree(game):
    for seed in range(12):
        for players in game.PLAYERS:
            ref, ker = game.reference_and_kernel(seed, players=players)
            assert ref == ker, (seed, players)

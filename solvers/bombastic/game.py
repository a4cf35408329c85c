"""Bombastic under the front-door contract (solvers/common/game.py).

A `Game` is the reference `rules.State` and the generator of the chance moves still to
come. Chance is a player in the reference engine ("Peek at 3 in a row. Opponent shuffles
them.": with ``shuffle=chance`` the new order is random, `rules.CHANCE`); here `apply`
plays its move at once, drawn from the game's own `SplitMix64`, so the seat to move is
always a player. The draws are those of `agents.play_game`: the setup and then every
chance move from one `SplitMix64(seed)`, so `new_game(seed)` is the game
`bombsolve bombastic replay --seed SEED` shows, and game N of `bombsolve bombastic play
--seed SEED` is `new_game(match_game_seed(SEED, N))`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import numpy as np

from bombsolve.solvers.bombastic import kernel as K
from bombsolve.solvers.bombastic.agents import View, determinize, view_of
from bombsolve.solvers.bombastic.beliefs import FastBelief
from bombsolve.solvers.bombastic.readings import BY_NAME
from bombsolve.solvers.bombastic.replay import describe as describe_decision
from bombsolve.solvers.bombastic.rules import (
    CHANCE,
    Ending,
    Options,
    SplitMix64,
    State,
    random_game,
)
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.game import IllegalAction, Result
from bombsolve.solvers.common.options import changed_rules, parse_rule_pairs

NAME = "bombastic"
#: "2 players" (rulebook, first page).
PLAYERS = (2,)

#: Values a test may set each rule option to (`readings.READINGS` names them all).
RULE_SAMPLES: dict[str, tuple] = {
    "second_swap": ("distinct", "disjoint", "any"),
    "shuffle": ("chance", "opponent"),
    "deck_known": (True, False),
    "alarms": (True, False),
    "promos": (False, True),
    "turn_cap": (60, 1, 200),
}


@dataclasses.dataclass(frozen=True)
class Game:
    """A game at the front door: the reference state, never changed once made (`apply`
    works on a copy), and the state of the `SplitMix64` that draws its chance moves."""

    state: State
    chance: int


def options_from_rules(texts: Iterable[str]) -> Options:
    """Options from ``--rule NAME=VALUE`` texts (`readings.READINGS` names them); an
    unknown name or a bad value raises `BadInput` naming it."""
    return Options(**parse_rule_pairs(texts, {r.name: r.kind for r in BY_NAME.values()}))


def rules_of(options: Options) -> list[str]:
    """The ``--rule`` texts that rebuild `options` (the fields changed from the default).

    Cards taken out of the deck (`Options.removed`) have no ``--rule`` (the CLI's
    ``--without`` sets them): options with some raise `BadInput`.
    """
    if options.removed:
        raise BadInput(
            f"removed cards {list(options.removed)} have no --rule; expected them with --without"
        )
    return changed_rules(options, BY_NAME)


def _players(players: int | None) -> None:
    if players is not None and players not in PLAYERS:
        raise BadInput(f"Bombastic is played by {PLAYERS[0]} players, not {players}")


def _settle(state: State, rng: SplitMix64) -> Game:
    """Play the chance moves due now (as `agents.play_game` does) and wrap the state."""
    while state.to_move == CHANCE:
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    return Game(state, rng.state)


def new_game(seed: int, players: int | None = None, options: Options | None = None) -> Game:
    """A new game ("Setup"), its tiles and action deck shuffled from `SplitMix64(seed)`."""
    _players(players)
    rng = SplitMix64(seed)
    return _settle(State.setup(rng, options or Options()), rng)


def to_move(game: Game) -> int:
    """The seat that decides next (0 plays X and moves first), or -1 once over."""
    return -1 if game.state.is_over() else game.state.to_move


def legal_actions(game: Game) -> list[int]:
    """The legal action numbers (`rules.ACTION_*`), increasing; empty once over."""
    return game.state.legal_actions()


def apply(game: Game, action: int) -> Game:
    """The game after `action` (and any chance move it calls for); `game` is unchanged."""
    if action not in game.state.legal_actions():
        raise IllegalAction(
            f"action {action} is not legal in phase {game.state.phase.name}; "
            f"expected one of {game.state.legal_actions()}"
        )
    state = game.state.clone()
    state.apply(action)
    rng = SplitMix64(0)
    rng.state = game.chance
    return _settle(state, rng)


def describe(game: Game, action: int) -> str:
    """The decision in the card's words, e.g. ``X: uses card: Peek at 2. ...``."""
    return describe_decision(game.state, action)


def outcome(game: Game) -> Result | None:
    """None while the game goes on; else the winner and the ending ("Game End"). The
    study turn cap (`Options.turn_cap`, not a rule) ends a game with no winner."""
    state = game.state
    if not state.is_over():
        return None
    winners = () if state.winner is None else (state.winner,)
    return Result(winners, state.ending.value)


def view(game: Game, player: int) -> View:
    """What `player` may see (`agents.View`): never the tiles, the deck order or the
    opponent's private observations."""
    return view_of(game.state, player)


def resample(game: Game, player: int, rng: SplitMix64) -> Game:
    """A game `player` cannot tell from `game`: the grid drawn from their exact beliefs,
    the unseen part of the deck and the chance moves to come drawn again, all from `rng`.

    The opponent's record of what it saw is not redrawn (its peeks depend on the grids
    before): in the new game it holds nothing.
    """
    seen = view(game, player)
    belief = FastBelief.uniform()
    for event in seen.observations:
        belief.update(event)
    state = determinize(seen, belief, np.random.default_rng(rng.next()))
    # determinize gives the seat it plays for the move; here the game goes on as it was.
    old = game.state
    state.to_move, state.turn_player, state.slot = old.to_move, old.turn_player, old.slot
    state.cycled = list(old.cycled)
    return Game(state, rng.next())


def reference_and_kernel(
    seed: int, players: int | None = None, options: Options | None = None
) -> tuple[tuple, tuple]:
    """One uniformly random game from `seed` (its decisions and chance moves drawn from
    the seed's generator) in the reference engine (`rules.random_game`) and in the kernel
    (`kernel.random_game`): winner, ending, turn number, decisions and the final grid."""
    _players(players)
    options = options or Options()
    ref = random_game(seed, options)
    cards, cap, second, shuffle_by = K.options_args(options)
    s = np.zeros(K.STATE_SIZE, dtype=np.int32)
    steps = K.random_game(seed, cards, cap, second, s, shuffle_by)
    endings = list(Ending)
    reference = (
        -1 if ref.winner is None else ref.winner,
        ref.ending.name,
        ref.turn_number,
        len(ref.history),
        tuple(ref.tiles),
    )
    kernel = (
        int(s[K.WINNER]),
        endings[int(s[K.ENDING])].name,
        int(s[K.TURN_NUMBER]),
        int(steps),
        tuple(int(v) for v in s[:9]),
    )
    return reference, kernel

"""All Is Bomb behind the front door every game keeps (solvers/common/game.py), over the
reference engine (`rules`).

Actions are dense ints: action k is the k-th move of `State.legal_moves()` (whole turns,
each the tuple of choices the player makes in it, in lexicographic order; rules.py).
For example, the solo deal of seed 0 (`new_game(0)`) EQUIPS JOKER, JOKER and GUARDIAN;
both JOKERs are URGENT, so the moves are ``(0, 0), (0, 1), (0, 2), (1, 0), (1, 1),
(1, 2)``: which JOKER to play, then which EQUIPPED CARD its action puts into the DISCARD
PILE (by card id: the PRINCESS its draw has just EQUIPPED comes first). The actions are
0..5: action 3 is ``(1, 0)``, the second JOKER discarding the PRINCESS. `describe` says
a move in words.

What a player sees (`view`): everything. Rulebook B, "Setup": "You can examine the DECK
anytime you wish"; the EQUIPPED CARDS of both players, the PLAY AREA and the DISCARD PILE
lie open on the table (rulebook B, F "Setup": the players share them), the first
PROPHET is set aside as a reminder (E.1), and no chance event follows the shuffle. So All Is Bomb is a game of open
information: a `View` holds the whole position and `resample` has nothing to draw again.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bombsolve.solvers.allisbomb.cards.cards import CardSet, load_cards
from bombsolve.solvers.allisbomb.cards.config import RULE_OPTIONS, Options
from bombsolve.solvers.allisbomb.rules import deals
from bombsolve.solvers.allisbomb.rules.rules import Ending, Outcome, State
from bombsolve.solvers.allisbomb.rules.rules import new_game as setup
from bombsolve.solvers.allisbomb.search.registry import AGENTS, QUICK_AGENTS, make_agent
from bombsolve.solvers.allisbomb.warmup import KERNELS
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.game import IllegalAction, Result
from bombsolve.solvers.common.options import changed_rules, parse_rule_pairs
from bombsolve.solvers.common.rng import SplitMix64

if TYPE_CHECKING:
    from bombsolve.solvers.common.runner import Study

__all__ = [
    "AGENTS",
    "KERNELS",
    "NAME",
    "PLAYERS",
    "QUICK_AGENTS",
    "RULE_SAMPLES",
    "STUDIES",  # noqa: F822 (made on first use by __getattr__)
    "Options",
    "View",
    "apply",
    "describe",
    "legal_actions",
    "make_agent",
    "matrix_study",
    "new_game",
    "options_from_rules",
    "outcome",
    "reference_and_kernel",
    "resample",
    "rules_of",
    "to_move",
    "view",
]

NAME = "allisbomb"
#: Solo and the co-operative two-player game (rulebook B, F).
PLAYERS: tuple[int, ...] = (1, 2)

#: Every choice of each `--rule` option (all four are flags; `waking_up_rules` defaults to
#: None, "exactly when WAKING UP is in play", which no text sets).
RULE_SAMPLES: dict[str, tuple[object, ...]] = {name: (True, False) for name in RULE_OPTIONS}

#: The fields of `Options` given by their own command-line options rather than `--rule`.
_OWN_FLAGS = {
    "expansions": "--expansions",
    "hands": "--hands",
    "blitz": "--blitz",
    "players": "--players",
    "cards_file": "--cards",
    "cards_version": "--cards",
    "allow_nonstandard": "--allow-nonstandard",
    "removed": "a campaign game",
    "extra_sets": "a campaign game",
}


def options_from_rules(texts: Iterable[str]) -> Options:
    """The options `--rule NAME=VALUE` texts give, as `bombsolve allisbomb --rule` reads
    them (`config.RULE_OPTIONS`, each true or false). Raises BadInput naming an unknown
    option (with the nearest) or a bad value.

    >>> options_from_rules(["give_optional=true"]).give_optional
    True
    """
    return Options(**parse_rule_pairs(texts, {name: bool for name in RULE_OPTIONS}))


def rules_of(options: Options) -> list[str]:
    """The `--rule` texts that rebuild `options`: its rule options that differ from their
    defaults. Raises BadInput when another field differs (expansions, Blitz, the card
    set...): `--rule` cannot say it, its own command-line option does.

    >>> rules_of(Options(gifts_distinct=False))
    ['gifts_distinct=false']
    """
    default = Options()
    other = [
        f.name
        for f in dataclasses.fields(options)
        if f.name not in RULE_OPTIONS and getattr(options, f.name) != getattr(default, f.name)
    ]
    if other:
        raise BadInput(
            f"{other[0]} is not a --rule option; it is given by {_OWN_FLAGS.get(other[0], 'its own option')}"
        )
    return changed_rules(options, RULE_OPTIONS)


def new_game(seed: int, players: int | None = None, options: Options | None = None) -> State:
    """The deal `bombsolve allisbomb --seed SEED` solves with these options
    (`deals.deal_from_seed`: `np.random.default_rng(SEED)`), set up (rulebook B, F).

    `players` None: `options.players` (1 by default). Raises BadInput for options that do
    not make sense together.
    """
    config = _config(players, options)
    return setup(load_cards(config), deals.deal_from_seed(config, seed))


def _config(players: int | None, options: Options | None) -> Options:
    config = options if options is not None else Options()
    if players is not None and players != config.players:
        config = dataclasses.replace(config, players=players)
    return config.validate()


def to_move(state: State) -> int:
    """The seat whose turn it is (rulebook F, "the active player"), -1 once the game is over."""
    return -1 if state.is_over() else state.active


def legal_actions(state: State) -> list[int]:
    """The actions of the active player: 0..n-1 for the n moves of `State.legal_moves()`
    (empty once the game is over)."""
    if state.is_over():
        return []
    return list(range(len(state.legal_moves())))


def _move(state: State, action: int) -> tuple[int, ...]:
    moves = state.legal_moves() if not state.is_over() else []
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < len(moves):
        where = "the game is over" if not moves else f"expected 0..{len(moves) - 1}"
        raise IllegalAction(f"action {action!r} is not legal at turn {state.turn + 1}: {where}")
    return moves[action]


def apply(state: State, action: int) -> State:
    """The position after the active player plays move number `action` (rulebook D, one
    whole turn); `state` is unchanged. Raises IllegalAction for an action not legal."""
    return state.copy().apply(_move(state, action))


def describe(state: State, action: int) -> str:
    """The turn `action` plays, in the rulebook's words (`State.describe_move`), e.g.
    'player 1: play GUARDIAN (passive), number 3: ...; draw 3: ...'."""
    return f"player {state.active + 1}: " + "; ".join(
        line.strip() for line in state.describe_move(_move(state, action))
    )


#: The endings in the rulebook's words (E, "How to Win" and "Losing the Game").
WIN_WORDS = "all win conditions are met"
LOSS_WORDS = {
    Ending.DREW_TOO_MANY: "you would draw more cards than there are available in the DECK",
    Ending.NO_CARD_TO_PLAY: "you can't play any card in the Play A Card phase",
    Ending.CONDITIONS_UNMET: "you don't fulfill all win conditions when the game ends",
}


def outcome(state: State) -> Result | None:
    """None while the game goes on; a win for every seat (the two-player game is
    co-operative, rulebook F: "players win or lose together"), or a loss for all, with the
    ending in the rulebook's words."""
    if not state.is_over():
        return None
    if state.outcome is Outcome.WIN:
        return Result(tuple(range(state.config.players)), WIN_WORDS)
    return Result((), LOSS_WORDS.get(Ending(state.ending), f"lost ({Ending(state.ending)!r})"))


@dataclass(frozen=True)
class View:
    """What a player sees: the whole position (module doc: rulebook B, "You can examine the
    DECK anytime you wish"), and whose view it is.

    deck top first, discard bottom first, zone/ignited/played per card id (as `State`).
    `cards` is not compared: the options name the cards.
    """

    player: int
    options: Options
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    zone: tuple[int, ...]
    ignited: tuple[bool, ...]
    desired: int
    played: tuple[bool, ...]
    gift_plays: int
    active: int
    turn: int
    next_card: tuple[str, int] | None
    outcome: str
    ending: int
    cards: CardSet = field(compare=False, repr=False)

    def state(self) -> State:
        """The position this view shows, for an agent to think on (a new `State`)."""
        return State(
            self.cards,
            list(self.deck),
            list(self.discard),
            list(self.zone),
            list(self.ignited),
            self.desired,
            list(self.played),
            self.gift_plays,
            self.active,
            Outcome(self.outcome),
            Ending(self.ending),
            self.turn,
            next_card=self.next_card,
        )


def view(state: State, player: int) -> View:
    """What `player` (0-based seat) sees of `state`: all of it (module doc)."""
    if not 0 <= player < state.config.players:
        raise BadInput(f"player {player} is not a seat of a {state.config.players}-player game")
    return View(
        player,
        state.config,
        tuple(state.deck),
        tuple(state.discard),
        tuple(state.zone),
        tuple(state.ignited),
        state.desired,
        tuple(state.played),
        state.gift_plays,
        state.active,
        state.turn,
        state.next_card,
        state.outcome.value,
        int(state.ending),
        state.cards,
    )


def resample(state: State, player: int, rng: SplitMix64) -> State:
    """A position `player` cannot tell from `state`: an exact copy of it (the card set
    shared), since a player sees everything (module doc); `rng` is not drawn from."""
    view(state, player)  # refuses a seat the game does not have
    return copy.deepcopy(state, {id(state.cards): state.cards})


#: The node limit of `reference_and_kernel`: the limit of the differential tests of the
#: other configurations (tests/allisbomb/test_allisbomb_solver.py), where the two searches
#: decide most base deals and leave the rest undecided at the same position.
DIFFERENTIAL_NODE_LIMIT = 400


def reference_and_kernel(
    seed: int, players: int | None = None, options: Options | None = None
) -> tuple[tuple, tuple]:
    """The deal of `new_game(seed, players, options)` decided by the plain-Python reference
    search and by the Numba kernel in the same move order, under `DIFFERENTIAL_NODE_LIMIT`:
    each as (verdict, positions entered, loss-reason bits, winning line), which must be
    equal (DESIGN.md, "Shape": the kernel is never the only copy of a rule)."""
    from bombsolve.solvers.allisbomb.search.search import reference_search
    from bombsolve.solvers.allisbomb.search.solver import solve

    config = _config(players, options)
    deal = deals.deal_from_seed(config, seed)
    ref = reference_search(setup(load_cards(config), deal), node_limit=DIFFERENTIAL_NODE_LIMIT)
    ker = solve(config, deal, node_limit=DIFFERENTIAL_NODE_LIMIT, portfolio=False)
    return (
        (ref.outcome, ref.nodes, ref.loss_reason, tuple(ref.solution)),
        (ker.outcome, ker.nodes, ker.loss_reason, tuple(ker.solution)),
    )


def matrix_study(deals: int, seed: int, **sweep: object) -> Study:
    """The sweep of every standard configuration (`bombsolve allisbomb sweep --matrix`:
    `study.matrix_configs`), `sweep` as `study.sweep_study` takes them."""
    from bombsolve.solvers.allisbomb.studies.study import matrix_configs, sweep_study

    return sweep_study(matrix_configs(), deals, seed, **sweep)


def _studies() -> dict[str, Callable[..., Study]]:
    from bombsolve.solvers.allisbomb.search.exhaust import exhaust_study, group_study, sample_study
    from bombsolve.solvers.allisbomb.studies.sensitivity import sensitivity_study
    from bombsolve.solvers.allisbomb.studies.study import campaign_study, sweep_study

    return {
        "sweep": sweep_study,
        "matrix": matrix_study,
        "campaign": campaign_study,
        "exhaust": exhaust_study,
        "exhaust-sample": sample_study,
        "exhaust-groups": group_study,
        "sensitivity": sensitivity_study,
    }


def __getattr__(name: str) -> object:
    """`STUDIES`, the batch studies ({name: the function building its `runner.Study`}),
    made on first use: the study modules bring pandas and the kernels' modules, seconds of
    imports that the engine, the agents and the kernel list do not need."""
    if name == "STUDIES":
        studies = _studies()
        globals()["STUDIES"] = studies
        return studies
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

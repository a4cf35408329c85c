"""The All Is Bomb agents behind one registry and one signature (solvers/common/game.py):
``act(view, legal, rng) -> int``, an action of `game.legal_actions` (the index of a move
in `State.legal_moves()` order).

A view shows the whole position (rulebook B: "You can examine the DECK anytime you
wish"; `game.View`), so an agent that reads the DECK order sees only what a player at the
table sees: none of these agents is omniscient.

* ``random``     a uniformly random legal action, drawn from the `SplitMix64` it is given.
* ``greedy``     `agents.greedy_choice`: one turn ahead on `agents.greedy_score`, avoiding
                 positions already met this game (the `play_greedy` player, move for move).
* ``lookahead``  `agents.LookaheadPlayer` (the `play_lookahead` / `lookahead_game` player,
                 move for move); ``lookahead:N`` expands at most N positions per move
                 (default `agents.DEFAULT_BUDGET`).
* ``solver``     perfect play within a node limit: a move that keeps a WIN found by the
                 plain-Python reference search (`search.reference_search`), else the first
                 legal move; ``solver:N`` searches at most N positions per move.

The stateful agents (greedy, lookahead, solver) remember the game they are playing and
start afresh when a view's turn is not later than the last one they saw (a new game).
"""

from __future__ import annotations

from bombsolve.solvers.allisbomb.rules.rules import Outcome
from bombsolve.solvers.allisbomb.search.agents import (
    DEFAULT_BUDGET,
    DEFAULT_WEIGHTS,
    Budget,
    LookaheadPlayer,
    greedy_choice,
)
from bombsolve.solvers.common.errors import BadInput, unknown
from bombsolve.solvers.common.rng import SplitMix64

#: The reference search's budget per move of the ``solver`` agent by default
#: (`solver.REFERENCE_FIRST`: enough for most base-game deals).
SOLVER_NODES = 20_000

AGENTS: dict[str, str] = {
    "random": "a uniformly random legal move",
    "greedy": "one turn ahead on greedy_score, avoiding positions met this game",
    "lookahead": "a careful player: up to 4 turns ahead on lookahead_score "
    "(lookahead:N: at most N positions per move, default 250)",
    "solver": "perfect play within a node limit: a move keeping a WIN the reference search "
    f"finds (solver:N: at most N positions per move, default {SOLVER_NODES:,}), else the first",
}

#: One spec per agent, cheap enough for a few games in a test.
QUICK_AGENTS: tuple[str, ...] = ("random", "greedy", "lookahead:40", "solver:300")


class RandomAgent:
    """A uniformly random legal action."""

    name = "random"

    def act(self, view, legal: list[int], rng: SplitMix64) -> int:
        """One of `legal`, uniformly at random from `rng`."""
        return legal[rng.below(len(legal))]


class _OneGame:
    """An agent that remembers the game it plays: it starts afresh when a view's turn is
    not later than the last one it saw."""

    def __init__(self) -> None:
        self._turn: int | None = None

    def _new_game(self, view) -> bool:
        fresh = self._turn is None or view.turn <= self._turn
        self._turn = view.turn
        return fresh


class GreedyAgent(_OneGame):
    """The greedy player (`agents.play_greedy`): the move whose position scores best on
    `agents.greedy_score`, positions already met this game marked down."""

    name = "greedy"

    def act(self, view, legal: list[int], rng: SplitMix64) -> int:
        """The greedy move of the position `view` shows (`rng` is not drawn from)."""
        if self._new_game(view):
            self._seen: set[tuple] = set()
        s = view.state()
        self._seen.add(s.key())
        k, child = greedy_choice(s, self._seen)
        self._seen.add(child.key())
        return legal[k]


class LookaheadAgent(_OneGame):
    """The lookahead player (`agents.lookahead_game`) with `budget`."""

    name = "lookahead"

    def __init__(self, budget: Budget = DEFAULT_BUDGET) -> None:
        super().__init__()
        self.budget = budget

    def act(self, view, legal: list[int], rng: SplitMix64) -> int:
        """The lookahead player's move in the position `view` shows (`rng` not drawn from)."""
        if self._new_game(view):
            self._player = LookaheadPlayer(self.budget, DEFAULT_WEIGHTS)
        s = view.state()
        move, _child = self._player.choose(s)
        moves = [m for m, _c, _k in self._player.children[s.key()]]
        return legal[moves.index(move)]


class SolverAgent(_OneGame):
    """Perfect play within `nodes` positions per move: the first move of a WIN the
    reference search finds (`search.reference_search`), kept while the game follows it;
    the first legal move when the search finds none (a loss, or undecided)."""

    name = "solver"

    def __init__(self, nodes: int = SOLVER_NODES) -> None:
        super().__init__()
        self.nodes = nodes

    def act(self, view, legal: list[int], rng: SplitMix64) -> int:
        """A move keeping a WIN of the position `view` shows, else ``legal[0]``."""
        from bombsolve.solvers.allisbomb.search.search import reference_search

        if self._new_game(view):
            self._line: dict[tuple, tuple[int, ...]] = {}
        s = view.state()
        key = s.key()
        if key not in self._line:
            found = reference_search(s, node_limit=self.nodes)
            if found.outcome != "win":
                return legal[0]
            # remember the whole line: each later position of it plays on without a search
            at = s.copy()
            for move in found.solution:
                self._line[at.key()] = move
                at.apply(move)
                if at.outcome is Outcome.WIN:
                    break
        return legal[s.legal_moves().index(self._line[key])]


def _count(name: str, param: str, spec: str) -> int:
    try:
        value = int(param.replace("_", "").replace(",", ""))
    except ValueError:
        raise BadInput(f"agent parameter {param!r} in {spec!r}: expected a whole number") from None
    if value < 1:
        raise BadInput(f"agent parameter {param!r} in {spec!r}: expected 1 or more positions")
    return value


def make_agent(spec: str):
    """The agent `spec` names: ``name`` or ``name:N`` (lookahead, solver: positions per
    move). Raises BadInput naming an unknown agent (with the nearest) or a bad parameter.

    >>> make_agent("lookahead:40").budget.positions
    40
    """
    name, colon, param = spec.strip().partition(":")
    if name not in AGENTS:
        raise unknown("agent", name, AGENTS)
    if not colon:
        return {
            "random": RandomAgent,
            "greedy": GreedyAgent,
            "lookahead": LookaheadAgent,
            "solver": SolverAgent,
        }[name]()
    if name == "lookahead":
        return LookaheadAgent(Budget(DEFAULT_BUDGET.depth, _count(name, param, spec)))
    if name == "solver":
        return SolverAgent(_count(name, param, spec))
    raise BadInput(f"agent {name!r} takes no parameter (got {spec!r})")

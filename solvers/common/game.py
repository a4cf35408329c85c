"""The contract of a game package's front door (DESIGN.md, "Shape").

Every game package, ``solvers/<game>/__init__.py``, exports the same names, so that a
reader who knows one game knows all four, and one conformance test
(``tests/test_conformance.py``) runs the same checks over every game:

``NAME``
    The game's command name: ``"allisbomb"``, ``"bombastic"``, ``"dragon"``, ``"bomber"``.
``PLAYERS``
    The player counts the game supports (a tuple of ints, smallest first).
``Options``
    The rule options: a frozen dataclass, one field per point the rulebook leaves open,
    each with its documented default. ``Options()`` is the rulebook's game.
``options_from_rules(texts) -> Options``
    Options from ``--rule NAME=VALUE`` texts as a user types them; an unknown name or a bad
    value raises `BadInput` naming it (and the nearest name).
``rules_of(options) -> list[str]``
    The ``--rule`` texts that rebuild ``options`` (only the fields that differ from the
    default), so ``options_from_rules(rules_of(o)) == o``.
``RULE_SAMPLES``
    ``{option name: (values...)}``: values a test may set each option to (every choice of
    a choice or a flag, a few of a number).
``new_game(seed, players=None, options=None) -> State``
    A new game, its shuffle and deal drawn from ``seed`` (``players=None``: the smallest
    count in ``PLAYERS``).
``to_move(state) -> int``
    The seat that acts next (0-based), or -1 once the game is over.
``legal_actions(state) -> list[int]``
    The actions of the seat to move, as dense non-negative ints in increasing order; empty
    once the game is over.
``apply(state, action) -> State``
    The state after ``action``; ``state`` itself is left unchanged. An action not in
    ``legal_actions(state)`` raises `IllegalAction`.
``describe(state, action) -> str``
    The action in the rulebook's words, for the seat to move.
``outcome(state) -> Result | None``
    None while the game goes on; at its end, who won and the rulebook's name of the ending.
``view(state, player) -> View``
    What ``player`` may see (a frozen, comparable value): nothing the rulebook hides from
    that player.
``resample(state, player, rng) -> State``
    A state ``player`` cannot tell from ``state``: what they do not see drawn again, at
    random from ``rng`` (`SplitMix64`), consistently with everything they have seen.
``AGENTS``
    ``{name: one-line description}`` of the registered agents.
``make_agent(spec) -> Agent``
    The agent ``spec`` names (``name`` or ``name:PARAM``); an unknown name raises `BadInput`.
``QUICK_AGENTS``
    Specs of every registered agent, cheap enough to play a few games in a test.
``reference_and_kernel(seed, players=None, options=None) -> tuple[object, object]``
    One random case (a deal, a playout) from ``seed`` run through the reference engine and
    through the kernel: two values that must be equal.
``KERNELS``
    The game's Numba kernels, as `Kernel` records (warm-up, compile estimates).
``STUDIES``
    ``{name: callable}``: the game's batch studies.

An `Agent` chooses with ``act(view, legal, rng) -> int``: its seat's view, the legal
actions and the one random generator, `bombsolve.solvers.common.rng.SplitMix64`.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.rng import SplitMix64

#: The names every front door exports.
FRONT_DOOR = (
    "NAME",
    "PLAYERS",
    "Options",
    "options_from_rules",
    "rules_of",
    "RULE_SAMPLES",
    "new_game",
    "to_move",
    "legal_actions",
    "apply",
    "describe",
    "outcome",
    "view",
    "resample",
    "AGENTS",
    "make_agent",
    "QUICK_AGENTS",
    "reference_and_kernel",
    "KERNELS",
    "STUDIES",
)


class IllegalAction(BadInput):
    """An action that is not among the legal actions of the position."""


@dataclass(frozen=True)
class Result:
    """How a game ended: the winning seats (all seats of a co-operative win, none of a loss)
    and the ending in the rulebook's words."""

    winners: tuple[int, ...]
    ending: str


class Agent(Protocol):
    """Who chooses an action for a seat, seeing only that seat's view."""

    name: str

    def act(self, view: Any, legal: list[int], rng: SplitMix64) -> int:
        """Return one of ``legal``."""
        ...


@dataclass(frozen=True)
class Kernel:
    """One kernel of a game: what it is, its compile estimate, its entry points and a call
    that compiles them (a tiny run)."""

    game: str
    part: str
    title: str
    #: Cold-compile seconds on the 2-core AMD EPYC machine, empty cache, rounded up
    #: (results/PERFORMANCE.md, "Cold compile of each kernel").
    estimate: float
    entries: Callable[[], list]
    warm: Callable[..., None]
    #: The part of the same game whose kernel this one builds on (its callees compiled
    #: already), and the estimate when that part is not cached yet.
    after: str | None = None
    estimate_alone: float | None = None


def front_door(
    package: str, where: Mapping[str, tuple[str, str | None]], *, keep: bool = True
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` (PEP 562) of the front door
    `package`: each name of `where` ({name: (room module, attribute)}; attribute None for
    the room module itself) is imported from its room on first use, so importing the door
    loads no room. With `keep`, the value is then kept in the door; without, the door looks
    it up in the room at each use (a test that patches a room patches the door too)."""

    def __getattr__(name: str) -> Any:
        try:
            room, attribute = where[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        found = importlib.import_module(f"{package}.{room}")
        value = found if attribute is None else getattr(found, attribute)
        if keep:
            setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *where})

    return __getattr__, __dir__

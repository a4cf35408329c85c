"""A person's seat at a Bombastic game against an agent (`bombsolve bombastic play --x human`).

The seat is fed as the agents are (agents.py): a `View` of the game, never the tiles. This
module gives the person's side in plain data: the text of their view, their choices in the
card's words, each event they saw as a sentence, the exact odds of every line from their
view (the table of `bombsolve bombastic odds`), and a `Session` that plays the agent's
decisions and the chance moves between the person's. Printing and reading are the CLI's.

Choices come one decision at a time, as the engine splits each card's effects (rules.py),
so no list is longer than the 16 L shapes of the ALARM card; none needs a second step.

The game is dealt and its chance moves drawn as `agents.play_game` does: from
``SplitMix64(seed)``, the agent drawing from its own generator of ``[seed, seat]``; so
`replay.history_record` shows it afterwards turn by turn, revealed.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from bombsolve.solvers.bombastic.agents import REGISTRY, View, make_agent, view_of
from bombsolve.solvers.bombastic.beliefs import ExactBelief, event_text, exact_belief
from bombsolve.solvers.bombastic.replay import history_record, record_lines
from bombsolve.solvers.bombastic.rules import (
    ACTION_CARD,
    ACTION_L,
    ACTION_LINE,
    ACTION_PERM,
    ACTION_SHOWSET,
    ACTION_STOP,
    ACTION_YES,
    CARD_TEXT,
    CHANCE,
    PERMS3,
    SHOW_SETS,
    Card,
    Options,
    Phase,
    SplitMix64,
    State,
)
from bombsolve.solvers.bombastic.tiles import L_SHAPES, LINE_NAMES, LINES, VALUE_NAMES
from bombsolve.solvers.common.errors import BadInput, unknown

#: The seat name that puts a person at the table (`bombsolve bombastic play --x human`).
HUMAN = "human"
#: Every name a seat takes: the agents (`agents.REGISTRY`) and `HUMAN`.
SEAT_NAMES = (*REGISTRY, HUMAN)
#: The events that change what a player believes of the tiles (beliefs.py).
BELIEF_EVENTS = ("peek", "show", "not_bomb", "swap", "shuffle", "place", "secret_swap", "move")


def human_seat(x: str, o: str) -> int | None:
    """Return the seat a person takes (0 for X, 1 for O), or None when both are agents.

    Raise `BadInput` for an unknown name (the nearest one suggested, `human` among the
    choices), for `human` with a parameter, and for two people (one plays an agent).
    """
    seats = []
    for spec in (x, o):
        name, colon, _param = spec.strip().partition(":")
        if name not in SEAT_NAMES:
            raise unknown("agent", name, SEAT_NAMES)
        if name == HUMAN and colon:
            raise BadInput(f"{HUMAN} takes no parameter (got {spec!r}); expected {HUMAN}")
        seats.append(name == HUMAN)
    if all(seats):
        raise BadInput("both seats are human; expected one human and one agent")
    return seats.index(True) if any(seats) else None


@dataclass(frozen=True)
class Choice:
    """One decision a person may take: the action number and its words."""

    action: int
    label: str


def _line(k: int) -> str:
    return f"{LINE_NAMES[k]} (tiles {' '.join(map(str, LINES[k]))})"


def _shown_values(view: View) -> dict[int, int]:
    """The values of the tiles shown on the card in play (the last show of each)."""
    shown: dict[int, int] = {}
    for ev in view.observations:
        if ev[0] == "show":
            shown[ev[1]] = ev[2]
    return {t: shown[t] for t in view.picked if t in shown}


def _label(view: View, action: int) -> str:
    """One decision in the card's words (rules.py, the card texts)."""
    ph = view.phase
    if ph == Phase.TURN:
        if action >= ACTION_CARD:
            return f"use card: {CARD_TEXT[Card(view.face_up[action - ACTION_CARD])]}"
        return f"go for it: {_line(action - ACTION_LINE)}"
    if ph == Phase.GO:
        return f"go for it: {_line(action - ACTION_LINE)}"
    if ph == Phase.PEEK_LINE:
        return f"peek at {_line(action - ACTION_LINE)}"
    if action == ACTION_STOP:
        return {
            Phase.PEEK_OR_STOP: "stop peeking",
            Phase.SHOW_PEEKED: "show nothing",
            Phase.SWAP2_A: "no second swap",
            Phase.MAY_SWAP: "do not swap",
        }[ph]
    if ph == Phase.MAY_SWAP and action == ACTION_YES:
        return f"swap tiles {view.picked[0]} and {view.picked[1]}"
    if ph == Phase.L_SHAPE:
        return f"flip the L {' '.join(map(str, L_SHAPES[action - ACTION_L]))}"
    if ph in (Phase.SHUFFLE, Phase.ARRANGE):
        pos, perm = view.picked, PERMS3[action - ACTION_PERM]
        if ph == Phase.ARRANGE:
            shown = _shown_values(view)
            after = {pos[perm[i]]: shown.get(pos[i]) for i in range(3)}
            return "put them back as " + " ".join(
                f"{t}={'?' if after[t] is None else 'XOB'[after[t]]}" for t in sorted(after)
            )
        moves = [f"{pos[i]}->{pos[perm[i]]}" for i in range(3) if perm[i] != i]
        return "put them back as they were" if not moves else "move " + ", ".join(moves)
    if ph == Phase.OPP_SHOW:
        shown = [view.picked[i] for i in SHOW_SETS[action - ACTION_SHOWSET]]
        return "show tile " + " and ".join(map(str, shown))
    words = {
        Phase.PEEK: "peek at tile {t}",
        Phase.PEEK_OR_STOP: "peek at tile {t}",
        Phase.SHOW_PEEKED: "show peeked tile {t} to your opponent",
        Phase.OUT_PEEKED: "swap peeked tile {t} with a tile you did not peek at",
        Phase.OUT_OTHER: f"swap tile {view.swap_a} with tile {{t}}",
        Phase.SWAP_A: "swap tile {t} with another",
        Phase.SWAP_B: f"swap tile {view.swap_a} with tile {{t}}",
        Phase.SWAP2_A: "swap again: tile {t} with another",
        Phase.SWAP2_B: f"swap again: tile {view.swap_a} with tile {{t}}",
        Phase.SHOW: "show tile {t}",
        Phase.SECRET_SWAP: f"secretly swap shown tile {view.picked[0] if view.picked else -1} "
        "with tile {t}",
    }
    return words[ph].format(t=action)


def choices(view: View) -> list[Choice]:
    """The decisions open to the player of `view`, numbered from 1 in this order: on a
    turn the two face-up cards first, then Go for It on each line ("On Your Turn,
    Either"); within a card, its legal decisions in action order. Orders that put the
    same values in the same places ("Secretly arrange them" with two tiles alike) are
    one choice: the grid they leave is the same."""
    legal = list(view.legal)
    if view.phase == Phase.TURN:
        legal = [a for a in legal if a >= ACTION_CARD] + [a for a in legal if a < ACTION_CARD]
    out: dict[str, Choice] = {}
    for a in legal:
        out.setdefault(_label(view, a), Choice(a, _label(view, a)))
    return list(out.values())


def _who(player: int, me: int) -> str:
    return "you" if player == me else "XO"[player]


def event_sentence(ev: tuple, me: int) -> str:
    """One event of a player's observations (rules.py, "Observation events") as the
    sentence that player `me` is told; only what the event itself holds."""
    kind = ev[0]
    if kind == "peek":
        return f"you peek at tile {ev[1]}: {VALUE_NAMES[ev[2]]}"
    if kind == "opp_peek":
        return f"{'XO'[1 - me]} peeks at tile {ev[1]}"
    if kind == "show":
        return f"tile {ev[1]} is shown: {VALUE_NAMES[ev[2]]}"
    if kind == "not_bomb":
        return f"tile {ev[1]} is not the bomb (peeked at, and the game goes on)"
    if kind == "swap":
        return f"tiles {ev[1]} and {ev[2]} swap places"
    if kind == "shuffle":
        return f"tiles {' '.join(map(str, ev[1]))} are put back in an order you do not know"
    if kind == "place":
        where = " ".join(f"{t}={'XOB'[v]}" for t, v in zip(ev[1], ev[2], strict=True))
        return f"you put them back: {where}"
    if kind == "move":
        moves = ", ".join(f"{ev[1][i]}->{ev[1][ev[2][i]]}" for i in range(3))
        return f"you put them back: {moves}"
    if kind == "secret_swap":
        return f"{'XO'[1 - me]} secretly swaps tile {ev[1]} with another tile"
    if kind == "card":
        who = _who(ev[1], me)
        return f"{who} {'use' if who == 'you' else 'uses'} card: {CARD_TEXT[Card(ev[2])]}"
    if kind == "go":
        who = _who(ev[1], me)
        return f"{who} {'go' if who == 'you' else 'goes'} for it: {_line(ev[2])}"
    if kind == "reveal":
        return f"new face-up card: {CARD_TEXT[Card(ev[1])]}"
    raise AssertionError(ev)


def belief_of(view: View) -> ExactBelief:
    """The exact belief of the player of `view` over the 630 arrangements (beliefs.py)."""
    return exact_belief([ev for ev in view.observations if ev[0] in BELIEF_EVENTS])


def known_tiles(belief: ExactBelief) -> list[str]:
    """Each tile's value where the belief is certain of it ('X', 'O', 'B'), else '?'."""
    return [
        next((c for c, p in zip("XOB", odds, strict=True) if p == 1), "?")
        for odds in belief.tile_odds()
    ]


def view_lines(view: View, belief: ExactBelief | None = None) -> list[str]:
    """The text of a player's view: turn, what they know of each tile, the face-up cards,
    the deck, the card in play. Only the view is read: no tile the player has not seen."""
    belief = belief or belief_of(view)
    me = view.player
    known = known_tiles(belief)
    # Two decisions of a card fall to the opponent of the player using it.
    if view.phase in (Phase.OPP_SHOW, Phase.SHUFFLE):
        whose = f"{'XO'[1 - me]}'s turn, your decision"
    else:
        whose = "your turn"
    out = [
        f"Turn {view.turn_number}: you are {'XO'[me]}"
        f" ({'first' if me == 0 else 'second'}); {whose}."
    ]
    out.append(f"  {'you know':<10}{'tiles':<8}({belief.support()} of 630 arrangements possible)")
    for r in range(3):
        row = " ".join(known[3 * r : 3 * r + 3])
        out.append(f"  {row:<10}{' '.join(str(t) for t in range(3 * r, 3 * r + 3))}")
    for slot, card in enumerate(view.face_up):
        out.append(f"  face-up card {slot + 1}: {CARD_TEXT[Card(card)]}")
    out.append(f"  DECK: {view.deck_size} cards face down")
    if view.card >= 0:
        picked = f"; tiles picked: {' '.join(map(str, view.picked))}" if view.picked else ""
        out.append(f"  card in play: {CARD_TEXT[Card(view.card)]}{picked}")
    return out


def _cell(p: Fraction) -> str:
    return f"{str(p):>9} {float(p):6.4f}"


def odds_lines(belief: ExactBelief, mine: int) -> list[str]:
    """The table `bombsolve bombastic odds` prints: every line's chance of being all
    `mine`, all the opponent's, of holding the bomb; every tile's X, O, bomb."""
    lines, tiles = belief.line_odds(mine), belief.tile_odds()
    me, them = "XO"[mine], "XO"[1 - mine]
    out = [f"View of {me}; {belief.support()} of 630 arrangements possible."]
    out.append(
        f"{'line':<6}{'tiles':<7}{'all ' + me + ' (mine)':>17}{'all ' + them:>17}{'bomb':>17}"
    )
    for k in range(len(LINES)):
        a, o, bomb = lines[k]
        t = "".join(map(str, LINES[k]))
        out.append(f"{LINE_NAMES[k]:<6}{t:<7}{_cell(a):>17}{_cell(o):>17}{_cell(bomb):>17}")
    out.append(f"{'tile':<13}{'X':>17}{'O':>17}{'B':>17}")
    for t in range(len(tiles)):
        x, o, bomb = tiles[t]
        out.append(f"{t:<13}{_cell(x):>17}{_cell(o):>17}{_cell(bomb):>17}")
    return out


def odds_events(view: View) -> str | None:
    """The ``--events`` text that gives `bombsolve bombastic odds` this view, or None when
    the view holds an event `odds` has no word for (the shuffler's own order, under
    ``--shuffle opponent``)."""
    events = [ev for ev in view.observations if ev[0] in BELIEF_EVENTS]
    if any(ev[0] == "move" for ev in events):
        return None
    return "; ".join(event_text(ev) for ev in events)


class Session:
    """One game between a person in seat `human` (0: X, moves first; 1: O) and an agent.

    The game is dealt from ``SplitMix64(seed)`` and its chance moves drawn from it as
    `agents.play_game` does; the agent draws from ``numpy.random.default_rng([seed,
    seat])``. `step` plays the next agent or chance decision, `choose` the person's.
    """

    def __init__(self, human: int, opponent: str, seed: int, options: Options) -> None:
        if human not in (0, 1):
            raise BadInput(f"seat {human} is not a seat; expected 0 (X) or 1 (O)")
        self.human = human
        self.opponent = opponent
        self.agent = make_agent(opponent)
        self.seed = seed
        self.options = options
        self._rng = SplitMix64(seed)
        self.state = State.setup(self._rng, options)
        self._gen = np.random.default_rng([seed, 1 - human])
        self._told = 0
        self._belief: tuple[int, ExactBelief] | None = None

    # ----- Whose decision -------------------------------------------------------------

    def over(self) -> bool:
        """True once the game has ended."""
        return self.state.is_over()

    def person_to_move(self) -> bool:
        """True when the next decision is the person's."""
        return not self.over() and self.state.to_move == self.human

    def step(self) -> None:
        """Play the next decision that is not the person's: a chance move or the agent's."""
        state = self.state
        if self.over() or state.to_move == self.human:
            raise RuntimeError("step: the next decision is the person's, or the game is over")
        legal = state.legal_actions()
        if state.to_move == CHANCE:
            state.apply(legal[self._rng.below(len(legal))])
            return
        seen = state if self.agent.omniscient else view_of(state, state.to_move)
        state.apply(self.agent.act(seen, legal, self._gen))

    # ----- The person's side ----------------------------------------------------------

    def view(self) -> View:
        """What the person may see now (agents.View: never the tiles)."""
        return view_of(self.state, self.human)

    def belief(self) -> ExactBelief:
        """The person's exact belief now (kept until they see more)."""
        view = self.view()
        if self._belief is None or self._belief[0] != len(view.observations):
            self._belief = (len(view.observations), belief_of(view))
        return self._belief[1]

    def choices(self) -> list[Choice]:
        """The person's decisions now, numbered from 1 (`choices`)."""
        return choices(self.view()) if self.person_to_move() else []

    def choose(self, number: int) -> None:
        """Take choice `number` (from 1); raise `BadInput` for a number out of range."""
        options = self.choices()
        if not 1 <= number <= len(options):
            raise BadInput(f"no choice {number}; expected a number 1..{len(options)}")
        self.state.apply(options[number - 1].action)

    def news(self) -> list[str]:
        """The sentences for what the person saw since the last call (their events)."""
        events = self.view().observations
        fresh, self._told = events[self._told :], len(events)
        return [event_sentence(ev, self.human) for ev in fresh]

    def view_lines(self) -> list[str]:
        """The text of the person's view (`view_lines`)."""
        return view_lines(self.view(), self.belief())

    def coach_lines(self) -> list[str]:
        """The exact odds from the person's view: the `odds` command's table, and the
        command that prints it."""
        view = self.view()
        events = odds_events(view)
        me = "XO"[self.human]
        if events is None:
            source = "(your own secret order has no `odds` word)"
        else:
            quoted = f' --events "{events}"' if events else ""
            source = f"(the same as: bombsolve bombastic odds --as {me}{quoted})"
        return [
            f"Coach: exact odds from your view {source}",
            *odds_lines(self.belief(), self.human),
        ]

    def names(self) -> tuple[str, str]:
        """Who sits at X and at O."""
        return (HUMAN, self.opponent) if self.human == 0 else (self.opponent, HUMAN)

    def result_line(self) -> str:
        """Who won and how ("Game End"), said to the person."""
        state = self.state
        if state.winner is None:
            return f"Game over: nobody wins ({state.ending.value})."
        who = "you win" if state.winner == self.human else f"{'XO'[state.winner]} wins"
        return f"Game over: {who} ({state.ending.value})."

    def reveal_lines(self) -> list[str]:
        """The whole game, every tile shown, turn by turn as `bombsolve bombastic replay`
        shows it."""
        x, o = self.names()
        rec = history_record(x, o, self.seed, self.options, list(self.state.history))
        return record_lines(rec)

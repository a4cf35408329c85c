"""The All Is Bomb reference engine: plain Python that reads like the rulebook.

Sections follow the rulebook: B. Setup (`new_game`), D. Playing a Turn (`State.apply`
runs the five phases: `_play_a_card`, `_draw_and_equip`, `_card_action`, `_ignite_phase`,
`_clean_up`), E. How to Win / Losing the Game (`_game_ends`, `Ending`), F. Two-Player
Game, G. Expansions (win conditions stack), H. Campaign Mode (in `campaign.py`).

A *move* is one whole turn, written as the tuple of choices the player makes during it,
in the order the rules ask for them: first which EQUIPPED CARD to play (an index into
`State.playable()`), then each choice its CARD ACTION asks for (which card, whether to
do a "may" step, the order of reordered cards), then (two players) which card to give.
A choice with a single option is not asked and not written. `State.legal_moves()` lists
every move in lexicographic order; `describe_move` says in words what a move does.

Choices inside a step are numbered by the candidates in a fixed order: DECK from the top
down, DISCARD PILE from the top down, EQUIPPED CARDS by card id (the active player's
first); for an optional ("may") step the last option is "do not". A reorder of the top m
cards offers the m! orders in lexicographic order (0 = leave as is).
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bombsolve.solvers.allisbomb.cards.cards import (
    NEXT_ADD,
    NEXT_EFFECTS,
    Card,
    CardSet,
    Cond,
    Side,
    Step,
    load_cards,
    win_cards,
)
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.rules.positions import (
    FORMAT,
    check_agrees,
    check_position,
    default_cards_version,
    pile_format,
    split_entry,
)
from bombsolve.solvers.common.errors import BadInput, unknown
from bombsolve.solvers.common.jsonfile import parse_json

# Where a card is (one value per card id).
DECK, EQUIP0, EQUIP1, DISCARD, OUT, PLAY = range(6)
ZONE_NAMES = (
    "deck",
    "equipped (player 1)",
    "equipped (player 2)",
    "discard pile",
    "out of play",
    "play area",
)


class Outcome(enum.Enum):
    """Whether the game goes on, is won or is lost (rulebook D, E)."""

    ONGOING = "ongoing"
    WIN = "win"
    LOSS = "loss"


class Ending(enum.IntFlag):
    """How a game was lost (rulebook E, "Losing the Game"), as bits so a search can OR them.

    DREW_TOO_MANY: "you would draw more cards than there are available in the DECK".
    NO_CARD_TO_PLAY: "you can't play any card in the Play A Card phase".
    CONDITIONS_UNMET: "you don't fulfill all win conditions when the game ends".
    CYCLE: (searches only) a line of play that returns to a position already on the line.
    NOT_BEST: (searches only, keep-most mode) a win was found but the node limit stopped
    the search before it was proven the one keeping most cards.
    NO_WIN_REACHABLE: (kernel search only) a position that `prune.dead` proves can reach
    no win, counted as a loss without being searched.
    TOO_MANY_MOVES: (searches only) a position has more than MAX_MOVES moves, or a turn more
    than 64 choices: its other moves were cut there and the search went on; without a win
    found elsewhere it answers undecided (CARDS.md, "Limits").
    DEPTH_CUT: (searches only) a line reached the deepest a search follows (1,000 turns,
    CARDS.md "Limits") and was cut there; the search went on, and without a win found
    elsewhere it answers undecided.
    """

    NONE = 0
    DREW_TOO_MANY = 1
    NO_CARD_TO_PLAY = 2
    CONDITIONS_UNMET = 4
    CYCLE = 8
    NOT_BEST = 16
    NO_WIN_REACHABLE = 32
    TOO_MANY_MOVES = 64
    DEPTH_CUT = 128


#: Most moves one position may have (the kernel's MAX_MOVES): a card file may ask for more
#: (e.g. "up to 8 cards of the DECK on top, one by one"); past it the searches answer
#: undecided.
MAX_MOVES = 100_000


class TooManyMoves(Exception):
    """Raised by `State.iter_children` past the position's first MAX_MOVES moves."""


class NeedChoice(Exception):
    """Raised by a chooser that has no more recorded choices; `k` is the number of options."""

    def __init__(self, k: int) -> None:
        super().__init__(k)
        self.k = k


Chooser = Callable[[int, list[str]], int]


@dataclass
class State:
    """A position at the start of a turn (or a finished game).

    deck: card ids, top first. discard: card ids, bottom first (top = last).
    zone[c]: DECK, EQUIP0/EQUIP1 (equipped by player 1/2), DISCARD, OUT (set aside or
    removed), PLAY. ignited[c]: the side up. desired: card id of the DESIRED DISH or -1.
    played[c]: played at least once. gift_plays: GIFT plays (for the gifts condition).
    next_card: the effect a `next` step left on the next card played (CARDS.md, "Effects
    on the next card"): None, ("ignited", 0), ("no_action", 0) or ("add", k).
    """

    cards: CardSet
    deck: list[int]
    discard: list[int]
    zone: list[int]
    ignited: list[bool]
    desired: int
    played: list[bool]
    gift_plays: int
    active: int
    outcome: Outcome = Outcome.ONGOING
    ending: Ending = Ending.NONE
    turn: int = 0
    _log: list[str] | None = None
    _drawn: int = -1  # the card EQUIPPED in this turn's Draw & Equip phase (transient)
    next_card: tuple[str, int] | None = None

    # --- basics -------------------------------------------------------------------------

    @property
    def config(self) -> Options:
        return self.cards.config

    def copy(self) -> State:
        """Return an independent copy (no log)."""
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
            self.outcome,
            self.ending,
            self.turn,
            None,
            next_card=self.next_card,
        )

    def key(self) -> tuple:
        """The position as a hashable value (what the search's transposition table stores).

        Only what can change the future is kept: zones, orders, sides, the prophecy, the
        active player, the play counts that win conditions read, and the effect waiting
        for the next card played.
        """
        info = _info(self.cards)
        tracked = tuple(self.played[c] for c in info["tracked"])
        return (
            tuple(self.deck),
            tuple(self.discard),
            tuple(self.zone),
            tuple(self.ignited),
            self.desired,
            tracked,
            min(self.gift_plays, 3),
            self.active,
            self.next_card,
        )

    def equipped(self, player: int) -> list[int]:
        """The EQUIPPED CARDS of a player (0 or 1), by card id."""
        z = EQUIP0 + player
        return [c for c in range(len(self.zone)) if self.zone[c] == z]

    def label(self, c: int) -> str:
        """The card's label with its side, e.g. 'GUARDIAN (ignited)'."""
        return f"{self.cards.cards[c].label} ({'ignited' if self.ignited[c] else 'passive'})"

    def copy_label(self, c: int) -> str:
        """The card's label, with '#k' (k-th copy, from 1) when several cards share it: what
        a position file names one copy by."""
        return copy_label(self.cards, c)

    def side_of(self, c: int) -> Side:
        """The side of card c that is up."""
        return self.cards.cards[c].side(self.ignited[c])

    def is_over(self) -> bool:
        """True once the game is won or lost."""
        return self.outcome is not Outcome.ONGOING

    def result(self) -> str:
        """'ongoing', 'win' or 'loss' (the `outcome` attribute as text)."""
        return self.outcome.value

    # --- rulebook D.1: which cards may be played ------------------------------------------

    def playable(self) -> list[int]:
        """The EQUIPPED CARDS the active player may play (rulebook D.1, URGENT and ROYAL).

        If an URGENT card is equipped, only URGENT cards (any of them) or ROYAL cards may
        be played.
        """
        mine = self.equipped(self.active)
        urgent = [c for c in mine if self.side_of(c).keyword == "URGENT"]
        if not urgent:
            return mine
        return [c for c in mine if self.side_of(c).keyword in ("URGENT", "ROYAL")]

    # --- moves ----------------------------------------------------------------------------

    def legal_moves(self) -> list[tuple[int, ...]]:
        """Every move (whole turn as a choice tuple), in lexicographic order."""
        return [m for m, _ in self.children()]

    def children(self) -> list[tuple[tuple[int, ...], State]]:
        """Every (move, resulting state), in lexicographic order of moves.

        Raises TooManyMoves past MAX_MOVES moves."""
        return list(self.iter_children())

    def iter_children(self):
        """(move, resulting state) one by one, in lexicographic order of moves; raises
        TooManyMoves when asked for a move past the first MAX_MOVES (the searches then
        answer undecided, as the kernel does)."""
        if self.is_over():
            return
        built = 0
        todo: list[tuple[int, ...]] = [()]
        while todo:
            prefix = todo.pop()
            child = self.copy()
            try:
                child._run_turn(_replay_chooser(prefix, strict=False))
            except NeedChoice as need:
                todo.extend(prefix + (i,) for i in reversed(range(need.k)))
                continue
            except _OtherOrder:
                continue
            if built >= MAX_MOVES:
                raise TooManyMoves(f"more than {MAX_MOVES:,} moves in one position")
            built += 1
            yield prefix, child

    def apply(self, move: tuple[int, ...] | list[int]) -> State:
        """Play one turn in place and return self. Raises BadInput for an illegal move."""
        if self.is_over():
            raise BadInput("the game is over; no more moves")
        backup = self.copy()
        try:
            self._run_turn(_replay_chooser(tuple(move), strict=True))
        except (NeedChoice, _BadChoice) as exc:
            self.__dict__.update({k: v for k, v in backup.__dict__.items() if k != "_log"})
            raise BadInput(f"illegal move {list(move)} at turn {self.turn + 1}: {exc}") from None
        return self

    def card_of(self, move: tuple[int, ...] | list[int]) -> int:
        """The card id a move plays (its first choice, unless only one card is playable)."""
        options = self.playable()
        if len(options) == 1:
            return options[0]
        if not move or not 0 <= move[0] < len(options):
            raise BadInput(f"illegal move {list(move)}: choose a card 0..{len(options) - 1}")
        return options[move[0]]

    def describe_move(self, move: tuple[int, ...] | list[int]) -> list[str]:
        """Return the turn in words, as a player would carry it out (state unchanged)."""
        s = self.copy()
        s._log = []
        s.apply(move)
        return s._log

    # --- rulebook D: a turn ----------------------------------------------------------------

    def _say(self, text: str) -> None:
        if self._log is not None:
            self._log.append(text)

    def _run_turn(self, choose: Chooser) -> None:
        """Play one turn: the five phases of rulebook D, then the next turn's start check."""
        self._drawn = -1
        card = self._play_a_card(choose)
        effect, k = self._next_card_effect(card)
        side = self.side_of(card)
        played_ignited = self.ignited[card]
        # "no CARD ACTION": its draw steps are part of the action, so the NUMBER counts
        number = side.number if effect == "no_action" else self._draw_number(card, side)
        if effect == "add":
            number = max(0, number + k)
        if not self._draw_and_equip(number):
            return
        if effect == "no_action":
            self._say("  (no card action: the effect of an earlier card)")
        else:
            self._card_action(card, side, played_ignited, choose)
        if self.is_over():
            return
        self._ignite_phase(card)
        self._clean_up(card, choose)
        self.turn += 1
        if not self.playable():
            self._lose(Ending.NO_CARD_TO_PLAY)
            self._say(f"player {self.active + 1} has no card to play: the game is lost")

    def _play_a_card(self, choose: Chooser) -> int:
        """D.1: put an EQUIPPED CARD into the PLAY AREA (URGENT first, unless ROYAL)."""
        options = self.playable()
        card = options[_ask(choose, options, [self.label(c) for c in options])]
        side = self.side_of(card)
        self._say(f"play {self.label(card)}, number {side.number}: {side.text}")
        self.zone[card] = PLAY
        self.played[card] = True
        if "GIFT" in self.cards.cards[card].classes and _info(self.cards)["gifts_needed"]:
            self.gift_plays += 1
        return card

    def _next_card_effect(self, card: int) -> tuple[str, int]:
        """The effect an earlier card's `next` step left on this card, the next card played
        (CARDS.md, "Effects on the next card"); it is used up by this play. "ignited": the
        card, if passive, turns to its ignited side before it plays (it then plays that
        side: its NUMBER, its action, and the Ignite phase discards it)."""
        if self.next_card is None:
            return "", 0
        effect, k = self.next_card
        self.next_card = None
        if effect == "ignited" and not self.ignited[card]:
            self.ignited[card] = True
            self._say(f"  it plays ignited (an earlier card's effect): {self.side_of(card).text}")
        elif effect == "add":
            self._say(
                f"  it draws {abs(k)} {'more' if k > 0 else 'fewer'} (an earlier card's effect)"
            )
        return effect, k

    def _draw_number(self, card: int, side: Side) -> int:
        """The number of cards D.2 draws: the NUMBER, changed by the side's `draw` steps
        ("draw 1 extra card", "draw as many cards as ..."), in order, each whose `if` holds
        (looked at once the card is in the PLAY AREA); never below 0."""
        number = side.number
        for st in side.steps:
            if st.op != "draw" or (st.cond is not None and not _holds(self, card, st.cond)):
                continue
            v = _amount(self, card, st.amount) if st.amount is not None else st.value
            number = v if st.sets else number + v
        return max(0, number)

    def _draw_and_equip(self, number: int) -> bool:
        """D.2: draw `number` cards, EQUIP the last, the rest to the bottom in order.

        Returns False (and loses) if the DECK holds fewer than `number` cards.
        """
        if number > len(self.deck):
            self._lose(Ending.DREW_TOO_MANY)
            self._say(f"must draw {number} but the deck holds {len(self.deck)}: the game is lost")
            return False
        if number == 0:
            return True
        drawn = self.deck[:number]
        self._drawn = drawn[-1]
        del self.deck[:number]
        self.zone[drawn[-1]] = EQUIP0 + self.active
        self.deck.extend(drawn[:-1])
        if number > 1:
            rest = ", ".join(self.label(c) for c in drawn[:-1])
            self._say(f"draw {number}: {rest} to the bottom; equip {self.label(drawn[-1])}")
        else:
            self._say(f"draw 1: equip {self.label(drawn[-1])}")
        return True

    def _card_action(self, card: int, side: Side, played_ignited: bool, choose: Chooser) -> None:
        """D.3: carry out the action, as much of it as possible, step by step."""
        self._run_steps(card, side.steps, played_ignited, choose)

    def _run_steps(
        self, card: int, steps: tuple[Step, ...], played_ignited: bool, choose: Chooser
    ) -> None:
        """Steps in order; a step whose condition (`if`) does not hold, or an "if you do"
        step after a step that acted on no card, is skipped (CARDS.md, "Conditions")."""
        did = False
        for step in steps:
            if step.if_done and not did:
                self._say("  (not done: the step before acted on no card)")
                continue
            if step.cond is not None and not _holds(self, card, step.cond):
                self._say(f"  (skipped: {cond_words(step.cond)} does not hold)")
                did = False
                continue
            if step.op == "group":
                if step.may and _ask(choose, [0, 1], ["do all of this", "do not"]) == 1:
                    self._say("  (choose not to do any of it)")
                    did = False
                    continue
                self._run_steps(card, step.steps, played_ignited, choose)
                did = True
            elif step.op == "choose":
                # "choose one": the options in their order, "none" last with `may`
                labels = [f"option {j + 1} ({x.op})" for j, x in enumerate(step.steps)]
                labels += ["do none of them"] if step.may else []
                i = _ask(choose, labels, labels)
                if i == len(step.steps):
                    self._say("  (choose none of the options)")
                    did = False
                    continue
                self._say(f"  choose {labels[i]}")
                self._run_steps(card, step.steps[i : i + 1], played_ignited, choose)
                did = True
            else:
                did = bool(_STEP_RUNNERS[step.op](self, card, step, played_ignited, choose))
            if self.is_over():
                return

    def _in_play(self, card: int) -> int:
        """The card in the PLAY AREA after the action: the played card, or the card an
        `exchange` put in its place (-1: none, the action moved it away)."""
        if self.zone[card] == PLAY:
            return card
        return next((c for c in range(len(self.zone)) if self.zone[c] == PLAY), -1)

    def _ignite_phase(self, card: int) -> None:
        """D.4: IGNITE the played card (turn it, or discard it if already ignited)."""
        card = self._in_play(card)
        if card < 0:
            return  # the action moved it (e.g. the first prophet is set aside)
        if self.ignited[card]:
            self._say(f"ignite: {self.cards.cards[card].label} is already ignited, discard it")
        else:
            self._say(f"ignite: turn {self.cards.cards[card].label} to its ignited side")
        self._ignite(card)

    def _clean_up(self, card: int, choose: Chooser) -> None:
        """D.5: a played card not discarded goes to the bottom of the DECK; F: give a card."""
        card = self._in_play(card)
        if card >= 0:
            self._remove(card)
            self.deck.append(card)
            self.zone[card] = DECK
            self._say(f"put {self.label(card)} at the bottom of the deck")
        if self.config.players == 2:
            mine = self.equipped(self.active)
            if mine:
                labels = [self.label(c) for c in mine]
                if self.config.give_optional:
                    labels.append("give nothing")
                i = _ask(choose, labels, labels)
                if i < len(mine):
                    self.zone[mine[i]] = EQUIP0 + (1 - self.active)
                    self._say(f"give {self.label(mine[i])} to player {2 - self.active}")
            self.active = 1 - self.active

    # --- primitive actions ----------------------------------------------------------------

    def _remove(self, c: int) -> None:
        """Take card c out of the DECK or DISCARD PILE list (zone updated by the caller)."""
        if self.zone[c] == DECK:
            self.deck.remove(c)
        elif self.zone[c] == DISCARD:
            self.discard.remove(c)

    def _discard(self, c: int) -> None:
        """Put c on top of the DISCARD PILE; a card already there is left alone (rulebook G)."""
        if self.zone[c] == DISCARD:
            return
        self._remove(c)
        self.discard.append(c)
        self.zone[c] = DISCARD

    def _ignite(self, c: int) -> None:
        """IGNITE (rulebook D.4): passive -> ignited; already ignited -> DISCARD."""
        if self.ignited[c]:
            self._discard(c)
        else:
            self.ignited[c] = True

    def _move(self, c: int, to: str, step: Step | None = None, card: int = -1) -> None:
        if to == "discard":
            self._discard(c)
            return
        if to == "partner" and self.config.players == 1:
            return  # no other player: nothing to give
        if to in ("deck_above", "deck_below"):
            x = card if step.next_to == "self" else (self.cards.ids_named(step.next_to) or [-1])[0]
            if x == c or x < 0 or self.zone[x] != DECK:
                return  # that card is not in the DECK: no place next to it
        self._remove(c)
        if to == "deck_place":
            k = step.place
            i = (
                min(k - 1, len(self.deck))
                if not step.from_bottom
                else max(0, len(self.deck) + 1 - k)
            )
            self.deck.insert(i, c)
            self.zone[c] = DECK
        elif to in ("deck_above", "deck_below"):
            self.deck.insert(self.deck.index(x) + (to == "deck_below"), c)
            self.zone[c] = DECK
        elif to == "partner":
            self.zone[c] = EQUIP0 + 1 - self.active
        if to == "deck_top":
            self.deck.insert(0, c)
            self.zone[c] = DECK
        elif to == "deck_bottom":
            self.deck.append(c)
            self.zone[c] = DECK
        elif to == "equipped":
            self.zone[c] = EQUIP0 + self.active
        elif to == "out":
            self.zone[c] = OUT

    def _lose(self, why: Ending) -> None:
        self.outcome = Outcome.LOSS
        self.ending = why

    # --- rulebook E and G: the end of the game --------------------------------------------

    def unmet_conditions(self, card: int, played_ignited: bool) -> list[str]:
        """The win conditions not met if the game ended now by `card`'s equip-for-the-win."""
        info = _info(self.cards)
        cfg = self.config
        unmet = []
        princess_ok = self.cards.cards[card].name == "PRINCESS" and played_ignited
        d = self.desired
        if d < 0:
            unmet.append("no PROPHECY was made")
        if cfg.waking_up:
            if d >= 0 and self.zone[d] != DISCARD:
                unmet.append("the DESIRED DISH is not in the DISCARD PILE")
            t = info["throne"]
            if (
                not princess_ok
                or t < 0
                or not self.ignited[t]
                or self.zone[t] not in (EQUIP0, EQUIP1)
            ):
                unmet.append("the ignited PRINCESS did not EQUIP the ignited THRONE")
        else:
            if d >= 0 and not self.ignited[d]:
                unmet.append("the DESIRED DISH is not ignited")
            if not princess_ok or d < 0 or self.zone[d] not in (EQUIP0, EQUIP1):
                unmet.append("the ignited PRINCESS did not EQUIP the DESIRED DISH")
        if "mosquitos" in cfg.expansions:
            if not info["mosquitos"] or any(self.zone[m] != DISCARD for m in info["mosquitos"]):
                unmet.append("not both MOSQUITO cards are in the DISCARD PILE")
        if "dream_guide" in cfg.expansions:
            g = info["dream_guide"]
            if g < 0 or not self.played[g]:
                unmet.append("the DREAM GUIDE was never played")
        if "gifts" in cfg.expansions:
            if cfg.gifts_distinct:
                n = sum(self.played[g] for g in info["gifts"])
            else:
                n = self.gift_plays
            if n < 3:
                unmet.append(f"only {n} GIFT card(s) played, 3 needed")
        if "the_juice" in cfg.expansions:
            j = info["juice"]
            if j < 0 or d != j:
                unmet.append("THE JUICE is not the DESIRED DISH")
        if "all" in cfg.expansions:
            a = info["all"]
            ok_zones = (EQUIP0, EQUIP1) if cfg.all_any_player else (EQUIP0 + self.active,)
            if a < 0 or self.zone[a] not in ok_zones:
                unmet.append("ALL is not an EQUIPPED CARD")
        return unmet

    def _game_ends(self, card: int, played_ignited: bool) -> None:
        unmet = self.unmet_conditions(card, played_ignited)
        if unmet:
            self._lose(Ending.CONDITIONS_UNMET)
            self._say("the game ends without all win conditions: " + "; ".join(unmet))
        else:
            self.outcome = Outcome.WIN
            self._say("the game ends with every win condition met: WIN")

    # --- positions as JSON ------------------------------------------------------------------

    def to_json(self) -> dict:
        """A position as JSON-ready data, cards by label, piles top first (format 2, see
        `state_from_json`)."""
        lab = self.cards.labels
        top_first = self.discard[::-1]
        return {
            "format": FORMAT,
            "config": self.config.to_dict(),
            "deck": [lab[c] for c in self.deck],
            "discard": [lab[c] for c in top_first],
            "equipped": [[lab[c] for c in self.equipped(p)] for p in range(self.config.players)],
            "out": [lab[c] for c in range(len(self.zone)) if self.zone[c] == OUT],
            "ignited": [self.copy_label(c) for c in range(len(lab)) if self.ignited[c]],
            "ignited_ids": [c for c in range(len(lab)) if self.ignited[c]],
            "deck_ids": list(self.deck),
            "discard_ids": top_first,
            "zone_ids": list(self.zone),
            "desired": None if self.desired < 0 else lab[self.desired],
            "played": [self.copy_label(c) for c in range(len(lab)) if self.played[c]],
            "gift_plays": self.gift_plays,
            "active": self.active,
            "turn": self.turn,
        } | ({} if self.next_card is None else {"next_card": next_card_json(self.next_card)})


# --- steps of a CARD ACTION (vocabulary: data/CARDS.md) -------------------------------------


class _BadChoice(Exception):
    pass


class _OtherOrder(_BadChoice):
    """A step whose picks are asked for as a set (`Step.picks_as_set`) ran out of cards in
    the order its first choice listed them: the same cards in that order are another
    move."""


def _ask(choose: Chooser, options: list, labels: list[str]) -> int:
    """Ask for one of len(options) options; a single option is taken without asking."""
    k = len(labels)
    if k <= 1:
        return 0
    return choose(k, labels)


def _replay_chooser(prefix: tuple[int, ...], strict: bool) -> Chooser:
    pos = [0]

    def choose(k: int, labels: list[str]) -> int:
        i = pos[0]
        if i >= len(prefix):
            if strict:
                raise _BadChoice(f"choice {i + 1} missing (options: {', '.join(labels)})")
            raise NeedChoice(k)
        pos[0] += 1
        if not 0 <= prefix[i] < k:
            raise _BadChoice(f"choice {i + 1} is {prefix[i]}, expected 0..{k - 1}")
        return prefix[i]

    return choose


def _candidates(s: State, card: int, step: Step) -> list[int]:
    """The cards a selecting step may act on, in the fixed order (module docstring)."""
    cards = s.cards.cards
    if step.zone == "play":
        pool = [card] if s.zone[card] == PLAY else []
    elif step.zone == "deck":
        pool = list(s.deck)
    elif step.zone == "discard":
        pool = list(reversed(s.discard))
    else:  # equipped: the active player's own; by name or class also the partner's (rule F)
        pool = s.equipped(s.active)
        if step.pick in ("name", "class") and s.config.players == 2:
            pool += s.equipped(1 - s.active)
        if step.zone == "anywhere":  # the DECK, the DISCARD PILE, then the EQUIPPED CARDS
            pool = list(s.deck) + list(reversed(s.discard)) + pool
    if step.pick == "top":
        pool = pool[:1]
    elif step.pick == "bottom":
        pool = pool[-1:]
    elif step.pick == "nth":
        pool = pool[step.n - 1 : step.n]
    elif step.within:
        pool = pool[: step.within]
    if step.pick == "name":
        pool = [c for c in pool if cards[c].name == step.name]
    elif step.pick == "class":
        pool = [c for c in pool if step.cls in cards[c].classes]
    return _on_side(s, step, pool)


def _on_side(s: State, step: Step, pool: list[int]) -> list[int]:
    """The cards of `pool` the step can act on by their side: flip_back turns back ignited
    cards only; `side` keeps the passive (or the ignited) cards only."""
    if step.op == "flip_back":
        pool = [c for c in pool if s.ignited[c]]
    if step.side:
        pool = [c for c in pool if s.ignited[c] == (step.side == "ignited")]
    return pool


def _count(s: State, card: int, step: Step) -> int:
    """A step's `count`: its number, or a counting number looked at as the step starts."""
    return step.count if step.amount is None else _amount(s, card, step.amount)


def _fixed_targets(s: State, card: int, step: Step) -> list[int]:
    """Cards of a fixed-position step with count > 1, taken all at once (RASCAL, FAQ)."""
    if step.zone == "play":
        pool = [card] if s.zone[card] == PLAY else []
    elif step.zone == "deck":
        pool = list(s.deck)
    else:
        pool = list(reversed(s.discard))
    if step.pick == "self":
        pass
    elif step.pick in ("above", "below"):
        # the card directly above / below the named card (or this card) in the DECK
        x = card if step.of == "self" else (s.cards.ids_named(step.of) or [-1])[0]
        i = -1
        if x >= 0 and s.zone[x] == DECK:
            i = s.deck.index(x) + (1 if step.pick == "below" else -1)
        pool = [s.deck[i]] if 0 <= i < len(s.deck) else []
    elif step.pick == "top":
        pool = pool[: _count(s, card, step)]
    elif step.pick == "bottom":
        pool = pool[::-1][: _count(s, card, step)]
    else:
        pool = pool[step.n - 1 : step.n - 1 + _count(s, card, step)]
    return _on_side(s, step, pool)


def _apply_select(s: State, c: int, step: Step, card: int = -1) -> None:
    lab = s.label(c)
    if step.op == "move":
        s._move(c, step.to, step, card)
        s._say(f"  move {lab} to {step.to.replace('_', ' ')}")
    elif step.op == "ignite":
        s._say(f"  ignite {lab}" + (" (already ignited: discard it)" if s.ignited[c] else ""))
        s._ignite(c)
    elif step.op == "turn_over":
        s.ignited[c] = not s.ignited[c]
        side = "ignited" if s.ignited[c] else "passive"
        s._say(f"  turn {s.cards.cards[c].label} over to its {side} side")
    else:
        s.ignited[c] = False
        s._say(f"  turn {s.cards.cards[c].label} back to its passive side")


def _run_select(s: State, card: int, step: Step, played_ignited: bool, choose: Chooser) -> bool:
    """move / ignite / flip_back / turn_over: pick cards and act on each, as much as possible.
    Returns True if it acted on some card (what "if you do" asks)."""
    did = False
    if step.pick in ("top", "bottom", "nth", "self", "above", "below"):
        for c in _fixed_targets(s, card, step):
            if step.may and _ask(choose, [0, 1], [f"do it to {s.label(c)}", "do not"]) == 1:
                s._say("  (choose not to)")
                return did
            _apply_select(s, c, step, card)
            did = True
        return did
    if step.all:
        # every matching card, in the candidates' order (the cards are chosen first, then
        # acted on one by one); with `may`, one choice: all of them or none
        pool = _candidates(s, card, step)
        if not pool:
            return False
        if step.may and _ask(choose, [0, 1], ["do it to all of them", "do not"]) == 1:
            s._say("  (choose not to)")
            return False
        for c in pool:
            _apply_select(s, c, step, card)
        return True
    done: list[int] = []  # turn_over: k different cards (turning one twice undoes it)
    as_set, rank, last = step.picks_as_set(), {}, 0
    for _ in range(_count(s, card, step)):
        pool = [c for c in _candidates(s, card, step) if c not in done]
        if not pool:
            return did
        if as_set:
            # every order of the same picks gives one position: the move picks them in the
            # order the step's first choice lists them; a move that runs out of cards that
            # way is another move's picks in another order
            rank = rank or {c: i for i, c in enumerate(pool)}
            pool = [c for c in pool if rank[c] >= last]
            if not pool and step.may:
                return did  # the picks so far, then "do not"
            if not pool:
                raise _OtherOrder(
                    "these cards are picked in the order first listed by another move"
                )
        labels = [s.label(c) for c in pool] + (["do not"] if step.may else [])
        i = _ask(choose, labels, labels)
        if i == len(pool):
            s._say("  (choose not to)")
            return did
        _apply_select(s, pool[i], step, card)
        did = True
        last = rank.get(pool[i], 0)
        if step.op == "turn_over":
            done.append(pool[i])
    return did


_COND_ZONES = {"deck": DECK, "discard": DISCARD, "out": OUT, "play": PLAY}


def _holds(s: State, card: int, cond: Cond) -> bool:
    """Whether a condition holds now: the matching cards (by name, `self`, class, or any; in
    the zone; on the side) number at least `at_least` and at most `at_most`."""
    k = _amount(s, card, cond)
    ok = k >= cond.at_least and (cond.at_most < 0 or k <= cond.at_most)
    return ok != cond.negate


def _amount(s: State, card: int, cond: Cond) -> int:
    """How many cards match a condition's card, class, zone and side (a counting number)."""
    cards = s.cards.cards
    if cond.card == "self":
        pool = [card]
    elif cond.card:
        pool = s.cards.ids_named(cond.card)
    elif cond.cls:
        pool = [c for c in range(s.cards.n) if cond.cls in cards[c].classes]
    else:
        pool = list(range(s.cards.n))
    if cond.zone == "equipped":
        pool = [c for c in pool if s.zone[c] == EQUIP0 + s.active]
    elif cond.zone:
        pool = [c for c in pool if s.zone[c] == _COND_ZONES[cond.zone]]
    if cond.side:
        pool = [c for c in pool if s.ignited[c] == (cond.side == "ignited")]
    return len(pool)


def cond_words(cond: Cond) -> str:
    """A condition in words, e.g. 'the PRINCESS is ignited' or 'at least 2 COURT cards are in
    the DECK'."""
    zone = {
        "deck": "in the DECK",
        "equipped": "among your EQUIPPED CARDS",
        "discard": "in the DISCARD PILE",
        "out": "out of play",
        "play": "in the PLAY AREA",
    }.get(cond.zone, "")
    where = " and ".join(x for x in (zone, cond.side) if x)
    one = cond.at_least == 1 and cond.at_most < 0
    if cond.card == "self":
        what = "this card"
    elif cond.card:
        what = f"the {cond.card}" if one else f"{cond.card} cards"
    elif cond.cls:
        what = f"a {cond.cls} card" if one else f"{cond.cls} cards"
    else:
        what = "a card" if one else "cards"
    if one or cond.card == "self":
        text = f"{what} is {where or 'in the game'}"
    else:
        lo, hi = cond.at_least, cond.at_most
        if hi < 0:
            count = f"at least {lo}"
        elif lo == hi:
            count = f"exactly {lo}"
        elif lo == 0:
            count = f"at most {hi}"
        else:
            count = f"{lo} to {hi}"
        text = f"{count} {what} are {where or 'in the game'}"
    return f"not ({text})" if cond.negate else text


def _place(s: State, c: int) -> tuple[int, int]:
    """Where card c is: its zone, and its index in the DECK or DISCARD PILE list (else -1)."""
    z = s.zone[c]
    if z == DECK:
        return z, s.deck.index(c)
    if z == DISCARD:
        return z, s.discard.index(c)
    return z, -1


def _put(s: State, c: int, place: tuple[int, int]) -> None:
    """Put card c at `place` (a zone and list index from `_place`), its side kept."""
    z, i = place
    if z == DECK:
        s.deck[i] = c
    elif z == DISCARD:
        s.discard[i] = c
    s.zone[c] = z


def _run_exchange(s: State, card: int, step: Step, played_ignited: bool, choose: Chooser) -> bool:
    """exchange: this card takes the chosen card's place (the same place in the DECK or the
    DISCARD PILE, or among the same player's EQUIPPED CARDS), and the chosen card this
    card's; from the PLAY AREA the chosen card goes where `taken` says (CARDS.md)."""
    if s.zone[card] not in (DECK, DISCARD, EQUIP0, EQUIP1, PLAY):
        return False  # set aside out of play: nothing to exchange
    if step.pick in ("top", "bottom", "nth"):
        pool = _fixed_targets(s, card, step)
    else:
        pool = _candidates(s, card, step)
    pool = [c for c in pool if c != card]
    if not pool:
        return False
    labels = [s.label(c) for c in pool] + (["do not"] if step.may else [])
    i = _ask(choose, labels, labels)
    if i == len(pool):
        s._say("  (choose not to exchange)")
        return False
    x = pool[i]
    mine, theirs = _place(s, card), _place(s, x)
    _put(s, card, theirs)
    _put(s, x, mine)
    if mine[0] == PLAY and step.taken == "equipped":
        s.zone[x] = EQUIP0 + s.active
    s._say(f"  exchange {s.label(card)} with {s.label(x)}")
    return True


def _run_swap(s: State, card: int, step: Step, played_ignited: bool, choose: Chooser) -> None:
    """swap: exchange one of your EQUIPPED CARDS with the top card of the DECK."""
    mine = s.equipped(s.active)
    if not mine or not s.deck:
        return
    labels = [s.label(c) for c in mine] + (["do not"] if step.may else [])
    i = _ask(choose, labels, labels)
    if i == len(mine):
        s._say("  (choose not to swap)")
        return
    e, top = mine[i], s.deck[0]
    s.deck[0] = e
    s.zone[e] = DECK
    s.zone[top] = EQUIP0 + s.active
    s._say(f"  swap {s.label(e)} with the top card {s.label(top)}")


def _run_reorder(s: State, card: int, step: Step, played_ignited: bool, choose: Chooser) -> None:
    """reorder: put the top n cards of the DECK (or of the DISCARD PILE) back in any order
    (m! orders, lexicographic, each listing the old cards from the top down)."""
    pile = s.discard[::-1] if step.zone == "discard" else s.deck  # top first
    m = min(step.n, len(pile))
    if m < 2:
        return
    top = pile[:m]
    orders = list(itertools.permutations(range(m)))
    labels = [", ".join(s.cards.cards[top[j]].label for j in o) for o in orders]
    i = _ask(choose, orders, labels)
    _set_top(s, step.zone, [top[j] for j in orders[i]])
    where = " of the DISCARD PILE" if step.zone == "discard" else ""
    s._say(f"  reorder the top {m}{where}: {labels[i]}")


def _set_top(s: State, zone: str, cards: list[int]) -> None:
    """Put `cards` (top first) as the top len(cards) cards of the DECK or DISCARD PILE."""
    m = len(cards)
    if zone == "discard":
        s.discard[len(s.discard) - m :] = cards[::-1]
    else:
        s.deck[:m] = cards


def _run_reverse(s: State, card: int, step: Step, played_ignited: bool, choose: Chooser) -> None:
    """reverse: the top n cards of the DECK (or DISCARD PILE) in the opposite order."""
    pile = s.discard[::-1] if step.zone == "discard" else s.deck
    top = pile[: step.n]
    _set_top(s, step.zone, top[::-1])
    where = "DISCARD PILE" if step.zone == "discard" else "DECK"
    s._say(f"  reverse the order of the top {len(top)} cards of the {where}")


def _run_prophecy(s: State, card: int, step: Step, played_ignited: bool, choose: Chooser) -> None:
    """E.1: the first PROPHECY fixes the DESIRED DISH; that prophet is set aside."""
    if s.desired >= 0:
        s._say("  the first PROPHECY was already made: no effect")
        return
    ids = s.cards.ids_named(step.dish)
    if not ids:
        s._say(f"  {step.dish} is not in this game: no effect")
        return
    s.desired = ids[0]
    s._say(f"  PROPHECY: {step.dish} is the DESIRED DISH")
    if s.zone[card] == PLAY:
        s.zone[card] = OUT
        s._say(f"  set {s.cards.cards[card].label} aside (out of play)")


def next_card_json(effect: tuple[str, int]) -> dict:
    """A waiting `next` effect as a position file writes it: {"effect": ...} or {"add": k}."""
    return {"add": effect[1]} if effect[0] == "add" else {"effect": effect[0]}


def _run_next(s: State, card: int, step: Step, played_ignited: bool, choose: Chooser) -> bool:
    """next: the next card played (by either player, in a later turn) plays ignited, has no
    CARD ACTION, or draws `add` more cards; a later `next` step replaces a waiting one.
    Acts on no card (so no "if you do" follows it)."""
    s.next_card = (step.effect, 0) if step.effect else ("add", step.value)
    s._say(f"  {next_words(step)}")
    return False


def next_card_words(effect: tuple[str, int]) -> str:
    """A waiting effect (`State.next_card`) in words, as its `next` step reads."""
    kind, k = effect
    return next_words(Step("next", effect="" if kind == "add" else kind, value=k))


def next_words(step: Step) -> str:
    """A `next` step in words (`cards check` and the turn's log)."""
    if step.effect == "ignited":
        return "the next card played plays ignited (a passive one turns to its ignited side first)"
    if step.effect == "no_action":
        return "the next card played has no CARD ACTION (it still draws its NUMBER)"
    k = step.value
    return f"the next card played draws {abs(k)} card{'s' if abs(k) != 1 else ''} " + (
        "more" if k > 0 else "fewer"
    )


def _run_equip_win(s: State, card: int, step: Step, played_ignited: bool, choose: Chooser) -> None:
    """E.3: EQUIP the ignited target from the DECK; the game then ends."""
    if step.target == "desired":
        t = s.desired
    else:
        ids = s.cards.ids_named(step.target)
        t = ids[0] if ids else -1
    if step.zone == "drawn":
        # the card EQUIPPED in this turn's Draw & Equip phase must be the target
        if t < 0 or t != s._drawn or s.zone[t] != EQUIP0 + s.active or not s.ignited[t]:
            return
    elif t < 0 or s.zone[t] != DECK or not s.ignited[t]:
        return
    if step.may and _ask(choose, [0, 1], [f"equip {s.label(t)} and end the game", "do not"]):
        s._say(f"  (choose not to equip {s.label(t)})")
        return
    if step.zone == "drawn":
        s._say(f"  {s.label(t)} was equipped in the Draw & Equip phase")
    else:
        s._remove(t)
        s.zone[t] = EQUIP0 + s.active
        s._say(f"  equip {s.label(t)} from the deck")
    s._game_ends(card, played_ignited)


_STEP_RUNNERS = {
    "move": _run_select,
    "ignite": _run_select,
    "flip_back": _run_select,
    "turn_over": _run_select,
    "exchange": _run_exchange,
    "reverse": _run_reverse,
    "draw": lambda *_: False,  # (done in the Draw & Equip phase: State._draw_number)
    "swap": _run_swap,
    "reorder": _run_reorder,
    "prophecy": _run_prophecy,
    "equip_win": _run_equip_win,
    "next": _run_next,
}

#: Card ids the win conditions read (cached per card set): `cards.win_cards`.
_info = win_cards


# --- rulebook B: setup -----------------------------------------------------------------------


def new_game(config: Options | CardSet, deck: list[int] | tuple[int, ...]) -> State:
    """Set up a game from a deck order (card ids, top first) (rulebook B, F "Setup").

    Player 1 EQUIPS the top 3 cards; in the two-player game player 2 then EQUIPS 2.
    Raises BadInput if `deck` is not a permutation of the game's card ids.
    """
    cs = config if isinstance(config, CardSet) else load_cards(config)
    n = cs.n
    deck = [int(c) for c in deck]
    if sorted(deck) != list(range(n)):
        raise BadInput(f"a deck must hold each of the {n} card ids 0..{n - 1} once")
    s = State(cs, deck, [], [DECK] * n, [False] * n, -1, [False] * n, 0, 0)
    for _ in range(3):
        s.zone[s.deck.pop(0)] = EQUIP0
    if cs.config.players == 2:
        for _ in range(2):
            s.zone[s.deck.pop(0)] = EQUIP1
    return s


def config_from_dict(c: object) -> Options:
    """Rebuild a Options from `Options.to_dict()` data; BadInput if malformed. Without
    ``cards_version`` the stand-in set is `positions.default_cards_version`'s: the current
    default, or version 1 for a configuration bombsolve wrote before versions existed."""
    if not isinstance(c, dict):
        raise BadInput("position: 'config' must be an object")
    try:
        cfg = Options(
            expansions=tuple(c.get("expansions", ())),
            hands=bool(c.get("hands", False)),
            blitz=bool(c.get("blitz", False)),
            players=int(c.get("players", 1)),
            cards_file=Path(c["cards_file"]) if c.get("cards_file") else None,
            cards_version=str(c.get("cards_version", default_cards_version(c))),
            gifts_distinct=bool(c.get("gifts_distinct", True)),
            give_optional=bool(c.get("give_optional", False)),
            all_any_player=bool(c.get("all_any_player", True)),
            waking_up_rules=c.get("waking_up_rules"),
            removed=tuple(c.get("removed", ())),
            extra_sets=tuple(c.get("extra_sets", ())),
            allow_nonstandard=bool(c.get("allow_nonstandard", False)),
        )
    except (TypeError, ValueError) as exc:
        raise BadInput(f"position: bad 'config': {exc}") from None
    try:
        return cfg.validate()
    except BadInput as exc:
        raise BadInput(f"position: config: {exc}") from None


def state_from_json(data: dict | str, cards: CardSet | None = None) -> State:
    """Build a mid-game position from `State.to_json()` data (or its JSON text), or from a
    position written by hand (results/allisbomb/README.md, "Positions").

    Cards are named by label; a label with several copies is resolved to the copies'
    ids in order, and `LABEL#k` names the k-th copy (from 1), so a position can tell the two
    JOKERs apart. A zone list may give a card's side as transcripts print it,
    "JOKER (ignited)". In "ignited" and "played" a label with several copies must name its
    copies. Piles are read in the position's format (`positions.pile_format`). Raises
    BadInput naming what is wrong, for any malformed input.
    """
    try:
        if isinstance(data, str):
            data = parse_json(data, "position")
        check_position(data, players=None if cards is None else cards.config.players)
        state = _state_from_json(data, cards)
        check_agrees(data, state)
        return state
    except BadInput:
        raise
    except (TypeError, AttributeError, KeyError, ValueError, IndexError) as exc:
        raise BadInput(f"position: malformed ({type(exc).__name__}: {exc})") from None


def _state_from_json(data: dict, cards: CardSet | None = None) -> State:
    top_first = pile_format(data) == 2
    if cards is None:
        cards = load_cards(config_from_dict(data.get("config", {})))
    n = cards.n
    free: dict[str, list[int]] = {}
    for i, lab in enumerate(cards.labels):
        free.setdefault(lab, []).append(i)

    copies: dict[str, list[int]] = {}
    for i, lab in enumerate(cards.labels):
        copies.setdefault(lab, []).append(i)

    def no_such_card(lab: str, where: str) -> BadInput:
        return BadInput(f"position: {where}: {unknown('card', lab, set(cards.labels))}")

    def copy_id(lab: object, where: str) -> int | None:
        """The card id `LABEL#k` names (the k-th copy, from 1), or None for a plain label."""
        if not isinstance(lab, str):
            raise BadInput(f"position: {where}: card labels must be strings, not {lab!r}")
        base, sep, k = lab.rpartition("#")
        if not sep or base not in copies:
            return None
        if not k.isdigit() or not 1 <= int(k) <= len(copies[base]):
            raise BadInput(
                f"position: {where}: {lab!r}: {base} has {len(copies[base])} "
                f"cop{'y' if len(copies[base]) == 1 else 'ies'}; expected {base}#1.."
                f"{base}#{len(copies[base])}"
            )
        return copies[base][int(k) - 1]

    def one_card(entry: str, where: str) -> int:
        """The one card `entry` names: a label of one copy, or `LABEL#k`."""
        c = copy_id(entry, where)
        if c is not None:
            return c
        if entry not in copies:
            raise no_such_card(entry, where)
        if len(copies[entry]) > 1:
            names = ", ".join(f"{entry}#{k + 1}" for k in range(len(copies[entry])))
            raise BadInput(
                f"position: {where}: {entry} has {len(copies[entry])} copies; name each "
                f"{where} one ({names}, in the order they are listed in the position)"
            )
        return copies[entry][0]

    #: (where, entry, card id, side) of each zone entry that gives its side
    marks: list[tuple[str, str, int, bool]] = []

    def take(entry: object, where: str) -> int:
        lab, side = split_entry(entry) if isinstance(entry, str) else (entry, None)
        c = copy_id(lab, where)
        if c is not None:
            base = cards.labels[c]
            if c not in free.get(base, []):
                raise BadInput(f"position: {where}: {lab} is placed twice")
            free[base].remove(c)
        elif lab not in free:
            raise no_such_card(lab, where)
        elif not free[lab]:
            raise BadInput(f"position: {where}: too many {lab} cards")
        else:
            c = free[lab].pop(0)
        if side is not None:
            marks.append((where, entry, c, side))
        return c

    def pile(key: str) -> list:
        # the DISCARD PILE is kept bottom first (`State.discard`); format 2 lists it top first
        got = list(data.get(key, []))
        return got[::-1] if top_first and key.startswith("discard") else got

    zone = [-1] * n
    deck = [take(x, "deck") for x in pile("deck")]
    discard = [take(x, "discard") for x in pile("discard")]
    exact = [data.get(k) for k in ("deck_ids", "discard_ids", "zone_ids")]
    zone_marks: list[tuple[str, list, int]] = []
    if all(isinstance(x, list) for x in exact):
        # exact card ids (written by to_json): copies of a card keep their own ids
        exact = [pile("deck_ids"), pile("discard_ids"), exact[2]]
        ok = all(isinstance(c, int) and 0 <= c < n for x in exact for c in x)
        if not ok or len(exact[2]) != n or not all(0 <= z <= OUT for z in exact[2]):
            raise BadInput("position: deck_ids/discard_ids/zone_ids are not valid card ids")
        if [cards.labels[c] for c in exact[0]] != [cards.labels[c] for c in deck] or [
            cards.labels[c] for c in exact[1]
        ] != [cards.labels[c] for c in discard]:
            raise BadInput("position: deck_ids/discard_ids disagree with deck/discard")
        # a side given in the DECK or the DISCARD PILE belongs to the card the ids put there
        where_ids = {"deck": exact[0], "discard": exact[1]}
        given = {"deck": deck, "discard": discard}
        marks = [(w, e, where_ids[w][given[w].index(c)], side) for w, e, c, side in marks]
        deck, discard = list(exact[0]), list(exact[1])
        if sorted(deck) != [c for c in range(n) if exact[2][c] == DECK] or sorted(discard) != [
            c for c in range(n) if exact[2][c] == DISCARD
        ]:
            raise BadInput("position: zone_ids disagree with deck_ids/discard_ids")
        free = {}
        zone = list(exact[2])
        for p, cards_p in enumerate(data.get("equipped", [])):
            zone_marks.append((f"equipped[{p}]", cards_p, EQUIP0 + p))
        zone_marks.append(("out", data.get("out", []), OUT))
    for c in deck:
        zone[c] = DECK
    for c in discard:
        zone[c] = DISCARD
    for p, cards_p in enumerate([] if not free and n else data.get("equipped", [])):
        if p >= cards.config.players:
            raise BadInput("position: equipped cards listed for a player not in the game")
        for x in cards_p:
            zone[take(x, f"equipped[{p}]")] = EQUIP0 + p
    for x in [] if not free and n else data.get("out", []):
        zone[take(x, "out")] = OUT
    missing = [cards.labels[c] for c in range(n) if zone[c] < 0]
    if missing:
        raise BadInput(f"position: cards missing from every zone: {', '.join(missing)}")
    ignited = [False] * n
    if "ignited_ids" in data:
        source = "ignited_ids"
        for c in data["ignited_ids"]:
            if not isinstance(c, int) or not 0 <= c < n:
                raise BadInput(f"position: ignited_ids: bad card id {c!r}")
            ignited[c] = True
    elif "ignited" in data:
        source = "ignited"
        for i, entry in enumerate(data["ignited"]):
            lab, side = split_entry(entry)
            if side is False:
                raise BadInput(
                    f"position: ignited[{i}] is {entry!r}; expected the name of an ignited card"
                )
            ignited[one_card(lab, "ignited")] = True
    else:
        source = ""
        for _, _, c, side in marks:
            ignited[c] = side
    for where, entry, c, side in marks:
        if ignited[c] != side:
            raise BadInput(
                f"position: {where} gives {entry} but {source} makes it "
                f"{'ignited' if ignited[c] else 'passive'}; expected the same side in both"
            )
    for where, entries, z in zone_marks:
        _check_sides(cards, ignited, zone, where, entries, z, source)
    desired = -1
    if data.get("desired"):
        ids = [c for c in range(n) if cards.labels[c] == data["desired"]]
        if not ids:
            raise no_such_card(data["desired"], "desired")
        desired = ids[0]
    played = [False] * n
    for i, c in enumerate(data.get("played", [])):
        if isinstance(c, str):
            c = one_card(split_entry(c)[0], "played")
        elif not 0 <= c < n:
            raise BadInput(f"position: played[{i}] is {c}; expected a card id 0..{n - 1}")
        played[c] = True
    active = int(data.get("active", 0))
    if active not in range(cards.config.players):
        raise BadInput(f"position: active player {active} not in the game")
    s = State(
        cards,
        deck,
        discard,
        zone,
        ignited,
        desired,
        played,
        int(data.get("gift_plays", 0)),
        active,
        turn=int(data.get("turn", 0)),
        next_card=_next_card_from_json(data.get("next_card")),
    )
    if not s.playable():
        s._lose(Ending.NO_CARD_TO_PLAY)
    return s


def _check_sides(
    cards: CardSet,
    ignited: list[bool],
    zone: list[int],
    where: str,
    entries: list,
    z: int,
    source: str,
) -> None:
    """Refuse a side given in a zone list that no card the ids put in that zone has."""
    left = [c for c in range(cards.n) if zone[c] == z]
    for entry in entries:
        name, side = split_entry(entry)
        if side is None:
            continue
        fits = [
            c
            for c in left
            if (cards.labels[c] == name or copy_label(cards, c) == name) and ignited[c] == side
        ]
        if not fits:
            raise BadInput(
                f"position: {where} gives {entry} but {source} puts no such card there; "
                "expected the same side in both"
            )
        left.remove(fits[0])


def copy_label(cards: CardSet, c: int) -> str:
    """Card `c`'s label, with '#k' (its copy number, from 1) when several cards share it."""
    same = [i for i, x in enumerate(cards.labels) if x == cards.labels[c]]
    return cards.labels[c] if len(same) == 1 else f"{cards.labels[c]}#{same.index(c) + 1}"


def _next_card_from_json(raw: object) -> tuple[str, int] | None:
    """A position's `next_card` ({"effect": "ignited" | "no_action"} or {"add": k}, k in
    -6..6 but not 0; left out: none), as `State.next_card`."""
    if raw is None:
        return None
    want = 'expected {"effect": "ignited"}, {"effect": "no_action"} or {"add": k}'
    if not isinstance(raw, dict) or len(raw) != 1:
        raise BadInput(f"position: next_card: {raw!r}: {want}")
    ((key, value),) = raw.items()
    if key == "effect" and value in NEXT_EFFECTS:
        return (value, 0)
    if key == "add" and type(value) is int and 0 < abs(value) <= NEXT_ADD:
        return ("add", value)
    if key == "effect" and isinstance(value, str):
        raise BadInput(f"position: next_card: {unknown('effect', value, set(NEXT_EFFECTS))}")
    raise BadInput(f"position: next_card: {raw!r}: {want} (k in -{NEXT_ADD}..{NEXT_ADD}, not 0)")


def card_table(cs: CardSet) -> list[dict]:
    """One row per card kind in play: what `bombsolve allisbomb cards` prints."""
    rows = []
    seen: dict[str, dict] = {}
    for c in cs.cards:
        if c.label in seen:
            seen[c.label]["copies"] += 1
            continue
        row = _card_row(c)
        seen[c.label] = row
        rows.append(row)
    return rows


def _card_row(c: Card) -> dict:
    return {
        "label": c.label,
        "name": c.name,
        "copies": 1,
        "class": ",".join(c.classes),
        "set": c.expansion,
        "campaign": c.campaign,
        "provenance": c.provenance,
        "passive": f"[{c.passive.number}{' ' + c.passive.keyword if c.passive.keyword else ''}]"
        f" {c.passive.text}",
        "ignited": f"[{c.ignited.number}{' ' + c.ignited.keyword if c.ignited.keyword else ''}]"
        f" {c.ignited.text}",
    }

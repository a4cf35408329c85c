"""Steps that cannot act as written: what a card file says that the engine can only ignore,
never do, or always do (CARDS.md, "Slips: steps that cannot act as written").

A card file can be valid field by field and still say something no printed card means: a
condition on this card's place that never holds during its own action, a `flip_back` kept to
passive cards, a `count` on a pick that takes one card, a place or a count larger than any
DECK of the game. `slips` reads the cards of a built game (so the game's size and its cards
are known) and returns one `Slip` per finding. Two kinds:

- refused (`warned = False`): a field says what the engine cannot honour in any game (a
  constant condition, an ignored `count`, a side filter that excludes every card the op acts
  on, a place next to a card that cannot be in the DECK, a PROPHECY on another card than a
  PROPHET); the game is refused unless it is built with `allow_nonstandard` (then each is a
  warning), as a breach of what the rulebook fixes is (`standard.py`);
- warned (`warned = True`): the step is well formed but idle in *this* game or on this side:
  a place or a count larger than the game's piles (a larger game, with more expansions, may
  hold it), `equip_win` on a side that draws nothing, a step on this card itself that its
  side leaves idle (printed cards often repeat one text on both sides). Always a warning.

The engine's semantics are unchanged: this module only reads the steps.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bombsolve.solvers.allisbomb.cards.cards import Card, Cond, Side, Step

#: Where a `move` puts a card, as the zone a condition names.
_DEST_ZONE = {
    "deck_top": "deck",
    "deck_bottom": "deck",
    "deck_place": "deck",
    "deck_above": "deck",
    "deck_below": "deck",
    "equipped": "equipped",
    "discard": "discard",
    "out": "out",
    "partner": "partner",
}
_ZONE_WORDS = {
    "play": "in the PLAY AREA",
    "deck": "in the DECK",
    "discard": "in the DISCARD PILE",
    "equipped": "among your EQUIPPED CARDS",
    "out": "out of play",
    "partner": "among the other player's EQUIPPED CARDS",
}
_PILE = {"deck": "DECK", "discard": "DISCARD PILE"}


@dataclass(frozen=True)
class Slip:
    """One step that cannot act as written: the card, its side, the step's path inside the
    side (`[step 2][step 1][if]`, counted from 1 as the loader counts), and why."""

    card: Card
    side: str
    path: str
    reason: str
    warned: bool

    def line(self) -> str:
        """The one line a refusal or a warning prints: file, card, side, step, field, why."""
        return f"{self.card.source}: {self.card.where()}[{self.side}]{self.path}: {self.reason}"

    def flag(self) -> str:
        """The flag `cards check` prints under the side: the step (a step inside a group as
        `step 2.1`), the field and why, e.g. 'step 2.1 [of]: ...'."""
        parts = self.path.strip("[]").split("][")
        steps = ".".join(p.split()[1] for p in parts[:-1])
        return f"step {steps} [{parts[-1]}]: {self.reason}"


@dataclass
class _Self:
    """Where the played card can be, and which side up, when a step is reached during its
    own action (over every way the steps before could have run)."""

    zones: set[str] = field(default_factory=lambda: {"play"})
    sides: set[str] = field(default_factory=set)
    #: an `exchange` before may have put another card in the PLAY AREA
    exchanged: bool = False

    def where(self) -> str:
        order = [z for z in _ZONE_WORDS if z in self.zones]
        return " or ".join(_ZONE_WORDS[z] for z in order)


@dataclass(frozen=True)
class _Game:
    n: int
    label: str
    names: Counter
    classes: Counter
    #: `reverse`'s n that means "the whole pile" in any game (the largest game's size)
    whole: int
    #: (card, side) -> whether its Draw & Equip phase may draw a card (`_may_draw`)
    draws: dict

    def size(self) -> str:
        return f"this {self.n}-card game ({self.label})"


def slips(cards: list[Card] | tuple[Card, ...], label: str, whole: int) -> list[Slip]:
    """Every step of the game's cards (`cards`: one entry per physical card, as the built
    game holds them; `label`: the game's, for the messages; `whole`: the largest game's size,
    `reverse`'s "whole pile") that cannot act as written, in card and step order (module
    docstring)."""
    game = _Game(
        len(cards),
        label,
        Counter(c.name for c in cards),
        Counter(k for c in cards for k in c.classes),
        whole,
        _may_draw(cards),
    )
    out: list[Slip] = []
    for card in dict.fromkeys(cards):
        for side_name in ("passive", "ignited"):
            side: Side = getattr(card, side_name)
            found: list[tuple[str, str, bool]] = []
            _walk(side.steps, "", _Self(sides={side_name}), side_name, game, card, found)
            out += [Slip(card, side_name, p, r, s) for p, r, s in found]
    return out


def _may_draw(cards) -> dict:
    """For each card side: whether its Draw & Equip phase may draw a card (its NUMBER, a draw
    step of its own, or a `next` step of any card that makes the next card draw more)."""
    more = any(st.op == "next" and st.value > 0 for c in cards for st in _all_steps(c))
    out = {}
    for c in cards:
        for name in ("passive", "ignited"):
            side = getattr(c, name)
            out[(c, name)] = more or side.number > 0 or any(st.op == "draw" for st in side.steps)
    return out


def _all_steps(card):
    return card.passive.all_steps() + card.ignited.all_steps()


def _walk(
    steps: tuple[Step, ...],
    where: str,
    me: _Self,
    played: str,
    game: _Game,
    card: Card,
    found: list,
) -> None:
    """The steps in the order they run, `me` growing with every way a step may move the
    played card; `played`: the side being played."""
    for i, st in enumerate(steps):
        path = f"{where}[step {i + 1}]"
        # draw steps are looked at in the Draw & Equip phase, before any step of the action
        here = _Self(sides={played}) if st.op == "draw" else me
        if st.cond is not None:
            _cond(_own(st.cond, card, game), f"{path}[if]", here, game, card, found)
        if st.amount is not None:
            key = "count" if st.op != "draw" else ("number" if st.sets else "add")
            _amount(_own(st.amount, card, game), f"{path}[{key}]", here, game, found)
        _step(st, path, me, played, game, card, found)
        number = card.side(played == "ignited").number
        first = not any(x.op == "draw" for x in steps[:i])
        if st.op == "draw" and st.sets and st.amount is None and st.value == number and first:
            found.append(
                (
                    f"{path}[number]",
                    f"number = {st.value} is this side's NUMBER: drawing it instead of the "
                    f"NUMBER changes nothing; expected another number (for more cards: add = "
                    f"{st.value})",
                    False,
                )
            )
        if st.op in ("group", "choose"):
            _walk(st.steps, path, me, played, game, card, found)
        _moves(st, me)


def _own(c: Cond, card: Card, game: _Game) -> Cond:
    """The condition with the card's own NAME read as "self" when the game has one copy of
    it (during its own action that card is this card)."""
    if c.card == card.name and game.names[card.name] == 1:
        return replace(c, card="self")
    return c


def _cond(c: Cond, path: str, me: _Self, game: _Game, card: Card, found: list) -> None:
    """A condition that holds always or never, whatever the position."""
    verdict = "always holds" if c.negate else "never holds"
    if not (c.card or c.cls or c.zone or c.side):
        holds = c.at_least <= game.n and (c.at_most < 0 or c.at_most >= game.n)
        said = "always holds" if holds != c.negate else "never holds"
        found.append(
            (
                path,
                "names no card, class, zone or side: it counts every card of the game "
                f"wherever it is, a number the position never changes (here {game.n}: it "
                f"{said}); expected a card, class, zone or side to look at",
                False,
            )
        )
        return
    opposite = "never holds" if c.negate else "always holds"
    if c.at_least == 0 and c.at_most < 0:
        found.append(
            (
                path,
                f"at_least 0 and no at_most: every count passes, so it {opposite}; expected "
                "at_least 1 or more, or an at_most",
                False,
            )
        )
        return
    if c.card == "self":
        why = _self_never(c, me)
        if why:
            found.append((path, f"{why}, so this condition {verdict}{_SELF_EXPECTED}", False))
        elif c.at_least > 1:
            found.append(
                (
                    path,
                    f"at_least {c.at_least}: 'self' is one card, so it {verdict}; expected "
                    "at_least 1 (left out)",
                    False,
                )
            )
        elif c.at_least == 0 and c.at_most >= 1:
            found.append(
                (
                    path,
                    f"at_most {c.at_most}: 'self' is one card, so it {opposite}; expected "
                    "at_most 0 (this card is not there) or at_least 1",
                    False,
                )
            )
        return
    other = (c.card and c.card != card.name) or (c.cls and c.cls not in card.classes)
    if c.zone == "play" and other and not me.exchanged and c.at_least >= 1:
        what = f"the {c.card}" if c.card else f"a {c.cls} card"
        found.append(
            (
                path,
                f"the PLAY AREA holds this card ({card.name}) during its own action, and "
                f"{what} only if an exchange before this step puts it there (none does), so "
                f"this condition {verdict}; expected card = 'self', or another zone",
                False,
            )
        )
        return
    most = _most(c, me, game)
    what = c.card or (f"{c.cls} card" if c.cls else "card")
    many = f"at most {most} {what}{'s' if most != 1 else ''}"
    many += f" {_ZONE_WORDS[c.zone]}" if c.zone else ""
    if c.at_least > most:
        found.append(
            (
                path,
                f"at_least {c.at_least}: {game.size()} can have {many}, so this condition "
                f"{verdict}",
                True,
            )
        )
    elif c.at_least == 0 and c.at_most >= most:
        found.append(
            (
                path,
                f"at_most {c.at_most}: {game.size()} can have {many}, so this condition {opposite}",
                True,
            )
        )


def _most(c: Cond, me: _Self, game: _Game) -> int:
    """The most cards a condition's match can count in this game."""
    if c.card:
        most = game.names[c.card]
    elif c.cls:
        most = game.classes[c.cls]
    else:
        most = game.n
    if c.zone == "play":
        return min(most, 1)  # the played card, or the card an exchange put in its place
    if c.zone and c.zone not in me.zones:
        return min(most, game.n - 1)  # the played card is in the PLAY AREA
    return most


def _self_never(c: Cond, me: _Self) -> str:
    """Why this card never matches a condition's zone or side at this step ('' if it may)."""
    if c.zone and c.zone not in me.zones:
        return (
            f"zone = '{c.zone}': during its own action this card is {me.where()} (no step "
            f"before this one puts it {_ZONE_WORDS[c.zone]})"
        )
    if c.side and c.side not in me.sides:
        up = " or ".join(sorted(me.sides))
        return (
            f"side = '{c.side}': during its own action this card is {up} side up (no step "
            "before this one turns it over)"
        )
    return ""


#: What a condition on this card's place or side could say instead.
_SELF_EXPECTED = (
    "; expected the place and side this card has during its own action (zone = 'play', "
    "the side played), or a step before this one that moves or turns it"
)


def _amount(c: Cond, path: str, me: _Self, game: _Game, found: list) -> None:
    """A counting number the position never changes."""
    if not (c.card or c.cls or c.zone or c.side):
        found.append(
            (
                path,
                "names no card, class, zone or side: it counts every card of the game "
                f"wherever it is, a fixed number (here {game.n}); write the number, or name "
                "a card, class, zone or side to count",
                False,
            )
        )
    elif c.card == "self":
        why = _self_never(c, me)
        if why:
            found.append((path, f"{why}, so it always counts 0{_SELF_EXPECTED}", False))


def _step(
    st: Step, path: str, me: _Self, played: str, game: _Game, card: Card, found: list
) -> None:
    """The op's own slips: fields that make it never act, or act otherwise than written."""
    if st.op == "flip_back" and st.side == "passive":
        found.append(
            (
                f"{path}[side]",
                "flip_back turns ignited cards back to passive; side = 'passive' keeps only "
                "passive cards, so the step never acts; expected side = 'ignited' or no side",
                False,
            )
        )
    if st.op == "prophecy" and card.name == "PROPHET" and played == "passive":
        found.append(
            (
                f"{path}[op]",
                "a PROPHECY on a PROPHET's passive side (rulebook E.1: the first ignited "
                "PROPHET played makes it); expected the step on the ignited side",
                False,
            )
        )
    if st.op == "prophecy" and card.name != "PROPHET":
        found.append(
            (
                f"{path}[op]",
                f"a PROPHECY on {card.name}, which is not a PROPHET (rulebook E.1: an ignited "
                "PROPHET played makes the PROPHECY and is set aside); expected the step on a "
                "PROPHET's ignited side",
                False,
            )
        )
    if st.pick in ("above", "below") and (st.count != 1 or st.amount is not None):
        shown = "a counting number" if st.amount is not None else str(st.count)
        found.append(
            (
                f"{path}[count]",
                f"pick '{st.pick}' takes the one card directly {st.pick} "
                f"{'this card' if st.of == 'self' else 'the ' + st.of}: count = {shown} is "
                "ignored; leave count out",
                False,
            )
        )
    if st.op == "draw" and not st.sets and st.amount is None and st.value == 0:
        found.append((f"{path}[add]", "add = 0 changes nothing; expected -9..-1 or 1..9", False))
    if st.op == "equip_win" and st.target != "desired" and game.names[st.target] > 1:
        found.append(
            (
                f"{path}[target]",
                f"{st.target} has {game.names[st.target]} copies in this game: 'the ignited "
                f"{st.target}' does not say which (the engines take the first); expected a "
                "card with one copy",
                False,
            )
        )
    if st.to in ("deck_above", "deck_below") and st.next_to == st.name:
        found.append(
            (
                f"{path}[next_to]",
                f"the card moved is the {st.name} itself: a card is never put next to itself, "
                "so the step never acts; expected another card, or 'self'",
                False,
            )
        )
    wanted = st.side or ("ignited" if st.op == "flip_back" else "")
    if st.pick == "self" and wanted and wanted not in me.sides:
        up = " or ".join(sorted(me.sides))
        found.append(
            (
                f"{path}[{'side' if st.side else 'op'}]",
                f"this card is {up} side up during its own action (no step before this one "
                f"turns it over), and the step acts on it only {wanted}: it never acts",
                True,
            )
        )
    if st.op == "equip_win" and st.zone == "drawn" and not game.draws[(card, played)]:
        found.append(
            (
                f"{path}[zone]",
                f"this side has NUMBER 0 and no draw step, and no card of {game.size()} makes "
                "the next card draw more: its Draw & Equip phase EQUIPS nothing, so the step "
                "never acts",
                True,
            )
        )
    for key, what in (("of", "the step never acts"), ("next_to", "the card is never moved")):
        value = getattr(st, key)
        if value in ("self", card.name) and "deck" not in me.zones:
            found.append(
                (
                    f"{path}[{key}]",
                    f"{key} = {value!r}: during its own action this card is {me.where()}, not in "
                    f"the DECK (no step before this one puts it there), so {what}; expected a "
                    "step that puts this card in the DECK first, or a card name",
                    False,
                )
            )
    _too_big(st, path, me, game, found)


def _too_big(st: Step, path: str, me: _Self, game: _Game, found: list) -> None:
    """Places and counts larger than any pile of this game can hold."""
    pile = st.zone or "deck"

    def most(zone: str, moving_self: bool = False) -> int:
        # every card but the played one, which is in the PLAY AREA (unless it left it)
        return game.n if moving_self or zone in me.zones else game.n - 1

    def add(key: str, value: int, limit: int, then: str, expected: str) -> None:
        found.append(
            (
                f"{path}[{key}]",
                f"{key} = {value}: in {game.size()} the {_PILE[pile]} holds at most {limit} "
                f"cards during a card's action, so {then}; expected {expected}",
                True,
            )
        )

    selecting = st.op in ("move", "ignite", "flip_back", "turn_over", "exchange")
    if selecting and pile in _PILE:
        limit = most(pile)
        if st.pick == "nth" and st.n > limit:
            add("n", st.n, limit, "the step never acts", f"1..{limit}")
        if st.within and st.within > limit:
            add("within", st.within, limit, "it limits nothing", f"1..{limit} or no within")
        if st.pick in ("top", "bottom", "nth") and st.amount is None and st.count > limit:
            add("count", st.count, limit, f"it takes at most {limit}", f"1..{limit}")
    if selecting and st.pick in ("name", "class") and st.amount is None and not st.all:
        have = game.names[st.name] if st.pick == "name" else game.classes[st.cls]
        what = st.name if st.pick == "name" else f"{st.cls} card"
        if st.count > have:
            found.append(
                (
                    f"{path}[count]",
                    f"count = {st.count}: {game.size()} has {have} {what}"
                    f"{'s' if have != 1 else ''}, so it takes at most {have}; expected "
                    f"1..{have}",
                    True,
                )
            )
    if st.op == "move" and st.to == "deck_place":
        limit = most("deck", st.pick == "self")
        if st.place > limit:
            pile = "deck"
            end = "top" if st.from_bottom else "bottom"
            add("place", st.place, limit, f"the card always goes to the {end}", f"1..{limit}")
    if st.op in ("reverse", "reorder") and pile in _PILE:
        limit = most(pile)
        whole = st.op == "reverse" and st.n == game.whole  # "the whole pile", on purpose
        if st.n > limit and not whole:
            then = f"it always {'reverses' if st.op == 'reverse' else 'looks at'} the whole pile"
            hint = f" (n = {game.whole}: the whole pile, in any game)" if st.op == "reverse" else ""
            add("n", st.n, limit, then, f"2..{limit}{hint}")


def _moves(st: Step, me: _Self) -> None:
    """Where the played card may be, and which side up, after the step (conservatively: every
    step that could act on it is taken to have done so)."""
    reach = st.pick == "self" or st.zone in me.zones
    if st.zone == "anywhere":
        reach = bool(me.zones & {"deck", "discard", "equipped"})
    if st.op == "move" and reach:
        me.zones.add(_DEST_ZONE[st.to])
    elif st.op == "ignite" and reach:
        me.zones.add("discard")
        me.sides.add("ignited")
    elif st.op == "turn_over" and reach:
        me.sides |= {"passive", "ignited"}
    elif st.op == "flip_back" and reach:
        me.sides.add("passive")
    elif st.op == "exchange":
        me.zones |= {"deck", "discard", "equipped"} if st.zone == "anywhere" else {st.zone}
        me.exchanged = True
    elif st.op == "swap":
        if "equipped" in me.zones:
            me.zones.add("deck")
        if "deck" in me.zones:
            me.zones.add("equipped")
    elif st.op == "prophecy":
        me.zones.add("out")

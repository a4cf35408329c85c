"""Checking a transcription: a card side's steps in plain words, beside the file's own text,
with what the two seem to disagree on; and a card side played from a position, every result
of its action (CARDS.md, "Checking your transcription").

The words are generated from the steps only (never from `text`), so reading them against the
printed card shows what the engine will do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bombsolve.solvers.allisbomb.cards.cards import MAX_CARDS, Card, CardSet, Side, Step
from bombsolve.solvers.allisbomb.cards.slips import slips
from bombsolve.solvers.allisbomb.rules.rules import (
    DECK,
    DISCARD,
    EQUIP0,
    OUT,
    State,
    TooManyMoves,
    cond_words,
    next_card_json,
    next_card_words,
    next_words,
)
from bombsolve.solvers.common.errors import BadInput

_ZONE_WORDS = {
    "deck": "the DECK",
    "discard": "the DISCARD PILE",
    "equipped": "your EQUIPPED CARDS",
    "play": "the PLAY AREA",
    "anywhere": "anywhere (the DECK, the DISCARD PILE or your EQUIPPED CARDS)",
}
_DEST_WORDS = {
    "deck_top": "on top of the DECK",
    "deck_bottom": "at the bottom of the DECK",
    "equipped": "among your EQUIPPED CARDS (EQUIP)",
    "discard": "on top of the DISCARD PILE",
    "out": "out of play",
    "partner": "among the other player's EQUIPPED CARDS (give it; two players)",
}
#: Words of a card text that say a step of each kind is there (any one of them, any case).
_MENTIONS = {
    "move": {
        "deck_top": ("top", "on the deck"),
        "deck_bottom": ("bottom",),
        "equipped": ("equip",),
        "discard": ("discard",),
        "out": ("aside", "out of play", "remove"),
        "deck_place": ("deck", "place", "from the"),
        "deck_above": ("above",),
        "deck_below": ("below", "under"),
        "partner": ("give", "other player", "partner"),
    },
    "ignite": ("ignite",),
    "flip_back": ("passive", "turn", "flip"),
    "turn_over": ("turn", "flip"),
    "exchange": ("exchange", "swap", "place", "trade"),
    "swap": ("exchange", "swap"),
    "reorder": ("order", "rearrange"),
    "reverse": ("reverse", "order"),
    "draw": ("draw",),
    "next": ("next",),
    "prophecy": ("prophecy", "desired dish"),
    "equip_win": ("game ends", "win", "equip"),
}


def _dest_words(st: Step) -> str:
    """Where a move puts the card, in words."""
    if st.to == "deck_place":
        end = "bottom" if st.from_bottom else "top"
        return f"in the DECK as the {_ordinal(st.place)} card from the {end}"
    if st.to in ("deck_above", "deck_below"):
        who = "this card" if st.next_to == "self" else f"the {st.next_to}"
        side = "above" if st.to == "deck_above" else "below"
        return f"in the DECK directly {side} {who} (if it is in the DECK)"
    return _DEST_WORDS[st.to]


def _ordinal(k: int) -> str:
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def _selection(st: Step) -> str:
    """The cards a selecting step acts on, in words (with its side filter, if any)."""
    if st.all:
        return _every(st)
    text = _selection_words(st)
    if st.side:
        text += f" ({st.side} side up only)"
    return text


def _amount_words(c) -> str:
    """A counting number in words: 'as many as the ignited COURT cards in the DECK'."""
    zone = {
        "deck": " in the DECK",
        "equipped": " among your EQUIPPED CARDS",
        "discard": " in the DISCARD PILE",
        "out": " out of play",
        "play": " in the PLAY AREA",
    }.get(c.zone, "")
    side = f"{c.side} " if c.side else ""
    if c.card == "self":
        up = f" {c.side} side up" if c.side else ""
        return f"as many as this card counts: 1 if it is{zone or ' anywhere'}{up}, else 0"
    what = f"{c.card} cards" if c.card else (f"{c.cls} cards" if c.cls else "cards")
    return f"as many as the {side}{what}{zone}"


def _every(st: Step) -> str:
    """The cards of an `all` step, e.g. 'every passive card of your EQUIPPED CARDS'."""
    side = f"{st.side} " if st.side else ""
    kind = {"any": f"every {side}card", "name": f"every {side}{st.name}"}
    kind["class"] = f"every {side}{st.cls} card"
    where = _ZONE_WORDS[st.zone]
    place = where if not st.within else f"the top {st.within} of {where}"
    if st.zone == "equipped" and st.pick in ("name", "class"):
        place += " (two players: either player's)"
    return f"{kind[st.pick]} of {place}"


def _selection_words(st: Step) -> str:
    where = _ZONE_WORDS[st.zone]
    k = st.count
    if st.amount is not None and st.pick in ("top", "bottom"):
        return f"the {st.pick} cards of {where}"
    if st.amount is not None and st.pick == "nth":
        return f"the cards of {where} from the {_ordinal(st.n)} from the top down"
    if st.pick == "self":
        return "this card (the played card)"
    if st.pick in ("above", "below"):
        who = "this card" if st.of == "self" else f"the {st.of}"
        return f"the card directly {st.pick} {who} in the DECK"
    if st.pick == "top":
        return f"the top card of {where}" if k == 1 else f"the top {k} cards of {where}"
    if st.pick == "bottom":
        return f"the bottom card of {where}" if k == 1 else f"the bottom {k} cards of {where}"
    if st.pick == "nth":
        if k == 1:
            return f"the {_ordinal(st.n)} card from the top of {where}"
        return f"the {k} cards of {where} from the {_ordinal(st.n)} from the top down"
    kind = {"any": "a card", "name": f"a {st.name}", "class": f"a {st.cls} card"}[st.pick]
    if st.zone == "equipped" and st.pick == "any":
        return "one of your EQUIPPED CARDS (your choice)"
    place = f" from {where}" if not st.within else f" from the top {st.within} of {where}"
    text = f"{kind} of your choice{place}" if st.pick == "any" else f"{kind}{place}"
    if st.zone == "equipped" and st.pick in ("name", "class"):
        text += " (two players: either player's)"
    if st.zone == "anywhere" and st.pick in ("name", "class"):
        text += " (two players: either player's EQUIPPED CARDS)"
    return text


def step_words(st: Step) -> str:
    """One step in plain words, from its fields alone (the vocabulary of CARDS.md): its
    condition ("If ...:") and "If you do," first, a group's steps numbered inside it."""
    text = _op_words(st)
    if st.cond is not None:
        text = f"If {cond_words(st.cond)}: {_lower_first(text)}"
    if st.if_done:
        text = f"If you do, {_lower_first(text)}"
    return text


def _lower_first(text: str) -> str:
    """'You may ...' -> 'you may ...', but 'IGNITE ...' and 'EQUIP ...' stay as they are."""
    return text if text[:2].isupper() else text[0].lower() + text[1:]


def _op_words(st: Step) -> str:
    if st.op == "choose":
        inner = "; ".join(f"({i + 1}) {step_words(x)}" for i, x in enumerate(st.steps))
        return f"Choose one{' (or none)' if st.may else ''} of these: {inner}"
    if st.op == "group":
        inner = "; ".join(f"({i + 1}) {step_words(x)}" for i, x in enumerate(st.steps))
        head = "You may do all of this, or none of it" if st.may else "Do all of this"
        return f"{head}: {inner}"
    may = "you may " if st.may else ""
    if st.op in ("move", "ignite", "flip_back", "turn_over"):
        sel = _selection(st)
        fixed = st.pick in ("top", "bottom", "nth", "self")
        if st.op == "move":
            act = f"put {sel} {_dest_words(st)}"
        elif st.op == "ignite":
            act = f"IGNITE {sel} (passive turns ignited; ignited goes to the DISCARD PILE)"
        elif st.op == "turn_over":
            act = f"turn {sel} over (passive to ignited, ignited to passive; never discarded)"
        else:
            act = f"turn {sel} back to its passive side (if it is ignited)"
        if st.amount is not None:
            act += f"; {'up to ' if st.may else ''}{_amount_words(st.amount)} (counted as the step starts)"
        elif st.all:
            order = "by card id" if st.zone == "equipped" else "from the top down"
            act += f", one by one {order}" + ("; all of them or none" if st.may else "")
        elif st.count > 1 and not fixed:
            act += f"; {'up to ' if st.may else ''}{st.count} times, one choice each"
            if st.op == "turn_over":
                act += ", each a different card"
        elif st.count > 1:
            act += ", from the top down, one by one"
        return (may + act)[0].upper() + (may + act)[1:]
    if st.op == "exchange":
        act = f"exchange this card with {_selection(st)}: each takes the other's place"
        if st.taken == "equipped":
            act += " (from the PLAY AREA the other card is EQUIPPED)"
        else:
            act += " (from the PLAY AREA the other card is IGNITED and cleaned up in its stead)"
        return (may + act)[0].upper() + (may + act)[1:]
    if st.op == "swap":
        return (
            (may or "").capitalize()
            + ("exchange" if st.may else "Exchange")
            + " one of your EQUIPPED CARDS with the top card of the DECK"
        )
    if st.op == "reorder":
        where = _ZONE_WORDS[st.zone or "deck"]
        return f"Look at the top {st.n} cards of {where} and put them back in any order"
    if st.op == "draw":
        if st.amount is not None:
            what = "cards " + _amount_words(st.amount)
        else:
            what = f"{abs(st.value)} card{'s' if abs(st.value) != 1 else ''}"
        if st.sets:
            return f"The Draw & Equip phase draws {what} this turn (instead of the NUMBER)"
        more = "fewer" if st.value < 0 else "more"
        if st.amount is not None:
            return f"The Draw & Equip phase draws more {what} this turn"
        return f"The Draw & Equip phase draws {what} {more} this turn"
    if st.op == "next":
        text = next_words(st)
        return text[0].upper() + text[1:]
    if st.op == "reverse":
        where = _ZONE_WORDS[st.zone or "deck"]
        return f"Reverse the order of the top {st.n} cards of {where}"
    if st.op == "prophecy":
        return (
            f"PROPHECY: if none was made yet, {st.dish} becomes the DESIRED DISH and this "
            "card is set aside out of play"
        )
    target = "DESIRED DISH" if st.target == "desired" else st.target
    if st.zone == "drawn":
        act = (
            f"if the card EQUIPPED in this turn's Draw & Equip phase is the ignited {target}, "
            "the game ends and the win conditions are checked"
        )
    else:
        act = (
            f"EQUIP the ignited {target} from anywhere in the DECK; the game then ends and "
            "the win conditions are checked"
        )
    text = may + act
    return text[0].upper() + text[1:]


def _mentions(text: str, st: Step) -> bool:
    if st.op in ("group", "choose"):
        return any(_mentions(text, x) for x in st.steps)
    low = text.lower()
    words = _MENTIONS[st.op]
    if isinstance(words, dict):
        words = words[st.to]
    return any(w in low for w in words)


def _cond_names(st: Step) -> tuple[str, ...]:
    """The card names and classes a step's condition, counting number and places name."""
    out = (st.of, st.next_to)
    for c in (st.cond, st.amount):
        if c is not None:
            out += (c.card, c.cls)
    return out


def side_flags(card: Card, side: Side, cs: CardSet) -> list[str]:
    """What a side's text says that its steps do not do, or the other way round."""
    flags = []
    text = side.text
    upper = set(re.findall(r"[A-Z][A-Z' ]*[A-Z]", text))
    for kw in ("URGENT", "ROYAL"):
        if re.search(rf"\b{kw}\b", text) and side.keyword != kw:
            flags.append(f"the text says {kw} but the side has keyword {side.keyword or 'none'}")
    names = {c.name for c in cs.cards} - {card.name}
    classes = {k for c in cs.cards for k in c.classes}
    used = {
        v
        for st in side.all_steps()
        for v in (st.name, st.cls, st.dish, st.target, *_cond_names(st))
        if v
    }
    for word in sorted(names | classes):
        if re.search(rf"\b{re.escape(word)}\b", text) and word not in used:
            if not any(word in u for u in upper if u != word) or word in upper:
                what = "card" if word in names else "class"
                flags.append(f"the text names the {what} {word}, which no step uses")
    for j, st in enumerate(side.steps):
        if text and not _mentions(text, st):
            flags.append(f"step {j + 1} ({st.op}) is not mentioned by the text")
    if text and not side.steps and not re.search(r"\bno action\b", text, re.I):
        flags.append("the side has no steps, but its text reads like an action")
    return flags


@dataclass(frozen=True)
class SideReport:
    """One side of one card as `cards check` prints it."""

    card: Card
    side: str
    text: str
    words: list[str]
    flags: list[str]

    def to_json(self) -> dict:
        return {
            "card": self.card.where(),
            "label": self.card.label,
            "set": self.card.expansion,
            "provenance": self.card.provenance,
            "side": self.side,
            "number": self.card.side(self.side == "ignited").number,
            "keyword": self.card.side(self.side == "ignited").keyword,
            "text": self.text,
            "steps": self.words,
            "flags": self.flags,
        }


def check_report(cs: CardSet, source: str) -> list[SideReport]:
    """Every side of every card kind read from `source`, in words, with its flags: what its
    text and steps disagree on (`side_flags`) and its steps that cannot act as written in
    this game (`slips`, CARDS.md "Slips")."""
    found: dict[tuple[Card, str], list[str]] = {}
    for slip in slips(cs.cards, cs.config.label(), MAX_CARDS):
        found.setdefault((slip.card, slip.side), []).append(slip.flag())
    out = []
    for card in dict.fromkeys(c for c in cs.cards if c.source == source):
        for name in ("passive", "ignited"):
            side = getattr(card, name)
            words = [step_words(st) for st in side.steps]
            flags = side_flags(card, side, cs) + found.get((card, name), [])
            out.append(SideReport(card, name, side.text, words, flags))
    return out


# --- cards try ---------------------------------------------------------------------------------


def find_card(cs: CardSet, name: str) -> int:
    """The first card id whose label or NAME is `name` (BadInput with the nearest if none)."""
    for i, c in enumerate(cs.cards):
        if c.label == name:
            return i
    for i, c in enumerate(cs.cards):
        if c.name == name:
            return i
    from bombsolve.solvers.common.errors import unknown

    raise unknown("card", name, set(cs.labels) | set(cs.names))


def default_position(cs: CardSet, card: int, ignited: bool) -> State:
    """The position `cards try` plays from when given no --state (CARDS.md): player 1 has
    the card EQUIPPED, side up as asked, with the two next cards by id that are not URGENT
    (passive side); the last three other cards are in the DISCARD PILE (the last on top), the
    rest in the DECK by card id, top first; every other card passive, no PROPHECY made."""
    n = cs.n
    others = [c for c in range(n) if c != card]
    calm = [c for c in others if cs.cards[c].passive.keyword != "URGENT"]
    equip = calm[:2]
    rest = [c for c in others if c not in equip]
    discard = rest[-3:] if len(rest) > 3 else []
    deck = [c for c in rest if c not in discard]
    zone = [DECK] * n
    for c in [card, *equip]:
        zone[c] = EQUIP0
    for c in discard:
        zone[c] = DISCARD
    ign = [False] * n
    ign[card] = ignited
    return State(cs, deck, discard, zone, ign, -1, [False] * n, 0, 0)


def try_card(state: State, card: int, limit: int = 200) -> tuple[list[dict], int]:
    """Every move of `state` that plays `card`, each as the turn in words and the zones after
    it; returns (the first `limit` results, how many there are in all). BadInput if the card
    cannot be played there."""
    if state.is_over():
        raise BadInput("the position is over: no card can be played")
    label = state.cards.labels[card]
    if card not in state.playable():
        where = (
            "EQUIPPED by the active player"
            if state.zone[card] != EQUIP0 + state.active
            else ("playable (an URGENT card is equipped)")
        )
        raise BadInput(f"card {label} is not {where} in this position")
    results: list[dict] = []
    total = 0
    seen: dict[tuple, int] = {}
    try:
        for move, child in state.iter_children():
            if state.card_of(move) != card:
                continue
            total += 1
            if len(results) >= limit:
                continue
            key = child.key() + (child.outcome,)
            results.append(_result(state, move, child, seen.get(key)))
            seen.setdefault(key, len(results))
    except TooManyMoves:
        total = -1
    return results, total


#: What `cards try` says when no card was left in the PLAY AREA for the Ignite phase.
LEFT_PLAY = (
    "ignite, clean-up: nothing (the played card left the PLAY AREA during its action: it is "
    'not IGNITED and stays where the action put it; CARDS.md, "A card that moves itself")'
)


def _turn_words(state: State, move: tuple[int, ...], child: State) -> list[str]:
    """The turn in words (`State.describe_move`), with a line where the Ignite and Clean-Up
    phases had no card to act on, which the turn's log passes over in silence."""
    lines = state.describe_move(move)
    # a turn that reached the Ignite phase counts itself (rules.State._run_turn)
    if child.turn == state.turn or any(x.startswith("ignite: ") for x in lines):
        return lines
    after = [i for i, x in enumerate(lines) if i and x.startswith(("give ", "player "))]
    at = after[0] if after else len(lines)
    return [*lines[:at], LEFT_PLAY, *lines[at:]]


def _result(state: State, move: tuple[int, ...], child: State, same_as: int | None) -> dict:
    lab = child.label
    return {
        "choices": list(move),
        "turn": _turn_words(state, move, child),
        "outcome": child.outcome.value,
        "deck": [lab(c) for c in child.deck],
        "equipped": [[lab(c) for c in child.equipped(p)] for p in range(child.config.players)],
        "discard": [lab(c) for c in reversed(child.discard)],  # top first, as positions
        "out": [lab(c) for c in range(len(child.zone)) if child.zone[c] == OUT],
        "desired": None if child.desired < 0 else child.cards.labels[child.desired],
        "next_card": None if child.next_card is None else next_card_json(child.next_card),
        "next_card_words": None if child.next_card is None else next_card_words(child.next_card),
        "same_as": same_as,
    }

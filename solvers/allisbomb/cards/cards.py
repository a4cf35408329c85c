"""Card files: load, validate and compile the cards of a game (CARDS.md).

A card file is TOML with a `[set]` table and a list of `[[card]]` tables. Each card has a
name, copies, classes, a campaign symbol, a provenance and two sides (`passive`,
`ignited`), each with a NUMBER, an optional KEYWORD, a plain-English text and its action
as a list of steps in the effect vocabulary documented in `data/CARDS.md`.

The loaded `CardSet` numbers every physical card 0..N-1 (card ids): the sets in the
order of `Options.sets()`, cards in file order, copies consecutive. `compile_program`
turns it into the NumPy opcode arrays that `kernel` interprets.
"""

from __future__ import annotations

import difflib
import hashlib
import re
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from bombsolve.solvers.allisbomb.cards.config import Options, refuse_standard_input
from bombsolve.solvers.allisbomb.cards.slips import slips
from bombsolve.solvers.allisbomb.cards.standard import breaches
from bombsolve.solvers.common.errors import BadInput, nearest
from bombsolve.solvers.common.files import read_input

DATA_DIR = Path(__file__).parent.parent / "data"
SET_FILES: dict[str, str] = {
    "base": "base.toml",
    "hands": "hands.toml",
    "mosquitos": "mosquitos.toml",
    "dream_guide": "dream_guide.toml",
    "gifts": "gifts.toml",
    "the_juice": "the_juice.toml",
    "waking_up": "waking_up.toml",
    "all": "all.toml",
}
#: Cards the Blitz variant keeps one copy of (rulebook G, "Blitz").
BLITZ_PAIRS = ("JOKER", "MENDER", "RASCAL", "LIBRARIAN", "GUARDIAN")

KEYWORDS = ("", "URGENT", "ROYAL")
OPS = ("move", "ignite", "flip_back", "swap", "reorder", "prophecy", "equip_win", "turn_over")
OPS = (*OPS, "group", "choose", "exchange", "reverse", "draw", "next")
ZONES = ("deck", "equipped", "discard", "play", "drawn", "anywhere")
#: The zones a selecting step may pick from ("anywhere": the DECK, the DISCARD PILE and the
#: EQUIPPED CARDS at once).
SELECT_ZONES = ("deck", "equipped", "discard", "play", "anywhere")
PICKS = ("top", "bottom", "nth", "any", "name", "class", "self", "above", "below")
DESTS = ("deck_top", "deck_bottom", "equipped", "discard", "out")
#: Places in the DECK (`place`: the k-th from the top, or with `from_bottom` from the
#: bottom; `next_to`: directly above or below that card, or this card), and the other
#: player's EQUIPPED CARDS (two players).
DESTS = (*DESTS, "deck_place", "deck_above", "deck_below", "partner")
#: `side`: a selection's side filter (passive only, ignited only).
SIDES = ("passive", "ignited")
CAMPAIGN = ("", "circle", "star")
#: Step fields each op accepts (beyond `op`).
OP_FIELDS: dict[str, set[str]] = {
    "move": {"zone", "pick", "n", "within", "name", "class", "to", "may", "count", "side", "all"}
    | {"place", "from_bottom", "next_to", "of"},
    "ignite": {"zone", "pick", "n", "within", "name", "class", "may", "count", "side", "all", "of"},
    "flip_back": {"zone", "pick", "n", "within", "name", "class", "may", "count", "side", "all"}
    | {"of"},
    "turn_over": {"zone", "pick", "n", "within", "name", "class", "may", "count", "side", "all"}
    | {"of"},
    "swap": {"may"},
    "reorder": {"n", "zone"},
    "reverse": {"n", "zone"},
    "draw": {"add", "number"},
    "next": {"effect", "add"},
    "prophecy": {"dish"},
    "equip_win": {"target", "may", "zone"},
    "group": {"may", "steps"},
    "choose": {"may", "steps"},
    "exchange": {"zone", "pick", "n", "within", "name", "class", "may", "side", "taken"},
}
#: `exchange`'s `taken`: where the taken card goes when this card was in the PLAY AREA.
TAKEN = ("play", "equipped")
for _fields in OP_FIELDS.values():
    _fields |= {"if", "if_done"}  # every step may have a condition, or follow "if you do"
#: `if` (a condition on a step or group): its keys, and the zones it may name
#: ("equipped": the active player's EQUIPPED CARDS).
COND_KEYS = ("card", "class", "zone", "side", "at_least", "at_most", "not")
COND_ZONES = ("deck", "equipped", "discard", "out", "play")
#: How deep groups (and choices) may nest.
MAX_NESTING = 4
#: Most options of a `choose` step (the kernel keeps their offsets in its row).
MAX_OPTIONS = 8
MAX_REORDER = 6
#: The piles `reorder` and `reverse` work on: the top of the DECK, or of the DISCARD PILE
#: (which the rulebook lets a CARD ACTION reorder: G, "Discard Pile").
PILES = ("deck", "discard")
MAX_COUNT = 8
#: `next` (an effect on the next card played, CARDS.md "Effects on the next card"): the
#: effects it may name, and the range of its `add` (what the state's small field holds).
NEXT_EFFECTS = ("ignited", "no_action")
NEXT_ADD = 6


@dataclass(frozen=True)
class Cond:
    """A condition on a step or group (CARDS.md, "Conditions"): how many cards match (a
    card NAME, "self" for the played card, a class, or any card; in a zone; on a side), at
    least `at_least` and at most `at_most` (-1: no limit); `negate` turns it around."""

    card: str = ""
    cls: str = ""
    zone: str = ""
    side: str = ""
    at_least: int = 1
    at_most: int = -1
    negate: bool = False


@dataclass(frozen=True)
class Step:
    """One step of a card action (vocabulary in data/CARDS.md)."""

    op: str
    zone: str = ""
    pick: str = ""
    n: int = 0
    within: int = 0
    name: str = ""
    cls: str = ""
    to: str = ""
    may: bool = False
    count: int = 1
    dish: str = ""
    target: str = ""
    #: a selection's side filter: "" (either side), "passive" or "ignited"
    side: str = ""
    #: the `all` quantifier: every matching card, in the candidates' order
    all: bool = False
    #: `if`: the step (or group) runs only if this holds when it is reached
    cond: Cond | None = None
    #: "if you do": the step runs only if the step before it acted on some card
    if_done: bool = False
    #: `op = "group"`: its steps ("you may do all of this" with `may`); `choose`: its options
    steps: tuple[Step, ...] = ()
    #: `exchange`: where the taken card goes from the PLAY AREA ("play": it is IGNITED and
    #: cleaned up as the played card would be; "equipped": it is EQUIPPED)
    taken: str = ""
    #: a counting number: `count` (selecting steps), `add` or `number` (draw) given as a
    #: table are as many as the cards it matches (a Cond without at_least/at_most/not)
    amount: Cond | None = None
    #: `draw`: the number drawn this turn gains `value` (`add`), or becomes it (`number`,
    #: sets = True); with `amount`, the count is the value
    value: int = 0
    sets: bool = False
    #: `to = "deck_place"`: the k-th place from the top (or the bottom, `from_bottom`)
    place: int = 0
    from_bottom: bool = False
    #: `to = "deck_above"` / `"deck_below"`: next to this card NAME, or "self"
    next_to: str = ""
    #: `pick = "above"` / `"below"`: the card directly above / below this NAME or "self"
    of: str = ""
    #: `next`: how the next card played plays ("ignited", "no_action"; "" with `add`, whose
    #: number is `value`)
    effect: str = ""

    def flat(self) -> tuple[Step, ...]:
        """This step and, for a group, every step inside it (depth first)."""
        return (self,) + tuple(x for st in self.steps for x in st.flat())

    def picks_as_set(self) -> bool:
        """Whether the cards this step picks one after another are asked for as a set: each
        pick among the candidates that its first pick listed no earlier than the last pick
        (CARDS.md "Moves and the `solution` of a result"). That holds where the order of
        the picks cannot change the result: a pick by `any`, name or class with no
        `within` range (a card is a candidate by its own zone and side alone, which only
        its own pick changes), acting on each card alone where order does not count
        (moved to the EQUIPPED CARDS, the partner's or out of play, turned over, turned
        back; never into the DECK or the DISCARD PILE, and never ignited, which may
        discard). Every card offered later was listed at the first pick, and any order of
        the same picks is legal in that list's order too, reaching the same position."""
        if self.pick not in ("any", "name", "class") or self.within or self.all:
            return False
        if self.op == "move":
            return self.to in ("equipped", "partner", "out")
        return self.op in ("flip_back", "turn_over")


@dataclass(frozen=True)
class Side:
    """One side of a card: NUMBER, KEYWORD, the printed-style text and its steps."""

    number: int
    keyword: str
    text: str
    steps: tuple[Step, ...]

    def all_steps(self) -> tuple[Step, ...]:
        """Every step of the side, the steps inside groups included (depth first)."""
        return tuple(x for st in self.steps for x in st.flat())


@dataclass(frozen=True)
class Card:
    """One card kind as written in a card file (copies not yet expanded)."""

    name: str
    label: str
    copies: int
    classes: tuple[str, ...]
    expansion: str
    campaign: str
    provenance: str
    rulebook: tuple[str, ...]
    replaces: tuple[str, ...]
    passive: Side
    ignited: Side
    source: str
    #: The card's place in its file, counted from 1 (0: not read from a file).
    index: int = 0

    def where(self) -> str:
        """How messages name the card: 'card 4 (RASCAL)', counted from 1 in its file."""
        return f"card {self.index} ({self.name})"

    def side(self, ignited: bool) -> Side:
        """Return the ignited or passive side."""
        return self.ignited if ignited else self.passive


@dataclass(frozen=True)
class CardSet:
    """The physical cards of one game: `cards[i]` is the kind of card id i."""

    config: Options
    cards: tuple[Card, ...]
    files: tuple[Path, ...]
    provenance: tuple[str, ...] = field(default=())
    #: What the cards break of what the rulebook fixes (`standard.breaches`), one line each;
    #: empty unless the game was built with `allow_nonstandard` (the command line prints them
    #: as warnings). Steps that cannot act as written in any game (`slips.slips`, not
    #: `warned`) are among them.
    nonstandard: tuple[str, ...] = field(default=())
    #: What the game's cards say that is idle in this game or on its side (`slips`,
    #: `warned`), and what patch mode did that a transcriber may not expect (`_patch_notes`):
    #: warnings whatever `allow_nonstandard` says, one line each.
    warnings: tuple[str, ...] = field(default=())

    @property
    def n(self) -> int:
        """The number of cards (the deck size before setup)."""
        return len(self.cards)

    @cached_property
    def labels(self) -> tuple[str, ...]:
        """The card label of each card id (what deck strings use). Cached: a sweep reads it
        for every card of every deal."""
        return tuple(c.label for c in self.cards)

    @cached_property
    def names(self) -> tuple[str, ...]:
        """The card NAME of each card id."""
        return tuple(c.name for c in self.cards)

    def ids_named(self, name: str) -> list[int]:
        """Return the card ids whose NAME is `name`."""
        return [i for i, c in enumerate(self.cards) if c.name == name]

    def is_stand_in(self) -> bool:
        """True if any card comes from the project's stand-in texts."""
        return any(c.provenance == "stand-in" for c in self.cards)

    def provenance_by_set(self) -> dict[str, dict[str, int]]:
        """How many cards of each provenance each set in play holds, sets in play order,
        e.g. {"base": {"printed": 7, "stand-in": 11}, "mosquitos": {"stand-in": 2}}."""
        out: dict[str, dict[str, int]] = {s: {} for s in self.config.sets()}
        for c in self.cards:
            counts = out.setdefault(c.expansion, {})
            counts[c.provenance] = counts.get(c.provenance, 0) + 1
        return {s: dict(sorted(v.items())) for s, v in out.items() if v}

    def file_hashes(self) -> dict[str, str]:
        """SHA-256 of each card file used (for manifests)."""
        return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in self.files}


# --- the card file schema (CARDS.md, "File layout") ------------------------------------------

#: Provenance values (CARDS.md, "Provenance"): transcribed from the printed card by its owner,
#: the project's own stand-in text, or a designer's own card.
PROVENANCES = ("printed", "stand-in", "custom")
#: `[set] mode`: "replace" (the file's cards are the whole set) or "patch" (they replace the
#: shipped cards of the same label and add the others).
MODES = ("replace", "patch")
#: The most cards one game may hold (the kernel's card masks are 62 bits wide).
MAX_CARDS = 62
FILE_KEYS = ("set", "card")
SET_KEYS = ("name", "provenance", "mode", "note")
CARD_KEYS = (
    "name",
    "label",
    "copies",
    "class",
    "expansion",
    "campaign",
    "provenance",
    "rulebook",
    "replaces",
    "note",
    "passive",
    "ignited",
)
SIDE_KEYS = ("number", "keyword", "text", "steps")
STEP_KEYS = ("op", "zone", "pick", "n", "within", "name", "class", "to", "may", "count", "dish")
STEP_KEYS = (*STEP_KEYS, "target", "side", "all", "if", "if_done", "steps", "taken", "add")
STEP_KEYS = (*STEP_KEYS, "number", "place", "from_bottom", "next_to", "of", "effect")
SELECT_OPS = ("move", "ignite", "flip_back", "turn_over")
#: Ranges of the numeric fields (CARDS.md lists the same).
RANGES: dict[str, tuple[int, int]] = {
    "copies": (1, 4),
    "number": (0, 9),
    "count": (1, MAX_COUNT),
    "n": (1, MAX_CARDS),
    "within": (1, MAX_CARDS),
}
#: Which `pick` each pick-specific step field goes with.
PICK_FIELDS: dict[str, tuple[str, ...]] = {
    "n": ("nth",),
    "within": ("any", "name", "class"),
    "name": ("name",),
    "class": ("class",),
}
_MISSING = object()
_KIND_WORDS = {int: "an integer", str: "a string", bool: "true or false", list: "a list"}
_KIND_WORDS[dict] = "a table"


def provenance_text(cs: CardSet) -> str:
    """The provenance of the cards in play per set, as banners and captions say it:
    'base: PRINTED, mosquitos: STAND-IN' ('base: PRINTED 7 + STAND-IN 11' when mixed)."""
    return provenance_words(cs.provenance_by_set())


def provenance_words(by_set: dict[str, dict[str, int]]) -> str:
    """`provenance_text` from `CardSet.provenance_by_set()` data (as --json and manifests
    hold it)."""
    parts = []
    for name, counts in by_set.items():
        if len(counts) == 1:
            parts.append(f"{name}: {next(iter(counts)).upper()}")
        else:
            parts.append(f"{name}: " + " + ".join(f"{p.upper()} {k}" for p, k in counts.items()))
    return ", ".join(parts)


def _fail(source: str, where: str, msg: str) -> BadInput:
    return BadInput(f"{source}: {where}: {msg}" if where else f"{source}: {msg}")


def _show(value: object) -> str:
    """A value as a message shows it: short, and never a deep structure spelled out."""
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"the decimal number {value}"
    if not isinstance(value, (int, str)):
        return f"a {type(value).__name__} ({str(value)[:30]})"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "...'"


def _is(value: object, kind: type) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def _get(table: dict, key: str, kind: type, source: str, where: str, default=_MISSING):
    """The field `key` of `table`, of TOML type `kind`; BadInput naming the path if not."""
    if key not in table:
        if default is _MISSING:
            raise _fail(source, where, f"missing field '{key}'")
        return default
    value = table[key]
    if not _is(value, kind):
        raise _fail(source, f"{where}[{key}]", f"must be {_KIND_WORDS[kind]}, not {_show(value)}")
    return value


def _ranged(table: dict, key: str, source: str, where: str, lo: int, hi: int, default=_MISSING):
    value = _get(table, key, int, source, where, default)
    if key in table and not lo <= value <= hi:
        raise _fail(source, f"{where}[{key}]", f"must be in {lo}..{hi}, not {value}")
    return value


def _choice(table: dict, key: str, choices, source: str, where: str, default=_MISSING, what=""):
    value = _get(table, key, str, source, where, default)
    if key in table and value not in choices:
        shown = ", ".join(repr(c) if not c else c for c in choices)
        raise _fail(
            source,
            f"{where}[{key}]",
            f"unknown {what or key} {value!r}{nearest(value, [c for c in choices if c])}; "
            f"expected one of: {shown}",
        )
    return value


def _strings(table: dict, key: str, source: str, where: str, one_ok: bool = False) -> list[str]:
    value = table.get(key, [])
    if one_ok and isinstance(value, str):
        return [value] if value else []
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        what = "a string or a list of strings" if one_ok else "a list of strings"
        bad = (
            next((x for x in value if not isinstance(x, str)), value)
            if isinstance(value, list)
            else value
        )
        raise _fail(source, f"{where}[{key}]", f"must be {what}, not {_show(bad)}")
    return list(value)


def _known_keys(table: dict, allowed: tuple[str, ...], source: str, where: str) -> None:
    for key in table:
        if key not in allowed:
            raise _fail(
                source,
                f"{where}[{key}]",
                f"unknown field {key!r}{nearest(key, allowed)}; expected one of: "
                f"{', '.join(allowed)}",
            )


def _parse_step(raw: object, source: str, where: str, depth: int = 0) -> Step:
    if not isinstance(raw, dict):
        raise _fail(source, where, f"a step must be a table, not {_show(raw)}")
    _known_keys(raw, STEP_KEYS, source, where)
    op = _choice(raw, "op", OPS, source, where, what="op")
    extra = [k for k in raw if k != "op" and k not in OP_FIELDS[op]]
    if extra:
        # a draw step is refused "if you do" (it runs before the action): not offered here
        offered = OP_FIELDS[op] - ({"if_done"} if op == "draw" else set())
        takes = ", ".join(sorted(offered)) or "nothing"
        raise _fail(
            source,
            f"{where}[{extra[0]}]",
            f"op '{op}' takes no field '{extra[0]}' (it takes {takes})",
        )
    kw: dict = {"op": op}
    if "may" in raw:
        kw["may"] = _get(raw, "may", bool, source, where)
    if op in SELECT_OPS or op == "exchange":
        kw["zone"] = _choice(raw, "zone", SELECT_ZONES, source, where)
        kw["pick"] = _choice(raw, "pick", PICKS, source, where)
        pick, zone = kw["pick"], kw["zone"]
        for key, picks in PICK_FIELDS.items():
            if key in raw and pick not in picks:
                raise _fail(
                    source,
                    f"{where}[{key}]",
                    f"'{key}' goes with pick {' or '.join(repr(p) for p in picks)}, "
                    f"not with pick '{pick}'",
                )
        if (zone == "play") != (pick == "self"):
            raise _fail(
                source, f"{where}[pick]", "pick 'self' goes with zone 'play' and only with it"
            )
        if zone == "equipped" and pick in ("top", "bottom", "nth"):
            raise _fail(
                source, f"{where}[pick]", "equipped cards have no order; use any/name/class"
            )
        if zone == "equipped" and "within" in raw:
            raise _fail(
                source, f"{where}[within]", "equipped cards have no order; leave 'within' out"
            )
        if zone == "anywhere" and pick in ("top", "bottom", "nth"):
            raise _fail(source, f"{where}[pick]", "'anywhere' is several zones; use any/name/class")
        if zone == "anywhere" and "within" in raw:
            raise _fail(source, f"{where}[within]", "'anywhere' has no top; leave 'within' out")
        if pick == "self" and "count" in raw:
            raise _fail(source, f"{where}[count]", "pick 'self' acts on the played card only")
        if "side" in raw:
            kw["side"] = _choice(raw, "side", SIDES, source, where)
        if "all" in raw:
            kw["all"] = _get(raw, "all", bool, source, where)
            if kw["all"] and pick not in ("any", "name", "class"):
                raise _fail(
                    source,
                    f"{where}[all]",
                    f"'all' goes with pick 'any', 'name' or 'class', not with pick '{pick}' "
                    "(a fixed pick takes its `count` cards at once already)",
                )
            if kw["all"] and "count" in raw:
                raise _fail(
                    source, f"{where}[count]", "'all' takes every matching card: leave 'count' out"
                )
        if pick == "nth":
            kw["n"] = _ranged(raw, "n", source, where, *RANGES["n"])
        if "within" in raw:
            kw["within"] = _ranged(raw, "within", source, where, *RANGES["within"])
        if isinstance(raw.get("count"), dict):
            kw["amount"] = _parse_amount(raw["count"], source, f"{where}[count]")
        else:
            kw["count"] = _ranged(raw, "count", source, where, *RANGES["count"], default=1)
        if pick == "name":
            kw["name"] = _name(raw, "name", source, where)
        if pick == "class":
            kw["cls"] = _name(raw, "class", source, where)
        if op == "exchange":
            if zone == "play":
                raise _fail(source, f"{where}[zone]", "exchange takes a card of another zone")
            kw["taken"] = _choice(raw, "taken", TAKEN, source, where, default="play")
        if pick in ("above", "below"):
            if zone != "deck":
                raise _fail(source, f"{where}[zone]", f"pick '{pick}' looks in the DECK only")
            kw["of"] = _name(raw, "of", source, where)
        elif "of" in raw:
            raise _fail(source, f"{where}[of]", "'of' goes with pick 'above' or 'below'")
        if op == "move":
            kw["to"] = _choice(raw, "to", DESTS, source, where)
            dest = kw["to"]
            if dest == "deck_place":
                kw["place"] = _ranged(raw, "place", source, where, 1, MAX_CARDS)
                kw["from_bottom"] = _get(raw, "from_bottom", bool, source, where, False)
            elif "place" in raw or "from_bottom" in raw:
                key = "place" if "place" in raw else "from_bottom"
                raise _fail(source, f"{where}[{key}]", f"'{key}' goes with to = 'deck_place'")
            if dest in ("deck_above", "deck_below"):
                kw["next_to"] = _name(raw, "next_to", source, where)
            elif "next_to" in raw:
                raise _fail(
                    source,
                    f"{where}[next_to]",
                    "'next_to' goes with to 'deck_above' or 'deck_below'",
                )
            if zone in ("equipped", "discard") and kw["to"] == zone:
                raise _fail(source, f"{where}[to]", f"cannot move from {zone} to {zone}")
    elif op in ("group", "choose"):
        kw["steps"] = _parse_steps(
            _get(raw, "steps", list, source, where), source, where, depth + 1
        )
        if not kw["steps"]:
            raise _fail(source, f"{where}[steps]", f"a {op} needs at least one step")
        if op == "choose" and not 2 - kw.get("may", False) <= len(kw["steps"]) <= MAX_OPTIONS:
            raise _fail(
                source,
                f"{where}[steps]",
                f"a choose step offers 2..{MAX_OPTIONS} options (1 with may), not "
                f"{len(kw['steps'])}",
            )
    elif op == "draw":
        if ("add" in raw) == ("number" in raw):
            raise _fail(source, where, "a draw step gives 'add' or 'number' (one of them)")
        key = "add" if "add" in raw else "number"
        kw["sets"] = key == "number"
        if isinstance(raw[key], dict):
            kw["amount"] = _parse_amount(raw[key], source, f"{where}[{key}]")
        else:
            kw["value"] = _ranged(raw, key, source, where, 0 if kw["sets"] else -9, 9)
    elif op == "next":
        if ("effect" in raw) == ("add" in raw):
            raise _fail(source, where, "a next step gives 'effect' or 'add' (one of them)")
        if "effect" in raw:
            kw["effect"] = _choice(raw, "effect", NEXT_EFFECTS, source, where)
        else:
            kw["value"] = _ranged(raw, "add", source, where, -NEXT_ADD, NEXT_ADD)
            if kw["value"] == 0:
                raise _fail(
                    source, f"{where}[add]", "add = 0 changes nothing; expected 1..6 or -6..-1"
                )
    elif op in ("reorder", "reverse"):
        kw["n"] = _ranged(raw, "n", source, where, 2, MAX_REORDER if op == "reorder" else MAX_CARDS)
        if "zone" in raw:  # (left out: the DECK, written "" as before the field existed)
            kw["zone"] = _choice(raw, "zone", PILES, source, where)
    elif op == "prophecy":
        kw["dish"] = _name(raw, "dish", source, where)
    elif op == "equip_win":
        kw["target"] = _name(raw, "target", source, where)
        kw["zone"] = _choice(raw, "zone", ("deck", "drawn"), source, where, default="")
    if "if" in raw:
        kw["cond"] = _parse_cond(raw["if"], source, f"{where}[if]")
    if "if_done" in raw:
        kw["if_done"] = _get(raw, "if_done", bool, source, where)
    return Step(**kw)


def _parse_cond(raw: object, source: str, where: str) -> Cond:
    """A condition table (CARDS.md, "Conditions")."""
    if not isinstance(raw, dict):
        raise _fail(source, where, f"a condition must be a table, not {_show(raw)}")
    _known_keys(raw, COND_KEYS, source, where)
    kw: dict = {}
    if "card" in raw:
        kw["card"] = _name(raw, "card", source, where)
    if "class" in raw:
        if "card" in raw:
            raise _fail(source, f"{where}[class]", "give 'card' or 'class', not both")
        kw["cls"] = _name(raw, "class", source, where)
    kw["zone"] = _choice(raw, "zone", COND_ZONES, source, where, default="")
    kw["side"] = _choice(raw, "side", SIDES, source, where, default="")
    kw["at_least"] = _ranged(raw, "at_least", source, where, 0, MAX_CARDS, default=1)
    kw["at_most"] = _ranged(raw, "at_most", source, where, 0, MAX_CARDS, default=-1)
    if "at_most" in raw and "at_least" not in raw:
        kw["at_least"] = 0
    if kw["at_most"] >= 0 and kw["at_most"] < kw["at_least"]:
        raise _fail(
            source,
            f"{where}[at_most]",
            f"at_most {kw['at_most']} is below at_least {kw['at_least']}: it never holds",
        )
    kw["negate"] = _get(raw, "not", bool, source, where, default=False)
    return Cond(**kw)


def _parse_amount(raw: object, source: str, where: str) -> Cond:
    """A counting number: as many as the cards a condition table matches (no limits)."""
    if isinstance(raw, dict):
        extra = [k for k in raw if k in ("at_least", "at_most", "not")]
        if extra:
            raise _fail(
                source,
                f"{where}[{extra[0]}]",
                "a counting number takes card, class, zone and side only",
            )
    return _parse_cond(raw, source, where)


def _parse_steps(raw: list, source: str, where: str, depth: int = 0) -> tuple[Step, ...]:
    """A list of steps (a side's, or a group's), with the "if you do" checks."""
    if depth > MAX_NESTING:
        raise _fail(source, where, f"groups nested more than {MAX_NESTING} deep")
    steps = tuple(
        _parse_step(s, source, f"{where}[step {i + 1}]", depth) for i, s in enumerate(raw)
    )
    for i, st in enumerate(steps):
        if st.op == "draw" and (depth > 0 or st.if_done):
            raise _fail(
                source,
                f"{where}[step {i + 1}]",
                "a draw step changes the Draw & Equip phase, before the action: it stands on "
                "its own (an 'if' is fine; not in a group or choose, not 'if you do')",
            )
        if not st.if_done:
            continue
        here = f"{where}[step {i + 1}][if_done]"
        if i == 0:
            raise _fail(source, here, "'if you do' needs a step before it in the same list")
        if steps[i - 1].op not in SELECT_OPS:
            raise _fail(
                source,
                here,
                f"'if you do' follows a move, ignite, flip_back or turn_over step, not "
                f"'{steps[i - 1].op}'"
                + (
                    " (put this step inside the group instead)"
                    if steps[i - 1].op == "group"
                    else ""
                ),
            )
    return steps


def _name(raw: dict, key: str, source: str, where: str) -> str:
    value = _get(raw, key, str, source, where)
    if not value.strip() or value != value.strip():
        raise _fail(source, f"{where}[{key}]", "must be a non-empty name without edge spaces")
    return value


def _parse_side(raw: object, source: str, where: str) -> Side:
    if not isinstance(raw, dict):
        what = "missing" if raw is None else f"must be a table, not {_show(raw)}"
        raise _fail(source, where, f"side table {what}")
    _known_keys(raw, SIDE_KEYS, source, where)
    number = _ranged(raw, "number", source, where, *RANGES["number"])
    keyword = _choice(raw, "keyword", KEYWORDS, source, where, default="")
    text = _get(raw, "text", str, source, where, default="")
    steps_raw = _get(raw, "steps", list, source, where, default=[])
    return Side(number, keyword, text, _parse_steps(steps_raw, source, where))


@dataclass(frozen=True)
class CardFile:
    """A parsed card file: its cards (each with its set) and its `[set] mode`."""

    cards: tuple[Card, ...]
    mode: str


def _loads(text: str, source: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        hint = _header_hint(text)
        raise BadInput(f"{source}: {hint or f'not valid TOML: {exc}'}") from None
    except RecursionError:
        raise BadInput(f"{source}: not valid TOML: values nested too deeply") from None


def _header_hint(text: str) -> str:
    """Name a table header that is not part of the format (a broken file often has one)."""
    for i, line in enumerate(text.splitlines(), 1):
        m = re.match(r"\s*(\[\[?)\s*([A-Za-z0-9_\-\"'. ]+?)\s*\]\]?\s*(#.*)?$", line)
        if not m:
            continue
        parts = [p.strip().strip("\"'") for p in m.group(2).split(".")]
        if parts[0] not in FILE_KEYS:
            match = difflib.get_close_matches(parts[0], FILE_KEYS, n=1, cutoff=0.6)
            tables = {"card": "[[card]]", "set": "[set]"}
            guess = f" (did you mean {tables[match[0]]}?)" if match else ""
            return (
                f"line {i}: unknown table {m.group(0).strip()!r}{guess}; a card file has "
                "[set] and [[card]] tables"
            )
        if parts[0] == "card" and len(parts) > 1 and parts[1] not in ("passive", "ignited"):
            return (
                f"line {i}: unknown table {m.group(0).strip()!r}"
                f"{nearest(parts[1], ('passive', 'ignited'))}; a card has [card.passive] "
                "and [card.ignited]"
            )
    return ""


def parse_file(text: str, source: str, expansion: str | None = None) -> CardFile:
    """Parse and validate the text of a card file; raise BadInput naming file, card and field.

    Cards are counted from 1, steps too, as a person counts them. `expansion` is the set to
    assume for cards that name none when the `[set]` table names none either.
    """
    data = _loads(text, source)
    _known_keys(data, FILE_KEYS, source, "")
    set_table = data.get("set", {})
    if not isinstance(set_table, dict):
        raise _fail(source, "[set]", f"must be a table, not {_show(set_table)}")
    _known_keys(set_table, SET_KEYS, source, "[set]")
    set_name = _choice(set_table, "name", tuple(SET_FILES), source, "[set]", expansion, "set")
    set_prov = _choice(set_table, "provenance", PROVENANCES, source, "[set]", "printed")
    mode = _choice(set_table, "mode", MODES, source, "[set]", "replace")
    _get(set_table, "note", str, source, "[set]", "")
    raw_cards = data.get("card")
    if isinstance(raw_cards, dict):
        raise _fail(source, "[card]", "cards are an array of tables: write [[card]], not [card]")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise _fail(source, "[[card]]", "no cards")
    cards = []
    for i, raw in enumerate(raw_cards):
        if not isinstance(raw, dict):
            raise _fail(source, f"card {i + 1}", f"must be a table, not {_show(raw)}")
        name = _get(raw, "name", str, source, f"card {i + 1}")
        where = f"card {i + 1} ({name})"
        if not name.strip() or name != name.strip() or "," in name:
            raise _fail(
                source, f"{where}[name]", "must be non-empty, without commas or edge spaces"
            )
        _known_keys(raw, CARD_KEYS, source, where)
        label = _get(raw, "label", str, source, where, default=name)
        if not label.strip() or label != label.strip() or "," in label:
            raise _fail(
                source, f"{where}[label]", "must be non-empty, without commas or edge spaces"
            )
        copies = _ranged(raw, "copies", source, where, *RANGES["copies"], default=1)
        classes = _strings(raw, "class", source, where, one_ok=True)
        for cls in classes:
            if not cls.strip() or cls != cls.strip():
                raise _fail(source, f"{where}[class]", "a class must be a non-empty name")
        exp = _choice(raw, "expansion", tuple(SET_FILES), source, where, set_name, "set")
        if exp is None:
            raise _fail(
                source,
                f"{where}[expansion]",
                f"which set is this card of? give [set] name or the card's expansion "
                f"(one of: {', '.join(SET_FILES)})",
            )
        campaign = _choice(raw, "campaign", CAMPAIGN, source, where, default="")
        prov = _choice(raw, "provenance", PROVENANCES, source, where, default=set_prov)
        rulebook = _strings(raw, "rulebook", source, where)
        replaces = _strings(raw, "replaces", source, where)
        _get(raw, "note", str, source, where, "")
        passive = _parse_side(raw.get("passive"), source, f"{where}[passive]")
        ignited = _parse_side(raw.get("ignited"), source, f"{where}[ignited]")
        cards.append(
            Card(
                name,
                label,
                copies,
                tuple(classes),
                exp,
                campaign,
                prov,
                tuple(rulebook),
                tuple(replaces),
                passive,
                ignited,
                source,
                i + 1,
            )
        )
    seen: dict[tuple[str, str], Card] = {}
    for c in cards:
        if (c.expansion, c.label) in seen:
            first = seen[(c.expansion, c.label)]
            raise _fail(
                source,
                f"{c.where()}[label]",
                f"label {c.label!r} is used by card {first.index} too; give each entry its "
                "own label",
            )
        seen[(c.expansion, c.label)] = c
    return CardFile(tuple(cards), mode)


def parse_card_file(text: str, source: str, expansion: str | None = None) -> list[Card]:
    """The cards of a card file's text (`parse_file`), validated."""
    return list(parse_file(text, source, expansion).cards)


@lru_cache(maxsize=64)
def _parse_cached(text: str, source: str) -> CardFile:
    return parse_file(text, source, None)


def load_card_file(path: Path) -> CardFile:
    """Load and validate one card file.

    The parse is cached by the file's text, not its modification time: an edit saved within
    the same second (or a file copied with its old time) is read as written."""
    refuse_standard_input(path)
    path = Path(path)
    if not path.exists():
        raise BadInput(f"card file {str(path)!r} not found")
    try:
        text = read_input(path, "card file", "a card file (TOML)").decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"{path}: cannot read card file: {exc}") from None
    return _parse_cached(text, str(path.resolve()))


def load_file(path: Path) -> tuple[Card, ...]:
    """The cards of one card file (`load_card_file`)."""
    return load_card_file(path).cards


#: Stand-in set versions kept in one card file (CARDS.md, "The stand-in sets"); the sets such a
#: file does not define are version 1's (`SET_FILES`).
VERSION_FILES: dict[str, str] = {"standin-v2": "standin-v2.toml"}


def shipped_set(version: str, set_name: str) -> tuple[Path, tuple[Card, ...]]:
    """The shipped stand-in cards of `set_name` in set version `version`, and their file."""
    if version in VERSION_FILES:
        path = DATA_DIR / VERSION_FILES[version]
        cards = tuple(c for c in load_file(path) if c.expansion == set_name)
        if cards:
            return path, cards
    path = DATA_DIR / SET_FILES[set_name]
    return path, load_file(path)


def _set_kinds(config: Options) -> tuple[list[Card], list[Path], list[str]]:
    """The card kinds of every set in play, the files they come from, and the patch notes.

    A set the `--cards` file defines comes from it (mode "replace"), or from the shipped file
    with the user's cards put in place of those of the same label and the others added
    after them (mode "patch"); every other set comes from the shipped (stand-in) file.
    The notes (`_patch_notes`) say where a patch did what a transcriber may not expect.
    """
    notes: list[str] = []
    user = load_card_file(Path(config.cards_file)) if config.cards_file else None
    mine: dict[str, list[Card]] = {}
    for card in user.cards if user else ():
        mine.setdefault(card.expansion, []).append(card)
    kinds: list[Card] = []
    files: list[Path] = []
    for set_name in config.sets():
        shipped, shipped_cards = shipped_set(config.cards_version, set_name)
        if set_name not in mine:
            kinds.extend(shipped_cards)
            files.append(shipped)
            continue
        if user.mode == "replace":
            kinds.extend(mine[set_name])
        else:
            patched = list(shipped_cards)
            labels = [c.label for c in patched]
            for card in mine[set_name]:
                notes += _patch_notes(card, shipped_cards, set_name)
                if card.label in labels:
                    patched[labels.index(card.label)] = card
                else:
                    patched.append(card)
            kinds.extend(patched)
            files.append(shipped)
        files.append(Path(config.cards_file))
    return kinds, files, notes


def _patch_notes(card: Card, shipped: tuple[Card, ...], set_name: str) -> list[str]:
    """What patching `card` into the shipped set does that a transcriber may not expect
    (CARDS.md, "Patch mode"): a label that matches no shipped card although the NAME does
    (the card is added, not put in place of one: a PROPHET needs its label), and a
    replaced card whose copies differ (patch mode takes the file's `copies`, default 1)."""
    same = [c for c in shipped if c.label == card.label]
    if same:
        if same[0].copies != card.copies:
            return [
                f"{card.source}: {card.where()}[copies]: {card.copies} "
                f"cop{'y' if card.copies == 1 else 'ies'}; the shipped "
                f"{set_name} {card.label} it replaces has {same[0].copies} (patch mode takes "
                f"the file's copies, default 1: write copies = {same[0].copies} to keep them)"
            ]
        return []
    named = [c.label for c in shipped if c.name == card.name]
    if not named:
        return []
    return [
        f"{card.source}: {card.where()}[label]: label {card.label!r} matches no card of the "
        f"shipped {set_name} set, so this {card.name} is added beside its "
        f"{sum(c.copies for c in shipped if c.name == card.name)} (they are labelled "
        f"{', '.join(repr(x) for x in named)}); to replace one, give its label"
    ]


def _check_names(kinds: list[Card]) -> None:
    """Every card name, class, dish and target a step names is one of the game's (CARDS.md)."""
    names = sorted({k.name for k in kinds})
    classes = sorted({c for k in kinds for c in k.classes})
    for k in kinds:
        for side in ("passive", "ignited"):
            for j, st in enumerate(getattr(k, side).all_steps()):
                c = st.cond or Cond()
                a = st.amount or Cond()
                checks = (
                    ("name", st.name, names, "card named"),
                    ("class", st.cls, classes, "card of class"),
                    ("dish", st.dish, names, "card named"),
                    ("target", st.target, ["desired", *names], "card named"),
                    ("if][card", c.card, ["self", *names], "card named"),
                    ("of", st.of, ["self", *names], "card named"),
                    ("count][card", a.card, ["self", *names], "card named"),
                    ("count][class", a.cls, classes, "card of class"),
                    ("next_to", st.next_to, ["self", *names], "card named"),
                    ("if][class", c.cls, classes, "card of class"),
                )
                for key, value, known, what in checks:
                    if value and value not in known:
                        extra = " ('desired' or a card name)" if key == "target" else ""
                        raise BadInput(
                            f"{k.source}: {k.where()}[{side}][step {j + 1}][{key}]: no {what} "
                            f"{value!r} in this game{extra}{nearest(value, known)}; "
                            f"expected one of: {', '.join(known)}"
                        )


@lru_cache(maxsize=64)
def load_cards(config: Options) -> CardSet:
    """Return the physical cards of `config`'s game, ids 0..N-1 (rulebook B, G, H).

    Sets come from the shipped (stand-in) files, except those a `--cards` file defines
    (`_set_kinds`). WAKING UP's cards named in `replaces` remove the base cards of that
    name; Blitz keeps one of each duplicate pair; campaign removals (`config.removed`) drop
    one copy each. Raises BadInput for malformed files, a step naming a card or class the
    game lacks, a breach of what the rulebook fixes (`standard.breaches`) or a step that
    cannot act as written in any game (`slips`; with `config.allow_nonstandard` both are
    kept in `CardSet.nonstandard` instead), a deck too short for setup or for a card's
    NUMBER, or a campaign removal naming no card. The steps idle in this game or on their
    side, and the patch notes, are kept in `CardSet.warnings`.
    """
    config.validate()
    kinds, files, notes = _set_kinds(config)
    replaced = {r for k in kinds for r in k.replaces}
    kept = [k for k in kinds if not (k.name in replaced and not k.replaces)]
    _check_names(kept)
    found = breaches(kinds, config)
    if found and not config.allow_nonstandard:
        raise BadInput(
            "\n".join(
                [*notes]
                + [f"{line} (pass --allow-nonstandard to play it anyway)" for line in found]
            )
        )
    cards: list[Card] = []
    for kind in kept:
        copies = kind.copies
        if config.blitz and kind.name in BLITZ_PAIRS:
            copies = 1
        cards.extend([kind] * copies)
    for label in config.removed:
        for i, c in enumerate(cards):
            if c.label == label:
                del cards[i]
                break
        else:
            raise BadInput(f"campaign removal {label!r} names no card in {config.label()}")
    if len(cards) > MAX_CARDS:
        raise BadInput(f"{config.label()}: {len(cards)} cards; at most {MAX_CARDS} are supported")
    _check_one_copy(cards)
    _check_single_win_cards(cards, config)
    _check_deck(cards, config)
    found_slips = slips(cards, config.label(), MAX_CARDS)
    stuck = [s.line() for s in found_slips if not s.warned]
    if stuck and not config.allow_nonstandard:
        raise BadInput(
            "\n".join(f"{line} (pass --allow-nonstandard to play it anyway)" for line in stuck)
        )
    warnings = tuple(notes) + tuple(s.line() for s in found_slips if s.warned)
    files_unique = tuple(dict.fromkeys(files))
    provenance = tuple(c.provenance for c in cards)
    return CardSet(
        config, tuple(cards), files_unique, provenance, tuple(found) + tuple(stuck), warnings
    )


def _check_one_copy(cards: list[Card]) -> None:
    """A place named next to a card (`of`, `next_to`) must name a card with one copy in the
    game: "directly below the JOKER" does not say which JOKER (and the searches' copy-
    symmetric keys treat copies as one card)."""
    count = Counter(c.name for c in cards)
    for k in dict.fromkeys(cards):
        for side in ("passive", "ignited"):
            for j, st in enumerate(getattr(k, side).all_steps()):
                for key in ("of", "next_to"):
                    name = getattr(st, key)
                    if name and name != "self" and count.get(name, 0) > 1:
                        raise BadInput(
                            f"{k.source}: {k.where()}[{side}][step {j + 1}][{key}]: {name} "
                            f"has {count[name]} copies in this game: a place next to it "
                            "does not say which; name a card with one copy, or 'self'"
                        )


def _check_single_win_cards(cards: list[Card], config: Options) -> None:
    """Refuse more than one copy of a card a win condition names (rulebook E, G), even with
    `allow_nonstandard`: "the ignited PRINCESS", "the DESIRED DISH", "the THRONE", "the DREAM
    GUIDE", "THE JUICE", "ALL" are each one card, and the engines read each by one id, so a
    second copy would make the verdict depend on which copy the engine looked at."""
    count = Counter(c.name for c in cards)
    named = {"PRINCESS": "E"}
    if config.waking_up:
        named["THRONE"] = "G, WAKING UP"
    for expansion, name in (
        ("dream_guide", "DREAM GUIDE"),
        ("the_juice", "THE JUICE"),
        ("all", "ALL"),
    ):
        if expansion in config.expansions:
            named[name] = f"G, {name}"
    for k in dict.fromkeys(cards):
        for side in ("passive", "ignited"):
            for st in getattr(k, side).all_steps():
                if st.op == "prophecy" and st.dish:
                    named.setdefault(st.dish, "E.1, the DESIRED DISH")
    for name, section in named.items():
        if count.get(name, 0) > 1:
            kind = next(c for c in cards if c.name == name)
            raise BadInput(
                f"{kind.source}: {kind.where()}: {count[name]} copies of {name} in this game; "
                f"a win condition names it as one card (rulebook {section}), so the solver "
                "needs exactly one copy: give it copies = 1"
            )


def _check_deck(cards: list[Card], config: Options) -> None:
    """Refuse a deck too short for the setup (rulebook B, F) or for a card's NUMBER (D.2)."""
    n = len(cards)
    setup = 3 if config.players == 1 else 5
    if n < setup:
        raise BadInput(
            f"{config.label()}: {n} card(s); too few for the setup, which EQUIPS {setup} "
            f"(rulebook B{', F' if setup == 5 else ''})"
        )
    for k in dict.fromkeys(cards):
        for side in ("passive", "ignited"):
            number = getattr(k, side).number
            if number > n - 1:
                raise BadInput(
                    f"{k.source}: {k.where()}[{side}][number]: NUMBER {number} is more than "
                    f"the DECK can ever hold in this {n}-card game (at most {n - 1})"
                )


# --- the cards the win conditions read (rulebook E, G) ----------------------------------------

_INFO_CACHE: dict[int, dict] = {}


def win_cards(cs: CardSet) -> dict:
    """Card ids the win conditions read (cached per card set)."""
    key = id(cs)
    if key not in _INFO_CACHE:
        cfg = cs.config
        ids = cs.ids_named
        info = {
            "throne": (ids("THRONE") or [-1])[0],
            "mosquitos": ids("MOSQUITO"),
            "dream_guide": (ids("DREAM GUIDE") or [-1])[0],
            "gifts": [i for i, c in enumerate(cs.cards) if "GIFT" in c.classes],
            "juice": (ids("THE JUICE") or [-1])[0],
            "all": (ids("ALL") or [-1])[0],
            "gifts_needed": 3 if "gifts" in cfg.expansions else 0,
        }
        tracked = []
        if "dream_guide" in cfg.expansions and info["dream_guide"] >= 0:
            tracked.append(info["dream_guide"])
        if "gifts" in cfg.expansions and cfg.gifts_distinct:
            tracked.extend(info["gifts"])
        info["tracked"] = sorted(tracked)
        _INFO_CACHE[key] = info
        _INFO_CACHE[-key - 1] = cs  # keep cs alive so its id is not reused
    return _INFO_CACHE[key]

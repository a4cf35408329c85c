"""Card files: load, validate and compile the cards of a game (issue 2 parts 1-2; CARDS.md).

A card file is TOML with a `[set]` table and a list of `[[card]]` tables. Each card has a
name, copies, classes, a campaign symbol, a provenance and two sides (`passive`,
`ignited`), each with a NUMBER, an optional KEYWORD, a plain-English text and its action
as a list of steps in the effect vocabulary documented in `data/CARDS.md`.

The loaded `CardSet` numbers every physical card 0..N-1 (card ids): the sets in the
order of `GameConfig.sets()`, cards in file order, copies consecutive. `compile_program`
turns it into the NumPy opcode arrays that `kernel` interprets.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from solvers.allisbomb.config import GameConfig
from solvers.allisbomb.prune import extend_info
from solvers.common.errors import BadInput

DATA_DIR = Path(__file__).parent / "data"
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
OPS = ("move", "ignite", "flip_back", "swap", "reorder", "prophecy", "equip_win")
ZONES = ("deck", "equipped", "discard", "play", "drawn")
PICKS = ("top", "bottom", "nth", "any", "name", "class", "self")
DESTS = ("deck_top", "deck_bottom", "equipped", "discard", "out")
CAMPAIGN = ("", "circle", "star")
#: Step fields each op accepts (beyond `op`).
OP_FIELDS: dict[str, set[str]] = {
    "move": {"zone", "pick", "n", "within", "name", "class", "to", "may", "count"},
    "ignite": {"zone", "pick", "n", "within", "name", "class", "may", "count"},
    "flip_back": {"zone", "pick", "n", "within", "name", "class", "may", "count"},
    "swap": {"may"},
    "reorder": {"n"},
    "prophecy": {"dish"},
    "equip_win": {"target", "may", "zone"},
}
MAX_REORDER = 4
MAX_COUNT = 8


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


@dataclass(frozen=True)
class Side:
    """One side of a card: NUMBER, KEYWORD, the printed-style text and its steps."""

    number: int
    keyword: str
    text: str
    steps: tuple[Step, ...]


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

    def side(self, ignited: bool) -> Side:
        """Return the ignited or passive side."""
        return self.ignited if ignited else self.passive


@dataclass(frozen=True)
class CardSet:
    """The physical cards of one game: `cards[i]` is the kind of card id i."""

    config: GameConfig
    cards: tuple[Card, ...]
    files: tuple[Path, ...]
    provenance: tuple[str, ...] = field(default=())

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

    def file_hashes(self) -> dict[str, str]:
        """SHA-256 of each card file used (for manifests)."""
        return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in self.files}


def _fail(source: str, where: str, msg: str) -> BadInput:
    return BadInput(f"{source}: {where}: {msg}")


def _get(table: dict, key: str, kind: type, source: str, where: str, default=None):
    if key not in table:
        if default is None:
            raise _fail(source, where, f"missing field '{key}'")
        return default
    value = table[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise _fail(source, f"{where}[{key}]", f"must be an integer, not {value!r}")
    if kind is not int and not isinstance(value, kind):
        raise _fail(source, f"{where}[{key}]", f"must be a {kind.__name__}, not {value!r}")
    return value


def _parse_step(raw: object, source: str, where: str) -> Step:
    if not isinstance(raw, dict):
        raise _fail(source, where, f"a step must be a table, not {raw!r}")
    op = raw.get("op")
    if op not in OPS:
        raise _fail(source, f"{where}[op]", f"unknown op {op!r}; expected one of: {', '.join(OPS)}")
    extra = set(raw) - OP_FIELDS[op] - {"op"}
    if extra:
        raise _fail(source, where, f"op '{op}' takes no field(s) {', '.join(sorted(extra))}")
    kw: dict = {"op": op}
    for key, kind in (("n", int), ("within", int), ("count", int)):
        if key in raw:
            kw[key] = _get(raw, key, kind, source, where)
            if kw[key] < 0 or kw[key] > 64:
                raise _fail(source, f"{where}[{key}]", f"must be in 0..64, not {kw[key]}")
    for key in ("zone", "pick", "name", "to", "dish", "target"):
        if key in raw:
            kw[key] = _get(raw, key, str, source, where)
    if "class" in raw:
        kw["cls"] = _get(raw, "class", str, source, where)
    if "may" in raw:
        kw["may"] = _get(raw, "may", bool, source, where)
    step = Step(**kw)
    if op in ("move", "ignite", "flip_back"):
        if step.zone not in ZONES[:4]:
            raise _fail(source, f"{where}[zone]", f"must be one of {', '.join(ZONES)}")
        if step.pick not in PICKS:
            raise _fail(source, f"{where}[pick]", f"must be one of {', '.join(PICKS)}")
        if (step.zone == "play") != (step.pick == "self"):
            raise _fail(source, where, "pick 'self' goes with zone 'play' and only with it")
        if step.zone == "equipped" and step.pick in ("top", "bottom", "nth"):
            raise _fail(
                source, f"{where}[pick]", "equipped cards have no order; use any/name/class"
            )
        if step.pick == "nth" and step.n < 1:
            raise _fail(source, f"{where}[n]", "pick 'nth' needs n >= 1")
        if step.pick == "name" and not step.name:
            raise _fail(source, f"{where}[name]", "pick 'name' needs a name")
        if step.pick == "class" and not step.cls:
            raise _fail(source, f"{where}[class]", "pick 'class' needs a class")
        if not 1 <= step.count <= MAX_COUNT:
            raise _fail(source, f"{where}[count]", f"must be in 1..{MAX_COUNT}")
        if op == "move":
            if step.to not in DESTS:
                raise _fail(source, f"{where}[to]", f"must be one of {', '.join(DESTS)}")
            same = {"equipped": "equipped", "discard": "discard"}
            if same.get(step.zone) == step.to:
                raise _fail(source, where, f"cannot move from {step.zone} to {step.to}")
    elif op == "reorder":
        if not 2 <= step.n <= MAX_REORDER:
            raise _fail(source, f"{where}[n]", f"reorder needs n in 2..{MAX_REORDER}")
    elif op == "prophecy":
        if not step.dish:
            raise _fail(source, f"{where}[dish]", "prophecy needs a dish")
    elif op == "equip_win":
        if not step.target:
            raise _fail(
                source, f"{where}[target]", "equip_win needs a target ('desired' or a name)"
            )
        if step.zone not in ("", "deck", "drawn"):
            raise _fail(source, f"{where}[zone]", "equip_win zone must be 'deck' or 'drawn'")
    return step


def _parse_side(raw: object, source: str, where: str) -> Side:
    if not isinstance(raw, dict):
        raise _fail(source, where, "missing side table")
    number = _get(raw, "number", int, source, where)
    if not 0 <= number <= 9:
        raise _fail(source, f"{where}[number]", f"must be in 0..9, not {number}")
    keyword = _get(raw, "keyword", str, source, where, default="")
    if keyword not in KEYWORDS:
        raise _fail(source, f"{where}[keyword]", f"must be URGENT, ROYAL or empty, not {keyword!r}")
    text = _get(raw, "text", str, source, where, default="")
    steps_raw = _get(raw, "steps", list, source, where, default=[])
    steps = tuple(_parse_step(s, source, f"{where}[steps][{i}]") for i, s in enumerate(steps_raw))
    return Side(number, keyword, text, steps)


def parse_card_file(text: str, source: str, expansion: str | None = None) -> list[Card]:
    """Parse and validate the text of a card file; raise BadInput naming file, card and field.

    `expansion` is the set name to assume when the file's `[set]` table gives none.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BadInput(f"{source}: not valid TOML: {exc}") from None
    set_table = data.get("set", {})
    if not isinstance(set_table, dict):
        raise _fail(source, "[set]", "must be a table")
    set_name = set_table.get("name", expansion)
    if set_name not in SET_FILES:
        raise _fail(
            source,
            "[set][name]",
            f"unknown set {set_name!r}; expected one of: {', '.join(SET_FILES)}",
        )
    set_prov = set_table.get("provenance", "printed")
    raw_cards = data.get("card")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise _fail(source, "[[card]]", "no cards")
    cards = []
    for i, raw in enumerate(raw_cards):
        if not isinstance(raw, dict):
            raise _fail(source, f"[card][{i}]", "must be a table")
        name = _get(raw, "name", str, source, f"[card][{i}]")
        where = f"card {i} ({name})"
        if not name.strip() or name != name.strip() or "," in name:
            raise _fail(
                source, f"{where}[name]", "must be non-empty, without commas or edge spaces"
            )
        label = _get(raw, "label", str, source, where, default=name)
        if not label.strip() or label != label.strip() or "," in label:
            raise _fail(
                source, f"{where}[label]", "must be non-empty, without commas or edge spaces"
            )
        copies = _get(raw, "copies", int, source, where, default=1)
        if not 1 <= copies <= 4:
            raise _fail(source, f"{where}[copies]", f"must be in 1..4, not {copies}")
        classes = raw.get("class", [])
        if isinstance(classes, str):
            classes = [classes] if classes else []
        if not isinstance(classes, list) or not all(isinstance(c, str) for c in classes):
            raise _fail(source, f"{where}[class]", "must be a string or a list of strings")
        campaign = _get(raw, "campaign", str, source, where, default="")
        if campaign not in CAMPAIGN:
            raise _fail(source, f"{where}[campaign]", "must be 'circle', 'star' or ''")
        prov = _get(raw, "provenance", str, source, where, default=set_prov)
        rulebook = raw.get("rulebook", [])
        replaces = raw.get("replaces", [])
        for key, val in (("rulebook", rulebook), ("replaces", replaces)):
            if not isinstance(val, list) or not all(isinstance(x, str) for x in val):
                raise _fail(source, f"{where}[{key}]", "must be a list of strings")
        passive = _parse_side(raw.get("passive"), source, f"{where}[passive]")
        ignited = _parse_side(raw.get("ignited"), source, f"{where}[ignited]")
        cards.append(
            Card(
                name,
                label,
                copies,
                tuple(classes),
                set_name,
                campaign,
                prov,
                tuple(rulebook),
                tuple(replaces),
                passive,
                ignited,
                source,
            )
        )
    labels = [c.label for c in cards]
    for lab in labels:
        if labels.count(lab) > 1:
            raise _fail(source, f"label {lab!r}", "used by two card entries; give each a label")
    return cards


@lru_cache(maxsize=64)
def _load_file(path: Path, mtime: float) -> tuple[Card, ...]:
    del mtime  # part of the cache key only: a changed file is read again
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"{path}: cannot read card file: {exc}") from None
    return tuple(parse_card_file(text, str(path), None))


def load_file(path: Path) -> tuple[Card, ...]:
    """Load one card file (cached while the file is unchanged)."""
    path = Path(path)
    if not path.is_file():
        raise BadInput(f"card file {str(path)!r} not found")
    return _load_file(path.resolve(), path.stat().st_mtime)


def _user_sets(path: Path) -> dict[str, list[Card]]:
    """Group a user card file's cards by set: a user file may define several sets.

    Each card may carry `expansion = "..."`; otherwise the file's `[set][name]` applies.
    """
    cards = load_file(path)  # validates first: malformed files raise BadInput here
    data = tomllib.loads(Path(path).read_text())
    raw_cards = data.get("card", [])
    out: dict[str, list[Card]] = {}
    for raw, card in zip(raw_cards, cards, strict=True):
        exp = raw.get("expansion", card.expansion)
        if exp not in SET_FILES:
            raise BadInput(f"{path}: card {card.name}: unknown expansion {exp!r}")
        out.setdefault(exp, []).append(Card(**{**card.__dict__, "expansion": exp}))
    return out


@lru_cache(maxsize=64)
def load_cards(config: GameConfig) -> CardSet:
    """Return the physical cards of `config`'s game, ids 0..N-1 (rulebook B, G, H).

    Sets come from the shipped (stand-in) files, except those a `--cards` file defines.
    WAKING UP's cards named in `replaces` remove the base cards of that name; Blitz keeps
    one of each duplicate pair; campaign removals (`config.removed`) drop one copy each.
    Raises BadInput for malformed files or a campaign removal naming no card.
    """
    config.validate()
    user = _user_sets(Path(config.cards_file)) if config.cards_file else {}
    files: list[Path] = []
    kinds: list[Card] = []
    for set_name in config.sets():
        if set_name in user:
            kinds.extend(user[set_name])
            files.append(Path(config.cards_file))
        else:
            path = DATA_DIR / SET_FILES[set_name]
            kinds.extend(load_file(path))
            files.append(path)
    replaced = {r for k in kinds for r in k.replaces}
    cards: list[Card] = []
    for kind in kinds:
        if kind.name in replaced and not kind.replaces:
            continue  # rulebook G, "Waking Up": the base PRINCESS and KING are removed
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
    if len(cards) > 62:
        raise BadInput(f"{config.label()}: {len(cards)} cards; at most 62 are supported")
    files_unique = tuple(dict.fromkeys(files))
    return CardSet(config, tuple(cards), files_unique, tuple(c.provenance for c in cards))


# --- compiled program for the kernel -----------------------------------------------------

OP_CODE = {op: i for i, op in enumerate(OPS)}
ZONE_CODE = {z: i for i, z in enumerate(ZONES)}
PICK_CODE = {p: i for i, p in enumerate(PICKS)}
DEST_CODE = {d: i for i, d in enumerate(DESTS)}
KW_CODE = {k: i for i, k in enumerate(KEYWORDS)}
# Step row layout (int32): op, zone, pick, n, within, name_mask_lo, name_mask_hi,
# class_mask_lo, class_mask_hi, to, may, count, ref (card id of dish/target, -1 none,
# -2 "desired")
STEP_WIDTH = 13


@dataclass(frozen=True)
class Program:
    """The card set compiled to arrays (see kernel.py for how they are read)."""

    n: int
    number: np.ndarray  # int32 [n, 2]: NUMBER of (card, side)
    keyword: np.ndarray  # int32 [n, 2]: 0 none, 1 URGENT, 2 ROYAL
    step_start: np.ndarray  # int32 [n, 2]
    step_count: np.ndarray  # int32 [n, 2]
    steps: np.ndarray  # int32 [k, STEP_WIDTH]
    info: np.ndarray  # int32: win_info's 16 entries, then prune.py's tables (prune.info_len)


def card_mask(ids: list[int]) -> int:
    """Bit mask of card ids."""
    m = 0
    for i in ids:
        m |= 1 << i
    return m


def _split(mask: int) -> tuple[int, int]:
    return mask & 0x7FFFFFFF, mask >> 31


def compile_program(cs: CardSet) -> Program:
    """Compile a CardSet into the opcode arrays run by `kernel` (names resolved to card masks)."""
    n = cs.n
    number = np.zeros((n, 2), np.int32)
    keyword = np.zeros((n, 2), np.int32)
    start = np.zeros((n, 2), np.int32)
    count = np.zeros((n, 2), np.int32)
    rows: list[list[int]] = []
    for cid, card in enumerate(cs.cards):
        for s, side in enumerate((card.passive, card.ignited)):
            number[cid, s] = side.number
            keyword[cid, s] = KW_CODE[side.keyword]
            start[cid, s] = len(rows)
            count[cid, s] = len(side.steps)
            for st in side.steps:
                rows.append(step_row(cs, st))
    steps = (
        np.array(rows, np.int32).reshape(-1, STEP_WIDTH)
        if rows
        else np.zeros((1, STEP_WIDTH), np.int32)
    )
    return Program(n, number, keyword, start, count, steps, extend_info(cs, win_info(cs)))


def step_row(cs: CardSet, st: Step) -> list[int]:
    """Encode one step as an int row (layout above)."""
    name_ids = cs.ids_named(st.name) if st.name else []
    cls_ids = [i for i, c in enumerate(cs.cards) if st.cls and st.cls in c.classes]
    ref = -1
    if st.op == "prophecy":
        ids = cs.ids_named(st.dish)
        ref = ids[0] if ids else -1
    elif st.op == "equip_win":
        if st.target == "desired":
            ref = -2
        else:
            ids = cs.ids_named(st.target)
            ref = ids[0] if ids else -1
    nlo, nhi = _split(card_mask(name_ids))
    clo, chi = _split(card_mask(cls_ids))
    return [
        OP_CODE[st.op],
        ZONE_CODE.get(st.zone, 0),
        PICK_CODE.get(st.pick, 0),
        st.n,
        st.within,
        nlo,
        nhi,
        clo,
        chi,
        DEST_CODE.get(st.to, 0),
        int(st.may),
        st.count,
        ref,
    ]


def win_info(cs: CardSet) -> np.ndarray:
    """Win-condition parameters of the game (rulebook E and G), as an int array.

    [0] waking-up rules, [1] princess id, [2] throne id, [3..4] mosquito mask (-1, -1:
    not a condition), [5] dream guide id, [6..7] gift mask, [8] gifts needed, [9] gifts
    distinct, [10] juice id, [11] all id, [12] players, [13] all by any player, [14] give
    optional, [15] unused. A card id of -2 means "not a condition", -1 "a condition whose
    card is not in the game" (it cannot be met).
    """
    cfg = cs.config
    info = np.full(16, -1, np.int32)
    first = lambda name: (cs.ids_named(name) or [-1])[0]  # noqa: E731
    info[0] = int(cfg.waking_up)
    info[1] = first("PRINCESS")
    info[2] = first("THRONE") if cfg.waking_up else -1
    if "mosquitos" in cfg.expansions:
        info[3], info[4] = _split(card_mask(cs.ids_named("MOSQUITO")))
    info[5] = first("DREAM GUIDE") if "dream_guide" in cfg.expansions else -2
    gifts = [i for i, c in enumerate(cs.cards) if "GIFT" in c.classes]
    if "gifts" not in cfg.expansions:
        gifts = []
    info[6], info[7] = _split(card_mask(gifts))
    info[8] = 3 if "gifts" in cfg.expansions else 0
    info[9] = int(cfg.gifts_distinct)
    info[10] = first("THE JUICE") if "the_juice" in cfg.expansions else -2
    info[11] = first("ALL") if "all" in cfg.expansions else -2
    info[12] = cfg.players
    info[13] = int(cfg.all_any_player)
    info[14] = int(cfg.give_optional)
    info[15] = 0
    return info

"""Which cards and rule options a game of All Is Bomb uses (rulebook sections B, F, G, H).

Every rule point the rulebook leaves open is a field here with a documented default; the
default is the reading we think the rulebook's words support best.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bombsolve.solvers.common.errors import BadInput, nearest, unknown
from bombsolve.solvers.common.files import STDIO, read_input

#: The expansions in campaign order (rulebook G/H), after the HANDS helper pack.
EXPANSIONS: tuple[str, ...] = (
    "mosquitos",
    "dream_guide",
    "gifts",
    "the_juice",
    "waking_up",
    "all",
)
#: The command line's name for all six expansions together ('all' is the ALL expansion).
EVERY = "every"
#: Names accepted on the command line (with '-' or '_' and a few aliases).
ALIASES: dict[str, str] = {
    "mosquito": "mosquitos",
    "dream-guide": "dream_guide",
    "dreamguide": "dream_guide",
    "gift": "gifts",
    "juice": "the_juice",
    "the-juice": "the_juice",
    "waking-up": "waking_up",
    "wakingup": "waking_up",
}

#: The shipped stand-in card sets, by version name (CARDS.md, "The stand-in sets"): texts
#: written by the bombsolve project, never the printed cards. Version 1 is kept so that every
#: study made with it reproduces; version 2 (`STANDIN-V2.md`) is the default.
CARD_VERSIONS: tuple[str, ...] = ("standin-v1", "standin-v2")
DEFAULT_CARDS = "standin-v2"
#: The version a configuration written before set versions existed (a manifest, a position,
#: a `--json` result without `cards_version`) was made with.
UNVERSIONED_CARDS = "standin-v1"


def refuse_standard_input(path: str | Path) -> None:
    """Raise BadInput for a card file given as ``-``: a card file is named in results and
    read again (by a study's workers, by a play session's re-checks), and standard input
    can be read only once."""
    if str(path) == STDIO:
        raise BadInput(
            "card file '-': card files are read from their path, not standard input; "
            "expected a file's path (save the cards to a file first)"
        )


def cards_option(text: str | Path | None) -> dict[str, object]:
    """`--cards` as `Options` fields: a stand-in set version by name, or a card file.

    >>> cards_option("standin-v1")
    {'cards_version': 'standin-v1', 'cards_file': None}

    A value that names no version and is no file but looks like a name (no folder, no
    ``.toml``) is refused with the nearest version; a missing file is left to `validate`.
    """
    if text is None or str(text) == "":
        return {"cards_version": DEFAULT_CARDS, "cards_file": None}
    value = str(text)
    if value in CARD_VERSIONS:
        return {"cards_version": value, "cards_file": None}
    refuse_standard_input(value)
    path = Path(value)
    if not path.exists() and path.suffix.lower() != ".toml" and len(path.parts) == 1:
        raise BadInput(
            f"unknown card set {value!r}{nearest(value, CARD_VERSIONS)}; expected one of: "
            f"{', '.join(CARD_VERSIONS)}, or the path of a card file (TOML, see "
            "solvers/allisbomb/data/CARDS.md)"
        )
    return {"cards_version": DEFAULT_CARDS, "cards_file": path}


def parse_expansions(text: str | None) -> tuple[str, ...]:
    """Parse 'hands,mosquitos,...' into expansion names (in campaign order); 'hands' is not one.

    Raises BadInput naming an unknown expansion. The HANDS helper pack is a separate flag
    (`Options.hands`), but 'hands' in this list is accepted and returned as 'hands'.
    'all' is the ALL expansion (the rulebook's name for the sixth); `EVERY` ('every')
    stands for all six expansions together.

    >>> parse_expansions("every") == EXPANSIONS
    True
    """
    if not text:
        return ()
    names = []
    for raw in text.split(","):
        name = raw.strip().lower()
        if not name:
            continue
        if name == EVERY:
            names += [e for e in EXPANSIONS if e not in names]
            continue
        name = ALIASES.get(name, name.replace("-", "_"))
        if name not in EXPANSIONS and name != "hands":
            raise unknown("expansion", raw.strip(), (*EXPANSIONS, "hands", EVERY))
        if name not in names:
            names.append(name)
    return tuple(names)


@dataclass(frozen=True)
class RuleOption:
    """One open point of the rulebook: the sentence, and what each value reads it as."""

    name: str
    sentence: str
    if_true: str
    if_false: str


#: The rule options (`Options` fields) a user may set (`--rule NAME=VALUE`).
RULE_OPTIONS: dict[str, RuleOption] = {
    o.name: o
    for o in (
        RuleOption(
            "gifts_distinct",
            'Rulebook G "Gifts": "You must play at least 3 GIFT cards during the game."',
            "three different GIFT cards must be played (default)",
            "three GIFT plays, the same card may count again",
        ),
        RuleOption(
            "give_optional",
            'Rulebook F "Clean-Up": "the active player chooses an EQUIPPED CARD of theirs '
            'and gives it to the other player".',
            "the active player may decline to give",
            "giving is mandatory whenever the active player has an equipped card (default)",
        ),
        RuleOption(
            "all_any_player",
            'Rulebook G "All": "ALL must be an EQUIPPED CARD at the end of the game."',
            "equipped by either player in the two-player game (default)",
            "equipped by the player who ends the game",
        ),
        RuleOption(
            "waking_up_rules",
            'Rulebook G/H "Waking Up": its win conditions replace the base ones, and are '
            "kept for the last campaign game.",
            "WAKING UP's win conditions, with or without its cards",
            "the base win conditions (default: WAKING UP's exactly when it is in play)",
        ),
    )
}


@dataclass(frozen=True)
class Options:
    """The card sets and rule options of one game.

    >>> Options(expansions=("mosquitos",), hands=True).label()
    'base+mosquitos+hands'
    """

    #: Expansions shuffled into the base game (rulebook G), any of `EXPANSIONS`.
    expansions: tuple[str, ...] = ()
    #: The HANDS helper pack (rulebook G, "Hands").
    hands: bool = False
    #: The Blitz variant: base cards only, one of each duplicate pair removed (13 cards).
    blitz: bool = False
    #: 1 (solo) or 2 (co-op, rulebook F; solved as one team with full knowledge).
    players: int = 1
    #: A user card file replacing the stand-in cards of every set it defines.
    cards_file: Path | None = None
    #: The shipped stand-in set version the other sets come from (`CARD_VERSIONS`). Not part
    #: of `label()` (a label names a game's sets and rules, and stays what studies made
    #: before versions existed wrote); `to_dict`, manifests, banners and captions name it.
    cards_version: str = DEFAULT_CARDS
    #: Open point, rulebook G "Gifts": "You must play at least 3 GIFT cards during the
    #: game." Default True: three *different* GIFT cards; False: three GIFT plays.
    gifts_distinct: bool = True
    #: Open point, rulebook F "Clean-Up": "the active player chooses an EQUIPPED CARD of
    #: theirs and gives it to the other player". Default False: giving is mandatory
    #: whenever the active player has an equipped card; True: the player may decline.
    give_optional: bool = False
    #: Open point, rulebook G "All": "ALL must be an EQUIPPED CARD at the end of the
    #: game." Default True: equipped by either player in the two-player game.
    all_any_player: bool = True
    #: Win conditions replaced by WAKING UP's (rulebook G, and H: they are retained for the
    #: last campaign game even though the WAKING UP cards may be gone). None: exactly when
    #: WAKING UP is in `expansions`.
    waking_up_rules: bool | None = None
    #: Campaign games only: names of cards permanently removed (rulebook H). Each entry
    #: removes one copy of that card label.
    removed: tuple[str, ...] = field(default=())
    #: Campaign games only: sets whose cards are in the deck without their win conditions
    #: (rulebook H: "You only play with the win conditions of the current expansion").
    extra_sets: tuple[str, ...] = field(default=())
    #: Play a deck that breaks what the rulebook fixes about the cards (standard.py) on
    #: purpose: each breach is then a warning line instead of an error.
    allow_nonstandard: bool = False
    #: The digest of `cards_file`'s bytes when the options were made (None without a file, or
    #: when it cannot be read: `validate` says so). Part of equality, so every cache keyed on
    #: the options (the cards, the compiled program) reads a file again once it is edited, in
    #: a process that outlives the edit (a play session, a cluster's workers); never written
    #: to manifests (`to_dict`), which name the file's digest in their input files.
    cards_digest: str | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.cards_file is not None and str(self.cards_file) != STDIO:
            # read_input refuses a FIFO, device or folder at once: a plain read would wait
            # on a FIFO forever; loading the cards then names what is wrong with the file
            try:
                digest = hashlib.sha256(read_input(self.cards_file, "card file")).hexdigest()
            except BadInput:
                digest = None
            object.__setattr__(self, "cards_digest", digest)

    def validate(self) -> Options:
        """Return self if the options make sense together; raise BadInput otherwise."""
        for name in (*self.expansions, *self.extra_sets):
            if name not in EXPANSIONS:
                raise unknown("expansion", name, EXPANSIONS)
        if len(set(self.expansions)) != len(self.expansions):
            raise BadInput(f"expansion listed twice in {','.join(self.expansions)}")
        if self.players not in (1, 2):
            raise BadInput(f"players must be 1 or 2, not {self.players}")
        if self.blitz and (self.expansions or self.hands):
            raise BadInput(
                "Blitz uses only the base cards (rulebook G, 'Blitz'); "
                "drop --blitz or the expansions/hands"
            )
        if self.cards_version not in CARD_VERSIONS:
            raise unknown("card set", self.cards_version, CARD_VERSIONS)
        if self.cards_file is not None:
            refuse_standard_input(self.cards_file)
        if self.cards_file is not None and not Path(self.cards_file).exists():
            raise BadInput(f"card file {str(self.cards_file)!r} not found")
        return self

    @property
    def waking_up(self) -> bool:
        """True when WAKING UP's win conditions replace the base ones."""
        if self.waking_up_rules is not None:
            return self.waking_up_rules
        return "waking_up" in self.expansions

    def sets(self) -> tuple[str, ...]:
        """The card sets in play: 'base', then expansions in campaign order, then 'hands'."""
        exp = tuple(e for e in EXPANSIONS if e in self.expansions or e in self.extra_sets)
        return ("base", *exp) + (("hands",) if self.hands else ())

    def label(self) -> str:
        """A short stable text naming the cards and options, e.g. 'base+mosquitos+hands'."""
        parts = ["blitz" if self.blitz else "base"]
        parts += [e for e in EXPANSIONS if e in self.expansions] + (["hands"] if self.hands else [])
        text = "+".join(parts)
        if self.players == 2:
            text += "/2p"
        if self.cards_file is not None:
            text += f"/cards={Path(self.cards_file).name}"
        if self.waking_up_rules is not None and self.waking_up_rules != (
            "waking_up" in self.expansions
        ):
            text += "/waking-up-rules" if self.waking_up_rules else "/base-rules"
        if not self.gifts_distinct:
            text += "/gift-plays"
        if self.give_optional:
            text += "/give-optional"
        if not self.all_any_player:
            text += "/all-own"
        if self.extra_sets:
            text += "/carried=" + "+".join(e for e in EXPANSIONS if e in self.extra_sets)
        if self.removed:
            text += f"/removed={len(self.removed)}"
        if self.allow_nonstandard:
            text += "/nonstandard"
        return text

    def to_dict(self) -> dict:
        """A JSON-serialisable dict of every field (for manifests and --json)."""
        d = asdict(self)
        del d["cards_digest"]
        d["expansions"] = list(self.expansions)
        d["removed"] = list(self.removed)
        d["extra_sets"] = list(self.extra_sets)
        d["cards_file"] = None if self.cards_file is None else str(self.cards_file)
        d["label"] = self.label()
        if not self.allow_nonstandard:
            del d["allow_nonstandard"]  # manifests written before the option stay the same
        return d

"""Catch the Bomber: the plain-Python reference engine (the spec for the Numba kernel).

Sections follow the rulebook (`rules/catch-the-bomber.txt`): Preparation (`new_game`),
Steps in Detail (`legal_actions`, `apply`: A Playing a card, B Moving a card), the rare
player with no possible action, and Achievement Assessment / Victory Conditions
(`assess`). The maker's FAQ points (`data/catch-the-bomber.md`) are built in; every
point the rulebook leaves open is a field of `Options` with a documented default.

Board layout: locations 0..5 are the six Gathering Points, location 6 is the Bridge.
Each location holds a *line* of at most 5 cards, leftmost first; a card in a line is a
`Slot` (card, face_up, owner). The owner is public: a face-down card carries its
owner's Footprint token, and a face-up card was played in view of everyone.

Actions are dense integers (`N_ACTIONS` = 115):

====================  ==========================================  =======
range                 meaning                                     count
====================  ==========================================  =======
0 .. 53               play card ``c`` beneath Gathering Point g:  9 x 6
                      ``c * 6 + g``
54                    Citizen to the Shelter, move nothing        1
55 .. 84             Citizen to the Shelter, then move the card   6 x 5
                      at index i of Gathering Point g to the
                      Bridge: ``55 + g * 5 + i``
85 .. 114            Citizen to the Shelter, then move the card   5 x 6
                      at index i of the Bridge to Gathering
                      Point g: ``85 + i * 6 + g``
====================  ==========================================  =======

Example: action 46 = 7 * 6 + 4 plays a Bomb Squad (card 7) beneath Gathering Point 4;
action 62 = 55 + 1 * 5 + 2 shelters a Citizen and moves the third card of Gathering
Point 1 to the Bridge.

Randomness (the deal) comes from `SplitMix64`, a tiny generator written out in both this
file and the kernel so that a seed gives the same deal in both.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from bombsolve.solvers.common.errors import BadInput, unknown
from bombsolve.solvers.common.rng import SplitMix64

# --- cards -----------------------------------------------------------------------------


class Card(enum.IntEnum):
    """The nine card kinds ("Character & Basic Cards"). Values are kernel codes."""

    BOMBER = 0
    POLICE = 1
    YOUNG_LADY = 2
    HOLY_WARRIOR = 3
    SUSPICIOUS_PERSON = 4
    POLICE_DOG = 5
    BOMB = 6
    BOMB_SQUAD = 7
    CITIZEN = 8


N_CARDS = 9
CARD_NAMES = {
    Card.BOMBER: "Bomber",
    Card.POLICE: "Police",
    Card.YOUNG_LADY: "Young Lady",
    Card.HOLY_WARRIOR: "Holy Warrior",
    Card.SUSPICIOUS_PERSON: "Suspicious Person",
    Card.POLICE_DOG: "Police Dog",
    Card.BOMB: "Bomb",
    Card.BOMB_SQUAD: "Bomb Squad",
    Card.CITIZEN: "Citizen",
}
# Short names used in replays and on the command line.
CARD_SHORT = {
    Card.BOMBER: "BMR",
    Card.POLICE: "POL",
    Card.YOUNG_LADY: "YL",
    Card.HOLY_WARRIOR: "HW",
    Card.SUSPICIOUS_PERSON: "SP",
    Card.POLICE_DOG: "DOG",
    Card.BOMB: "BMB",
    Card.BOMB_SQUAD: "SQD",
    Card.CITIZEN: "CIT",
}
CHARACTERS = (
    Card.BOMBER,
    Card.POLICE,
    Card.YOUNG_LADY,
    Card.HOLY_WARRIOR,
    Card.SUSPICIOUS_PERSON,
)
# "Young Lady / Holy Warrior / Suspicious Person": the extra characters, in bit order for
# the kernel's extras mask (bit 0 Young Lady, bit 1 Holy Warrior, bit 2 Suspicious Person).
EXTRAS = (Card.YOUNG_LADY, Card.HOLY_WARRIOR, Card.SUSPICIOUS_PERSON)
EXTRA_NAMES = {"young-lady": Card.YOUNG_LADY, "holy-warrior": Card.HOLY_WARRIOR,
               "suspicious-person": Card.SUSPICIOUS_PERSON}  # fmt: skip

# "Character & Basic Cards": skull (dead) or shield (alive) when an explosion happens at
# the same location.
DEAD_IN_EXPLOSION = frozenset(
    {Card.BOMBER, Card.YOUNG_LADY, Card.HOLY_WARRIOR, Card.SUSPICIOUS_PERSON, Card.CITIZEN}
)
# "B Moving a card": only a face up Citizen, Police Dog or Bomb Squad may be moved.
MOVABLE = frozenset({Card.CITIZEN, Card.POLICE_DOG, Card.BOMB_SQUAD})
# Basic cards (30): Police Dogs 2, Bombs 4, Bomb Squads 6, Citizens 18.
BASIC_COUNTS = {Card.POLICE_DOG: 2, Card.BOMB: 4, Card.BOMB_SQUAD: 6, Card.CITIZEN: 18}

# --- locations and actions ---------------------------------------------------------------

N_GATHERING = 6
BRIDGE = 6
N_LOCATIONS = 7
LINE_MAX = 5  # "Each Gathering Point may carry up to 5 cards"; FAQ: each location.
LOCATION_NAMES = tuple([f"G{g + 1}" for g in range(N_GATHERING)] + ["Bridge"])

PLAY_BASE = 0
SHELTER_ONLY = 54
TO_BRIDGE_BASE = 55
FROM_BRIDGE_BASE = 85
N_ACTIONS = 115
MIN_PLAYERS, MAX_PLAYERS = 3, 6


def play_action(card: int, gathering_point: int) -> int:
    """Return the action that plays `card` beneath Gathering Point `gathering_point`."""
    return PLAY_BASE + int(card) * N_GATHERING + gathering_point


def to_bridge_action(gathering_point: int, index: int) -> int:
    """Return the action that moves card `index` of a Gathering Point to the Bridge."""
    return TO_BRIDGE_BASE + gathering_point * LINE_MAX + index


def from_bridge_action(index: int, gathering_point: int) -> int:
    """Return the action that moves card `index` of the Bridge to a Gathering Point."""
    return FROM_BRIDGE_BASE + index * N_GATHERING + gathering_point


@dataclass(frozen=True)
class Action:
    """A decoded action: kind is 'play', 'shelter' or 'move'.

    >>> decode(62)
    Action(kind='move', card=None, src=1, index=2, dst=6)
    """

    kind: str
    card: Card | None = None
    src: int | None = None
    index: int | None = None
    dst: int | None = None


def decode(action: int) -> Action:
    """Decode a dense action integer (see the module table); raise BadInput if out of range."""
    if not 0 <= action < N_ACTIONS:
        raise BadInput(f"action {action} out of range; expected 0..{N_ACTIONS - 1}")
    if action < SHELTER_ONLY:
        return Action("play", card=Card(action // N_GATHERING), dst=action % N_GATHERING)
    if action == SHELTER_ONLY:
        return Action("shelter")
    if action < FROM_BRIDGE_BASE:
        k = action - TO_BRIDGE_BASE
        return Action("move", src=k // LINE_MAX, index=k % LINE_MAX, dst=BRIDGE)
    k = action - FROM_BRIDGE_BASE
    return Action("move", src=BRIDGE, index=k // N_GATHERING, dst=k % N_GATHERING)


def describe(action: int, state: State | None = None) -> str:
    """Return a short human description of an action, e.g. 'play Bomb -> G3'."""
    a = decode(action)
    if a.kind == "play":
        return f"play {CARD_NAMES[a.card]} -> {LOCATION_NAMES[a.dst]}"
    if a.kind == "shelter":
        return "Citizen to Shelter"
    what = f"card {a.index + 1}"
    if state is not None:
        line = state.lines[a.src]
        if a.index < len(line):
            what = CARD_NAMES[line[a.index].card]
    return f"Citizen to Shelter, move {what} {LOCATION_NAMES[a.src]} -> {LOCATION_NAMES[a.dst]}"


# --- rule options ------------------------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """One open point: the option's name, the rulebook section and sentence it reads, and
    its values in words, the default first (`bombsolve bomber rules` prints them)."""

    name: str
    section: str
    quote: str
    values: tuple[tuple[str, str], ...]  # (value as text, what it means); the default first

    @property
    def choices(self) -> tuple[str, ...]:
        """Return the values as text, the default first."""
        return tuple(v for v, _ in self.values)


#: The points the rulebook leaves open, one per field of `Options`, in field order.
OPEN_READINGS: tuple[Reading, ...] = (
    Reading(
        "dog",
        "Character & Basic Cards, Police Dogs",
        "It prevents the Bomber from appearing at the same location on later rounds. ... "
        "they only smell and search whatever comes after them.",
        (
            (
                "caught",
                "at game end a Bomber lying to the right of (after) a Police Dog in the same "
                "line is caught, which counts as Police at the Bomber's location for Escape.",
            ),
            (
                "forbid",
                "the Bomber may not be played beneath a Gathering Point whose line already "
                "holds a Police Dog; Dogs do not affect Escape.",
            ),
        ),
    ),
    Reading(
        "warrior_bombing",
        "Victory Conditions, Bombing; Character & Basic Cards, Holy Warrior",
        "At least one Citizen or character other than Bomber killed in explosion. ... The "
        "Holy Warrior will explode his body cavity bomb at the end of the game",
        (
            (
                "true",
                "deaths in an explosion set off only by the Holy Warrior (his own death "
                "included) count toward Bombing, as the words say.",
            ),
            (
                "false",
                'only explosions with a Bomb card in the line count, Bombing being "the '
                "Bomber's scheme\".",
            ),
        ),
    ),
    Reading(
        "stuck_bomber",
        "Steps in Detail, B Moving a card",
        "On rare occasions when neither 【Playing a card】 nor 【Moving a card】 is possible, the "
        "player loses the game immediately and stops playing.",
        (
            (
                "loses",
                "when that player is the Bomber the game ends at once in the Police "
                "side's victory.",
            ),
            (
                "assess",
                "the Bomber leaves play like anyone else and the game is assessed at the end "
                "as usual (a Bomber card never played is at no location), except that the "
                "Bomber has lost: where he would have won, the game is a draw.",
            ),
        ),
    ),
    Reading(
        "move_optional",
        "Steps in Detail, B Moving a card",
        "Then the player may move a face up Citizen, Police Dog or Bomb Squad from a "
        "Gathering Point to the Bridge, or from the Bridge to a Gathering Point.",
        (
            ("true", "sheltering a Citizen and moving nothing is a whole turn."),
            (
                "false",
                "a move must follow, so sheltering is only possible when some card can be moved.",
            ),
        ),
    ),
)

DOG_READINGS = OPEN_READINGS[0].choices  # ("caught", "forbid")
STUCK_BOMBER_READINGS = OPEN_READINGS[2].choices  # ("loses", "assess")


def value_text(value: object) -> str:
    """Return a rule option's value as the command line spells it: true/false for a bool.

    >>> value_text(True), value_text("forbid")
    ('true', 'forbid')
    """
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class Options:
    """The points the rulebook leaves open, each with its default reading.

    Each field is one `OPEN_READINGS` entry, which quotes the sentence it reads and says
    in words what each value does: dog (caught or forbid), warrior_bombing (true or
    false), stuck_bomber (loses or assess), move_optional (true or false).
    """

    dog: str = "caught"
    warrior_bombing: bool = True
    stuck_bomber: str = "loses"
    move_optional: bool = True

    def __post_init__(self) -> None:
        if self.dog not in DOG_READINGS:
            raise unknown("dog reading", str(self.dog), DOG_READINGS)
        if self.stuck_bomber not in STUCK_BOMBER_READINGS:
            raise unknown("stuck-bomber reading", str(self.stuck_bomber), STUCK_BOMBER_READINGS)

    def as_dict(self) -> dict:
        """Return the options as a JSON-serialisable dict."""
        return {
            "dog": self.dog,
            "warrior_bombing": self.warrior_bombing,
            "stuck_bomber": self.stuck_bomber,
            "move_optional": self.move_optional,
        }

    def text(self) -> str:
        """Return every option as ``name=value`` text, as the command line spells it.

        >>> Options(dog="forbid").text()
        'dog=forbid, warrior_bombing=true, stuck_bomber=loses, move_optional=true'
        """
        return ", ".join(f"{k}={value_text(v)}" for k, v in self.as_dict().items())


RULE_OPTION_NAMES = ("dog", "warrior_bombing", "stuck_bomber", "move_optional")

# Readings fixed in the engine (settled by the maker's FAQ or the data note, or with no
# second reasonable reading); `bombsolve bomber rules` prints them beside the options.
FIXED_READINGS = (
    "Chaos counts face up Citizens once, before any card is turned; the Bridge is a "
    "location; 4 or fewer locations: Chaos (FAQ).",
    "Survival: the Bomber is not killed by an explosion (FAQ).",
    "Escape: the Bomber is at a different location from every Police card (FAQ); a "
    "card never played is at no location, so an unplayed Bomber cannot Escape.",
    "The Holy Warrior is a bomb at his location at game end; a Bomb Squad at the same "
    "location, face down or up, stops every bomb there (data note).",
    "Moving goes Gathering Point -> Bridge or Bridge -> Gathering Point; playing to the "
    "Bridge is never allowed (data note); only face up cards move.",
    "Face-down-only cards (Young Lady; Bomber as last card) only go 2nd or 4th; the "
    "Police Dog only 1st, 3rd or 5th (data note).",
    "At 4 or 5 players the extra characters are drawn at random unless named "
    "(--extras); the starting player is seat 1 (seats are dealt at random).",
    "A player with no possible action leaves play; their hand stays unplayed; having "
    "lost, they cannot win later: a Bomber's or sole victory of theirs is a draw.",
    "Sole victory: the Holy Warrior exploded at the Bomber's location (a Bomb there "
    "too still counts him among the killers).",
)


def parse_rules(spec: str | None) -> Options:
    """Parse 'key=value,key=value' into `Options`; raise BadInput naming the bad key or value.

    >>> parse_rules("dog=forbid,move_optional=no").dog
    'forbid'
    """
    rules = Options()
    if not spec:
        return rules
    seen: set[str] = set()
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        key, _, value = (s.strip() for s in part.partition("="))
        if "=" not in part or not key or not value:
            raise BadInput(f"malformed rule option {part!r}; expected key=value")
        key = key.replace("-", "_")
        if key not in RULE_OPTION_NAMES:
            raise unknown("rule option", key, RULE_OPTION_NAMES)
        if key in seen:
            raise BadInput(f"rule option {key} given twice in {spec!r}; expected it once")
        seen.add(key)
        if key in ("warrior_bombing", "move_optional"):
            truth = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
            if value.lower() not in truth:
                raise BadInput(f"rule option {key}={value!r}: expected true or false")
            rules = replace(rules, **{key: truth[value.lower()]})
        else:
            rules = replace(rules, **{key: value})  # __post_init__ validates the value
    return rules


# --- the deal's random numbers -----------------------------------------------------------

# Agents draw from SplitMix64(seed ^ AGENT_SALT), a stream apart from the deal's.
AGENT_SALT = 0x5DEECE66D


def shuffle(items: list, rng: SplitMix64) -> None:
    """Shuffle `items` in place (Fisher-Yates from the end, as the kernel does)."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


# --- state -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """One card in a location's line: which card, whether face up, who played it."""

    card: Card
    face_up: bool
    owner: int


class Outcome(enum.IntEnum):
    """The four outcomes ("Victory Conditions"); values are kernel codes."""

    BOMBER_VICTORY = 0  # test_bomber_rules.py::test_outcome_bomber_victory
    POLICE_VICTORY = 1  # test_bomber_rules.py::test_outcome_police_victory
    DRAW = 2  # test_bomber_rules.py::test_outcome_draw
    SOLE_VICTORY = 3  # test_bomber_rules.py::test_outcome_sole_victory


OUTCOME_NAMES = {
    Outcome.BOMBER_VICTORY: "Bomber's victory",
    Outcome.POLICE_VICTORY: "Police side's victory",
    Outcome.DRAW: "draw",
    Outcome.SOLE_VICTORY: "Holy Warrior's sole victory",
}


@dataclass(frozen=True)
class Result:
    """The Achievement Assessment of one finished game.

    termination is 'assessment' (every hand exhausted, or every player left) or
    'bomber_stuck' (the Bomber had no possible action under stuck_bomber='loses').
    """

    outcome: Outcome
    chaos: bool
    escape: bool
    bombing: bool
    survival: bool
    termination: str
    chaos_locations: int
    killed: tuple[Card, ...] = ()


@dataclass
class State:
    """A game of Catch the Bomber in progress (the whole truth; agents get a `View`)."""

    players: int
    rules: Options
    characters: list[Card]  # the character card dealt to each player ("Setting")
    hands: list[list[int]]  # hands[p][card] = number of that card in p's hand
    lines: list[list[Slot]] = field(default_factory=lambda: [[] for _ in range(N_LOCATIONS)])
    sheltered: list[int] = field(default_factory=list)  # Citizens on each player's Shelter
    out: list[bool] = field(default_factory=list)  # left play with no possible action
    current: int = 0
    history: list[tuple[int, int]] = field(default_factory=list)  # (player, action)
    eliminations: list[int] = field(default_factory=list)
    result: Result | None = None
    # The extra characters were named at the deal (public), not drawn at random (hidden).
    extras_named: bool = False

    def clone(self) -> State:
        """Return an independent copy (slots and results are immutable, so shared)."""
        return replace(
            self,
            characters=list(self.characters),
            hands=[list(h) for h in self.hands],
            lines=[list(line) for line in self.lines],
            sheltered=list(self.sheltered),
            out=list(self.out),
            history=list(self.history),
            eliminations=list(self.eliminations),
        )

    @property
    def over(self) -> bool:
        """True once the game has been assessed."""
        return self.result is not None

    def hand_size(self, player: int) -> int:
        """Return the number of cards in a player's hand."""
        return sum(self.hands[player])

    def bomber_player(self) -> int:
        """Return the player whose character card is the Bomber."""
        return self.characters.index(Card.BOMBER)


def deal_characters(players: int, extras: tuple[Card, ...] | None, rng: SplitMix64) -> list[Card]:
    """Return the character card of each player ("Preparation", table "Cards").

    Every game has 1 Bomber and 2 Police; 4, 5 and 6 players add 1, 2 and 3 of Young
    Lady / Holy Warrior / Suspicious Person. The rulebook does not say which ones at 4
    or 5 players: `extras=None` draws them at random; a tuple names them.
    """
    n_extra = players - 3
    if extras is None:
        pool = list(EXTRAS)
        shuffle(pool, rng)
        chosen = pool[:n_extra]
    else:
        chosen = sorted(extras)
    chars = [Card.BOMBER, Card.POLICE, Card.POLICE, *chosen]
    shuffle(chars, rng)
    return chars


def check_setup(players: int, extras: tuple[Card, ...] | None) -> None:
    """Raise BadInput unless 3..6 players and, if given, players-3 distinct extras."""
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadInput(f"player count {players!r} not supported; expected 3 to 6")
    if extras is not None:
        if len(set(extras)) != len(extras) or any(e not in EXTRAS for e in extras):
            given = ", ".join(CARD_NAMES.get(e, repr(e)) for e in extras)
            raise BadInput(
                f"extra characters {given}: expected distinct names from "
                "young-lady, holy-warrior, suspicious-person"
            )
        if len(extras) != players - 3:
            raise BadInput(
                f"{players} players take {players - 3} extra character(s), "
                f"got {len(extras)}: {', '.join(CARD_NAMES[e] for e in extras) or 'none'}"
            )


def new_game(
    players: int,
    seed: int,
    rules: Options | None = None,
    extras: tuple[Card, ...] | None = None,
) -> State:
    """Deal a new game ("Preparation"): characters, then the Basic cards evenly.

    Raises BadInput for a player count outside 3..6 or a wrong set of extras.
    At 4 players 2 Citizens are removed, so every player count deals evenly:
    hands of 11, 8, 7 and 6 cards for 3, 4, 5 and 6 players. The starting player ("who
    has recently deactivated a bomb") is player 0; seats are random anyway.

    >>> g = new_game(5, seed=1)
    >>> [g.hand_size(p) for p in range(5)]
    [7, 7, 7, 7, 7]
    """
    check_setup(players, extras)
    rules = rules or Options()
    rng = SplitMix64(seed)
    characters = deal_characters(players, extras, rng)
    basics: list[Card] = []
    for card, count in BASIC_COUNTS.items():
        if card == Card.CITIZEN and players == 4:
            count -= 2  # "Remove 2 Citizens"
        basics += [card] * count
    shuffle(basics, rng)
    per = len(basics) // players
    hands = []
    for p in range(players):
        hand = [0] * N_CARDS
        hand[characters[p]] += 1
        for c in basics[p * per : (p + 1) * per]:
            hand[c] += 1
        hands.append(hand)
    return State(
        players=players,
        rules=rules,
        characters=characters,
        hands=hands,
        sheltered=[0] * players,
        out=[False] * players,
        extras_named=extras is not None,
    )


# --- A Playing a card / B Moving a card --------------------------------------------------


def face_up_at(position: int) -> bool:
    """True when the card going to 0-based `position` of a Gathering Point is face up.

    "the 1st, 3rd and 5th cards are placed face up and the 2nd and 4th cards are placed
    face down".
    """
    return position % 2 == 0


def may_play(state: State, player: int, card: Card, gathering_point: int) -> bool:
    """True if `player` may play `card` beneath `gathering_point` (restrictions included).

    Restrictions ("Character & Basic Cards"): Police Dog face up only; Young Lady face
    down only; the Bomber face down when it is the player's last card; the Suspicious
    Person only as the player's last card; under dog='forbid' no Bomber beneath a line
    holding a Police Dog. The Bridge never takes a played card.
    """
    if state.hands[player][card] == 0:
        return False
    line = state.lines[gathering_point]
    if len(line) >= LINE_MAX:
        return False
    up = face_up_at(len(line))
    last = state.hand_size(player) == 1
    if card == Card.POLICE_DOG and not up:
        return False
    if card == Card.YOUNG_LADY and up:
        return False
    if card == Card.BOMBER:
        if last and up:
            return False
        if state.rules.dog == "forbid" and any(s.card == Card.POLICE_DOG for s in line):
            return False
    if card == Card.SUSPICIOUS_PERSON and not last:
        return False
    return True


def move_actions(state: State) -> list[int]:
    """Return the card movements possible after sheltering a Citizen ("B Moving a card").

    A face up Citizen, Police Dog or Bomb Squad goes from a Gathering Point to the Bridge
    or from the Bridge to a Gathering Point, never into a line already holding 5 cards.
    """
    acts = []
    bridge = state.lines[BRIDGE]
    if len(bridge) < LINE_MAX:
        for g in range(N_GATHERING):
            for i, s in enumerate(state.lines[g]):
                if s.face_up and s.card in MOVABLE:
                    acts.append(to_bridge_action(g, i))
    for i, s in enumerate(bridge):
        if s.face_up and s.card in MOVABLE:
            for g in range(N_GATHERING):
                if len(state.lines[g]) < LINE_MAX:
                    acts.append(from_bridge_action(i, g))
    return acts


def legal_actions(state: State, player: int | None = None) -> list[int]:
    """Return the legal actions of `player` (default: the current player), ascending."""
    if state.over:
        return []
    p = state.current if player is None else player
    acts = []
    for card in Card:
        if state.hands[p][card]:
            for g in range(N_GATHERING):
                if may_play(state, p, card, g):
                    acts.append(play_action(card, g))
    if state.hands[p][Card.CITIZEN]:
        moves = move_actions(state)
        if state.rules.move_optional or moves:
            if state.rules.move_optional:
                acts.append(SHELTER_ONLY)
            acts += moves
    return sorted(acts)


def apply(state: State, action: int) -> None:
    """Carry out `action` for the current player, then pass the turn ("Rounds").

    Raises BadInput if the action is not legal. A moved card goes rightmost in its new
    line, the cards behind it close the gap, and no card changes its face orientation.
    """
    p = state.current
    if action not in legal_actions(state, p):
        raise BadInput(f"action {action} ({describe(action)}) is not legal for player {p}")
    a = decode(action)
    if a.kind == "play":
        line = state.lines[a.dst]
        state.hands[p][a.card] -= 1
        line.append(Slot(a.card, face_up_at(len(line)), p))
    else:
        state.hands[p][Card.CITIZEN] -= 1
        state.sheltered[p] += 1
        if a.kind == "move":
            slot = state.lines[a.src].pop(a.index)
            state.lines[a.dst].append(slot)
    state.history.append((p, action))
    _pass_turn(state, p)


def _pass_turn(state: State, from_player: int) -> None:
    """Find the next player able to act, eliminating players with no possible action.

    "On rare occasions when neither Playing a card nor Moving a card is possible, the
    player loses the game immediately and stops playing." When every remaining hand is
    exhausted, the game goes to the Achievement Assessment.
    """
    n = state.players
    q = from_player
    while True:
        active = [i for i in range(n) if not state.out[i] and state.hand_size(i) > 0]
        if not active:
            state.result = assess(state)
            return
        q = (q + 1) % n
        if state.out[q] or state.hand_size(q) == 0:
            continue
        state.current = q
        if legal_actions(state, q):
            return
        state.out[q] = True
        state.eliminations.append(q)
        if state.characters[q] == Card.BOMBER and state.rules.stuck_bomber == "loses":
            state.result = Result(
                outcome=Outcome.POLICE_VICTORY,
                chaos=False,
                escape=False,
                bombing=False,
                survival=True,
                termination="bomber_stuck",
                chaos_locations=_chaos_locations(state),
            )
            return


# --- Achievement Assessment --------------------------------------------------------------


def _chaos_locations(state: State) -> int:
    """Count locations (Bridge included) with at least one face up Citizen ("Panic")."""
    return sum(any(s.card == Card.CITIZEN and s.face_up for s in line) for line in state.lines)


def explodes(line: list[Slot]) -> bool:
    """True if an explosion happens in this line at game end.

    Bombs, and the Holy Warrior who "is himself a bomb at his location", explode unless
    a Bomb Squad is at the same location ("prevent all bombs at the same location,
    including that on the Holy Warrior"). Every card is face up by then, so a Bomb Squad
    played face down defuses too.
    """
    cards = [s.card for s in line]
    has_bomb = Card.BOMB in cards or Card.HOLY_WARRIOR in cards
    return has_bomb and Card.BOMB_SQUAD not in cards


def _left_play(state: State, character: Card) -> bool:
    """True if the player holding `character` left play with no possible action."""
    return character in state.characters and state.out[state.characters.index(character)]


def assess(state: State) -> Result:
    """Assess a finished game ("Achievement Assessment", "Victory Conditions").

    1. Panic: Chaos if 4 or fewer locations show a face up Citizen (before turning).
    2. Destiny: turn every card up; explosions kill the cards "dead in explosion".
       Survival: the Bomber is not killed. Escape: the Bomber lies on the board, is not
       bombed dead, and no Police (and, under dog='caught', no Police Dog to his left in
       his line) is at his location. Bombing: a Citizen or a character other than the
       Bomber is killed (under warrior_bombing=False only where a Bomb card is in the
       line).
    Bomber's victory: Survival and an Achievement. Police side's victory: no
    Achievement. Otherwise a draw, which is the Holy Warrior's sole victory when he
    killed the Bomber (he exploded at the Bomber's location, with or without a Bomb
    there). A player who left play with no possible action has lost ("Steps in
    Detail", the rare case): a Bomber's victory or sole victory of a player who left
    play becomes a draw.
    """
    chaos_locations = _chaos_locations(state)
    chaos = chaos_locations <= 4
    killed: list[Card] = []
    bombing = False
    bomber_loc, bomber_idx = None, None
    exploded = [explodes(line) for line in state.lines]
    for loc, line in enumerate(state.lines):
        for i, s in enumerate(line):
            if s.card == Card.BOMBER:
                bomber_loc, bomber_idx = loc, i
        if not exploded[loc]:
            continue
        by_bomb = any(s.card == Card.BOMB for s in line)
        for s in line:
            if s.card in DEAD_IN_EXPLOSION:
                killed.append(s.card)
                if s.card != Card.BOMBER and (by_bomb or state.rules.warrior_bombing):
                    bombing = True
    survival = bomber_loc is None or not exploded[bomber_loc]
    escape = False
    if bomber_loc is not None and survival:
        line = state.lines[bomber_loc]
        police_here = any(s.card == Card.POLICE for s in line)
        if state.rules.dog == "caught":
            police_here = police_here or any(s.card == Card.POLICE_DOG for s in line[:bomber_idx])
        escape = not police_here
    achieved = chaos or escape or bombing
    if survival and achieved:
        outcome = Outcome.BOMBER_VICTORY
    elif not achieved:
        outcome = Outcome.POLICE_VICTORY
    else:
        warrior_there = any(s.card == Card.HOLY_WARRIOR for s in state.lines[bomber_loc])
        outcome = Outcome.SOLE_VICTORY if warrior_there else Outcome.DRAW
    # "the player loses the game immediately and stops playing": a player who left play
    # cannot win later. A Bomber who left play (stuck_bomber='assess') fails his victory
    # condition and a Holy Warrior who left play loses his sole victory; where that
    # player would have won, neither side fulfils its condition: a draw.
    if outcome == Outcome.BOMBER_VICTORY and _left_play(state, Card.BOMBER):
        outcome = Outcome.DRAW
    if outcome == Outcome.SOLE_VICTORY and _left_play(state, Card.HOLY_WARRIOR):
        outcome = Outcome.DRAW
    return Result(
        outcome=outcome,
        chaos=chaos,
        escape=escape,
        bombing=bombing,
        survival=survival,
        termination="assessment",
        chaos_locations=chaos_locations,
        killed=tuple(sorted(killed)),
    )


def winners(state: State) -> list[int]:
    """Return the players who won (players who left play with no action lost anyway)."""
    if not state.over:
        return []
    bomber = state.bomber_player()
    o = state.result.outcome
    if o == Outcome.BOMBER_VICTORY:
        won = [bomber]
    elif o == Outcome.POLICE_VICTORY:
        won = [p for p in range(state.players) if p != bomber]
    elif o == Outcome.SOLE_VICTORY:
        won = [state.characters.index(Card.HOLY_WARRIOR)]
    else:
        won = []
    return [p for p in won if not state.out[p]]


# --- what one player sees ----------------------------------------------------------------

HIDDEN = -1


@dataclass(frozen=True)
class View:
    """What one player may see: own character and hand, own face-down cards, face-up cards.

    lines[loc] is a tuple of (card, face_up, owner) with card = HIDDEN (-1) for another
    player's face-down card; the owner is public (Footprint tokens, play in view).
    """

    me: int
    character: Card
    hand: tuple[int, ...]
    lines: tuple[tuple[tuple[int, bool, int], ...], ...]
    hand_sizes: tuple[int, ...]
    sheltered: tuple[int, ...]
    out: tuple[bool, ...]
    rules: Options
    players: int


def observe(state: State, player: int) -> View:
    """Return `player`'s view of the state (nothing of others' hands or face-down cards)."""
    lines = tuple(
        tuple(
            (int(s.card) if (s.face_up or s.owner == player) else HIDDEN, s.face_up, s.owner)
            for s in line
        )
        for line in state.lines
    )
    return View(
        me=player,
        character=state.characters[player],
        hand=tuple(state.hands[player]),
        lines=lines,
        hand_sizes=tuple(state.hand_size(p) for p in range(state.players)),
        sheltered=tuple(state.sheltered),
        out=tuple(state.out),
        rules=state.rules,
        players=state.players,
    )


def view_legal_actions(view: View) -> list[int]:
    """Return the legal actions computed from a view alone (agents use this)."""
    # Legality depends only on the player's own hand, line lengths, face-up cards and the
    # player's own cards, so a view carries enough; rebuild a minimal state to reuse rules.
    lines = [
        [Slot(Card(c) if c != HIDDEN else Card.CITIZEN, up, o) for c, up, o in line]
        for line in view.lines
    ]
    # A hidden card is never movable (face down) and never a Police Dog (face up only),
    # so the stand-in card above cannot change which actions are legal.
    hands = [[0] * N_CARDS for _ in range(view.players)]
    hands[view.me] = list(view.hand)
    st = State(
        players=view.players,
        rules=view.rules,
        characters=[Card.POLICE] * view.players,
        hands=hands,
        lines=lines,
        sheltered=list(view.sheltered),
        out=list(view.out),
        current=view.me,
    )
    return legal_actions(st, view.me)


def line_text(line: list[Slot], reveal: bool = True) -> str:
    """Render a line as 'CIT [BMR]2 SQD' (brackets mark face-down cards, followed by the
    owner's seat, numbered from 1)."""
    parts = []
    for s in line:
        name = CARD_SHORT[s.card] if reveal or s.face_up else "??"
        parts.append(f"{name}" if s.face_up else f"[{name}]{s.owner + 1}")
    return " ".join(parts) if parts else "-"

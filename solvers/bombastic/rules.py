"""Bombastic reference engine: plain Python that reads like the rulebook.

The surface is OpenSpiel-like: a `State` with `legal_actions()`, `apply(action)`,
`is_over()`, `winner`, `ending` and, for each player, the list of what they observed
(`observations[player]`). Chance (the random shuffle of "Peek at 3 in a row. Opponent
shuffles them.") is a player, `CHANCE`, with six equally likely outcomes.

A turn is split into decisions, one `apply` each, because a player decides what to do
next after seeing what a peek showed. Actions are dense integers (see `ACTION_*`):

* 0..8      a tile (peek it, show it, swap it, ...)
* 9..16     a line (Go for It, or "Peek at 3 in a row")
* 17, 18    use the face-up action card in slot 0 or 1
* 19        STOP: decline a "may", or stop peeking
* 20..35    an L-shape (ALARM "Show 3 in an L shape")
* 36..41    an order of three tiles (secret arrangement, or the chance shuffle)
* 42..47    which of the three peeked tiles the opponent shows (promo card)
* 48        YES: "May swap them with each other"

Example: a game where the first player goes for the top row at once::

    >>> s = State.new(seed=1)
    >>> s.apply(ACTION_LINE + 0)
    >>> s.turn_number, s.observations[1][-1][0]
    (2, 'show')

Players: seat 0 moves first and plays X; seat 1 plays O. ("The youngest player decides
if they want to play as Xs or Os": the tiles are 4 X and 4 O, so the choice changes
nothing but names; we fix it.)

Randomness comes from `SplitMix64`, a tiny generator the Numba kernel copies bit for
bit, so that both engines play the same game from the same seed.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from bombsolve.solvers.bombastic.tiles import BOMB, L_SHAPES, LINES, N_TILES, PERMS3, O, X
from bombsolve.solvers.common.errors import BadInput, unknown
from bombsolve.solvers.common.rng import SplitMix64

CHANCE = -1
TERMINAL = -2


class Card(enum.IntEnum):
    """The action cards, in the rulebook's order (regular, ALARM, promo)."""

    PEEK2_SHOW = 0
    PEEK2_MAY_SWAP = 1
    PEEK2_SWAP_OUT = 2
    PEEK1_SWAP_SWAP = 3
    PEEK_MANY = 4
    PEEK_LINE_SHUFFLE = 5
    SHOW3_ARRANGE = 6
    ALARM_PEEK_GO = 7
    ALARM_L_SHAPE = 8
    PROMO_PEEK3 = 9
    PROMO_SHOW_SWAP = 10


CARD_TEXT = {
    Card.PEEK2_SHOW: "Peek at 2. May show 1 of these to peek at another 1.",
    Card.PEEK2_MAY_SWAP: "Peek at 2. May swap them with each other.",
    Card.PEEK2_SWAP_OUT: "Peek at 2. Swap 1 of these with another 1.",
    Card.PEEK1_SWAP_SWAP: "Peek at 1. Swap any 2. May swap any other 2.",
    Card.PEEK_MANY: "Peek at as many as you want. If you see the bomb, you lose.",
    Card.PEEK_LINE_SHUFFLE: "Peek at 3 in a row. Opponent shuffles them.",
    Card.SHOW3_ARRANGE: "Show 3. Secretly arrange them.",
    Card.ALARM_PEEK_GO: "ALARM: Peek at 1. Go for It.",
    Card.ALARM_L_SHAPE: "ALARM: Show 3 in an L shape. If they are all yours, you win.",
    Card.PROMO_PEEK3: "Promo: Peek at 3. Opponent shows 1 or 2 of these.",
    Card.PROMO_SHOW_SWAP: "Promo: Show 1. Secretly swap it with another 1.",
}
CARD_SLUG = {
    Card.PEEK2_SHOW: "peek2-show",
    Card.PEEK2_MAY_SWAP: "peek2-may-swap",
    Card.PEEK2_SWAP_OUT: "peek2-swap-out",
    Card.PEEK1_SWAP_SWAP: "peek1-swap-swap",
    Card.PEEK_MANY: "peek-many",
    Card.PEEK_LINE_SHUFFLE: "peek-line-shuffle",
    Card.SHOW3_ARRANGE: "show3-arrange",
    Card.ALARM_PEEK_GO: "alarm-peek-go",
    Card.ALARM_L_SHAPE: "alarm-l-shape",
    Card.PROMO_PEEK3: "promo-peek3",
    Card.PROMO_SHOW_SWAP: "promo-show-swap",
}
REGULAR_CARDS = tuple(Card(i) for i in range(7))
ALARM_CARDS = (Card.ALARM_PEEK_GO, Card.ALARM_L_SHAPE)
PROMO_CARDS = (Card.PROMO_PEEK3, Card.PROMO_SHOW_SWAP)


def card_by_slug(slug: str) -> Card:
    """Return the card named by its slug; raise BadInput naming the choices otherwise."""
    for card, name in CARD_SLUG.items():
        if name == slug:
            return card
    raise unknown("card", slug, CARD_SLUG.values())


class Ending(enum.Enum):
    """How a game ends ("Game End"), one member per way, named in the rulebook's words."""

    GO_FOR_IT_WIN = "go for it: all 3 yours"
    GO_FOR_IT_BOMB = "go for it: showed the bomb"
    PEEKED_BOMB = "peek at as many: saw the bomb"
    ALARM_GO_FOR_IT_WIN = "ALARM peek at 1, go for it: all 3 yours"
    ALARM_GO_FOR_IT_BOMB = "ALARM peek at 1, go for it: showed the bomb"
    L_SHAPE_WIN = "ALARM L shape: all 3 yours"
    L_SHAPE_LOSS = "ALARM L shape: not all yours"
    OPPONENT_SHOWED_BOMB = "promo peek at 3: opponent showed the bomb"
    TURN_CAP = "turn cap reached (study option)"


SECOND_SWAP_READINGS = ("distinct", "disjoint", "any")
SHUFFLE_READINGS = ("chance", "opponent")


@dataclass(frozen=True)
class Options:
    """Rule points the rulebook leaves open, and study variants. Defaults in comments."""

    # "Promo Pack Card List": the two promo cards join the action deck. Default: off.
    promos: bool = False
    # Study variant "without ALARM cards": leave both ALARM cards out. Default: with them.
    alarms: bool = True
    # Leave-one-out studies: cards taken out of the deck. Default: none.
    removed: tuple[int, ...] = ()
    # "Swap any 2. May swap any other 2." What may the second swap be?
    #   "distinct": any pair except the pair just swapped (default; "other" pair),
    #   "disjoint": two tiles both different from the first two,
    #   "any": any pair, even the same one again (the card text: "swap any 2 tiles again").
    second_swap: str = "distinct"
    # Cards go "face down under the deck"; once the deck has cycled, a player with
    # perfect memory knows its order. True (default): agents may use the known order.
    deck_known: bool = True
    # Studies only: the game stops after this many turns, ending TURN_CAP, no winner.
    turn_cap: int = 60
    # "Then, your opponent shuffles their positions randomly." Who picks the new order?
    #   "chance" (default; the card says "randomly"): a uniformly random order no one sees,
    #   "opponent": the opponent chooses the order (face down) and knows where each went.
    shuffle: str = "chance"

    def __post_init__(self) -> None:
        if self.second_swap not in SECOND_SWAP_READINGS:
            raise unknown("second-swap reading", self.second_swap, SECOND_SWAP_READINGS)
        if self.shuffle not in SHUFFLE_READINGS:
            raise unknown("shuffle reading", self.shuffle, SHUFFLE_READINGS)
        if self.turn_cap < 1:
            raise BadInput(f"turn cap {self.turn_cap} must be at least 1")
        for c in self.removed:
            if c not in range(len(Card)):
                raise BadInput(f"removed card {c} is not a card number 0..{len(Card) - 1}")
        if (
            len(self.deck_cards()) - 2 < 1
            or len([c for c in self.deck_cards() if c not in ALARM_CARDS]) < 2
        ):
            raise BadInput("the action deck needs at least 2 regular cards and 1 more")

    def deck_cards(self) -> tuple[Card, ...]:
        """Return the cards in the action deck under these options, in card order."""
        cards = list(REGULAR_CARDS)
        if self.alarms:
            cards += ALARM_CARDS
        if self.promos:
            cards += PROMO_CARDS
        return tuple(c for c in cards if c not in self.removed)

    def with_(self, **kw) -> Options:
        """Return a copy with some fields changed."""
        return replace(self, **kw)


# Dense action numbers.
ACTION_TILE = 0
ACTION_LINE = 9
ACTION_CARD = 17
ACTION_STOP = 19
ACTION_L = 20
ACTION_PERM = 36
ACTION_SHOWSET = 42
ACTION_YES = 48
N_ACTIONS = 49
# The six choices "Opponent shows 1 or 2 of these", as indices into the 3 peeked tiles.
SHOW_SETS: tuple[tuple[int, ...], ...] = ((0,), (1,), (2,), (0, 1), (0, 2), (1, 2))


def action_name(a: int) -> str:
    """Return a short readable name for action number `a`.

    >>> action_name(4), action_name(ACTION_LINE + 6), action_name(ACTION_STOP)
    ('tile 4', 'line diag', 'stop')
    """
    from bombsolve.solvers.bombastic.tiles import LINE_NAMES

    if 0 <= a < ACTION_LINE:
        return f"tile {a}"
    if a < ACTION_CARD:
        return f"line {LINE_NAMES[a - ACTION_LINE]}"
    if a < ACTION_STOP:
        return f"card slot {a - ACTION_CARD}"
    if a == ACTION_STOP:
        return "stop"
    if a < ACTION_PERM:
        return f"L {''.join(map(str, L_SHAPES[a - ACTION_L]))}"
    if a < ACTION_SHOWSET:
        return f"order {''.join(map(str, PERMS3[a - ACTION_PERM]))}"
    if a < ACTION_YES:
        return f"show peeked {SHOW_SETS[a - ACTION_SHOWSET]}"
    if a == ACTION_YES:
        return "yes"
    raise BadInput(f"action {a} is not an action number 0..{N_ACTIONS - 1}")


class Phase(enum.IntEnum):
    """What decision the state waits for. Each card's effects are a short run of phases."""

    TURN = 0  # Go for It (a line) or use a face-up card
    PEEK = 1  # peek at a tile not yet picked on this card (must)
    PEEK_OR_STOP = 2  # may peek at another tile not yet picked on this card
    SHOW_PEEKED = 3  # PEEK2_SHOW: may show one of the 2 peeked tiles
    MAY_SWAP = 4  # PEEK2_MAY_SWAP: YES or STOP
    OUT_PEEKED = 5  # PEEK2_SWAP_OUT: which peeked tile to swap
    OUT_OTHER = 6  # PEEK2_SWAP_OUT: with which tile not peeked this turn
    SWAP_A = 7  # PEEK1_SWAP_SWAP: first tile of the must-swap
    SWAP_B = 8  # PEEK1_SWAP_SWAP: second tile of the must-swap
    SWAP2_A = 9  # PEEK1_SWAP_SWAP: first tile of the may-swap, or STOP
    SWAP2_B = 10  # PEEK1_SWAP_SWAP: second tile of the may-swap
    PEEK_LINE = 11  # PEEK_LINE_SHUFFLE: which line to peek at
    SHUFFLE = 12  # PEEK_LINE_SHUFFLE: chance shuffles the 3 tiles
    SHOW = 13  # SHOW3_ARRANGE / PROMO_SHOW_SWAP: show a tile not yet shown on this card
    ARRANGE = 14  # SHOW3_ARRANGE: the order to put the 3 shown tiles back in
    GO = 15  # ALARM_PEEK_GO: the line to Go for It
    L_SHAPE = 16  # ALARM_L_SHAPE: the L to flip
    OPP_SHOW = 17  # PROMO_PEEK3: the opponent shows 1 or 2 of the peeked tiles
    SECRET_SWAP = 18  # PROMO_SHOW_SWAP: the tile to swap the shown one with
    OVER = 19


# Observation events (shared with beliefs.py and the `odds` command):
#   ("peek", t, v)            I peeked at tile t and saw v
#   ("opp_peek", t)           my opponent peeked at tile t
#   ("show", t, v)            tile t was shown to both players: it is v
#   ("not_bomb", t)           both know tile t is not the bomb (a survived peek-many)
#   ("swap", a, b)            tiles a and b swapped places (I know how)
#   ("shuffle", (a, b, c))    tiles a, b, c were put back in an order unknown to me
#   ("place", (a, b, c), (va, vb, vc))  I secretly arranged: now a is va, b is vb, c is vc
#   ("secret_swap", t)        my opponent swapped tile t with a tile I was not shown
#   ("move", (a, b, c), perm) I moved the tile at a, b, c to (a, b, c)[perm[i]], unseen
#   ("card", player, card)    a player chose an action card
#   ("go", player, line)      a player went for it on a line
#   ("reveal", card)          a card was revealed from the deck


@dataclass
class State:
    """A Bombastic game in progress: tiles, cards, whose decision, and what each saw."""

    options: Options
    tiles: list[int]
    face_up: list[int]
    deck: list[int]
    to_move: int = 0
    turn_player: int = 0
    turn_number: int = 1
    phase: Phase = Phase.TURN
    card: int = -1
    slot: int = -1
    picked: list[int] = field(default_factory=list)
    swap_first: tuple[int, int] | None = None
    swap_a: int = -1
    winner: int | None = None
    ending: Ending | None = None
    observations: tuple[list, list] = field(default_factory=lambda: ([], []))
    history: list[int] = field(default_factory=list)
    # Cards already placed under the deck, in order, that both players saw used.
    cycled: list[int] = field(default_factory=list)

    # ----- Setup -------------------------------------------------------------------------

    @classmethod
    def new(cls, seed: int = 0, options: Options | None = None) -> State:
        """Set up a game ("Setup") with the shared SplitMix64 generator from `seed`."""
        return cls.setup(SplitMix64(seed), options or Options())

    @classmethod
    def setup(cls, rng: SplitMix64, options: Options) -> State:
        """Deal the tiles and the action cards as "Setup" says.

        "Shuffle the 9 tiles face down into a 3x3 grid." Then "Shuffle the action cards
        and reveal 2"; "Ensure that the 2 starting face-up cards are not ALARM action
        cards. Draw replacements and shuffle ALARM cards back into the deck if needed."
        """
        tiles = [X] * 4 + [O] * 4 + [BOMB]
        _shuffle(tiles, rng)
        deck = [int(c) for c in options.deck_cards()]
        _shuffle(deck, rng)
        face_up: list[int] = []
        set_aside: list[int] = []
        while len(face_up) < 2:
            c = deck.pop(0)
            (set_aside if c in ALARM_CARDS else face_up).append(c)
        if set_aside:
            deck += set_aside
            _shuffle(deck, rng)
        return cls(options=options, tiles=tiles, face_up=face_up, deck=deck)

    def clone(self) -> State:
        """Return an independent copy."""
        return State(
            options=self.options,
            tiles=list(self.tiles),
            face_up=list(self.face_up),
            deck=list(self.deck),
            to_move=self.to_move,
            turn_player=self.turn_player,
            turn_number=self.turn_number,
            phase=self.phase,
            card=self.card,
            slot=self.slot,
            picked=list(self.picked),
            swap_first=self.swap_first,
            swap_a=self.swap_a,
            winner=self.winner,
            ending=self.ending,
            observations=(list(self.observations[0]), list(self.observations[1])),
            history=list(self.history),
            cycled=list(self.cycled),
        )

    # ----- Queries -----------------------------------------------------------------------

    def is_over(self) -> bool:
        """Return True when the game has ended (a win, a loss, or the study turn cap)."""
        return self.phase == Phase.OVER

    def symbol(self, player: int) -> int:
        """Return the symbol a seat plays: seat 0 plays X, seat 1 plays O."""
        return X if player == 0 else O

    def legal_actions(self) -> list[int]:
        """Return the legal action numbers in increasing order (empty when over)."""
        ph = self.phase
        picked = self.picked
        if ph == Phase.OVER:
            return []
        if ph == Phase.TURN:
            return [ACTION_LINE + k for k in range(len(LINES))] + [ACTION_CARD, ACTION_CARD + 1]
        if ph == Phase.PEEK or ph == Phase.SHOW:
            return [t for t in range(N_TILES) if t not in picked]
        if ph == Phase.PEEK_OR_STOP:
            return [t for t in range(N_TILES) if t not in picked] + [ACTION_STOP]
        if ph == Phase.SHOW_PEEKED:
            return sorted(picked) + [ACTION_STOP]
        if ph == Phase.MAY_SWAP:
            return [ACTION_STOP, ACTION_YES]
        if ph == Phase.OUT_PEEKED:
            return sorted(picked)
        if ph == Phase.OUT_OTHER:
            return [t for t in range(N_TILES) if t not in picked]
        if ph == Phase.SWAP_A:
            return list(range(N_TILES))
        if ph == Phase.SWAP_B:
            return [t for t in range(N_TILES) if t != self.swap_a]
        if ph == Phase.SWAP2_A:
            first = self.swap_first
            if self.options.second_swap == "disjoint":
                tiles = [t for t in range(N_TILES) if t not in first]
            else:
                tiles = list(range(N_TILES))
            return tiles + [ACTION_STOP]
        if ph == Phase.SWAP2_B:
            return self._second_swap_partners()
        if ph == Phase.PEEK_LINE or ph == Phase.GO:
            return [ACTION_LINE + k for k in range(len(LINES))]
        if ph == Phase.SHUFFLE or ph == Phase.ARRANGE:
            return [ACTION_PERM + i for i in range(len(PERMS3))]
        if ph == Phase.L_SHAPE:
            return [ACTION_L + i for i in range(len(L_SHAPES))]
        if ph == Phase.OPP_SHOW:
            return [ACTION_SHOWSET + i for i in range(len(SHOW_SETS))]
        if ph == Phase.SECRET_SWAP:
            return [t for t in range(N_TILES) if t != picked[0]]
        raise AssertionError(ph)

    def _second_swap_partners(self) -> list[int]:
        a, first = self.swap_a, self.swap_first
        out = []
        for t in range(N_TILES):
            if t == a:
                continue
            pair = tuple(sorted((a, t)))
            if self.options.second_swap == "distinct" and pair == first:
                continue
            if self.options.second_swap == "disjoint" and t in first:
                continue
            out.append(t)
        return out

    # ----- Moves -------------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Apply one decision. Raise BadInput if `action` is not legal here."""
        if action not in self.legal_actions():
            raise BadInput(
                f"action {action} is not legal in phase {self.phase.name}; "
                f"legal: {self.legal_actions()}"
            )
        self.history.append(action)
        ph = self.phase
        if ph == Phase.TURN:
            self._start_turn(action)
        elif ph == Phase.GO:
            self._go_for_it(action - ACTION_LINE, alarm=True)
            if not self.is_over():
                self._finish_card()
        else:
            self._card_step(action)

    def _start_turn(self, action: int) -> None:
        """ "On your turn, either: Go for It or Use an Action Card"."""
        p = self.turn_player
        if action < ACTION_CARD:
            line = action - ACTION_LINE
            self._record_public(("go", p, line))
            self._go_for_it(line, alarm=False)
            if not self.is_over():
                self._end_turn()
            return
        self.slot = action - ACTION_CARD
        self.card = self.face_up[self.slot]
        self.picked = []
        self._record_public(("card", p, self.card))
        first_phase = {
            Card.PEEK2_SHOW: Phase.PEEK,
            Card.PEEK2_MAY_SWAP: Phase.PEEK,
            Card.PEEK2_SWAP_OUT: Phase.PEEK,
            Card.PEEK1_SWAP_SWAP: Phase.PEEK,
            Card.PEEK_MANY: Phase.PEEK,
            Card.PEEK_LINE_SHUFFLE: Phase.PEEK_LINE,
            Card.SHOW3_ARRANGE: Phase.SHOW,
            Card.ALARM_PEEK_GO: Phase.PEEK,
            Card.ALARM_L_SHAPE: Phase.L_SHAPE,
            Card.PROMO_PEEK3: Phase.PEEK,
            Card.PROMO_SHOW_SWAP: Phase.SHOW,
        }[Card(self.card)]
        self.phase = first_phase

    def _go_for_it(self, line: int, alarm: bool) -> None:
        """ "Go for It": show 3 in a row; all yours wins, the bomb loses, else flip back."""
        p = self.turn_player
        if alarm:
            self._record_public(("go", p, line))
        tiles = LINES[line]
        for t in tiles:
            self._record_public(("show", t, self.tiles[t]))
        values = [self.tiles[t] for t in tiles]
        if all(v == self.symbol(p) for v in values):
            self._end(p, Ending.ALARM_GO_FOR_IT_WIN if alarm else Ending.GO_FOR_IT_WIN)
        elif BOMB in values:
            self._end(1 - p, Ending.ALARM_GO_FOR_IT_BOMB if alarm else Ending.GO_FOR_IT_BOMB)

    def _peek(self, t: int) -> None:
        """PEEK: "Secretly look at a tile, then return it to its original position"."""
        p = self.turn_player
        self.observations[p].append(("peek", t, self.tiles[t]))
        self.observations[1 - p].append(("opp_peek", t))

    def _swap(self, a: int, b: int) -> None:
        """SWAP: "Swap the positions of 2 tiles, keeping them face down"."""
        self.tiles[a], self.tiles[b] = self.tiles[b], self.tiles[a]
        self._record_public(("swap", a, b))

    def _card_step(self, action: int) -> None:
        """Perform one decision of the chosen card's effects, "from top to bottom"."""
        card, ph, p = Card(self.card), self.phase, self.turn_player
        if card == Card.PEEK2_SHOW:
            # "Peek at any 2 tiles. You may choose to show 1 of these to your opponent.
            # If you do, you may peek at another 1."
            if ph == Phase.PEEK:
                self._peek(action)
                self.picked.append(action)
                if len(self.picked) == 2:
                    self.phase = Phase.SHOW_PEEKED
            elif ph == Phase.SHOW_PEEKED:
                if action == ACTION_STOP:
                    return self._finish_card()
                self._record_public(("show", action, self.tiles[action]))
                self.phase = Phase.PEEK_OR_STOP
            elif ph == Phase.PEEK_OR_STOP:
                if action != ACTION_STOP:
                    self._peek(action)
                return self._finish_card()
        elif card == Card.PEEK2_MAY_SWAP:
            # "Peek at any 2 tiles. Then, you may choose to swap the 2 tiles you peeked at."
            if ph == Phase.PEEK:
                self._peek(action)
                self.picked.append(action)
                if len(self.picked) == 2:
                    self.phase = Phase.MAY_SWAP
            else:
                if action == ACTION_YES:
                    self._swap(*self.picked)
                return self._finish_card()
        elif card == Card.PEEK2_SWAP_OUT:
            # "Peek at any 2 tiles. Then, you must swap 1 of the tiles you peeked at with 1
            # of the tiles you did not peek at this turn."
            if ph == Phase.PEEK:
                self._peek(action)
                self.picked.append(action)
                if len(self.picked) == 2:
                    self.phase = Phase.OUT_PEEKED
            elif ph == Phase.OUT_PEEKED:
                self.swap_a = action
                self.phase = Phase.OUT_OTHER
            else:
                self._swap(self.swap_a, action)
                return self._finish_card()
        elif card == Card.PEEK1_SWAP_SWAP:
            # "Peek at any 1 tile. Then, you must swap any 2 tiles in the grid. Then, you
            # may choose to swap any 2 tiles again." (Options.second_swap)
            if ph == Phase.PEEK:
                self._peek(action)
                self.picked.append(action)
                self.phase = Phase.SWAP_A
            elif ph == Phase.SWAP_A:
                self.swap_a = action
                self.phase = Phase.SWAP_B
            elif ph == Phase.SWAP_B:
                self._swap(self.swap_a, action)
                self.swap_first = tuple(sorted((self.swap_a, action)))
                self.phase = Phase.SWAP2_A
            elif ph == Phase.SWAP2_A:
                if action == ACTION_STOP:
                    return self._finish_card()
                self.swap_a = action
                self.phase = Phase.SWAP2_B
            else:
                self._swap(self.swap_a, action)
                return self._finish_card()
        elif card == Card.PEEK_MANY:
            # "Peek at any 1 tile. If it's the bomb, you lose the game. If it's not the bomb,
            # you may choose to peek at another 1."
            if action == ACTION_STOP:
                return self._finish_card()
            self._peek(action)
            self.picked.append(action)
            if self.tiles[action] == BOMB:
                return self._end(1 - p, Ending.PEEKED_BOMB)
            # The game goes on, so both now know this tile is not the bomb.
            self._record_public(("not_bomb", action))
            self.phase = Phase.PEEK_OR_STOP
        elif card == Card.PEEK_LINE_SHUFFLE:
            # "Peek at 3 tiles that are in a row. Then, your opponent shuffles their
            # positions randomly." Options.shuffle: a chance move no one sees (default),
            # or an order the opponent chooses and so knows.
            if ph == Phase.PEEK_LINE:
                line = LINES[action - ACTION_LINE]
                for t in line:
                    self._peek(t)
                self.picked = list(line)
                self.phase = Phase.SHUFFLE
                self.to_move = CHANCE if self.options.shuffle == "chance" else 1 - p
            else:
                pos = tuple(self.picked)
                perm = PERMS3[action - ACTION_PERM]
                self._permute(pos, perm)
                if self.options.shuffle == "chance":
                    self._record_public(("shuffle", pos))
                else:
                    self.observations[p].append(("shuffle", pos))
                    self.observations[1 - p].append(("move", pos, perm))
                return self._finish_card()
        elif card == Card.SHOW3_ARRANGE:
            # "Show any 3 tiles. Then, pick them up. While your opponent looks away, place
            # them back in the open positions, face down and in whatever order you want."
            if ph == Phase.SHOW:
                self._record_public(("show", action, self.tiles[action]))
                self.picked.append(action)
                if len(self.picked) == 3:
                    self.phase = Phase.ARRANGE
            else:
                pos = tuple(self.picked)
                self._permute(pos, PERMS3[action - ACTION_PERM])
                self.observations[p].append(("place", pos, tuple(self.tiles[t] for t in pos)))
                self.observations[1 - p].append(("shuffle", pos))
                return self._finish_card()
        elif card == Card.ALARM_PEEK_GO:
            # "Peek at any 1 tile. Then, Go for It. All the rules of Go for It apply."
            self._peek(action)
            self.picked.append(action)
            self.phase = Phase.GO
        elif card == Card.ALARM_L_SHAPE:
            # "Flip any 3 tiles that are in an L shape. If all 3 are yours, you win the
            # game. If at least 1 of them isn't yours, you lose the game."
            shape = L_SHAPES[action - ACTION_L]
            for t in shape:
                self._record_public(("show", t, self.tiles[t]))
            if all(self.tiles[t] == self.symbol(p) for t in shape):
                return self._end(p, Ending.L_SHAPE_WIN)
            return self._end(1 - p, Ending.L_SHAPE_LOSS)
        elif card == Card.PROMO_PEEK3:
            # "Peek at any 3 tiles. Then, your opponent must show 1 or 2 of the tiles you
            # peeked at. If they show the bomb, you win."
            if ph == Phase.PEEK:
                self._peek(action)
                self.picked.append(action)
                if len(self.picked) == 3:
                    self.phase = Phase.OPP_SHOW
                    self.to_move = 1 - p
            else:
                shown = [self.picked[i] for i in SHOW_SETS[action - ACTION_SHOWSET]]
                for t in shown:
                    self._record_public(("show", t, self.tiles[t]))
                if any(self.tiles[t] == BOMB for t in shown):
                    return self._end(p, Ending.OPPONENT_SHOWED_BOMB)
                return self._finish_card()
        elif card == Card.PROMO_SHOW_SWAP:
            # "Show any tile. Then, while your opponent looks away, flip it face down and
            # swap it with any other tile. Do not look at the other tile."
            if ph == Phase.SHOW:
                self._record_public(("show", action, self.tiles[action]))
                self.picked.append(action)
                self.phase = Phase.SECRET_SWAP
            else:
                t = self.picked[0]
                self.tiles[t], self.tiles[action] = self.tiles[action], self.tiles[t]
                self.observations[p].append(("swap", t, action))
                self.observations[1 - p].append(("secret_swap", t))
                return self._finish_card()
        return None

    def _permute(self, positions, perm) -> None:
        """Move the tile at positions[i] to positions[perm[i]]."""
        values = [self.tiles[t] for t in positions]
        for i in range(len(positions)):
            self.tiles[positions[perm[i]]] = values[i]

    def _finish_card(self) -> None:
        """ "Place the card face down under the deck and reveal the top card.\""""
        self.deck.append(self.card)
        self.cycled.append(self.card)
        self.face_up[self.slot] = self.deck.pop(0)
        self._record_public(("reveal", self.face_up[self.slot]))
        self._end_turn()

    def _end_turn(self) -> None:
        self.turn_player = 1 - self.turn_player
        self.to_move = self.turn_player
        self.turn_number += 1
        self.card, self.slot, self.picked = -1, -1, []
        self.swap_first, self.swap_a = None, -1
        self.phase = Phase.TURN
        if self.turn_number > self.options.turn_cap:
            self._end(None, Ending.TURN_CAP)

    def _end(self, winner: int | None, ending: Ending) -> None:
        """ "The game ends as soon as a player wins or loses.\""""
        self.winner = winner
        self.ending = ending
        self.phase = Phase.OVER
        self.to_move = TERMINAL

    def _record_public(self, event: tuple) -> None:
        self.observations[0].append(event)
        self.observations[1].append(event)


def _shuffle(items: list, rng: SplitMix64) -> None:
    """Shuffle in place (Fisher-Yates, from the last item down), as the kernel does."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


def random_game(seed: int, options: Options | None = None) -> State:
    """Play one game of uniformly random legal decisions (chance included) from `seed`.

    The same generator sets up the game and then picks each decision as
    `legal[rng.below(len(legal))]`; the kernel's `random_game` does the same, step by step.
    """
    rng = SplitMix64(seed)
    state = State.setup(rng, options or Options())
    while not state.is_over():
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    return state

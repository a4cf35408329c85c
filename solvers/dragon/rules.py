"""Bomb the Dragon: the plain-Python reference engine (rulebook shared/rules/bomb-the-dragon.txt).

The engine reads like the rulebook, section by section: `setup_round` ("Setup"), a turn
with its four steps, 1. Choose Firecracker Cards (`begin_turn`, `ask_next_choice`,
`reveal`), 2. Place Firecracker Cards (`place_on`, `put`), 3. Complete the Dragon
(`complete_dragon`) and 4. Draw Cards (`draw_cards`), then `end_round` ("End of Round")
and `winners` ("End of Game"). The two-player rules change the row length, the hand limit
and the number of cards each player plays per turn.

The game goes one decision at a time: a state knows the decision pending (`decision`,
`seat`): each seat's face-down choice of step 1, asked in seat order (a view shows no
other seat's choice before the reveal), then each Rocket's slot as step 2 reaches it.
`legal_actions` lists it as ints (see "Actions" below), `advance` takes one and runs the
rules on to the next decision. `play_game` plays whole games on this stepping.

Every point the rulebook leaves open (shared/data/dragon-bomb.md, "Points the rulebook
leaves open") is one field of `Options`, with a default and a comment quoting the
sentence it reads. The Numba kernel (`kernel.py`) implements the same rules and is
tested against this file game by game.

Chance goes through `SplitMix64` (bombsolve.solvers.common.rng, its exact bounded draws
`below_exact` and `shuffle`): stream 0 of the game's seed deals, stream p + 1 is seat p's
agent; the kernel reproduces them bit for bit, so one seed gives the same game in both
engines:

>>> from bombsolve.solvers.dragon.agents import make_agents
>>> game = play_game(4, make_agents(["random"] * 4), seed=7)
>>> game.over, len(game.scores)
(True, 4)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bombsolve.solvers.common.errors import BadInput, unknown
from bombsolve.solvers.common.game import IllegalAction
from bombsolve.solvers.common.options import changed_rules
from bombsolve.solvers.common.rng import SplitMix64, derive_seed
from bombsolve.solvers.dragon.cards import Cards, load_cards
from bombsolve.solvers.dragon.readings import BY_NAME, PRESETS

# --- Rule options ---------------------------------------------------------------------

PLACEMENTS = ("fixed", "close_up")
ROCKET_TIMINGS = ("last", "in_order")
DOUBLE_WHEN = ("placer", "under")
DOUBLE_CARD = ("kept", "discard")
STRING_CARD = ("slot", "discard")
ROUND_END = ("short", "empty")
NEW_ROUND = ("rebuild", "continue")
TIEBREAK = ("game", "round")
RESHUFFLE_WHEN = BY_NAME["reshuffle_when"].choices
EQUAL_VITALITY = BY_NAME["equal_vitality"].choices


@dataclass(frozen=True)
class Options:
    """The rules the rulebook leaves open, each with its default reading.

    Build one from text with `Options.parse("placement=close_up,target=40")`, or from a
    named edition with `Options.parse("", preset="gamepark")` (`readings.PRESETS`). Each
    option's readings in words, with the sentence it reads: `readings.READINGS`.
    """

    # "Then, in ascending order, each player places their Firecracker card from left to
    # right." fixed: the k-th card placed goes under the k-th slot of the row as it stood
    # at the reveal, even if an earlier slot exploded this turn. close_up: a taken body
    # leaves the row at once, so the k-th card goes under the k-th body still there (a
    # card with no body left goes to the discard pile).
    placement: str = "fixed"
    # Rocket: "place it last under any Dragon Body card." last: rockets are placed after
    # all other cards, by ascending lanterns. in_order: a rocket is placed at its own turn
    # in the power order (power 2) but under any body, taking no slot of the row.
    rocket_timing: str = "last"
    # May a rocket go under a slot whose body exploded this turn (it then waits for the
    # body drawn at step 3)? The rulebook says "under any Dragon Body card": default no.
    rocket_empty_slot: bool = False
    # Double Firecracker: "When you play this card, if the Vitality threshold is reached".
    # placer: doubles only when the Double is the card whose placement reaches the
    # vitality. under: a Double lying under the body (from any turn) doubles the points of
    # whoever takes it (once, however many Doubles lie there).
    double_when: str = "placer"
    # "Place this card face down in front of you to track the doubled points at the end
    # of the round." kept: a Double that doubled stays out of the deck until the round
    # ends. discard: it goes to the discard pile with the other cards.
    double_card: str = "kept"
    # String of Firecrackers: "draw 1 Firecracker card from the deck and add its value to
    # the total Power." slot: the drawn card stays under the same body. discard: it only
    # counts for this placement and then goes to the discard pile.
    string_card: str = "slot"
    # If the firecracker deck is empty when the String draws: True: shuffle the discard
    # pile into a new deck first, as in step 4. False: the String draws nothing. With
    # both piles empty the String adds nothing in either reading.
    string_reshuffle: bool = True
    # Step 4: "If the Firecracker deck is empty, shuffle the discard pile to form a new
    # deck." draw: when a draw finds the deck empty (step 4 or a String), so the cards
    # discarded in between join the new deck. empty: the deck is never empty while the
    # discard pile is not: the moment the deck runs out, or cards reach the discard pile
    # while it is empty, the discard pile is shuffled into the new deck.
    reshuffle_when: str = "draw"
    # Step 3: "Rearrange the cards in ascending order." slot: bodies of equal vitality
    # keep the order of their slots. row_first: bodies already in the row stay ahead of
    # newly drawn bodies of equal vitality. The rulebook's example ("4 first, shifting the
    # other cards, and 12 at the far right") fits both.
    equal_vitality: str = "slot"
    # "If there are not enough Dragon Body cards to fill the empty spaces, the round ends
    # immediately." short: the round ends only when the Dragon deck cannot fill the gaps.
    # empty: it also ends once step 3 leaves the Dragon deck empty ("If the Dragon deck
    # is empty, see End of Round").
    round_end: str = "short"
    # When the round ends mid-refill: False: no body is drawn (the round "ends
    # immediately"); True: the gaps are filled as far as the deck goes. Step 4 (draw) is
    # skipped in both readings. Only the last table of the round differs.
    partial_refill: bool = False
    # "Set up a new round following the initial setup." rebuild: both decks are rebuilt
    # from all cards and reshuffled, hands dealt afresh. continue: the Dragon deck is
    # rebuilt, but hands, firecracker deck and discard pile carry on (cards left under the
    # row and kept Doubles go to the discard pile), and hands are drawn up to the limit.
    new_round: str = "rebuild"
    # "In case of a tie, the player with the fewest Dragon Body cards wins." game: bodies
    # taken over the whole game. round: bodies held at the end of the last round.
    tiebreak: str = "game"
    # 2-Player Rules: "The hand limit is 4 cards." Setup says "Deal 3 Firecracker cards";
    # with two players we deal up to the hand limit (4) by default.
    two_player_deal: int = 4
    # Study knobs (not open points): the 13's extra hand card, and whether the 4 keeps
    # its printed -3 ("bad luck") or scores like the other small bodies (+3).
    thirteen_bonus: int = 1
    bad_luck: bool = True
    # "The game ends when a player reaches 50 points or more at the end of a round."
    target: int = 50
    # Safeguards, not rules: a round that reaches this many turns ends as if the Dragon
    # deck had run short; a game that reaches this many rounds ends.
    max_turns: int = 300
    max_rounds: int = 60

    _CHOICES = {
        "placement": PLACEMENTS,
        "rocket_timing": ROCKET_TIMINGS,
        "double_when": DOUBLE_WHEN,
        "double_card": DOUBLE_CARD,
        "string_card": STRING_CARD,
        "round_end": ROUND_END,
        "new_round": NEW_ROUND,
        "tiebreak": TIEBREAK,
        "reshuffle_when": RESHUFFLE_WHEN,
        "equal_vitality": EQUAL_VITALITY,
    }
    _RANGES = {
        "two_player_deal": (1, 10),
        "thirteen_bonus": (0, 5),
        "target": (1, 10_000),
        "max_turns": (1, 100_000),
        "max_rounds": (1, 100_000),
    }

    def __post_init__(self) -> None:
        for name, choices in self._CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise unknown(f"value of rule option {name}", str(value), choices)
        for name, (lo, hi) in self._RANGES.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                raise BadInput(
                    f"rule option {name} must be an integer in {lo}..{hi}, got {value!r}"
                )

    @classmethod
    def names(cls) -> list[str]:
        """Return the option names in declaration order."""
        return [f.name for f in dataclasses.fields(cls)]

    @classmethod
    def parse(cls, text: str | None, preset: str | None = None) -> Options:
        """Parse 'name=value,name=value' into Options; raise BadInput on any bad piece.

        With `preset` (a name in `readings.PRESETS`), its settings come first and `text`
        changes them.
        """
        if preset:
            if preset not in PRESETS:
                raise unknown("rule preset", preset, PRESETS)
            text = PRESETS[preset].text() + ("," + text if text else "")
        if not text:
            return cls()
        kwargs: dict[str, object] = {}
        defaults = cls()
        for piece in text.split(","):
            piece = piece.strip()
            if not piece:
                continue
            if "=" not in piece:
                raise BadInput(f"rule option {piece!r} must look like name=value")
            name, value = (s.strip() for s in piece.split("=", 1))
            if name not in cls.names():
                raise unknown("rule option", name, cls.names())
            current = getattr(defaults, name)
            if isinstance(current, bool):
                low = value.lower()
                if low not in ("true", "false", "1", "0", "yes", "no"):
                    raise BadInput(f"rule option {name} must be true or false, got {value!r}")
                kwargs[name] = low in ("true", "1", "yes")
            elif isinstance(current, int):
                try:
                    kwargs[name] = int(value)
                except ValueError:
                    raise BadInput(
                        f"rule option {name} must be an integer, got {value!r}"
                    ) from None
            else:
                kwargs[name] = value
        return cls(**kwargs)

    def changed(self) -> dict[str, object]:
        """Return the options that differ from the defaults."""
        base = Options()
        return {n: getattr(self, n) for n in self.names() if getattr(self, n) != getattr(base, n)}

    def describe(self) -> str:
        """Return 'default rules' or the changed options as name=value text."""
        diff = self.changed()
        return ",".join(f"{k}={v}" for k, v in diff.items()) or "default rules"


def options_from_rules(texts: Sequence[str], preset: str | None = None) -> Options:
    """Options from ``--rule NAME=VALUE`` texts, as `bombsolve dragon` reads them: the
    preset's settings first (`readings.PRESETS`), then each text; BadInput names a bad
    text, an option given twice, an unknown name (and the nearest)."""
    seen: set[str] = set()
    for text in texts:
        if "," in text:
            raise BadInput(f"--rule {text!r}: expected NAME=VALUE (one option per --rule)")
        name = text.partition("=")[0].strip().replace("-", "_")
        if name in seen:
            raise BadInput(f"rule option {name} given twice; expected it once")
        seen.add(name)
    return Options.parse(",".join(t.strip() for t in texts), preset)


def rules_of(options: Options) -> list[str]:
    """The ``--rule`` texts that rebuild `options`: its fields that differ from the default."""
    return changed_rules(options)


def _rule_samples() -> dict[str, tuple[object, ...]]:
    """Every choice of each choice and flag; the default and the lowest of each number."""
    samples: dict[str, tuple[object, ...]] = {}
    default = Options()
    for name in Options.names():
        value = getattr(default, name)
        if name in Options._CHOICES:
            samples[name] = tuple(Options._CHOICES[name])
        elif isinstance(value, bool):
            samples[name] = (False, True)
        else:
            samples[name] = (value, Options._RANGES[name][0])
    return samples


#: Values a test may set each option to (bombsolve.solvers.common.game, RULE_SAMPLES).
RULE_SAMPLES = _rule_samples()


# --- State ----------------------------------------------------------------------------


@dataclass
class Slot:
    """One position of the Bombing Zone: a Dragon Body (or -1 when taken) and its cards."""

    body: int
    cards: list[int] = field(default_factory=list)
    power: int = 0


#: The two kinds of decision: the face-down choice of step 1 ("Choose Firecracker Cards")
#: and the slot of a Rocket in step 2 ("place it last under any Dragon Body card").
PICK = "pick"
ROCKET = "rocket"


@dataclass(frozen=True)
class View:
    """What one player sees: own hand, the table, the discard pile, scores, pile sizes, and
    the decision pending (whose it is: `decision` names it only for the seat to move)."""

    player: int
    n_players: int
    picks: int
    hand: tuple[int, ...]
    row: tuple[tuple[int, tuple[int, ...], int], ...]
    discard: tuple[int, ...]
    kept: tuple[int, ...]
    scores: tuple[int, ...]
    round_points: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    dragon_size: int
    options: Options
    cards: Cards
    #: PICK or ROCKET when this player is to decide, "" otherwise.
    decision: str = ""
    #: The Rocket to place and the slots it may go under (a ROCKET decision).
    rocket: int = -1
    slots: tuple[int, ...] = ()
    #: This player's face-down choice of the turn, once made (step 1).
    chosen: tuple[int, ...] = ()
    #: The revealed cards not placed yet, as (card, player) in placement order (step 2).
    revealed: tuple[tuple[int, int], ...] = ()
    round: int = 0
    turn: int = 0

    def unseen(self) -> list[int]:
        """Return the firecrackers this player cannot see (others' hands and the deck)."""
        seen = set(self.hand) | set(self.discard) | set(self.kept)
        for _, under, _ in self.row:
            seen.update(under)
        return [c for c in range(len(self.cards.firecrackers)) if c not in seen]


# --- Actions --------------------------------------------------------------------------
#
# Every decision is one int, in three ranges that never overlap (F firecrackers, 45):
#   [0, F)                  choose one card: its id (one card a turn, or the last card
#                           of a two-player hand)
#   [F, F + F(F-1)/2)       choose two cards a < b (2-Player Rules): F + b(b-1)/2 + a,
#                           the combination's colex index
#   [F + F(F-1)/2, ... + 6) a Rocket's slot s: F + F(F-1)/2 + s


def pick_action(cards: Sequence[int], n_fire: int) -> int:
    """Return the action of choosing `cards` (one or two firecracker ids)."""
    if len(cards) == 1:
        return cards[0]
    a, b = sorted(cards)
    return n_fire + b * (b - 1) // 2 + a


def rocket_base(n_fire: int) -> int:
    """Return the first Rocket-slot action."""
    return n_fire + n_fire * (n_fire - 1) // 2


def rocket_action(slot: int, n_fire: int) -> int:
    """Return the action of placing the pending Rocket under `slot`."""
    return rocket_base(n_fire) + slot


def pick_cards(action: int, n_fire: int) -> list[int]:
    """Return the cards a pick action chooses (two cards in ascending ids)."""
    if action < n_fire:
        return [action]
    i = action - n_fire
    b = 1
    while (b + 1) * b // 2 <= i:
        b += 1
    return [i - b * (b - 1) // 2, b]


class Agent(Protocol):
    """Who chooses for a seat: `act(view, legal, rng)` returns one of `legal`; the view
    says which decision is pending (`View.decision`)."""

    name: str

    def act(self, view: View, legal: list[int], rng: SplitMix64) -> int:
        """Return one of `legal`."""
        ...


class GameState:
    """A game of Bomb the Dragon in progress (rulebook "Setup" to "End of Game")."""

    def __init__(
        self,
        n_players: int,
        seed: int,
        options: Options | None = None,
        cards: Cards | None = None,
        record: bool = True,
    ) -> None:
        if not isinstance(n_players, int) or not 2 <= n_players <= 6:
            raise BadInput(f"player count must be 2 to 6, got {n_players!r}")
        self.n = n_players
        self.options = options or Options()
        self.cards = cards or load_cards()
        self.seed = seed
        self.rng = SplitMix64(derive_seed(seed, 0))
        two = n_players == 2
        # "2-Player Rules": 4 bodies, hand limit 4, two cards per turn.
        self.n_slots = 4 if two else n_players
        self.base_limit = 4 if two else 3
        self.picks = 2 if two else 1
        self.deal = self.options.two_player_deal if two else 3
        n = n_players
        self.scores = [0] * n
        self.bodies_game = [0] * n
        self.round_points = [0] * n
        self.bodies_round = [0] * n
        self.bonus = [0] * n
        # round, turn, player, body, doubled, the card that took it
        self.captures: list[tuple[int, int, int, int, bool, int]] = []
        self.plays = [0] * len(self.cards.firecrackers)  # times each card was played
        self.kept: list[list[int]] = [[] for _ in range(n)]
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.dragon: list[int] = []
        self.row: list[Slot] = []
        self.round = 0
        self.turn = 0
        self.turns_total = 0
        self.over = False
        self.stalled_rounds = 0
        self.reshuffles = 0  # times the discard pile became the new deck
        self.log: list[str] = []
        self.record = record  # keep the turn-by-turn text log (replay); off for speed
        # The decision pending: PICK or ROCKET of seat `seat`, "" once the game is over.
        self.decision = ""
        self.seat = -1
        self.choices: list[list[int]] = []  # step 1: the face-down choices made so far
        self.queue: list[tuple[int, int]] = []  # step 2: (card, player) in placement order
        self.queue_at = 0  # the next entry of `queue` to place
        self.placed = 0  # non-Rocket cards placed this turn: the next slot from the left
        self.rocket = -1  # the Rocket waiting for its slot, and the slots it may take
        self.rocket_choices: list[int] = []
        self.setup_round()
        self.begin_turn()

    # -- helpers --
    def fc(self, card: int):
        """Return the Firecracker with this id."""
        return self.cards.firecrackers[card]

    def body(self, body: int):
        """Return the Body with this id."""
        return self.cards.bodies[body]

    def body_points(self, body: int) -> int:
        """Return the victory points of a body (the 4's -3 unless `bad_luck` is off)."""
        b = self.body(body)
        if b.special == "bad_luck" and not self.options.bad_luck:
            return -b.points
        return b.points

    def hand_limit(self, player: int) -> int:
        """Return the hand limit: 3 (4 with two players), +1 for the 13 this round."""
        return self.base_limit + self.bonus[player]

    def draw_firecracker(self) -> int:
        """Draw the top firecracker; reshuffle the discard pile first if the deck is empty.

        Returns -1 when both the deck and the discard pile are empty.
        """
        if not self.deck:
            if not self.discard:
                return -1
            # "If the Firecracker deck is empty, shuffle the discard pile to form a new deck."
            self.deck = self.discard
            self.discard = []
            self.reshuffles += 1
            self.rng.shuffle(self.deck)
        card = self.deck.pop()
        self.keep_deck()
        return card

    def keep_deck(self) -> None:
        """With `reshuffle_when=empty`, shuffle the discard pile into a new deck as soon as
        the deck is empty and the discard pile is not (called after every draw and every
        group of cards discarded together)."""
        if self.options.reshuffle_when == "empty" and not self.deck and self.discard:
            self.deck = self.discard
            self.discard = []
            self.reshuffles += 1
            self.rng.shuffle(self.deck)

    def view(self, player: int) -> View:
        """Return what `player` sees."""
        return View(
            player=player,
            n_players=self.n,
            picks=min(self.picks, len(self.hands[player])),
            hand=tuple(self.hands[player]),
            row=tuple((s.body, tuple(s.cards), s.power) for s in self.row),
            discard=tuple(self.discard),
            kept=tuple(c for k in self.kept for c in k),
            scores=tuple(self.scores),
            round_points=tuple(self.round_points),
            hand_sizes=tuple(len(h) for h in self.hands),
            deck_size=len(self.deck),
            dragon_size=len(self.dragon),
            options=self.options,
            cards=self.cards,
            decision=self.decision if player == self.seat else "",
            rocket=self.rocket if player == self.seat and self.decision == ROCKET else -1,
            slots=tuple(self.rocket_choices)
            if player == self.seat and self.decision == ROCKET
            else (),
            chosen=tuple(self.choices[player]) if player < len(self.choices) else (),
            revealed=tuple(self.queue[self.queue_at :]) if self.decision == ROCKET else (),
            round=self.round,
            turn=self.turn,
        )

    def row_text(self) -> str:
        """Return the row as text: each body with the power under it."""
        parts = []
        for s in self.row:
            name = str(self.body(s.body)) if s.body >= 0 else "[  --  ]"
            under = " ".join(str(self.fc(c)) for c in s.cards)
            parts.append(f"{name} {s.power}" + (f" ({under})" if under else ""))
        return " | ".join(parts)

    # -- Setup --
    def setup_round(self) -> None:
        """Set up a round: shuffle both decks, lay out the bodies in ascending order, deal.

        Rulebook "Setup"; a new round follows it again ("End of Round"), as read by
        `Options.new_round`.
        """
        self.round += 1
        self.turn = 0
        n_fire = len(self.cards.firecrackers)
        if self.round == 1 or self.options.new_round == "rebuild":
            self.deck = list(range(n_fire))
            self.discard = []
            self.hands = [[] for _ in range(self.n)]
            self.rng.shuffle(self.deck)
        else:
            for s in self.row:
                self.discard.extend(s.cards)
            for k in self.kept:
                self.discard.extend(k)
            self.keep_deck()
        self.kept = [[] for _ in range(self.n)]
        self.dragon = list(range(len(self.cards.bodies)))
        self.rng.shuffle(self.dragon)
        self.row = [Slot(self.dragon.pop()) for _ in range(self.n_slots)]
        self.sort_row()
        self.round_points = [0] * self.n
        self.bodies_round = [0] * self.n
        self.bonus = [0] * self.n
        if self.record:
            self.log.append(f"round {self.round}: {self.row_text()}")
        if self.round == 1 or self.options.new_round == "rebuild":
            for p in range(self.n):
                for _ in range(self.deal):
                    card = self.draw_firecracker()
                    if card >= 0:
                        self.hands[p].append(card)
        else:
            self.draw_cards()

    def sort_row(self, drawn: Sequence[int] = ()) -> None:
        """Rearrange the bodies in ascending vitality; cards move with their body.

        `drawn` lists the slots just filled from the Dragon deck. The sort is stable:
        equal vitalities keep their places, except that with `equal_vitality=row_first`
        the bodies already in the row go ahead of the drawn ones. Empty slots go last.
        """
        late = set(drawn) if self.options.equal_vitality == "row_first" else set()
        keys = {
            id(s): (self.body(s.body).vitality if s.body >= 0 else 10**9, i in late)
            for i, s in enumerate(self.row)
        }
        self.row.sort(key=lambda s: keys[id(s)])

    # -- a turn, one decision at a time --
    def begin_turn(self) -> None:
        """Start a turn: step 1 asks each player, in seat order, for their face-down choice."""
        self.turn += 1
        self.turns_total += 1
        if self.record:
            self.log.append(f" turn {self.round}.{self.turn}: {self.row_text()}")
            self.log.append(
                "  hands: "
                + "; ".join(
                    f"p{p + 1} " + " ".join(str(self.fc(c)) for c in h)
                    for p, h in enumerate(self.hands)
                )
            )
        self.choices = []
        self.queue, self.queue_at, self.placed = [], 0, 0
        self.ask_next_choice()

    def ask_next_choice(self) -> None:
        """Step 1: ask the next seat for its choice; once all have chosen, reveal them.

        The choices are simultaneous (face down): each seat is asked in seat order, and a
        view never shows another seat's choice before the reveal. A seat with an empty
        hand plays nothing."""
        while len(self.choices) < self.n:
            p = len(self.choices)
            if min(self.picks, len(self.hands[p])) > 0:
                self.decision, self.seat = PICK, p
                return
            self.choices.append([])
        self.reveal()

    def reveal(self) -> None:
        """Step 1: "reveal them simultaneously"; then step 2 places them."""
        for picked in self.choices:
            for c in picked:
                self.plays[c] += 1
        if self.record:
            self.log.append(
                "  played: "
                + ", ".join(
                    f"p{p + 1} {' '.join(str(self.fc(c)) for c in self.choices[p])}"
                    for p in range(self.n)
                )
            )
        self.queue, self.queue_at, self.placed = self.placement_order(self.choices), 0, 0
        if self.place_on():
            self.end_turn()

    def placement_order(self, choices: list[list[int]]) -> list[tuple[int, int]]:
        """Return (card, player) in placement order: lowest power first, fewer lanterns on
        ties; with `rocket_timing=last`, Rockets after all others, by ascending lanterns."""
        played = [(c, p) for p in range(self.n) for c in choices[p]]
        played.sort(key=lambda cp: self.fc(cp[0]).order)
        if self.options.rocket_timing == "last":
            played = [x for x in played if self.fc(x[0]).special != "rocket"] + [
                x for x in played if self.fc(x[0]).special == "rocket"
            ]
        return played

    def rocket_slots(self) -> list[int]:
        """Return the slots a Rocket may go under now (bodies present, or any slot)."""
        if self.options.rocket_empty_slot:
            return list(range(len(self.row)))
        return [i for i, s in enumerate(self.row) if s.body >= 0]

    def place_on(self, rocket: Callable[[int, int, list[int]], int] | None = None) -> bool:
        """Step 2: place the revealed cards from the left, summing power as each is placed.

        A card that brings its slot to the body's vitality or more takes the body for its
        player; the cards under it go to the discard pile (rulebook step 2, specials).
        A Rocket's slot is the player's decision: `rocket(player, card, slots)` gives it,
        or without `rocket` the placement stops there (False) until `advance` gets it.
        Returns True once every card is placed.
        """
        while self.queue_at < len(self.queue):
            card, player = self.queue[self.queue_at]
            self.queue_at += 1
            self.hands[player].remove(card)
            fc = self.fc(card)
            if fc.special == "rocket":
                slots = self.rocket_slots()
                if not slots:
                    self.discard.append(card)
                    self.keep_deck()
                    if self.record:
                        self.log.append(f"  p{player + 1} {fc}: no body left, discarded")
                    continue
                if rocket is None:
                    self.decision, self.seat = ROCKET, player
                    self.rocket, self.rocket_choices = card, slots
                    return False
                target = rocket(player, card, slots)
                if target not in slots:
                    raise IllegalAction(f"a Rocket sent to slot {target}; expected one of {slots}")
            else:
                target = self.slot_for(self.placed)
                self.placed += 1
                if target < 0:
                    self.discard.append(card)
                    self.keep_deck()
                    if self.record:
                        self.log.append(f"  p{player + 1} {fc}: no body left, discarded")
                    continue
            self.put(card, player, target)
        return True

    def place(self, choices: list[list[int]], rocket: Callable[[int, int, list[int]], int]) -> None:
        """Step 2 at once, for revealed `choices` (one list per seat), each Rocket's slot
        from `rocket(player, card, slots)`: positions built card by card, and the turns a
        strategy imagines."""
        self.queue, self.queue_at, self.placed = self.placement_order(choices), 0, 0
        self.place_on(rocket)

    def slot_for(self, k: int) -> int:
        """Return the slot of the k-th non-Rocket card (see `Options.placement`), or -1."""
        if self.options.placement == "fixed":
            return k if k < len(self.row) else -1
        present = [i for i, s in enumerate(self.row) if s.body >= 0]
        return present[k] if k < len(present) else -1

    def put(self, card: int, player: int, target: int) -> None:
        """Put one card under slot `target`, apply its special, take the body if reached."""
        slot = self.row[target]
        fc = self.fc(card)
        slot.cards.append(card)
        slot.power += fc.power
        note = ""
        extra = 0
        drawn = -1
        if fc.special == "string":
            # "draw 1 Firecracker card from the deck and add its value to the total Power.
            # If the drawn card is a Special Firecracker card, its effect is ignored."
            if self.deck or self.options.string_reshuffle:
                drawn = self.draw_firecracker()
            if drawn >= 0:
                note = f" draws {self.fc(drawn)}"
                if self.options.string_card == "slot":
                    slot.cards.append(drawn)
                    slot.power += self.fc(drawn).power
                else:
                    extra = self.fc(drawn).power
            else:
                note = " draws nothing"
        total = slot.power + extra
        if extra:
            self.discard.append(drawn)
            self.keep_deck()
        if slot.body < 0:
            if self.record:
                self.log.append(
                    f"  p{player + 1} {fc}{note} -> empty slot {target}, waits ({total})"
                )
            return
        body = self.body(slot.body)
        if total < body.vitality:
            if self.record:
                self.log.append(f"  p{player + 1} {fc}{note} -> {body}: {total} < {body.vitality}")
            return
        doubles = [c for c in slot.cards if self.fc(c).special == "double"]
        if self.options.double_when == "placer":
            doubled = fc.special == "double"
            triggers = [card] if doubled else []
        else:
            doubled = bool(doubles)
            triggers = doubles
        points = self.body_points(slot.body) * (2 if doubled else 1)
        self.round_points[player] += points
        self.bodies_round[player] += 1
        self.bodies_game[player] += 1
        if body.special == "hand_limit":
            self.bonus[player] += self.options.thirteen_bonus
        self.captures.append((self.round, self.turn, player, slot.body, doubled, card))
        for c in slot.cards:
            if c in triggers and self.options.double_card == "kept":
                self.kept[player].append(c)
            else:
                self.discard.append(c)
        self.keep_deck()
        if self.record:
            self.log.append(
                f"  p{player + 1} {fc}{note} -> {body}: {total} >= {body.vitality}, takes it "
                f"for {points:+d}" + (" (doubled)" if doubled else "")
            )
        slot.body = -1
        slot.cards = []
        slot.power = 0

    def complete_dragon(self) -> bool:
        """Step 3: fill the empty slots from the Dragon deck and re-sort the row.

        Returns False when the round ends here ("If there are not enough Dragon Body
        cards to fill the empty spaces, the round ends immediately", `Options.round_end`).
        """
        gaps = [i for i, s in enumerate(self.row) if s.body < 0]
        if len(gaps) > len(self.dragon):
            if self.options.partial_refill:
                for i in gaps[: len(self.dragon)]:
                    self.row[i].body = self.dragon.pop()
                self.sort_row(gaps)
            return False
        for i in gaps:
            self.row[i].body = self.dragon.pop()
        self.sort_row(gaps)
        if self.options.round_end == "empty" and not self.dragon:
            return False
        return True

    def draw_cards(self) -> None:
        """Step 4: each player, in seat order, draws up to the hand limit."""
        for p in range(self.n):
            while len(self.hands[p]) < self.hand_limit(p):
                card = self.draw_firecracker()
                if card < 0:
                    break
                self.hands[p].append(card)

    def end_round(self) -> None:
        """End of Round: record the round's points; the game ends at the target."""
        for p in range(self.n):
            self.scores[p] += self.round_points[p]
        if self.record:
            self.log.append(
                f"end of round {self.round}: round {self.round_points} totals {self.scores}"
            )
        if max(self.scores) >= self.options.target or self.round >= self.options.max_rounds:
            self.over = True
            if self.record:
                self.log.append(
                    "game over: winner(s) " + ", ".join(f"p{w + 1}" for w in self.winners())
                )
        else:
            self.setup_round()

    def end_turn(self) -> None:
        """Steps 3 and 4 (or the end of the round), then the next turn unless the game ended."""
        self.decision, self.seat = "", -1
        self.rocket, self.rocket_choices = -1, []
        if not self.complete_dragon():
            self.end_round()
        elif self.turn >= self.options.max_turns:
            self.stalled_rounds += 1
            if self.record:
                self.log.append("  safeguard: the round reached max_turns")
            self.end_round()
        else:
            self.draw_cards()
        if not self.over:
            self.begin_turn()

    def legal_actions(self) -> list[int]:
        """Return the actions of the decision pending, in increasing order (see "Actions")."""
        n_fire = len(self.cards.firecrackers)
        if self.decision == PICK:
            hand = sorted(self.hands[self.seat])
            if min(self.picks, len(hand)) == 1:
                return hand
            return sorted(
                pick_action([a, b], n_fire) for i, a in enumerate(hand) for b in hand[i + 1 :]
            )
        if self.decision == ROCKET:
            return [rocket_action(s, n_fire) for s in self.rocket_choices]
        return []

    def advance(self, action: int) -> None:
        """Take `action` for the seat to move, then run the rules on to the next decision
        (or the end of the game). Raises IllegalAction for an action not legal here."""
        if action not in self.legal_actions():
            raise IllegalAction(
                f"action {action!r} is not legal here; expected one of {self.legal_actions()}"
            )
        self.take(action)

    def take(self, action: int) -> None:
        """`advance` for an action known to be legal."""
        n_fire = len(self.cards.firecrackers)
        if self.decision == PICK:
            picked = sorted(pick_cards(action, n_fire), key=lambda c: self.fc(c).order)
            self.choices.append(picked)
            self.ask_next_choice()
            return
        card, player = self.rocket, self.seat
        self.rocket, self.rocket_choices = -1, []
        self.put(card, player, action - rocket_base(n_fire))
        if self.place_on():
            self.end_turn()

    def play_turn(self, agents: Sequence[Agent], agent_rngs: Sequence[SplitMix64]) -> None:
        """Play the decisions of this turn with these agents (one per seat, each with its
        own generator), up to the next turn or the end of the game."""
        turn = self.turns_total
        while not self.over and self.turns_total == turn:
            p = self.seat
            legal = self.legal_actions()
            action = agents[p].act(self.view(p), legal, agent_rngs[p])
            if action not in legal:
                raise IllegalAction(
                    f"agent {agents[p].name} chose {action!r}; expected one of {legal}"
                )
            self.take(action)

    def copy(self) -> GameState:
        """Return an independent copy (the cards and options, immutable, are shared)."""
        other = GameState.__new__(GameState)
        for name, value in self.__dict__.items():
            if isinstance(value, list):
                value = [
                    Slot(x.body, list(x.cards), x.power)
                    if isinstance(x, Slot)
                    else list(x)
                    if isinstance(x, list)
                    else x
                    for x in value
                ]
            elif isinstance(value, SplitMix64):
                value = SplitMix64(value.state)
            other.__dict__[name] = value
        return other

    def winners(self) -> list[int]:
        """Return the winning seats: highest total, then fewest bodies; ties share."""
        best = max(self.scores)
        tied = [p for p in range(self.n) if self.scores[p] == best]
        count = self.bodies_game if self.options.tiebreak == "game" else self.bodies_round
        fewest = min(count[p] for p in tied)
        return [p for p in tied if count[p] == fewest]

    def check(self) -> None:
        """Assert the card conservation invariant: every firecracker is in exactly one place."""
        places = list(self.deck) + list(self.discard)
        for h in self.hands:
            places += h
        for k in self.kept:
            places += k
        for s in self.row:
            places += s.cards
        assert sorted(places) == list(range(len(self.cards.firecrackers))), "card lost or doubled"
        for s in self.row:
            assert s.power == sum(self.fc(c).power for c in s.cards) or (
                self.options.string_card == "discard"
            )


def play_game(
    n_players: int,
    agents: Sequence[Agent],
    seed: int,
    options: Options | None = None,
    cards: Cards | None = None,
    on_turn: Callable[[GameState], None] | None = None,
    record: bool = False,
) -> GameState:
    """Play one whole game with these agents (one per seat) and return the final state.

    Decision by decision (`play_turn`): seat p's agent acts with stream p + 1 of `seed`.
    `on_turn(state)` is called after each turn, the next turn's first decision pending.
    With `record`, `state.log` holds the game turn by turn (as `bombsolve dragon replay`;
    each seat's face-down choice is listed in placement order).
    """
    if len(agents) != n_players:
        raise BadInput(f"need {n_players} strategies (one per player), got {len(agents)}")
    state = GameState(n_players, seed, options, cards, record=record)
    rngs = [SplitMix64(derive_seed(seed, p + 1)) for p in range(n_players)]
    while not state.over:
        state.play_turn(agents, rngs)
        if on_turn is not None:
            on_turn(state)
    return state

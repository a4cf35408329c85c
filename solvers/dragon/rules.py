"""Bomb the Dragon: the plain-Python reference engine (rulebook shared/rules/bomb-the-dragon.txt).

The engine reads like the rulebook, section by section: `setup_round` ("Setup"),
`play_turn` with its four steps `choose` (1. Choose Firecracker Cards), `place`
(2. Place Firecracker Cards), `complete_dragon` (3. Complete the Dragon) and
`draw_cards` (4. Draw Cards), then `end_round` ("End of Round") and `winners`
("End of Game"). The two-player rules change the row length, the hand limit and the
number of cards each player plays per turn.

Every point the rulebook leaves open (shared/data/dragon-bomb.md, "Points the rulebook
leaves open") is one field of `Options`, with a default and a comment quoting the
sentence it reads. The Numba kernel (`kernel.py`) implements the same rules and is
tested against this file game by game.

Chance goes through `Rng`, a splitmix64 stream that the kernel reproduces bit for bit,
so one seed gives the same game in both engines:

>>> from solvers.dragon.agents import make_agents
>>> game = play_game(4, make_agents(["random"] * 4), seed=7)
>>> game.over, len(game.scores)
(True, 4)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from solvers.common.errors import BadInput, unknown
from solvers.dragon.cards import Cards, load_cards
from solvers.dragon.readings import BY_NAME, PRESETS

MASK = (1 << 64) - 1


def splitmix64(x: int) -> tuple[int, int]:
    """Advance a splitmix64 state; return (new_state, output). Same as kernel._next (the
    state step) and kernel._mix (the output), which kernel._derive also uses."""
    x = (x + 0x9E3779B97F4A7C15) & MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return x, z ^ (z >> 31)


def derive_seed(seed: int, stream: int) -> int:
    """Return the seed of one independent stream: 0 is chance, p + 1 is seat p's agent."""
    _, a = splitmix64((seed & MASK) ^ ((stream * 0xD1B54A32D192ED03) & MASK))
    _, b = splitmix64(a)
    return b


class Rng:
    """A splitmix64 random stream with exactly uniform bounded draws (rejection sampling)."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def next(self) -> int:
        """Return the next 64-bit output."""
        self.state, out = splitmix64(self.state)
        return out

    def below(self, n: int) -> int:
        """Return a uniform integer in [0, n) for 1 <= n < 2**32.

        Lemire's multiply-and-reject on the top 32 bits of each output: exact uniformity,
        and almost never a division (the kernel does the same).
        """
        if not 0 < n < (1 << 32):
            raise ValueError("below(n) needs 1 <= n < 2**32")
        m = (self.next() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32

    def shuffle(self, items: list) -> None:
        """Shuffle in place (Fisher-Yates from the end, as the kernel does)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


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


# --- State ----------------------------------------------------------------------------


@dataclass
class Slot:
    """One position of the Bombing Zone: a Dragon Body (or -1 when taken) and its cards."""

    body: int
    cards: list[int] = field(default_factory=list)
    power: int = 0


@dataclass(frozen=True)
class View:
    """What one player sees: own hand, the table, the discard pile, scores, pile sizes."""

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

    def unseen(self) -> list[int]:
        """Return the firecrackers this player cannot see (others' hands and the deck)."""
        seen = set(self.hand) | set(self.discard) | set(self.kept)
        for _, under, _ in self.row:
            seen.update(under)
        return [c for c in range(len(self.cards.firecrackers)) if c not in seen]


class Agent(Protocol):
    """Who chooses: the cards to play, and where a Rocket goes."""

    name: str

    def choose(self, view: View, rng: Rng) -> list[int]:
        """Return the firecracker ids to play (view.picks of them, from view.hand)."""
        ...

    def rocket(self, view: View, card: int, slots: list[int], rng: Rng) -> int:
        """Return one of `slots`: the slot index the Rocket `card` goes under."""
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
        self.rng = Rng(derive_seed(seed, 0))
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
        self.setup_round()

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

    # -- a turn --
    def choose(self, agents: Sequence[Agent], agent_rngs: Sequence[Rng]) -> list[list[int]]:
        """Step 1: every player picks card(s) face down; all are revealed together."""
        choices = []
        for p in range(self.n):
            view = self.view(p)
            picked = list(agents[p].choose(view, agent_rngs[p]))
            if len(picked) != view.picks or len(set(picked)) != len(picked):
                raise ValueError(f"agent {agents[p].name} chose {picked}, needs {view.picks}")
            for c in picked:
                if c not in self.hands[p]:
                    raise ValueError(f"agent {agents[p].name} chose card {c} not in its hand")
            choices.append(picked)
            for c in picked:
                self.plays[c] += 1
        if self.record:
            self.log.append(
                "  played: "
                + ", ".join(
                    f"p{p + 1} {' '.join(str(self.fc(c)) for c in choices[p])}"
                    for p in range(self.n)
                )
            )
        return choices

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

    def place(
        self, choices: list[list[int]], agents: Sequence[Agent], agent_rngs: Sequence[Rng]
    ) -> None:
        """Step 2: place the revealed cards from the left, summing power as each is placed.

        A card that brings its slot to the body's vitality or more takes the body for its
        player; the cards under it go to the discard pile (rulebook step 2, specials).
        """
        k = 0  # how many non-Rocket cards have been placed: the next slot from the left
        for card, player in self.placement_order(choices):
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
                target = agents[player].rocket(self.view(player), card, slots, agent_rngs[player])
                if target not in slots:
                    raise ValueError(f"agent {agents[player].name} sent a rocket to {target}")
            else:
                target = self.slot_for(k)
                k += 1
                if target < 0:
                    self.discard.append(card)
                    self.keep_deck()
                    if self.record:
                        self.log.append(f"  p{player + 1} {fc}: no body left, discarded")
                    continue
            self.put(card, player, target)

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

    def play_turn(self, agents: Sequence[Agent], agent_rngs: Sequence[Rng]) -> None:
        """Play one turn: choose, place, complete the dragon, draw (or end the round)."""
        self.turn += 1
        self.turns_total += 1
        if self.record:
            self.log.append(f" turn {self.round}.{self.turn}: {self.row_text()}")
        if self.record:
            self.log.append(
                "  hands: "
                + "; ".join(
                    f"p{p + 1} " + " ".join(str(self.fc(c)) for c in h)
                    for p, h in enumerate(self.hands)
                )
            )
        choices = self.choose(agents, agent_rngs)
        self.place(choices, agents, agent_rngs)
        if not self.complete_dragon():
            self.end_round()
            return
        if self.turn >= self.options.max_turns:
            self.stalled_rounds += 1
            if self.record:
                self.log.append("  safeguard: the round reached max_turns")
            self.end_round()
            return
        self.draw_cards()

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

    With `record`, `state.log` holds the game turn by turn (as `bombsolve dragon replay`).
    """
    if len(agents) != n_players:
        raise BadInput(f"need {n_players} strategies (one per player), got {len(agents)}")
    state = GameState(n_players, seed, options, cards, record=record)
    rngs = [Rng(derive_seed(seed, p + 1)) for p in range(n_players)]
    while not state.over:
        state.play_turn(agents, rngs)
        if on_turn is not None:
            on_turn(state)
    return state

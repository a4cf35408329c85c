"""Heuristic players for the skill gap: what a person might manage.

All play through the reference engine (`rules.State`) and see what a player at the table
sees: All Is Bomb is open information (rulebook B: "You can examine the DECK anytime").

- ``lookahead`` (`LookaheadPlayer`, `play_lookahead`): what a careful player might do. It
  looks a few turns ahead (default `Budget`: up to 4 turns, at most 250 positions
  expanded per move), plays a winning move at once, and otherwise picks the move leading
  to the best position it can reach on `lookahead_score`: enough EQUIPPED CARDS and a
  long enough DECK, the first PROPHECY by a PROPHET whose dish can still win, the DESIRED
  DISH ignited and in the DECK near the ignited PRINCESS's draw, each expansion's extra
  condition, cards the win needs kept out of the DISCARD PILE, and no position repeated.
  Its `Weights` were tuned on seeds 100000 and up, never on a study's deals.

- ``random``: a uniformly random legal move each turn (whole turns, `State.legal_moves`).
- ``greedy``: a one-turn lookahead. It plays a winning move when there is one, never a
  move that loses at once when another exists, and otherwise takes the move whose
  resulting position scores best on `greedy_score` (fewer unmet win conditions, the
  prophecy made, the DESIRED DISH and the PRINCESS ignited and not discarded, a longer
  DECK), avoiding positions it has already been in this game. Ties go to the first move.

A game that reaches `TURN_CAP` turns is counted as lost (it cycles).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bombsolve.solvers.allisbomb.cards.cards import CardSet
from bombsolve.solvers.allisbomb.rules.rules import (
    DECK,
    DISCARD,
    EQUIP0,
    EQUIP1,
    OUT,
    Outcome,
    State,
)

#: Turns after which a heuristic game counts as lost (a deal is decided far sooner by
#: perfect play: see the solution lengths in the sweep).
TURN_CAP = 200
PLAYERS = ("lookahead", "greedy", "random")


def greedy_score(s: State) -> float:
    """Score a position for the greedy player (higher is better)."""
    if s.outcome is Outcome.WIN:
        return 1e9
    if s.outcome is Outcome.LOSS:
        return -1e9
    names = s.cards.names
    princess = [c for c in range(len(names)) if names[c] == "PRINCESS" and s.zone[c] != OUT]
    score = float(len(s.deck))
    # Running out of EQUIPPED CARDS loses at once (rulebook E), so hand size matters most.
    hand = sum(len(s.equipped(p)) for p in range(s.config.players))
    score += 60.0 * min(hand, 4)
    key_names = ("PRINCESS", "KING") if s.desired >= 0 else ("PRINCESS", "KING", "PROPHET")
    for c in s.discard:
        if names[c] in key_names or c == s.desired or "BREAKFAST" in s.cards.cards[c].classes:
            score -= 30.0
    if princess:
        p = princess[0]
        score -= 100.0 * len(s.unmet_conditions(p, True))
        score += 25.0 if s.ignited[p] else 0.0
        score -= 80.0 if s.zone[p] == DISCARD else 0.0
    else:
        score -= 500.0
    if s.desired >= 0:
        score += 40.0
        if s.ignited[s.desired] and not s.config.waking_up:
            score += 20.0
    return score


def greedy_choice(s: State, seen: set[tuple]) -> tuple[int, State]:
    """The greedy player's move in `s`: its index in `State.legal_moves()` order and the
    position it leads to (`s` unchanged). Positions in `seen` (this game's, by `State.key`)
    are marked down; ties go to the first move."""
    best, best_score = (-1, s), -np.inf
    for k, (_move, child) in enumerate(s.children()):
        score = greedy_score(child) - (1e6 if child.key() in seen else 0.0)
        if score > best_score:
            best, best_score = (k, child), score
    return best


def play_greedy(state: State, turn_cap: int = TURN_CAP) -> bool:
    """Play `state` to its end with the greedy policy; return True for a win."""
    seen = {state.key()}
    s = state
    while not s.is_over() and s.turn < turn_cap:
        _k, s = greedy_choice(s, seen)
        seen.add(s.key())
    return s.outcome is Outcome.WIN


def play_random(state: State, rng: np.random.Generator, turn_cap: int = TURN_CAP) -> bool:
    """Play `state` to its end with uniformly random legal moves; return True for a win."""
    s = state
    while not s.is_over() and s.turn < turn_cap:
        children = s.children()
        s = children[int(rng.integers(len(children)))][1]
    return s.outcome is Outcome.WIN


# --- the lookahead player --------------------------------------------------------------------


@dataclass(frozen=True)
class Budget:
    """How much the lookahead player thinks per move.

    depth: turns looked ahead (the move itself counts as the first); positions: at most
    this many positions expanded (`State.children()` calls) per move. The search deepens
    one turn at a time (1, 2, ... `depth`) and keeps the deepest search that finished
    within `positions`, so a move never costs more than `positions` expansions.
    """

    depth: int = 4
    positions: int = 250

    def describe(self) -> str:
        """The budget in words (for study parameters and captions)."""
        return f"lookahead: up to {self.depth} turns, at most {self.positions} positions per move"


DEFAULT_BUDGET = Budget()


@dataclass(frozen=True)
class Weights:
    """The lookahead player's evaluation weights (points; see `lookahead_score`).

    Tuned on deals of seeds 100000.. (never a study's, nor the held-out seeds 200000.. of
    `scripts/results/allisbomb_players.py`): starting from hand-set values, two rounds of trying
    each weight at half and double, keeping a change when the lookahead player (default
    budget) won more of 150 base, 60 Blitz, 40 THE JUICE and 40 WAKING UP deals (84 -> 103
    of 290 wins).
    """

    hand: float = 160.0  # per EQUIPPED CARD, up to `hand_cap` (no card to play loses, E)
    hand_cap: int = 3
    deck: float = 8.0  # per DECK card, up to 8 (a short DECK loses to a high NUMBER, D.2)
    short_deck: float = 60.0  # the DECK holds fewer cards than the largest NUMBER in hand
    drainer: float = 20.0  # per EQUIPPED CARD whose action must discard an EQUIPPED CARD
    discarded: float = 6.0  # per card in the DISCARD PILE that no win condition wants there
    prophecy: float = 75.0  # the first PROPHECY is made (E.1)
    prophet_ignited: float = 90.0  # an ignited PROPHET of a dish that can still win ...
    prophet_equipped: float = 50.0  # ... and it is EQUIPPED, ready to be played
    options: float = 10.0  # per (PROPHET, dish) pair that can still make a winning PROPHECY
    dish_ignited: float = 35.0  # the DESIRED DISH (or, before the prophecy, a dish) ignited
    dish_in_deck: float = 30.0  # the ignited DESIRED DISH is in the DECK (E.2)
    dish_near: float = 25.0  # ... within reach of the ignited PRINCESS's draw
    princess_ignited: float = 30.0
    princess_equipped: float = 50.0  # the ignited PRINCESS is EQUIPPED (E.3)
    lost: float = 400.0  # a card the win needs is in the DISCARD PILE (recall is rare)
    dead: float = 5000.0  # the win is out of reach for good (wrong prophecy, card out of play)
    expansion: float = 80.0  # per additional win condition met (G), partial credit below
    repeat: float = 1e6  # a position this game has already been in (avoid cycles)


DEFAULT_WEIGHTS = Weights()
_WIN = 1e9


@dataclass(frozen=True)
class _Facts:
    """What the evaluation needs to know about a card set (found from the card data)."""

    princesses: tuple[int, ...]
    reach: int  # NUMBER of the ignited PRINCESS: the DESIRED DISH is equipped from there
    prophets: tuple[tuple[int, int], ...]  # (prophet id, dish id) per ignited PROPHECY
    dishes: tuple[int, ...]  # BREAKFAST cards
    need_dish: int  # THE JUICE must be the DESIRED DISH (G), else -1
    waking_up: bool
    throne: int
    mosquitos: tuple[int, ...]
    dream_guide: int
    gifts: tuple[int, ...]
    all_card: int
    drains: tuple[tuple[bool, bool], ...]  # per card, (passive, ignited): must discard a hand card


_FACTS: dict[int, tuple[CardSet, _Facts]] = {}


def _facts(cs: CardSet) -> _Facts:
    hit = _FACTS.get(id(cs))
    if hit is not None and hit[0] is cs:
        return hit[1]
    cfg = cs.config
    cards = cs.cards
    princesses = tuple(cs.ids_named("PRINCESS"))
    reach = max((cards[p].ignited.number for p in princesses), default=1)
    prophets = []
    for i, c in enumerate(cards):
        for step in c.ignited.steps:
            if step.op == "prophecy" and cs.ids_named(step.dish):
                prophets.append((i, cs.ids_named(step.dish)[0]))
    exp = cfg.expansions

    def one(name: str, wanted: str) -> int:
        ids = cs.ids_named(name)
        return ids[0] if ids and wanted in exp else -1

    facts = _Facts(
        princesses=princesses,
        reach=reach,
        prophets=tuple(prophets),
        dishes=tuple(i for i, c in enumerate(cards) if "BREAKFAST" in c.classes),
        need_dish=one("THE JUICE", "the_juice"),
        waking_up=cfg.waking_up,
        throne=(cs.ids_named("THRONE") or [-1])[0],
        mosquitos=tuple(cs.ids_named("MOSQUITO")) if "mosquitos" in exp else (),
        dream_guide=one("DREAM GUIDE", "dream_guide"),
        gifts=tuple(i for i, c in enumerate(cards) if "GIFT" in c.classes)
        if "gifts" in exp
        else (),
        all_card=one("ALL", "all"),
        drains=tuple((_drains(c.passive), _drains(c.ignited)) for c in cards),
    )
    _FACTS[id(cs)] = (cs, facts)
    return facts


def _drains(side) -> bool:
    """True if playing this side must put one of your EQUIPPED CARDS out of your hand."""
    return any(
        st.op == "move" and st.zone == "equipped" and st.pick == "any" and not st.may
        for st in side.steps
    )


def lookahead_score(s: State, w: Weights = DEFAULT_WEIGHTS) -> float:
    """Score a position for the lookahead player (higher is better; rulebook E and G).

    What a careful player watches: enough EQUIPPED CARDS and a DECK long enough for the
    NUMBERS (D.1, D.2, E "Losing the Game"); the first PROPHECY (E.1), made by an ignited
    PROPHET whose dish can still win (with THE JUICE only its own PROPHET, G); the DESIRED
    DISH ignited and in the DECK (E.2), ideally where the ignited PRINCESS's draw will EQUIP
    it (E.3; in WAKING UP the dish in the DISCARD PILE and the ignited THRONE in the DECK);
    each expansion's extra condition (G); cards the win needs kept out of the DISCARD PILE.
    """
    if s.outcome is Outcome.WIN:
        return _WIN
    if s.outcome is Outcome.LOSS:
        return -_WIN
    f = _facts(s.cards)
    zone, ign = s.zone, s.ignited
    score = 0.0
    hand = [c for c in range(len(zone)) if zone[c] in (EQUIP0, EQUIP1)]
    score += w.hand * min(len(hand), w.hand_cap)
    score += w.deck * min(len(s.deck), 8)
    score -= w.drainer * sum(f.drains[c][ign[c]] for c in hand)
    numbers = [s.side_of(c).number for c in hand]
    if numbers and len(s.deck) < max(numbers):
        score -= w.short_deck
    wanted_discard = set(f.mosquitos)
    if f.waking_up and s.desired >= 0:
        wanted_discard.add(s.desired)
    score -= w.discarded * sum(1 for c in s.discard if c not in wanted_discard)

    # E.3: the PRINCESS (the best-placed copy, should a card file have several)
    best_p = -w.dead
    for p in f.princesses:
        if zone[p] == OUT:
            v = -w.dead
        elif zone[p] == DISCARD:
            v = -w.lost
        else:
            v = w.princess_ignited if ign[p] else 0.0
            if ign[p] and zone[p] in (EQUIP0, EQUIP1):
                v += w.princess_equipped
        best_p = max(best_p, v)
    score += best_p
    princess_ready = any(ign[p] and zone[p] in (EQUIP0, EQUIP1) for p in f.princesses)

    # E.1: the first PROPHECY
    if s.desired >= 0:
        d = s.desired
        score += w.prophecy
        if f.need_dish >= 0 and d != f.need_dish:
            score -= w.dead
        if f.waking_up:
            score += w.dish_ignited if zone[d] == DISCARD else 0.0
        elif zone[d] == OUT:
            score -= w.dead
        elif zone[d] == DISCARD:
            score -= w.lost
        elif ign[d]:
            score += w.dish_ignited
            if zone[d] == DECK:
                score += w.dish_in_deck
                if princess_ready and s.deck.index(d) < f.reach + 3:
                    score += w.dish_near
    else:
        best = -w.lost if f.prophets else -w.dead
        viable = 0
        for pr, dish in f.prophets:
            if f.need_dish >= 0 and dish != f.need_dish:
                continue
            if zone[pr] in (OUT, DISCARD) or zone[dish] == OUT:
                continue
            if not f.waking_up and zone[dish] == DISCARD:
                continue
            viable += 1
            v = 0.0
            if ign[pr]:
                v += w.prophet_ignited
                if zone[pr] in (EQUIP0, EQUIP1):
                    v += w.prophet_equipped
            if not f.waking_up and ign[dish] and zone[dish] != DISCARD:
                v += w.dish_ignited * 0.5
            best = max(best, v)
        score += best + w.options * viable

    if f.waking_up:
        t = f.throne
        if t < 0 or zone[t] == OUT:
            score -= w.dead
        elif zone[t] == DISCARD:
            score -= w.lost
        elif ign[t]:
            score += w.dish_ignited + (w.dish_in_deck if zone[t] == DECK else 0.0)

    # G: each expansion's additional win condition, with partial credit
    if f.mosquitos:
        score += w.expansion * sum(zone[m] == DISCARD for m in f.mosquitos) / len(f.mosquitos)
    if f.dream_guide >= 0:
        g = f.dream_guide
        score += w.expansion if s.played[g] else (-w.lost if zone[g] in (DISCARD, OUT) else 0.0)
    if f.gifts:
        played = sum(s.played[g] for g in f.gifts)
        score += w.expansion * min(played, 3) / 3
    if f.all_card >= 0:
        a = f.all_card
        if zone[a] in (EQUIP0, EQUIP1):
            score += w.expansion
        elif zone[a] in (DISCARD, OUT):
            score -= w.lost
    return score


class LookaheadPlayer:
    """The lookahead player of one game: a depth-limited search over whole turns.

    It keeps the positions it has been in this game (to avoid cycles) and the children
    of every position it has expanded (a later move reuses them; they still count
    against the budget). `expanded` is the number of positions the last move expanded.
    """

    def __init__(self, budget: Budget = DEFAULT_BUDGET, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.w = weights
        self.budget = budget
        self.children: dict[tuple, list[tuple[tuple[int, ...], State, tuple]]] = {}
        self.history: set[tuple] = set()
        self.expanded = 0

    def kids(self, s: State, key: tuple) -> list[tuple[tuple[int, ...], State, tuple]]:
        got = self.children.get(key)
        if got is None:
            got = [(m, c, c.key()) for m, c in s.children()]
            self.children[key] = got
        self.expanded += 1
        return got

    def value(self, s: State, key: tuple, depth: int, path: set[tuple]) -> float:
        """The best score reachable within `depth` more turns (wins sooner score higher)."""
        if s.is_over():
            return _WIN + depth if s.outcome is Outcome.WIN else -_WIN
        if key in self.history or key in path:
            return lookahead_score(s, self.w) - self.w.repeat
        if depth == 0:
            return lookahead_score(s, self.w)
        if self.expanded >= self.budget.positions:
            raise _OutOfBudget
        path.add(key)
        best = -np.inf
        for _move, child, ckey in self.kids(s, key):
            best = max(best, self.value(child, ckey, depth - 1, path))
            if best > _WIN:
                break
        path.discard(key)
        return best

    def choose(self, s: State) -> tuple[tuple[int, ...], State]:
        """Return the move to play in `s` and the position it leads to (`s` is unchanged).

        A winning move is played at once. Otherwise each move is scored by the best
        position reachable within 1, 2, ... `budget.depth` turns (`lookahead_score`;
        positions already met this game are marked down by `weights.repeat`); the
        deepest search that finished within `budget.positions` expansions decides, ties
        going to the first move in `State.legal_moves()` order.
        """
        key = s.key()
        self.history.add(key)
        self.expanded = 0
        options = self.kids(s, key)
        for move, child, _ in options:
            if child.outcome is Outcome.WIN:
                return move, child
        choice = max(options, key=lambda o: self.value(o[1], o[2], 0, {key}))
        prev, last = 1, 1  # expansions of the last two iterations (the root counts as one)
        for depth in range(1, self.budget.depth):
            before = self.expanded
            # Predict this iteration's cost from the growth of the last two and skip it if
            # it would overrun: an iteration cut short is thrown away, so starting one that
            # cannot finish only costs time.
            if depth > 1 and before + last * last / prev > self.budget.positions:
                break
            try:
                values = [self.value(c, k, depth, {key}) for _m, c, k in options]
            except _OutOfBudget:
                break
            choice = options[int(np.argmax(values))]
            prev, last = last, max(1, self.expanded - before)
        return choice[0], choice[1]


class _OutOfBudget(Exception):
    pass


def play_lookahead(
    state: State,
    budget: Budget = DEFAULT_BUDGET,
    weights: Weights = DEFAULT_WEIGHTS,
    turn_cap: int = TURN_CAP,
) -> bool:
    """Play `state` to its end with the lookahead player; return True for a win."""
    return lookahead_game(state, budget, weights, turn_cap)[-1].outcome is Outcome.WIN


def lookahead_game(
    state: State,
    budget: Budget = DEFAULT_BUDGET,
    weights: Weights = DEFAULT_WEIGHTS,
    turn_cap: int = TURN_CAP,
) -> list[State]:
    """Play `state` to its end with the lookahead player; return every position, in order.

    Deterministic: the same position, budget and weights always give the same game.
    """
    search = LookaheadPlayer(budget, weights)
    line = [state]
    s = state
    while not s.is_over() and s.turn < turn_cap:
        _move, s = search.choose(s)
        line.append(s)
    return line

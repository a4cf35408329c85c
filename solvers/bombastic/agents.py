"""Who makes the decisions: named agents, and a game loop that feeds them views.

Every agent chooses with ``act(view, legal, rng)`` (solvers/common/game.py). Every agent
but `omniscient` sees a `View`: the public state plus that player's own observations,
never the tiles; the omniscient agent's view is the whole `State`. Agents are registered
by short name in `REGISTRY`, split into `AGENTS` (they play from a `View`) and
`OMNISCIENT_AGENTS`; a spec string may carry one parameter, e.g. ``ismcts:400``
(iterations) or ``greedy:0.7`` (go-for-it threshold).

* ``random``      uniformly random legal decisions.
* ``heuristic``   a casual player: goes for a line it knows is all its own (after turn
                  20, one that is all its own with chance 1/3 or more), otherwise uses
                  a favourite card, peeks at tiles it does not know, stops peeking at
                  as many as it wants after two safe peeks, never plays an ALARM card
                  unless it knows it wins with it or both face-up cards are ALARM
                  cards (then "Peek at 1. Go for It." on its best line, which can be
                  a line it knows holds no bomb: the card cycles and the game moves on).
* ``greedy``      belief-greedy: exact beliefs over the 630 arrangements; goes for it when
                  the best line is all its own with chance >= threshold (default 0.6);
                  otherwise plays the card whose sampled outcome gives the best chance
                  that its best line is all its own, choosing every step one move ahead.
* ``ismcts``      single-observer information-set Monte Carlo tree search (Cowling,
                  Powley, Whitehouse 2012): each iteration samples a grid and a deck from
                  its beliefs, walks one tree of decisions with UCB, plays out at random
                  (the Numba kernel), and backs up the result. Iterations: parameter.
* ``ismcts-guarded``  the same search, but on its own turn it never goes for a line
                  whose exact chance of holding the bomb is at least its chance of
                  being all its own (the random playouts undervalue waiting).
* ``ismcts-heuristic``  ISMCTS over its own decisions only, keyed by what it observed;
                  the opponent and the playouts are casual players who remember what
                  they saw (`kernel.casual_action`, the `heuristic` agent's rules on
                  the sampled grid). Iterations: parameter (default 200). The
                  search runs in one Numba call (`search_kernel.search`); the
                  Python walk it reproduces is kept as the reference. It stops
                  once the most visited decision cannot be overtaken in the
                  iterations left (the same decision, fewer iterations).
* ``ismcts-heuristic-guarded``  the same, with `guarded_choices`: no Go for It that
                  bombs at least as often as it wins, ALARM cards only when they are
                  likely to pay, no risky extra peek with "Peek at as many".
* ``omniscient``  SEES EVERY TILE (an upper bound, not a fair player): goes for a line
                  that is all its own, otherwise searches the face-up cards' decisions
                  for the grid with the most of its tiles in one bomb-free line.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from bombsolve.solvers.bombastic import kernel as K
from bombsolve.solvers.bombastic import search_kernel as SK
from bombsolve.solvers.bombastic.beliefs import FastBelief
from bombsolve.solvers.bombastic.rules import (
    ACTION_CARD,
    ACTION_L,
    ACTION_LINE,
    ACTION_PERM,
    ACTION_SHOWSET,
    ACTION_STOP,
    ACTION_YES,
    ALARM_CARDS,
    CHANCE,
    PERMS3,
    SHOW_SETS,
    Card,
    Ending,
    Options,
    Phase,
    SplitMix64,
    State,
)
from bombsolve.solvers.bombastic.tiles import (
    ARR,
    BOMB,
    L_SHAPES,
    LINE_ALL,
    LINE_BOMB,
    LINES,
    N_ARR,
    N_TILES,
)
from bombsolve.solvers.common.errors import BadInput, unknown

L_ALL = np.zeros((2, len(L_SHAPES), N_ARR), dtype=bool)
for _k, _shape in enumerate(L_SHAPES):
    for _s in (0, 1):
        L_ALL[_s, _k] = (ARR[:, list(_shape)] == _s).all(axis=1)


@dataclass(frozen=True)
class View:
    """What one player may see: public state and their own observations (a frozen value:
    two views are equal when the player saw the same)."""

    player: int
    symbol: int
    phase: Phase
    card: int
    picked: tuple[int, ...]
    face_up: tuple[int, ...]
    observations: tuple[tuple, ...]
    turn_number: int
    options: Options
    legal: tuple[int, ...]
    deck_size: int
    cycled: tuple[int, ...]
    swap_a: int
    swap_first: tuple[int, int] | None


def view_of(state: State, player: int) -> View:
    """Return the view of `player` (the tiles are not in it)."""
    return View(
        player=player,
        symbol=state.symbol(player),
        phase=state.phase,
        card=state.card,
        picked=tuple(state.picked),
        face_up=tuple(state.face_up),
        observations=tuple(state.observations[player]),
        turn_number=state.turn_number,
        options=state.options,
        legal=tuple(state.legal_actions()),
        deck_size=len(state.deck),
        cycled=tuple(state.cycled),
        swap_a=state.swap_a,
        swap_first=state.swap_first,
    )


class _BeliefCache:
    """Keeps one player's FastBelief up to date as their observations grow: the events
    it has folded in are kept, and a list that does not start with them starts over (a
    belief depends on the events alone, so the result is the same either way)."""

    def __init__(self) -> None:
        self.events: tuple = ()
        self.belief = FastBelief.uniform()

    def get(self, observations: Sequence) -> FastBelief:
        seen = len(self.events)
        if len(observations) < seen or tuple(observations[:seen]) != self.events:
            self.events, self.belief, seen = (), FastBelief.uniform(), 0
        for ev in observations[seen:]:
            self.belief.update(ev)
        self.events = tuple(observations)
        return self.belief


def as_generator(rng: np.random.Generator | SplitMix64) -> np.random.Generator:
    """The NumPy generator an agent draws from: `rng` itself, or one seeded from the next
    output of a `SplitMix64` (the front door's generator, solvers/common/game.py)."""
    if isinstance(rng, SplitMix64):
        return np.random.default_rng(rng.next())
    return rng


class Agent:
    """Base class: `act(view, legal, rng)` returns one of `legal`.

    `rng` is a NumPy generator (what `play_game` gives each seat, so that every game
    played keeps its decisions) or a `SplitMix64`, which then seeds a NumPy generator
    (`as_generator`). Subclasses implement `choose(view, rng)` over `view.legal`.
    """

    name = "agent"
    #: An omniscient agent's view is the whole `State` (`OMNISCIENT_AGENTS`).
    omniscient = False

    def act(
        self,
        view: View | State,
        legal: Sequence[int],
        rng: np.random.Generator | SplitMix64,
    ) -> int:
        """Return one of `legal`, the actions to choose among (all of `view.legal`, or
        some of them)."""
        if isinstance(view, View) and self.omniscient:
            raise TypeError(f"{self.name} sees every tile: its view is the whole State")
        if isinstance(view, View) and tuple(legal) != view.legal:
            view = replace(view, legal=tuple(legal))
        return self.choose(view, as_generator(rng))

    def choose(self, view: View, rng: np.random.Generator) -> int:
        raise NotImplementedError

    def spec(self) -> str:
        return self.name


class RandomAgent(Agent):
    """Uniformly random legal decisions."""

    name = "random"

    def choose(self, view: View, rng: np.random.Generator) -> int:
        return view.legal[int(rng.integers(len(view.legal)))]


_LINE_ALL_F = LINE_ALL.astype(np.float64)
# LINE_CODE[k, i]: the three values on line k in arrangement i, as one number 0..26.
LINE_CODE = np.stack([ARR[:, list(line)].astype(np.int64) @ np.array([9, 3, 1]) for line in LINES])


def _best_line_value(w: np.ndarray, me: int) -> float:
    """Chance that my best line is all mine: the value the greedy agents climb."""
    return float((_LINE_ALL_F[me] @ w).max())


def _after(b: FastBelief, ev: tuple) -> FastBelief:
    c = b.copy()
    c.update(ev)
    return c


def _peek_value(b: FastBelief, t: int, me: int, bomb_loses: bool) -> float:
    """Expected best-line value after peeking at tile t (the bomb: -1 if it loses)."""
    p = b.tile_odds()[t]
    total = 0.0
    for v in range(3):
        if p[v] <= 1e-12:
            continue
        if v == BOMB and bomb_loses:
            total -= p[v]
            continue
        total += p[v] * _best_line_value(_after(b, ("peek", t, v)).w, me)
    return total


def _entropy(p: np.ndarray) -> float:
    q = p[p > 1e-12]
    return float(-(q * np.log(q)).sum())


class HeuristicAgent(Agent):
    """A casual player's rules of thumb (see the module docstring)."""

    name = "heuristic"
    # After this many turns a casual player stops waiting for certainty: a line that is
    # all theirs with chance 1/3 or more is good enough.
    PATIENCE = 20
    # Favourite cards first: ones that show you your own tiles and let you move them.
    PREFERENCE = (
        Card.PEEK2_MAY_SWAP,
        Card.PEEK2_SWAP_OUT,
        Card.PEEK1_SWAP_SWAP,
        Card.PEEK2_SHOW,
        Card.SHOW3_ARRANGE,
        Card.PEEK_LINE_SHUFFLE,
        Card.PROMO_SHOW_SWAP,
        Card.PROMO_PEEK3,
        Card.PEEK_MANY,
    )

    def __init__(self) -> None:
        self.cache = _BeliefCache()

    def choose(self, view: View, rng: np.random.Generator) -> int:
        b = self.cache.get(view.observations)
        me = view.symbol
        known = b.tile_odds()
        sure = [int(np.argmax(known[t])) if known[t].max() > 1 - 1e-9 else -1 for t in range(9)]
        ph, legal = view.phase, view.legal
        unknown_tiles = [t for t in legal if t < N_TILES and sure[t] < 0]

        def mine_in(tiles) -> int:
            return sum(1 for t in tiles if sure[t] == me)

        if ph == Phase.TURN:
            lines = b.line_odds(me)
            k = int(np.argmax(lines[:, 0]))
            if lines[k, 0] > 1 - 1e-9:
                return ACTION_LINE + k
            if view.turn_number > self.PATIENCE and lines[k, 0] >= 1 / 3:
                return ACTION_LINE + k  # tired of waiting: a fair chance is good enough
            if Card.ALARM_L_SHAPE in view.face_up and (L_ALL[me] @ b.w).max() > 1 - 1e-9:
                return ACTION_CARD + view.face_up.index(Card.ALARM_L_SHAPE)
            ranks = [self.PREFERENCE.index(c) if c in self.PREFERENCE else 99 for c in view.face_up]
            if min(ranks) == 99:
                # Both ALARM cards are face up. Going for a line it knows is bomb-free
                # changes nothing, and two such players repeat it until the turn cap (19%
                # of base-deck games did). "Peek at 1. Go for It." lets it pick that safe
                # line too, but the card goes under the deck and a new one comes up.
                return ACTION_CARD + view.face_up.index(Card.ALARM_PEEK_GO)
            return ACTION_CARD + int(np.argmin(ranks))
        if ph in (Phase.PEEK, Phase.SHOW):
            pool = unknown_tiles or [t for t in legal if t < N_TILES]
            # Look first at the tiles on lines where I already have tiles.
            score = [(sum(mine_in(line) for line in LINES if t in line), -t) for t in pool]
            return pool[int(np.argmax([s[0] * 10 + s[1] / 100 for s in score]))]
        if ph == Phase.PEEK_OR_STOP:
            if Card(view.card) == Card.PEEK_MANY:
                if len(view.picked) >= 2 or not unknown_tiles:
                    return ACTION_STOP
                t = min(unknown_tiles, key=lambda t: known[t][BOMB])
                return t if known[t][BOMB] < 0.2 else ACTION_STOP
            return unknown_tiles[0] if unknown_tiles else ACTION_STOP
        if ph == Phase.SHOW_PEEKED:
            return ACTION_STOP  # casual players keep what they saw to themselves
        if ph in (Phase.GO, Phase.PEEK_LINE):
            lines = b.line_odds(me)
            return ACTION_LINE + int(np.argmax(lines[:, 0] - lines[:, 2]))
        if ph == Phase.L_SHAPE:
            return ACTION_L + int(np.argmax(L_ALL[me] @ b.w))
        if ph == Phase.OPP_SHOW:
            risks = [sum(known[view.picked[i]][BOMB] for i in s) for s in SHOW_SETS]
            return ACTION_SHOWSET + int(np.argmin(risks))
        # Everything else moves tiles: take the move that leaves the best line value.
        return _greedy_move(view, b, rng)


def _greedy_move(view: View, b: FastBelief, rng: np.random.Generator) -> int:
    """One-step-ahead choice for decisions that move tiles or end a card."""
    me, ph, legal = view.symbol, view.phase, view.legal

    def swap_value(a: int, c: int) -> float:
        return _best_line_value(_after(b, ("swap", a, c)).w, me)

    stay = _best_line_value(b.w, me)
    if ph == Phase.MAY_SWAP:
        a, c = view.picked
        return ACTION_YES if swap_value(a, c) > stay + 1e-12 else ACTION_STOP
    if ph == Phase.OUT_PEEKED:
        others = [t for t in range(N_TILES) if t not in view.picked]
        best = max((swap_value(a, c), a) for a in view.picked for c in others)
        return best[1]
    if ph in (Phase.OUT_OTHER, Phase.SWAP_B, Phase.SWAP2_B, Phase.SECRET_SWAP):
        a = view.swap_a if ph != Phase.SECRET_SWAP else view.picked[0]
        vals = [swap_value(a, c) for c in legal]
        return legal[int(np.argmax(vals))]
    if ph in (Phase.SWAP_A, Phase.SWAP2_A):
        best_v, best_a = stay, ACTION_STOP
        for a in range(N_TILES):
            if a not in legal:
                continue
            for c in range(a + 1, N_TILES):
                if ph == Phase.SWAP2_A:
                    pair = (a, c)
                    reading = view.options.second_swap
                    if reading == "distinct" and pair == view.swap_first:
                        continue
                    if reading == "disjoint" and c in view.swap_first:
                        continue
                v = swap_value(a, c)
                if v > best_v + 1e-12 or best_a == ACTION_STOP and ph == Phase.SWAP_A:
                    best_v, best_a = v, a
        return best_a
    if ph == Phase.ARRANGE:
        values = []
        pos = tuple(view.picked)
        tiles = b.tile_odds()
        shown = [int(np.argmax(tiles[t])) for t in pos]
        for p in PERMS3:
            placed = [0, 0, 0]
            for i in range(3):
                placed[p[i]] = shown[i]
            values.append(_best_line_value(_after(b, ("place", pos, tuple(placed))).w, me))
        return ACTION_PERM + int(np.argmax(values))
    return view.legal[int(rng.integers(len(view.legal)))]


class BeliefGreedyAgent(Agent):
    """Belief-greedy: exact beliefs, a go-for-it threshold, one step of look-ahead."""

    name = "greedy"

    def __init__(self, threshold: float = 0.6, samples: int = 6) -> None:
        if not 0 < threshold <= 1:
            raise BadInput(f"greedy threshold {threshold} must be in (0, 1]")
        self.threshold = threshold
        self.samples = samples
        self.cache = _BeliefCache()

    def spec(self) -> str:
        return f"greedy:{self.threshold:g}"

    def choose(self, view: View, rng: np.random.Generator) -> int:
        b = self.cache.get(view.observations)
        return self._decide(view, b, rng, top=True)

    def _decide(self, view: View, b: FastBelief, rng: np.random.Generator, top: bool) -> int:
        me, ph, legal = view.symbol, view.phase, view.legal
        if ph == Phase.TURN:
            lines = b.line_odds(me)
            k = int(np.argmax(lines[:, 0] - 0.5 * lines[:, 2]))
            if lines[:, 0].max() > 1 - 1e-9:
                return ACTION_LINE + int(np.argmax(lines[:, 0]))
            if lines[k, 0] >= self.threshold:
                return ACTION_LINE + k
            if not top:
                return ACTION_CARD
            # Sample grids from my beliefs and play each face-up card out greedily.
            scores = [self._card_value(view, b, slot, rng) for slot in (0, 1)]
            go_value = lines[k, 0] - lines[k, 2]
            if max(scores) < go_value - 0.25:
                return ACTION_LINE + k
            return ACTION_CARD + int(np.argmax(scores))
        if ph in (Phase.PEEK, Phase.PEEK_OR_STOP):
            bomb_loses = Card(view.card) == Card.PEEK_MANY
            tiles = [t for t in legal if t < N_TILES]
            odds = b.tile_odds()
            vals = [_peek_value(b, t, me, bomb_loses) + 1e-3 * _entropy(odds[t]) for t in tiles]
            best = int(np.argmax(vals))
            if ph == Phase.PEEK_OR_STOP and bomb_loses:
                # Peek on only while the gain beats the risk of seeing the bomb.
                gain = vals[best] - 1e-3 * _entropy(odds[tiles[best]])
                if gain <= _best_line_value(b.w, me) + 1e-9:
                    return ACTION_STOP
            return tiles[best]
        if ph == Phase.SHOW:
            tiles = [t for t in legal if t < N_TILES]
            odds = b.tile_odds()
            vals = [_peek_value(b, t, me, False) + 1e-3 * _entropy(odds[t]) for t in tiles]
            return tiles[int(np.argmax(vals))]
        if ph == Phase.SHOW_PEEKED:
            odds = b.tile_odds()
            rest = [t for t in range(N_TILES) if t not in view.picked]
            gain = max(_peek_value(b, t, me, False) for t in rest)
            if gain <= _best_line_value(b.w, me) + 1e-9:
                return ACTION_STOP
            # Show the tile that helps the opponent least: the bomb, else one of mine.
            vals = [int(np.argmax(odds[t])) for t in view.picked]
            for want in (BOMB, me):
                if want in vals:
                    return view.picked[vals.index(want)]
            return view.picked[0]
        if ph == Phase.PEEK_LINE:
            return ACTION_LINE + self._best_peek_line(b, me)
        if ph == Phase.GO:
            lines = b.line_odds(me)
            return ACTION_LINE + int(np.argmax(lines[:, 0] - lines[:, 2]))
        if ph == Phase.L_SHAPE:
            return ACTION_L + int(np.argmax(L_ALL[me] @ b.w))
        if ph == Phase.OPP_SHOW:
            odds = b.tile_odds()
            risks = [sum(odds[view.picked[i]][BOMB] for i in s) + 0.01 * len(s) for s in SHOW_SETS]
            return ACTION_SHOWSET + int(np.argmin(risks))
        return _greedy_move(view, b, rng)

    def _best_peek_line(self, b: FastBelief, me: int) -> int:
        """The line whose peek (then random shuffle) leaves the best expected value."""
        from bombsolve.solvers.bombastic.beliefs import TRIPLE_INDEX, TRIPLE_MAP

        best, best_k = -1.0, 0
        for k, line in enumerate(LINES):
            codes = LINE_CODE[k]
            probs = np.bincount(codes, weights=b.w, minlength=27)
            maps = TRIPLE_MAP[TRIPLE_INDEX[tuple(sorted(line))]]
            total = 0.0
            for c in np.flatnonzero(probs > 1e-12):
                w = np.where(codes == c, b.w, 0.0) / probs[c]
                total += probs[c] * _best_line_value(w[maps].mean(axis=0), me)
            if total > best:
                best, best_k = total, k
        return best_k

    def _card_value(self, view: View, b: FastBelief, slot: int, rng) -> float:
        """Average, over sampled grids, of the best-line value after playing the card."""
        total = 0.0
        for _ in range(self.samples):
            state = determinize(view, b, rng)
            state.apply(ACTION_CARD + slot)
            p = view.player
            inner = _BeliefCache()
            while not state.is_over() and state.phase != Phase.TURN:
                if state.to_move == CHANCE:
                    state.apply(state.legal_actions()[int(rng.integers(6))])
                    continue
                v = view_of(state, state.to_move)
                if state.to_move != p:
                    state.apply(RandomAgent().choose(v, rng))
                    continue
                state.apply(self._decide(v, inner.get(state.observations[p]), rng, top=False))
            if state.is_over():
                total += 1.0 if state.winner == p else -1.0
            else:
                total += _best_line_value(inner.get(state.observations[p]).w, view.symbol)
        return total / self.samples


def determinize(
    view: View, b: FastBelief, rng: np.random.Generator, arrangement: int | None = None
) -> State:
    """Return a full State consistent with `view`: a grid drawn from beliefs, a deck drawn.

    The player's own observations are copied so that belief caches keep working; the
    opponent's list holds only the public events. Cards already cycled under the deck
    keep their known order at the bottom when `deck_known`; the rest are shuffled.
    """
    grid = ARR[b.sample(rng) if arrangement is None else arrangement].tolist()
    all_cards = [int(c) for c in view.options.deck_cards()]
    in_deck = [c for c in all_cards if c not in view.face_up]
    if view.options.deck_known:
        # The deck is a queue: never-revealed cards on top (order unknown), then the
        # cycled cards still in it, in the order they were last put under the deck.
        unseen = [c for c in in_deck if c not in view.cycled]
        rng.shuffle(unseen)
        last = {c: i for i, c in enumerate(view.cycled)}
        tail = sorted((c for c in in_deck if c in last), key=last.__getitem__)
        deck = unseen + tail
    else:
        deck = list(in_deck)
        rng.shuffle(deck)
    p = view.player
    mine: list = list(view.observations)
    obs = (mine, []) if p == 0 else ([], mine)
    # Asked to show (promo) or to shuffle (shuffle='opponent'): it is the other's turn.
    turn_player = 1 - p if view.phase in (Phase.OPP_SHOW, Phase.SHUFFLE) else p
    return State(
        options=view.options,
        tiles=grid,
        face_up=list(view.face_up),
        deck=deck,
        to_move=p,
        turn_player=turn_player,
        turn_number=view.turn_number,
        phase=view.phase,
        card=view.card,
        slot=view.face_up.index(view.card) if view.card in view.face_up else -1,
        picked=list(view.picked),
        swap_first=view.swap_first,
        swap_a=view.swap_a,
        observations=obs,
    )


class ISMCTSAgent(Agent):
    """Single-observer ISMCTS with playouts in the Numba kernel.

    `rollout="random"` (default) plays uniformly random decisions; `"informed"` uses
    `kernel.informed_action` (random, but no blunders on the sampled grid). In 60 games
    each against heuristic and greedy at 100 iterations the two won equally often, so
    the default stays the simpler one.
    """

    name = "ismcts"

    def __init__(self, iterations: int = 200, c: float = 0.7, rollout: str = "random") -> None:
        _check_iterations(iterations)
        if rollout not in ("informed", "random"):
            raise unknown("ISMCTS rollout", rollout, ("informed", "random"))
        self.iterations = iterations
        self.c = c
        self.rollout = rollout
        self.cache = _BeliefCache()
        self.nodes_visited = 0

    def spec(self) -> str:
        return f"ismcts:{self.iterations}"

    def choose(self, view: View, rng: np.random.Generator) -> int:
        if len(view.legal) == 1:
            return view.legal[0]
        b = self.cache.get(view.observations)
        # node key: tuple of actions from the root -> [visits, {action: [n, total, avail]}]
        tree: dict[tuple, dict[int, list[float]]] = {}
        ks = np.empty(K.STATE_SIZE, dtype=np.int32)
        seed_base = int(rng.integers(1 << 62))
        cdf = np.cumsum(b.w)
        draws = np.searchsorted(cdf, rng.random(self.iterations) * cdf[-1], side="right")
        draws = np.minimum(draws, N_ARR - 1)
        for it in range(self.iterations):
            state = determinize(view, b, rng, int(draws[it]))
            path: list[tuple[tuple, int, int]] = []
            key: tuple = ()
            while not state.is_over():
                if state.to_move == CHANCE:
                    a = state.legal_actions()[int(rng.integers(6))]
                    state.apply(a)
                    key = key + (a,)
                    continue
                legal = state.legal_actions()
                stats = tree.setdefault(key, {})
                for a in legal:
                    stats.setdefault(a, [0.0, 0.0, 0.0])[2] += 1
                untried = [a for a in legal if stats[a][0] == 0]
                if untried:
                    a = untried[int(rng.integers(len(untried)))]
                    path.append((key, a, state.to_move))
                    state.apply(a)
                    key = key + (a,)
                    break
                a = max(
                    legal,
                    key=lambda x: (
                        stats[x][1] / stats[x][0]
                        + self.c * math.sqrt(math.log(stats[x][2]) / stats[x][0])
                    ),
                )
                path.append((key, a, state.to_move))
                state.apply(a)
                key = key + (a,)
            winner = self._playout(state, ks, seed_base + it)
            self.nodes_visited += len(path)
            for node_key, a, who in path:
                s = tree[node_key][a]
                s[0] += 1
                s[1] += 0.0 if winner < 0 else (1.0 if winner == who else -1.0)
        root = tree.get((), {})
        return max(view.legal, key=lambda a: root.get(a, [0.0])[0])

    def _playout(self, state: State, ks: np.ndarray, seed: int) -> int:
        if state.is_over():
            return -1 if state.winner is None else state.winner
        to_kernel(state, ks)
        if self.rollout == "random":
            return int(K.playout(ks, seed))
        return int(K.playout_informed(ks, seed))


def safe_gambles(view: View, b: FastBelief) -> list[int]:
    """The legal decisions less every Go for It whose bomb chance >= its win chance.

    Rulebook "Go for It": a line with the bomb loses at once, one that is all mine wins;
    under the exact beliefs `b` a line with P(bomb) >= P(all mine) loses on average.
    """
    if view.phase != Phase.TURN:
        return list(view.legal)
    w = b.w / b.w.sum()
    keep = []
    for a in view.legal:
        k = a - ACTION_LINE
        if 0 <= k < len(LINES) and w[LINE_BOMB[k]].sum() >= w[LINE_ALL[view.symbol, k]].sum():
            continue
        keep.append(a)
    return keep


class GuardedISMCTSAgent(ISMCTSAgent):
    """ISMCTS whose own Go for It is limited to lines that win more often than they bomb.

    Random playouts treat waiting as a coin flip, so plain ISMCTS takes gambles a
    player who waits would not (README: it loses 17% of its games to its own failed
    gambles). The search is unchanged; only the decision at the root is restricted to
    `safe_gambles` under the exact beliefs.
    """

    name = "ismcts-guarded"

    def spec(self) -> str:
        return f"ismcts-guarded:{self.iterations}"

    def choose(self, view: View, rng: np.random.Generator) -> int:
        keep = safe_gambles(view, self.cache.get(view.observations))
        if len(keep) < len(view.legal):
            view = replace(view, legal=tuple(keep))
        return super().choose(view, rng)


def opponent_knows(view: View) -> np.ndarray:
    """Return 9 flags: the positions whose tile `view`'s opponent knows now, as far as
    `view`'s own observations tell (what the opponent saw, not what it was): 1 it knows
    the tile, 2 it knows only that it is not the bomb (I peeked at it with "Peek at as
    many" and the game went on), 0 it knows nothing of it (`kernel.apply_know` flags).

    The opponent knows a tile it peeked at ("opp_peek") or that was shown to both; a
    public swap moves its knowledge with the tiles; a chance shuffle, my own secret
    arrangement, and the order I chose for its peeked line wipe it there; my secret swap
    wipes it everywhere (it does not know which tile moved); its own secret swap leaves
    it unsure, as far as I can tell, only of the shown tile's old place; its own "Show
    3. Secretly arrange them." leaves it knowing all three.
    """
    know = np.zeros(N_TILES, dtype=np.int8)
    me = view.player
    card_by: tuple[int, int] = (-1, -1)
    for ev in view.observations:
        kind = ev[0]
        if kind == "card":
            card_by = (ev[1], ev[2])
        elif kind in ("opp_peek", "show"):
            know[ev[1]] = 1
        elif kind == "not_bomb":
            if know[ev[1]] == 0:
                know[ev[1]] = 2
        elif kind == "swap":
            a, b = ev[1], ev[2]
            if card_by == (me, Card.PROMO_SHOW_SWAP):
                know[:] = 0  # my secret swap: it cannot tell which tile moved
            else:
                know[a], know[b] = know[b], know[a]
        elif kind == "shuffle":
            pos = list(ev[1])
            know[pos] = 1 if card_by == (1 - me, Card.SHOW3_ARRANGE) else 0
        elif kind in ("place", "move"):
            know[list(ev[1])] = 0
        elif kind == "secret_swap":
            know[ev[1]] = 0
    return know


def guarded_choices(view: View, b: FastBelief) -> list[int]:
    """The legal decisions less the gambles that lose on average under exact beliefs `b`.

    On its turn: no Go for It on a line with P(bomb) >= P(all mine) (as `safe_gambles`);
    no ALARM "Show 3 in an L shape" unless some L is all its own with chance >= 1/2
    (otherwise it loses more often than it wins); no ALARM "Peek at 1. Go for It."
    unless some line is bomb-free for sure or wins more often than it bombs. When that
    card's Go for It comes, only such lines (or, if none, the least bad one); when the L
    comes, the L most likely all its own. "Peek at as many as you want": the first peek
    at a tile least likely to be the bomb, further peeks only where it cannot be.
    """
    me = view.symbol
    w = b.w / b.w.sum()
    lines = np.stack([_LINE_ALL_F[me] @ w, LINE_BOMB.astype(np.float64) @ w], axis=1)
    ok_line = [(lines[k, 1] < 1e-12 or lines[k, 0] > lines[k, 1]) for k in range(len(LINES))]
    if view.phase == Phase.TURN:
        keep = []
        for a in safe_gambles(view, b):
            if a >= ACTION_CARD:
                card = view.face_up[a - ACTION_CARD]
                if card == Card.ALARM_L_SHAPE and (L_ALL[me] @ w).max() < 0.5:
                    continue
                if card == Card.ALARM_PEEK_GO and not any(ok_line):
                    continue
            keep.append(a)
        return keep or list(view.legal)
    if view.phase == Phase.GO:
        keep = [ACTION_LINE + k for k in range(len(LINES)) if ok_line[k]]
        return keep or [ACTION_LINE + int(np.argmax(lines[:, 0] - lines[:, 1]))]
    if view.phase == Phase.L_SHAPE:
        return [ACTION_L + int(np.argmax(L_ALL[me] @ w))]
    if view.card == Card.PEEK_MANY and view.phase in (Phase.PEEK, Phase.PEEK_OR_STOP):
        # "If you see the bomb, you lose": peek on only where the bomb cannot be (the
        # first peek is a must: the tiles least likely to be the bomb).
        bomb = b.tile_odds()[:, BOMB]
        tiles = [a for a in view.legal if a < N_TILES]
        floor = 1e-12 if view.phase == Phase.PEEK_OR_STOP else min(bomb[t] for t in tiles) + 1e-12
        keep = [a for a in view.legal if a >= N_TILES or bomb[a] <= floor]
        return keep or list(view.legal)
    return list(view.legal)


class HeuristicISMCTSAgent(Agent):
    """ISMCTS over its own decisions, with players who remember in the playouts.

    Each iteration samples a grid from the exact beliefs (`beliefs.FastBelief`) and a
    deck order from what is public, then walks a tree of *its own* decisions only,
    keyed by what it has observed (the values its peeks and every show revealed, the
    face-up cards, the opponent's visible decisions; never a hidden tile, a chance
    order or the opponent's secret choices). The opponent and chance move inside the
    walk as in the playout: `kernel.casual_action`, the `heuristic` agent's rules of
    thumb played on the sampled grid from what each player knows (`kernel.know`
    flags: mine from my beliefs, the opponent's from `opponent_knows`). A playout that
    reaches the turn cap counts 0, a win 1, a loss -1.

    Parameters: `iterations` per decision (spec ``ismcts-heuristic:ITERATIONS``,
    default 200) and the UCB constant `c` (0.7). With `guard` (spec
    ``ismcts-heuristic-guarded``) the root never goes for a line whose exact bomb
    chance is at least its chance of being all its own, and plays the ALARM cards only
    when they are likely to pay (`guarded_choices`). With `stop_early` (the default)
    the search ends once its most visited root decision leads every other by more than
    the iterations left, which cannot change the decision.
    """

    name = "ismcts-heuristic"

    def __init__(
        self,
        iterations: int = 200,
        c: float = 0.7,
        guard: bool = False,
        walk: str = "kernel",
        stop_early: bool = True,
    ) -> None:
        _check_iterations(iterations)
        if walk not in ("kernel", "python"):
            raise unknown("ISMCTS walk", walk, ("kernel", "python"))
        self.iterations = iterations
        self.c = c
        self.guard = guard
        # Stop a search once its most visited root decision cannot be overtaken in the
        # iterations left (`search_kernel.search`): the same decisions, less work.
        self.stop_early = stop_early
        # "kernel": the whole search in one Numba call (`search_kernel.search`);
        # "python": the readable reference walk, the same tree from the same draws.
        self.walk = walk
        self.cache = _BeliefCache()

    def spec(self) -> str:
        return f"{self.name}{'-guarded' if self.guard else ''}:{self.iterations}"

    def choose(self, view: View, rng: np.random.Generator) -> int:
        b = self.cache.get(view.observations)
        legal = guarded_choices(view, b) if self.guard else list(view.legal)
        if len(legal) == 1:
            return legal[0]
        me = view.player
        template = np.empty(K.STATE_SIZE, dtype=np.int32)
        base = determinize(view, b, rng)
        to_kernel(base, template)
        know0 = np.zeros((2, N_TILES), dtype=np.int8)
        odds = b.tile_odds()
        know0[me] = np.where(
            odds.max(axis=1) > 1 - 1e-9, 1, np.where(odds[:, BOMB] < 1e-12, 2, 0)
        ).astype(np.int8)
        know0[1 - me] = opponent_knows(view)
        # The deck: never-revealed cards in an unknown order on top, then (deck_known)
        # the cycled ones in their public order.
        n_deck = len(base.deck)
        if view.options.deck_known:
            n_tail = sum(1 for c in base.deck if c in view.cycled)
        else:
            n_tail = 0
        head = np.array(base.deck[: n_deck - n_tail], dtype=np.int32)
        w = b.w / b.w.sum()
        draws = rng.choice(N_ARR, size=self.iterations, p=w)
        kr = np.array([int(rng.integers(1 << 62))], dtype=np.uint64)
        seed_base = int(rng.integers(1 << 62))
        if self.walk == "kernel":
            visits = SK.search(
                template,
                ARR[draws].astype(np.int32),
                head,
                np.array(legal, dtype=np.int32),
                know0,
                me,
                self.c,
                kr,
                seed_base,
                self.stop_early,
            )
        else:
            visits = self.python_walk(template, draws, head, legal, know0, me, kr, seed_base)
        self.last_visits = visits  # for tests and benchmarks: the root's visit counts
        return max(legal, key=lambda a: visits[a])

    def python_walk(self, template, draws, head, legal, know0, me, kr, seed_base) -> np.ndarray:
        """The reference walk, in plain Python: what `search_kernel.search` does. Returns
        the root's visit count per action number (49)."""
        rng_below = K.rng_below
        codes = np.empty(256, dtype=np.int64)
        buf = np.empty(64, dtype=np.int32)
        # node key (tuple of observation codes) -> {action: [visits, total, available]}
        tree: dict[tuple, dict[int, list[float]]] = {}
        s = np.empty(K.STATE_SIZE, dtype=np.int32)
        know = np.empty_like(know0)
        for it in range(self.iterations):
            s[:] = template
            s[:N_TILES] = ARR[draws[it]]
            if len(head) > 1:
                s[K.DECK : K.DECK + len(head)] = head
                K._shuffle_at(s, K.DECK, len(head), kr)
            know[:] = know0
            key: tuple = ()
            path: list[tuple[tuple, int]] = []
            while s[K.PHASE] != K.P_OVER:
                if s[K.TO_MOVE] != me:
                    m = K.advance_others(s, know, me, kr, codes)
                    key = key + tuple(codes[:m].tolist())
                    continue
                n = K.legal_actions(s, buf)
                acts = buf[:n].tolist() if key else legal
                stats = tree.setdefault(key, {})
                for a in acts:
                    stats.setdefault(a, [0.0, 0.0, 0.0])[2] += 1
                untried = [a for a in acts if stats[a][0] == 0]
                if untried:
                    a = untried[rng_below(kr, len(untried))]
                else:
                    a = max(
                        acts,
                        key=lambda x: (
                            stats[x][1] / stats[x][0]
                            + self.c * math.sqrt(math.log(stats[x][2]) / stats[x][0])
                        ),
                    )
                path.append((key, a))
                code = K.observe_code(s, a, me)
                K.apply_know(s, know, a)
                key = key + (K.face_up_code(s, code),)
                if untried:
                    break
            if s[K.PHASE] == K.P_OVER:
                winner = int(s[K.WINNER])
            else:
                winner = int(K.playout_casual(s, know, seed_base + it))
            value = 0.0 if winner < 0 else (1.0 if winner == me else -1.0)
            for node_key, a in path:
                st = tree[node_key][a]
                st[0] += 1
                st[1] += value
            if self.stop_early and (it + 1) % SK.CHECK_EVERY == 0:
                counts = sorted((tree[()][a][0] for a in legal), reverse=True) + [0.0]
                if counts[0] - counts[1] > self.iterations - it - 1:
                    break
        visits = np.zeros(SK.N_ACTIONS)
        for a, st in tree.get((), {}).items():
            visits[a] = st[0]
        return visits


def to_kernel(state: State, out: np.ndarray) -> None:
    """Write a reference State into a kernel state array."""
    out[:] = 0
    out[:9] = state.tiles
    out[9:11] = state.face_up
    out[K.DECK : K.DECK + len(state.deck)] = state.deck
    out[K.DECK_LEN] = len(state.deck)
    out[K.TO_MOVE] = state.to_move
    out[K.TURN_PLAYER] = state.turn_player
    out[K.TURN_NUMBER] = state.turn_number
    out[K.PHASE] = int(state.phase)
    out[K.CARD] = state.card
    out[K.SLOT] = state.slot
    out[K.PICKED : K.PICKED + len(state.picked)] = state.picked
    out[K.N_PICKED] = len(state.picked)
    first = state.swap_first or (-1, -1)
    out[K.FIRST_A], out[K.FIRST_B] = first
    out[K.SWAP_A] = state.swap_a
    out[K.WINNER] = -1 if state.winner is None else state.winner
    out[K.ENDING] = -1
    out[K.TURN_CAP] = state.options.turn_cap
    out[K.SECOND_SWAP] = ("distinct", "disjoint", "any").index(state.options.second_swap)
    out[K.SHUFFLE_BY] = ("chance", "opponent").index(state.options.shuffle)


# ----- Omniscient -----------------------------------------------------------------------


def _grid_score(tiles: list[int], me: int) -> float:
    """Most of my tiles in one bomb-free line (3 means I win by going for it)."""
    best = 0.0
    for line in LINES:
        vals = [tiles[t] for t in line]
        if BOMB in vals:
            continue
        best = max(best, sum(1 for v in vals if v == me) + 0.01 * sum(1 for v in vals if v != me))
    return best


class OmniscientAgent(Agent):
    """Sees every tile (an upper bound). Searches each card's decisions on the true grid."""

    name = "omniscient"
    omniscient = True

    def choose(self, state: State, rng: np.random.Generator | None) -> int:
        """Choose on the whole state (its view): it sees every tile."""
        me = state.symbol(state.to_move)
        if state.phase == Phase.OPP_SHOW:  # I am asked to show: never the bomb if I can
            for i, s in enumerate(SHOW_SETS):
                if all(state.tiles[state.picked[j]] != BOMB for j in s):
                    return ACTION_SHOWSET + i
            return ACTION_SHOWSET
        if state.phase == Phase.TURN:
            for k, line in enumerate(LINES):
                if all(state.tiles[t] == me for t in line):
                    return ACTION_LINE + k
        value, action = self._search(state, state.to_move, me, depth=0)
        if state.phase == Phase.TURN and value < _grid_score(state.tiles, me) - 1e-9:
            # Every card would cost me: go for a bomb-free line instead (no harm done).
            for k, line in enumerate(LINES):
                if all(state.tiles[t] != BOMB for t in line):
                    return ACTION_LINE + k
        return action

    def _search(self, state: State, p: int, me: int, depth: int) -> tuple[float, int]:
        """Best (score, action) over this turn's remaining decisions on the true grid."""
        if state.is_over():
            return (100.0 if state.winner == p else -100.0), -1
        if state.phase == Phase.TURN and depth > 0:
            return _grid_score(state.tiles, me), -1
        if state.to_move == CHANCE:
            total = 0.0
            for a in state.legal_actions():
                c = state.clone()
                c.apply(a)
                total += self._search(c, p, me, depth + 1)[0]
            return total / 6, -1
        if state.to_move != p:  # the opponent shows: they avoid the bomb if they can
            c = state.clone()
            c.apply(OmniscientAgent().choose(c, None))
            return self._search(c, p, me, depth + 1)[0], -1
        legal = self._candidates(state)
        best = (-1e9, legal[0])
        for a in legal:
            c = state.clone()
            c.apply(a)
            v = self._search(c, p, me, depth + 1)[0]
            if v > best[0] + 1e-12:
                best = (v, a)
        return best

    def _candidates(self, state: State) -> list[int]:
        """Prune decisions that cannot change the grid to one representative."""
        legal = state.legal_actions()
        ph, card = state.phase, state.card
        if ph == Phase.TURN:
            # Going for it on a line that is not all mine is never better here.
            return [a for a in legal if a >= ACTION_CARD]
        if ph == Phase.PEEK_OR_STOP:
            return [ACTION_STOP]
        if ph == Phase.SHOW_PEEKED:
            return [ACTION_STOP]
        if ph == Phase.PEEK and card in (
            Card.PEEK_MANY,
            Card.PEEK2_SHOW,
            Card.PEEK1_SWAP_SWAP,
            Card.ALARM_PEEK_GO,
        ):
            safe = [t for t in legal if state.tiles[t] != BOMB]
            return safe[:1]
        if ph == Phase.PEEK and card == Card.PROMO_PEEK3:
            # Peek at the bomb and two more: the opponent must show 1 or 2 of them.
            bomb = state.tiles.index(BOMB)
            if bomb in legal:
                return [bomb]
            return legal[:1]
        if ph in (Phase.SWAP_B, Phase.SWAP2_B):
            return [t for t in legal if t > state.swap_a] or legal[:1]
        if ph in (Phase.PEEK, Phase.SHOW) and state.picked:
            return [t for t in legal if t > max(state.picked)] or legal[:1]
        return legal


#: Every agent by name: its class and one line on how it plays (the module docstring
#: says more). One table; `AGENTS` and `OMNISCIENT_AGENTS` below are its two parts.
REGISTRY: dict[str, tuple[type[Agent], str]] = {
    "random": (RandomAgent, "uniformly random legal decisions"),
    "heuristic": (HeuristicAgent, "a casual player's rules of thumb, on exact beliefs"),
    "greedy": (
        BeliefGreedyAgent,
        "belief-greedy: goes for it above a threshold (greedy:THRESHOLD, default 0.6), "
        "else the card with the best sampled outcome",
    ),
    "ismcts": (ISMCTSAgent, "information-set MCTS with random playouts (ismcts:ITERATIONS)"),
    "ismcts-guarded": (
        GuardedISMCTSAgent,
        "ismcts that never goes for a line as likely to hold the bomb as to be all its own",
    ),
    "ismcts-heuristic": (
        HeuristicISMCTSAgent,
        "ISMCTS over its own decisions with casual players in the playouts "
        "(ismcts-heuristic:ITERATIONS)",
    ),
    "ismcts-heuristic-guarded": (
        HeuristicISMCTSAgent,
        "ismcts-heuristic with the gambles that lose on average left out",
    ),
    "omniscient": (
        OmniscientAgent,
        "SEES EVERY TILE (an upper bound, not a fair player): searches the true grid",
    ),
}
#: The agents that play from their seat's `View`: {name: description}.
AGENTS = {n: d for n, (cls, d) in REGISTRY.items() if not cls.omniscient}
#: The agents whose view is the whole `State` (they see every tile): {name: description}.
#: `make_agent` builds them and `play_game` gives them the state.
OMNISCIENT_AGENTS = {n: d for n, (cls, d) in REGISTRY.items() if cls.omniscient}
#: Specs of every agent in `AGENTS`, with tiny iteration counts (a few games in a test).
QUICK_AGENTS = (
    "random",
    "heuristic",
    "greedy",
    "ismcts:4",
    "ismcts-guarded:4",
    "ismcts-heuristic:4",
    "ismcts-heuristic-guarded:4",
)


#: The most ISMCTS iterations an agent takes per decision: each decision draws its
#: iterations' samples at once, and 10 million already take minutes per move.
MAX_ISMCTS_ITERATIONS = 10_000_000


def _check_iterations(iterations: int) -> None:
    if not 1 <= iterations <= MAX_ISMCTS_ITERATIONS:
        raise BadInput(
            f"ISMCTS iterations {iterations} out of range; expected 1..{MAX_ISMCTS_ITERATIONS:,}"
        )


def make_agent(spec: str) -> Agent:
    """Build an agent from 'name' or 'name:parameter' (ismcts:ITERATIONS, greedy:THRESHOLD).

    >>> make_agent("ismcts:50").spec()
    'ismcts:50'
    """
    name, _, param = spec.strip().partition(":")
    if name not in REGISTRY:
        raise unknown("agent", name, REGISTRY)
    cls = REGISTRY[name][0]
    if name == "ismcts-heuristic-guarded" and not param:
        return HeuristicISMCTSAgent(guard=True)
    if not param:
        return cls()
    try:
        if name in ("ismcts-heuristic", "ismcts-heuristic-guarded"):
            return HeuristicISMCTSAgent(int(param), guard=name.endswith("guarded"))
        if name in ("ismcts", "ismcts-guarded"):
            return cls(iterations=int(param))
        if name == "greedy":
            return BeliefGreedyAgent(threshold=float(param))
    except ValueError as exc:
        if isinstance(exc, BadInput):
            raise
        raise BadInput(f"agent parameter {param!r} in {spec!r} is not a number") from None
    raise BadInput(f"agent {name!r} takes no parameter (got {spec!r})")


@dataclass
class GameResult:
    """One finished game: who won, how, after how many turns and decisions."""

    seed: int
    winner: int | None
    ending: Ending
    turns: int
    decisions: int
    cards_used: tuple[list[int], list[int]]
    state: State


def play_game(
    agent_x: Agent, agent_o: Agent, seed: int, options: Options | None = None
) -> GameResult:
    """Play one game: seat 0 (X, moves first) and seat 1 (O); chance from the seed.

    The deal and chance moves come from SplitMix64(seed) (as in `rules.random_game`);
    each agent gets its own NumPy generator derived from the same seed, and its view
    (the whole state for an omniscient agent).
    """
    options = options or Options()
    rng = SplitMix64(seed)
    state = State.setup(rng, options)
    agents = (agent_x, agent_o)
    gens = [np.random.default_rng([seed, seat]) for seat in (0, 1)]
    used: tuple[list[int], list[int]] = ([], [])
    while not state.is_over():
        who = state.to_move
        if who == CHANCE:
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            continue
        agent = agents[who]
        if agent.omniscient:
            a = agent.act(state, state.legal_actions(), gens[who])
        else:
            view = view_of(state, who)
            a = agent.act(view, view.legal, gens[who])
        if state.phase == Phase.TURN and a >= ACTION_CARD:
            used[who].append(state.face_up[a - ACTION_CARD])
        state.apply(a)
    return GameResult(
        seed=seed,
        winner=state.winner,
        ending=state.ending,
        turns=state.turn_number - (1 if state.ending == Ending.TURN_CAP else 0),
        decisions=len(state.history),
        cards_used=used,
        state=state,
    )


ALARM = ALARM_CARDS

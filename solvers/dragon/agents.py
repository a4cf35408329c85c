"""Strategies for Bomb the Dragon: who picks the firecrackers, and where Rockets go.

Every strategy sees only a `View` (own hand, the table, the discard pile, kept Doubles,
scores, pile sizes), never the others' hands or the deck order. Registered by short name
in `STRATEGIES`:

- `random`: a uniformly random card (two distinct ones with two players); a Rocket goes
  under a uniformly random allowed slot.
- `greedy`: the card with the best immediate expected points. The others' cards are
  unknown: each is modelled as a uniform draw from the cards this player cannot see, so
  the slot this card lands in is binomial (how many of the others' cards go before it).
- `position`: the rulebook's two ways to act on the order: play the lowest card to land
  first (under the leftmost body) or the highest to land last (under the rightmost one),
  whichever takes a body now; if neither does, play the lowest (keep the big cards).
- `montecarlo`: samples the others' hands from the unseen cards and their choices at
  random, plays each sample's turn out, and picks the card with the best mean of (own
  points minus the best other's points) this turn.

greedy, position and montecarlo share one Rocket rule (`smart_rocket`): take the best
positive body the Rocket reaches; otherwise go under the body worth least to the others.
The kernel (`kernel.py`) implements all four identically, draw for draw.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from bombsolve.solvers.common.errors import BadInput, unknown
from bombsolve.solvers.common.rng import SplitMix64
from bombsolve.solvers.dragon.rules import (
    ROCKET,
    GameState,
    Slot,
    View,
    pick_action,
    rocket_action,
)

#: Strategy codes shared with the kernel.
CODES = {"random": 0, "greedy": 1, "position": 2, "montecarlo": 3}
KERNEL_STRATEGIES = ("random", "greedy", "position", "montecarlo")


def body_value(view: View, body: int, double: bool) -> int:
    """Return the points for taking `body` (doubled by a Double), honouring `bad_luck`."""
    b = view.cards.bodies[body]
    pts = b.points
    if b.special == "bad_luck" and not view.options.bad_luck:
        pts = -pts
    return pts * 2 if double else pts


def _order(view: View, card: int) -> tuple[int, int]:
    return view.cards.firecrackers[card].order


def _special(view: View, card: int) -> str:
    return view.cards.firecrackers[card].special


def smart_rocket(view: View, card: int, slots: list[int]) -> int:
    """Return the Rocket's slot: the best positive body it takes, else the least valuable."""
    power = view.cards.firecrackers[card].power
    best, best_val = -1, 0
    for i in slots:
        body, _, p = view.row[i]
        if body >= 0 and p + power >= view.cards.bodies[body].vitality:
            v = body_value(view, body, False)
            if v > best_val:
                best, best_val = i, v
    if best >= 0:
        return best
    # No gain: put it where it helps the next players least (the lowest-valued body it
    # does not take); empty slots count as worth 0.
    best, best_val = -1, 10**9
    for i in slots:
        body, _, p = view.row[i]
        if body >= 0 and p + power >= view.cards.bodies[body].vitality:
            continue
        v = body_value(view, body, False) if body >= 0 else 0
        if v < best_val:
            best, best_val = i, v
    if best >= 0:
        return best
    # Every allowed slot would be taken at a loss: take the least bad.
    best, best_val = slots[0], -(10**9)
    for i in slots:
        body = view.row[i][0]
        v = body_value(view, body, False)
        if v > best_val:
            best, best_val = i, v
    return best


class Strategy:
    """A strategy's one signature, `act(view, legal, rng)`: its `choose` (step 1) or its
    `rocket` (a Rocket's slot in step 2), whichever decision the view says is pending,
    as the action int (rules.py, "Actions")."""

    name: str

    def act(self, view: View, legal: list[int], rng: SplitMix64) -> int:
        """Return the action of this strategy's choice (one of `legal`)."""
        n_fire = len(view.cards.firecrackers)
        if view.decision == ROCKET:
            return rocket_action(self.rocket(view, view.rocket, list(view.slots), rng), n_fire)
        return pick_action(self.choose(view, rng), n_fire)

    def choose(self, view: View, rng: SplitMix64) -> list[int]:
        """Return the firecracker ids to play (view.picks of them, from view.hand)."""
        raise NotImplementedError

    def rocket(self, view: View, card: int, slots: list[int], rng: SplitMix64) -> int:
        """Return one of `slots`: the slot index the Rocket `card` goes under."""
        raise NotImplementedError


@dataclass
class RandomStrategy(Strategy):
    """Uniformly random cards and Rocket slots (the benchmark and baseline strategy)."""

    name: str = "random"

    def choose(self, view: View, rng: SplitMix64) -> list[int]:
        """Return view.picks distinct random cards of the hand."""
        n = len(view.hand)
        if view.picks == 0:
            return []
        i = rng.below_exact(n)
        if view.picks == 1:
            return [view.hand[i]]
        j = rng.below_exact(n - 1)
        if j >= i:
            j += 1
        return [view.hand[i], view.hand[j]]

    def rocket(self, view: View, card: int, slots: list[int], rng: SplitMix64) -> int:
        """Return a uniformly random allowed slot."""
        return slots[rng.below_exact(len(slots))]


def _binomial(m: int, p: float) -> list[float]:
    """Return the Binomial(m, p) probabilities, by products in a fixed order (as the kernel)."""
    out = []
    for k in range(m + 1):
        c = 1.0
        for i in range(k):
            c = c * (m - i) / (i + 1)
        pk = 1.0
        for _ in range(k):
            pk = pk * p
        qk = 1.0
        for _ in range(m - k):
            qk = qk * (1.0 - p)
        out.append(c * pk * qk)
    return out


def expected_points(view: View, card: int, shift: int, unseen: list[int]) -> float:
    """Return the expected points of playing `card`, `shift` of my other cards before it.

    The others play m cards, each a uniform draw from `unseen`; only non-Rocket cards
    below `card` move it right (Rockets take no slot of the row). Strings count the chance that the
    drawn card (also from `unseen`) brings the total to the vitality.
    """
    fcs = view.cards.firecrackers
    fc = fcs[card]
    n_unseen = len(unseen)
    if fc.special == "rocket":
        best = 0.0
        for body, _, p in view.row:
            if body >= 0 and p + fc.power >= view.cards.bodies[body].vitality:
                v = float(body_value(view, body, False))
                if v > best:
                    best = v
        return best
    m = (view.n_players - 1) * view.picks
    below = 0
    for u in unseen:
        uf = fcs[u]
        # Rockets never take a slot of the row, so they never push this card right.
        if uf.order < fc.order and uf.special != "rocket":
            below += 1
    p = below / n_unseen if n_unseen else 0.0
    probs = _binomial(m, p)
    total = 0.0
    for k in range(m + 1):
        slot = k + shift
        if slot >= len(view.row):
            break
        body, _, power = view.row[slot]
        if body < 0:
            continue
        need = view.cards.bodies[body].vitality - power
        if fc.special == "string":
            if need <= 1:
                reach = 1.0
            elif n_unseen == 0:
                reach = 0.0
            else:
                hits = 0
                for u in unseen:
                    if fcs[u].power >= need - 1:
                        hits += 1
                reach = hits / n_unseen
        else:
            reach = 1.0 if fc.power >= need else 0.0
        if reach > 0.0:
            total += probs[k] * reach * body_value(view, body, fc.special == "double")
    return total


@dataclass
class GreedyStrategy(Strategy):
    """The card(s) with the best immediate expected points (see `expected_points`)."""

    name: str = "greedy"

    def choose(self, view: View, rng: SplitMix64) -> list[int]:
        """Return the best card, or the best pair with two players; ties go to lower cards."""
        unseen = view.unseen()
        hand = sorted(view.hand, key=lambda c: _order(view, c))
        if view.picks == 0:
            return []
        if view.picks == 1:
            best, best_v = hand[0], -1e18
            for c in hand:
                v = expected_points(view, c, 0, unseen)
                if v > best_v + 1e-9:
                    best, best_v = c, v
            return [best]
        best_pair, best_v = [hand[0], hand[1]], -1e18
        for i in range(len(hand)):
            for j in range(i + 1, len(hand)):
                a, b = hand[i], hand[j]
                # b lands one slot further right when a (lower) takes a slot before it.
                shift = 0 if _special(view, a) == "rocket" else 1
                v = expected_points(view, a, 0, unseen) + expected_points(view, b, shift, unseen)
                if v > best_v + 1e-9:
                    best_pair, best_v = [a, b], v
        return best_pair

    def rocket(self, view: View, card: int, slots: list[int], rng: SplitMix64) -> int:
        """Return `smart_rocket`'s slot."""
        return smart_rocket(view, card, slots)


def _sure_value(view: View, card: int, slot: int) -> int:
    """Return the points `card` takes for sure if it lands under `slot` (Strings count 1)."""
    fc = view.cards.firecrackers[card]
    if slot < 0 or slot >= len(view.row):
        return 0
    body, _, power = view.row[slot]
    if body < 0 or power + fc.power < view.cards.bodies[body].vitality:
        return 0
    return body_value(view, body, fc.special == "double")


@dataclass
class PositionStrategy(Strategy):
    """Play low to act first (leftmost body) or high to be placed last (rightmost body)."""

    name: str = "position"

    def choose(self, view: View, rng: SplitMix64) -> list[int]:
        """Return the lowest or the highest card (both with two players)."""
        hand = sorted(view.hand, key=lambda c: _order(view, c))
        if view.picks == 0:
            return []
        if view.picks == 2:
            return [hand[0], hand[-1]]
        plain = [c for c in hand if _special(view, c) != "rocket"]
        rockets = [c for c in hand if _special(view, c) == "rocket"]
        rocket_v = 0
        if rockets:
            r = rockets[0]
            for i in range(len(view.row)):
                body = view.row[i][0]
                if body >= 0 and _sure_value(view, r, i) > rocket_v:
                    rocket_v = _sure_value(view, r, i)
        if not plain:
            return [rockets[0]]
        low, high = plain[0], plain[-1]
        low_v = _sure_value(view, low, 0)
        high_v = _sure_value(view, high, len(view.row) - 1)
        if rocket_v > 0 and rocket_v > low_v and rocket_v > high_v:
            return [rockets[0]]
        if high_v > 0 and high_v > low_v:
            return [high]
        return [low]

    def rocket(self, view: View, card: int, slots: list[int], rng: SplitMix64) -> int:
        """Return `smart_rocket`'s slot."""
        return smart_rocket(view, card, slots)


@dataclass
class MonteCarloStrategy(Strategy):
    """Sample the others' hands and random choices; play the turn out; best mean margin.

    `samples` determinisations per decision, shared by all candidate moves (common
    random numbers), so candidates are compared on the same sampled worlds.
    """

    name: str = "montecarlo"
    samples: int = 24

    def choose(self, view: View, rng: SplitMix64) -> list[int]:
        """Return the candidate with the best mean (own - best other) points this turn."""
        hand = sorted(view.hand, key=lambda c: _order(view, c))
        if view.picks == 0:
            return []
        if view.picks == 1:
            candidates = [[c] for c in hand]
        else:
            candidates = [[a, b] for i, a in enumerate(hand) for b in hand[i + 1 :]]
        if len(candidates) == 1:
            return candidates[0]
        unseen = view.unseen()
        totals = [0.0] * len(candidates)
        me = view.player
        for _ in range(self.samples):
            pool = list(unseen)
            rng.shuffle(pool)
            hands: list[list[int]] = []
            for p in range(view.n_players):
                if p == me:
                    hands.append(list(view.hand))
                    continue
                size = min(view.hand_sizes[p], len(pool))
                hands.append([pool.pop() for _ in range(size)])
            others = []
            for p in range(view.n_players):
                h = hands[p]
                k = min(view.picks, len(h)) if p != me else 0
                picks = []
                for _ in range(k):
                    picks.append(h[rng.below_exact(len(h))])
                    h = [c for c in h if c != picks[-1]]
                others.append(picks)
            seed = rng.next()
            for ci, cand in enumerate(candidates):
                state = _world(view, hands, pool, seed)
                before = list(state.round_points)
                choices = [cand if p == me else others[p] for p in range(view.n_players)]
                state.place(choices, _smart_rocket_of(state))
                gains = [state.round_points[p] - before[p] for p in range(view.n_players)]
                rival = max(gains[p] for p in range(view.n_players) if p != me)
                totals[ci] += gains[me] - rival
        best = 0
        for ci in range(1, len(candidates)):
            if totals[ci] > totals[best] + 1e-9:
                best = ci
        return candidates[best]

    def rocket(self, view: View, card: int, slots: list[int], rng: SplitMix64) -> int:
        """Return `smart_rocket`'s slot."""
        return smart_rocket(view, card, slots)


def _smart_rocket_of(state: GameState):
    """Every Rocket of a sampled world goes where `smart_rocket` sends it."""

    def rocket(player: int, card: int, slots: list[int]) -> int:
        return smart_rocket(state.view(player), card, slots)

    return rocket


def _world(view: View, hands: list[list[int]], deck: list[int], seed: int) -> GameState:
    """Build a sampled full state consistent with `view` (the deck order is a guess)."""
    state = GameState.__new__(GameState)
    state.n = view.n_players
    state.options = view.options
    state.cards = view.cards
    state.rng = SplitMix64(seed)
    state.picks = view.picks
    state.hands = copy.deepcopy(hands)
    state.deck = list(deck)
    state.discard = list(view.discard)
    state.row = [Slot(b, list(cs), pw) for b, cs, pw in view.row]
    state.kept = [[] for _ in range(view.n_players)]
    state.scores = list(view.scores)
    state.dragon = []
    state.round_points = list(view.round_points)
    state.bodies_round = [0] * view.n_players
    state.bodies_game = [0] * view.n_players
    state.bonus = [0] * view.n_players
    state.captures = []
    state.plays = [0] * len(view.cards.firecrackers)
    state.reshuffles = 0
    state.round = state.turn = 0
    state.log = []
    state.record = False
    state.decision, state.seat = "", -1
    state.choices, state.queue, state.queue_at, state.placed = [], [], 0, 0
    state.rocket, state.rocket_choices = -1, []
    return state


STRATEGIES = {
    "random": RandomStrategy,
    "greedy": GreedyStrategy,
    "position": PositionStrategy,
    "montecarlo": MonteCarloStrategy,
}
ALIASES = {"mc": "montecarlo", "rand": "random", "pos": "position"}


def resolve_name(name: str) -> str:
    """Return the registered strategy name for `name` or an alias; BadInput if unknown."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in STRATEGIES:
        raise unknown("strategy", name, STRATEGIES)
    return key


def make_agents(names: list[str]) -> list:
    """Return one fresh strategy object per name."""
    return [STRATEGIES[resolve_name(n)]() for n in names]


#: The registered agents, one line each (the names `--strategies` takes).
AGENTS = {
    "random": "uniformly random cards and Rocket slots",
    "greedy": "the card(s) with the best immediate expected points",
    "position": "the lowest card to land first or the highest to land last",
    "montecarlo": "samples the others' hands and plays the turn out (montecarlo:N samples, 24)",
}
#: Every agent, cheap enough for a few games in a test.
QUICK_AGENTS = ("random", "greedy", "position", "montecarlo:4")


def make_agent(spec: str) -> Strategy:
    """Return the agent `spec` names: a name or alias, or ``montecarlo:N`` (N samples)."""
    name, colon, param = spec.partition(":")
    key = resolve_name(name)
    if not colon:
        return STRATEGIES[key]()
    if key != "montecarlo":
        raise BadInput(f"agent {spec!r}: {key} takes no parameter; expected {key}")
    try:
        samples = int(param)
    except ValueError:
        samples = 0
    if samples < 1:
        raise BadInput(f"agent {spec!r}: expected montecarlo:N with N a positive whole number")
    return MonteCarloStrategy(samples=samples)

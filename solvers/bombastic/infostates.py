"""Count the information states each player can reach in D turns, by exhaustive search.

Issue section 2. A player's information state is everything they have seen: every
decision they could see (whose turn, which card, which tiles were peeked at, shown,
swapped, which line was gone for, when a player stopped peeking) and what their own
peeks and shows told them. With perfect recall, two different such histories are two
different information states, so the count is the number of distinct histories.

What the player does not see is merged, not branched on: the opponent's peek results,
the order of an opponent's secret arrangement, the partner of an opponent's secret
swap, and the random shuffle. Chance that both see branches: the two first face-up
cards (any ordered pair of regular cards) and each card revealed from the deck.

The search walks that tree of histories but never lists it: the number of histories
below a node depends only on the node's *knowledge state* (which grids are still
possible for the player, the public state, turns left), so counts are memoised on it.
Within the tree, the grids still possible are represented by concrete arrangements and
every move is made on each of them with the reference engine (`rules.State`), so the
rules are not written a second time here.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from solvers.bombastic.rules import (
    ALARM_CARDS,
    CHANCE,
    Card,
    Options,
    Phase,
    State,
)
from solvers.bombastic.tiles import ARR, N_ARR, index_of
from solvers.common.errors import BadInput


@dataclass
class InfostateCount:
    """Counts for one player: histories after each number of whole turns."""

    player: int
    by_depth: list[int]
    nodes: int


def _hidden_to(state: State, p: int) -> bool:
    """Is the decision about to be made invisible to player p?"""
    if state.to_move == CHANCE:
        return True
    if state.to_move != p and state.phase in (Phase.ARRANGE, Phase.SECRET_SWAP):
        return True
    return False


class _Counter:
    def __init__(self, p: int, options: Options) -> None:
        self.p = p
        self.options = options
        self.memo: dict[tuple, int] = {}
        self.nodes = 0

    def key(self, st: State, worlds: frozenset, left: int) -> tuple:
        unseen = tuple(sorted(c for c in st.deck if c not in st.cycled))
        tail = tuple(c for c in st.deck if c in st.cycled)
        picked = tuple(sorted(st.picked)) if st.card == Card.PEEK_MANY else tuple(st.picked)
        return (
            worlds,
            left,
            st.phase,
            st.turn_player,
            st.to_move,
            tuple(st.face_up),
            unseen,
            tail,
            st.card,
            st.slot,
            picked,
            st.swap_a,
            st.swap_first,
            st.is_over(),
        )

    def count(self, st: State, worlds: frozenset, left: int) -> int:
        """Histories below this node that end at a turn boundary `left` turns on (or end)."""
        if st.is_over():
            return 1
        if st.phase == Phase.TURN and left == 0:
            return 1
        k = self.key(st, worlds, left)
        got = self.memo.get(k)
        if got is not None:
            return got
        self.nodes += 1
        total = 0
        for child, child_worlds, child_left in self.children(st, worlds, left):
            total += self.count(child, child_worlds, child_left)
        self.memo[k] = total
        return total

    def children(self, st: State, worlds: frozenset, left: int):
        """Yield (public state, worlds, turns left) for each history the player can tell apart."""
        p = self.p
        hidden = _hidden_to(st, p)
        actions = st.legal_actions()
        groups: dict[int, list] = {}
        # With hidden moves every alternative lands in one child; otherwise one per action.
        for a in actions:
            gkey = -1 if hidden else a
            groups.setdefault(gkey, []).append(a)
        for _, acts in groups.items():
            parts: dict[tuple, tuple[State, set]] = defaultdict(lambda: (None, set()))
            for w in worlds:
                for a in acts:
                    for c in self._outcomes(st, w, a):
                        obs_key, child, idx = c
                        rep, ws = parts[obs_key]
                        ws.add(idx)
                        parts[obs_key] = (rep or child, ws)
            for rep, ws in parts.values():
                # Reaching the TURN phase means a turn has just ended.
                yield rep, frozenset(ws), left - 1 if rep.phase == Phase.TURN else left

    def _outcomes(self, st: State, w: int, a: int):
        """Apply a to one world; branch on the card revealed if the card ends."""
        base = st.clone()
        base.tiles = ARR[w].tolist()
        base.observations = ([], [])
        base.history = []
        probe = base.clone()
        probe.apply(a)
        revealed = any(ev[0] == "reveal" for ev in probe.observations[0])
        if not revealed:
            yield self._obs_key(probe), probe, index_of(probe.tiles)
            return
        unseen = [c for c in st.deck if c not in st.cycled]
        candidates = sorted(set(unseen)) if unseen else [st.deck[0]]
        for c in candidates:
            alt = base.clone()
            # Cards never seen are interchangeable: put c on top, the rest keep their places.
            i = alt.deck.index(c)
            alt.deck[0], alt.deck[i] = alt.deck[i], alt.deck[0]
            alt.apply(a)
            yield self._obs_key(alt), alt, index_of(alt.tiles)

    def _obs_key(self, child: State) -> tuple:
        return (tuple(child.observations[self.p]), child.is_over(), child.winner)


def count_infostates(depth: int, player: int, options: Options | None = None) -> InfostateCount:
    """Count `player`'s information states after 0..depth whole turns (exhaustive).

    Setup is public: every ordered pair of regular cards may be face up, the rest of the
    deck is unseen. Games that end earlier count once, as they ended.
    """
    if depth < 0:
        raise BadInput(f"--depth {depth} must be 0 or more")
    if player not in (0, 1):
        raise BadInput(f"player {player} must be 0 (X) or 1 (O)")
    options = options or Options()
    cards = [int(c) for c in options.deck_cards()]
    regular = [c for c in cards if c not in ALARM_CARDS]
    counter = _Counter(player, options)
    worlds = frozenset(range(N_ARR))
    by_depth = []
    for d in range(depth + 1):
        total = 0
        for a in regular:
            for b in regular:
                if a == b:
                    continue
                deck = [c for c in cards if c not in (a, b)]
                st = State(options=options, tiles=ARR[0].tolist(), face_up=[a, b], deck=deck)
                total += counter.count(st, worlds, d)
        by_depth.append(total)
    return InfostateCount(player=player, by_depth=by_depth, nodes=counter.nodes)

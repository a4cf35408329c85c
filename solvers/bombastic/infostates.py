"""Count the information states each player can reach in D turns, by exhaustive search.

A player's information state is everything they have seen: every
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

Symmetry (`symmetry=True`, the default): the rules never tell one tile from another
except through the 8 lines and 16 L-shapes, and both sets are mapped onto themselves by
the 8 rotations and reflections of the square; the two face-up slots are likewise
interchangeable (a card is replaced in the slot it came from). Relabelling the tiles or
the slots of a knowledge state is a bijection between the histories below it and those
below its image, so the count below a node is memoised on the smallest of its 16
images. `tests/bombastic/test_bombastic_infostates.py` checks the two keys give the
same counts and the plain enumeration agrees.

This walk is the reference: `infostates_kernel.py` counts the same thing with Numba (a
630-bit mask for the grids, a hash-table memo) some 35 to 100 times faster, and
`tests/bombastic/test_bombastic_infostates_kernel.py` demands the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bombsolve.solvers.bombastic.rules import (
    ALARM_CARDS,
    CHANCE,
    Card,
    Options,
    Phase,
    State,
)
from bombsolve.solvers.bombastic.tiles import ARR, CODE_TO_INDEX, N_ARR, _permuted_index
from bombsolve.solvers.common.errors import BadInput


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
    if state.to_move != p and state.phase in (Phase.ARRANGE, Phase.SECRET_SWAP, Phase.SHUFFLE):
        return True
    return False


def _position_map(st: State, a: int) -> tuple[list[int], State]:
    """Apply a tile-moving action to labelled tiles: new position j holds old tile pi[j]."""
    probe = st.clone()
    probe.tiles = list(range(9))
    probe.observations = ([], [])
    probe.apply(a)
    return probe.tiles, probe


def _touched(st: State, a: int) -> list[int]:
    """Tiles whose values this action looks at (peeks and shows by anyone), in order."""
    probe = st.clone()
    probe.observations = ([], [])
    probe.apply(a)
    seen = []
    for ev in probe.observations[0] + probe.observations[1]:
        if ev[0] in ("peek", "show", "opp_peek") and ev[1] not in seen:
            seen.append(ev[1])
    return seen


def _rotate(t: int) -> int:
    r, c = divmod(t, 3)
    return 3 * c + (2 - r)


def _grid_symmetries() -> list[list[int]]:
    """The 8 symmetries of the square as tile maps: tile t goes to position g[t]."""
    rot = [list(range(9))]
    for _ in range(3):
        rot.append([_rotate(t) for t in rot[-1]])
    mirror = [3 * (t // 3) + 2 - t % 3 for t in range(9)]
    return rot + [[mirror[g[t]] for t in range(9)] for g in rot]


SYMMETRIES = _grid_symmetries()
# SYM_ARR[k][i]: the arrangement that grid i becomes under symmetry k.
SYM_ARR = np.stack([_permuted_index(g) for g in SYMMETRIES])


class _Counter:
    def __init__(self, p: int, options: Options, symmetry: bool = True) -> None:
        self.p = p
        self.options = options
        self.symmetry = symmetry
        self.memo: dict[tuple, int] = {}
        self.nodes = 0

    def key(self, st: State, mask: np.ndarray, left: int) -> tuple:
        """The memo key: the knowledge state (its smallest image under the symmetries)."""
        if not self.symmetry:
            return self._key(st, mask, left, list(range(9)), False)
        idx = np.flatnonzero(mask)
        best = None
        for g, sym_arr in zip(SYMMETRIES, SYM_ARR, strict=True):
            image = np.zeros(N_ARR, dtype=bool)
            image[sym_arr[idx]] = True
            for flip in (False, True):
                k = self._key(st, image, left, g, flip)
                if best is None or k < best:
                    best = k
        return best

    def _key(self, st: State, mask: np.ndarray, left: int, g: list[int], flip: bool) -> tuple:
        picked = [g[t] for t in st.picked]
        picked = tuple(sorted(picked)) if st.card == Card.PEEK_MANY else tuple(picked)
        unseen = tuple(sorted(c for c in st.deck if c not in st.cycled))
        first = () if st.swap_first is None else tuple(sorted(g[t] for t in st.swap_first))
        swap_a = -1 if st.swap_a < 0 else g[st.swap_a]
        inner = (int(st.phase), st.turn_player, st.to_move, st.card, picked, swap_a, first)
        if left == 1 and st.phase != Phase.TURN:
            # The turn ends in a leaf: only how many cards might be revealed matters.
            public = (len(unseen) or 1,)
        else:
            tail = tuple(c for c in st.deck if c in st.cycled)
            face_up, slot = tuple(st.face_up), st.slot
            if flip:
                face_up, slot = face_up[::-1], (-1 if slot < 0 else 1 - slot)
            public = (face_up, unseen, tail, slot)
        return (np.packbits(mask).tobytes(), left, inner, public)

    def count(self, st: State, mask: np.ndarray, left: int) -> int:
        """Histories below this node that end at a turn boundary `left` turns on (or end)."""
        # The turn cap ends the game after turn `turn_cap`: only the turns still playable
        # matter, so the memo is keyed on those (a turn-3 node must not reuse a turn-1
        # node's count when the cap cuts it short).
        left = min(left, self.options.turn_cap - st.turn_number + 1)
        if st.is_over() or (st.phase == Phase.TURN and left <= 0):
            return 1
        k = self.key(st, mask, left)
        got = self.memo.get(k)
        if got is not None:
            return got
        self.nodes += 1
        total = 0
        for child, child_mask in self.children(st, mask):
            child_left = left - 1 if child.phase == Phase.TURN else left
            total += self.count(child, child_mask, child_left)
        self.memo[k] = total
        return total

    def children(self, st: State, mask: np.ndarray):
        """Yield (public state, possible grids) for each history the player can tell apart."""
        rep = int(np.flatnonzero(mask)[0])
        st = st.clone()
        st.tiles = ARR[rep].tolist()
        st.observations = ([], [])
        actions = st.legal_actions()
        if _hidden_to(st, self.p):
            # One child: every hidden alternative, merged. (They move tiles, never look.)
            union = np.zeros(N_ARR, dtype=bool)
            child = None
            for a in actions:
                pi, child = _position_map(st, a)
                union[_moved(mask, pi)] = True
            child_tiles = ARR[int(np.flatnonzero(union)[0])].tolist()
            yield from self._reveals(st, actions[0], child_tiles, union)
            return
        for a in actions:
            touched = _touched(st, a)
            if not touched:
                pi, _ = _position_map(st, a)
                moved = np.zeros(N_ARR, dtype=bool)
                moved[_moved(mask, pi)] = True
                child_tiles = ARR[int(np.flatnonzero(moved)[0])].tolist()
                yield from self._reveals(st, a, child_tiles, moved)
                continue
            # Split the grids by the values on the touched tiles; play each class once and
            # merge classes the player cannot tell apart (same observations, same end).
            codes = ARR[:, touched].astype(np.int64) @ (3 ** np.arange(len(touched)))
            merged: dict[tuple, tuple[State, np.ndarray]] = {}
            for code in np.unique(codes[mask]):
                cls = mask & (codes == code)
                w = int(np.flatnonzero(cls)[0])
                for child, cmask in self._reveals(st, a, ARR[w].tolist(), cls, from_tiles=True):
                    key = (
                        tuple(child.observations[self.p]),
                        child.is_over(),
                        child.winner,
                        tuple(child.face_up),
                    )
                    if key in merged:
                        merged[key] = (merged[key][0], merged[key][1] | cmask)
                    else:
                        merged[key] = (child, cmask)
            yield from merged.values()

    def _reveals(self, st: State, a: int, tiles: list[int], mask: np.ndarray, from_tiles=False):
        """Apply a (from the given grid); branch on each card that may be revealed."""
        base = st.clone()
        base.tiles = list(tiles)
        base.observations = ([], [])
        child = base.clone()
        child.apply(a)
        if not any(ev[0] == "reveal" for ev in child.observations[0]):
            yield child, mask
            return
        unseen = sorted({c for c in st.deck if c not in st.cycled})
        for c in unseen or [st.deck[0]]:
            alt = base.clone()
            i = alt.deck.index(c)
            alt.deck[0], alt.deck[i] = alt.deck[i], alt.deck[0]
            alt.apply(a)
            yield alt, mask


def _moved(mask: np.ndarray, pi: list[int]) -> np.ndarray:
    """Indices of the grids in `mask` after new position j takes the tile from pi[j]."""
    rows = ARR[mask][:, pi].astype(np.int64)
    return CODE_TO_INDEX[rows @ (3 ** np.arange(8, -1, -1))]


def count_infostates(
    depth: int, player: int, options: Options | None = None, symmetry: bool = True
) -> InfostateCount:
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
    counter = _Counter(player, options, symmetry)
    worlds = np.ones(N_ARR, dtype=bool)
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

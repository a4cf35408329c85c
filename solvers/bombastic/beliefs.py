"""What a player knows: the arrangements consistent with what they saw, and beliefs.

A player's information state is the public history plus their own
observations (the event lists that `rules.State.observations` keeps). Which of the 630
arrangements are still possible is a 630-bit *mask*; *beliefs* are probabilities over
the 630 that start uniform and follow each event.

The stated model of hidden choices (what the rulebook leaves to people):

* Which tiles the opponent picks to peek at tells nothing about the tiles.
* "Opponent shuffles them" is uniformly random (the card says "randomly").
* A secret arrangement by the opponent ("Secretly arrange them") is, to the observer,
  one of the 6 orders with equal chance; a secret swap ("Secretly swap it with another
  1") goes to each of the 8 other tiles with equal chance.

Facts from outcomes (logic, no model of anyone's choices). Most endings show their
tiles, and the shows are events already. One outcome reveals a tile nobody shows:
"Peek at as many as you want. If you see the bomb, you lose." When the opponent peeks
at a tile with that card and the game goes on, the tile is not the bomb ("If it's the
bomb, you lose the game"). The engine records it for both players as
``("not_bomb", t)`` (`odds` word ``not-bomb T``). The other cards' outcomes add nothing
beyond their shows: a Go for It, the ALARM "Peek at 1. Go for It." and the promo "Peek
at 3. Opponent shows 1 or 2" that go on show their tiles (so they are the shows, and
not the bomb); the L-shape ALARM always ends the game. What the opponent's choices
suggest (it stopped peeking, it went for a line) is no fact: an opponent model, kept
out of these beliefs (see `agents.opponent_knows` for the one the agents use).

Three implementations, each checked against the others and against brute force:

* `ExactBelief`: `fractions.Fraction` weights, the reference (exact odds for `odds`).
* `FastBelief`: NumPy float weights, for agents.
* Numba kernels on masks (10 uint64 words) and float weights, for speed.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from bombsolve.solvers.bombastic.tiles import (
    ARR,
    BOMB,
    HAS,
    LINE_ALL,
    LINE_BOMB,
    LINES,
    N_ARR,
    N_TILES,
    PAIR_INDEX,
    PERMS3,
    SWAP_MAP,
    VALUE_NAMES,
    perm3_map,
)
from bombsolve.solvers.common.errors import BadInput, unknown
from bombsolve.solvers.common.numba_jit import njit

#: Digest of the project files this module imports (bombsolve.solvers.common.numba_deps): a change to
#: them changes this file too, so Numba rebuilds its on-disk cache of this module.
NUMBA_DEPENDS_ON = "ac27079c69499958"

EVENT_WORDS = ("peek", "show", "not-bomb", "swap", "shuffle", "place", "secret-swap")

TRIPLES: tuple[tuple[int, int, int], ...] = tuple(itertools.combinations(range(N_TILES), 3))
TRIPLE_INDEX = {t: i for i, t in enumerate(TRIPLES)}
# TRIPLE_MAP[k, p, i]: arrangement i after the tiles of triple k are moved by PERMS3[p].
TRIPLE_MAP = np.array(
    [[perm3_map(tr, p) for p in PERMS3] for tr in TRIPLES], dtype=np.int32
).reshape(len(TRIPLES), 6, N_ARR)

N_WORDS = 10  # 630 bits in 10 uint64 words
# HAS_BITS[t, v]: the mask of arrangements with value v at tile t.
HAS_BITS = np.zeros((N_TILES, 3, N_WORDS), dtype=np.uint64)
for _t in range(N_TILES):
    for _v in range(3):
        for _i in np.flatnonzero(HAS[_t, _v]):
            HAS_BITS[_t, _v, _i >> 6] |= np.uint64(1) << np.uint64(_i & 63)


def _triple(positions) -> int:
    key = tuple(sorted(positions))
    if key not in TRIPLE_INDEX:
        raise BadInput(f"positions {positions} are not 3 different tiles 0..8")
    return TRIPLE_INDEX[key]


def event_text(ev: tuple) -> str:
    """Return an event as the text the `odds` command reads (see `parse_events`)."""
    kind = ev[0]
    if kind in ("peek", "show"):
        return f"{kind} {ev[1]}={'XOB'[ev[2]]}"
    if kind == "swap":
        return f"swap {ev[1]} {ev[2]}"
    if kind == "shuffle":
        return "shuffle " + " ".join(map(str, ev[1]))
    if kind == "place":
        return "place " + " ".join(f"{t}={'XOB'[v]}" for t, v in zip(ev[1], ev[2], strict=True))
    if kind == "secret_swap":
        return f"secret-swap {ev[1]}"
    if kind == "not_bomb":
        return f"not-bomb {ev[1]}"
    return " ".join(map(str, ev))


def _tile(word: str) -> int:
    if not word.isdigit() or not 0 <= int(word) < N_TILES:
        raise BadInput(f"tile {word!r} is not a position 0..8 (rows: 0 1 2 / 3 4 5 / 6 7 8)")
    return int(word)


def _tile_value(word: str) -> tuple[int, int]:
    if "=" not in word:
        raise BadInput(f"{word!r} should be TILE=VALUE, e.g. 4=X (values X, O, B)")
    t, v = word.split("=", 1)
    v = v.strip().upper()
    if v not in ("X", "O", "B", "BOMB"):
        raise BadInput(f"tile value {v!r} in {word!r} is not X, O or B")
    return _tile(t.strip()), "XOB".index(v[0])


def parse_events(text: str) -> list[tuple]:
    """Parse a position's history, events separated by ';' or ',' or new lines.

    Events (tiles 0..8, row by row; values X, O, B):
    ``peek 4=X`` I peeked; ``show 0=O`` shown to both (Go for It, show cards);
    ``not-bomb 4`` known by both not to be the bomb (my opponent peeked at it with "Peek
    at as many as you want" and the game went on); ``swap 1 2`` a swap both saw; ``shuffle 3 4 5`` put back in an order I do not know
    (a random shuffle, or my opponent's secret arrangement); ``place 0=X 1=O 2=B`` my own
    secret arrangement; ``secret-swap 4`` my opponent's secret swap of shown tile 4.

    >>> parse_events("peek 4=X; swap 4 8, shuffle 0 1 2")
    [('peek', 4, 0), ('swap', 4, 8), ('shuffle', (0, 1, 2))]
    """
    events: list[tuple] = []
    for raw in text.replace(";", "\n").replace(",", "\n").splitlines():
        words = raw.split()
        if not words:
            continue
        kind, args = words[0].lower(), words[1:]
        if kind in ("peek", "show"):
            if len(args) != 1:
                raise BadInput(f"{raw.strip()!r}: {kind} takes one TILE=VALUE, e.g. '{kind} 4=X'")
            events.append((kind, *_tile_value(args[0])))
        elif kind in ("not-bomb", "not_bomb"):
            if len(args) != 1:
                raise BadInput(f"{raw.strip()!r}: not-bomb takes one tile, e.g. 'not-bomb 4'")
            events.append(("not_bomb", _tile(args[0])))
        elif kind == "swap":
            if len(args) != 2 or _tile(args[0]) == _tile(args[1]):
                raise BadInput(f"{raw.strip()!r}: swap takes two different tiles, e.g. 'swap 1 2'")
            events.append(("swap", _tile(args[0]), _tile(args[1])))
        elif kind == "shuffle":
            if len(args) != 3:
                raise BadInput(f"{raw.strip()!r}: shuffle takes three tiles, e.g. 'shuffle 3 4 5'")
            pos = tuple(_tile(a) for a in args)
            _triple(pos)
            events.append(("shuffle", pos))
        elif kind == "place":
            if len(args) != 3:
                raise BadInput(f"{raw.strip()!r}: place takes three TILE=VALUE, e.g. 'place 0=X'")
            tv = [_tile_value(a) for a in args]
            pos = tuple(t for t, _ in tv)
            _triple(pos)
            events.append(("place", pos, tuple(v for _, v in tv)))
        elif kind in ("secret-swap", "secret_swap"):
            if len(args) != 1:
                raise BadInput(f"{raw.strip()!r}: secret-swap takes one tile")
            events.append(("secret_swap", _tile(args[0])))
        else:
            raise unknown("event", kind, EVENT_WORDS)
    return events


# ----- Exact reference ------------------------------------------------------------------


class ExactBelief:
    """Exact probabilities (Fractions) over the 630 arrangements, starting uniform."""

    def __init__(self) -> None:
        self.w: list[Fraction] = [Fraction(1, N_ARR)] * N_ARR

    def copy(self) -> ExactBelief:
        b = ExactBelief.__new__(ExactBelief)
        b.w = list(self.w)
        return b

    def update(self, ev: tuple, where: str = "") -> None:
        """Apply one observation event; raise BadInput if it is impossible."""
        kind = ev[0]
        if kind in ("peek", "show"):
            _, t, v = ev
            self._keep(ARR[:, t] == v, ev, where, f"tile {t} cannot be {VALUE_NAMES[v]}")
        elif kind == "not_bomb":
            t = ev[1]
            self._keep(ARR[:, t] != BOMB, ev, where, f"tile {t} is the bomb")
        elif kind == "swap":
            m = SWAP_MAP[PAIR_INDEX[ev[1], ev[2]]]
            self.w = [self.w[m[i]] for i in range(N_ARR)]
        elif kind == "shuffle":
            self._mix([TRIPLE_MAP[_triple(ev[1]), p] for p in range(6)], ev[1])
        elif kind == "place":
            pos, vals = ev[1], ev[2]
            self._mix([TRIPLE_MAP[_triple(pos), p] for p in range(6)], pos)
            for t, v in zip(pos, vals, strict=True):
                self.update(("show", t, v), where)
        elif kind == "secret_swap":
            t = ev[1]
            self._mix([SWAP_MAP[PAIR_INDEX[t, u]] for u in range(N_TILES) if u != t], (t,))
        elif kind == "move":
            self._mix([perm3_map(tuple(ev[1]), tuple(ev[2]))], ev[1])

    def _keep(self, possible: np.ndarray, ev: tuple, where: str, why: str) -> None:
        """Condition on a public fact: arrangements where `possible` is False drop out."""
        self.w = [w if possible[i] else Fraction(0) for i, w in enumerate(self.w)]
        total = sum(self.w)
        if total == 0:
            raise BadInput(
                f"impossible position: {event_text(ev)} contradicts what came before{where} ({why})"
            )
        self.w = [w / total for w in self.w]

    def _mix(self, maps: list[np.ndarray], positions) -> None:
        """Average the beliefs moved by each map (one hidden choice, equally likely)."""
        new = [Fraction(0)] * N_ARR
        share = Fraction(1, len(maps))
        for m in maps:
            for i, w in enumerate(self.w):
                if w:
                    new[m[i]] += w * share
        self.w = new

    def tile_odds(self) -> list[tuple[Fraction, Fraction, Fraction]]:
        """Return for each tile (P(X), P(O), P(Bomb))."""
        out = []
        for t in range(N_TILES):
            p = [Fraction(0)] * 3
            for i, w in enumerate(self.w):
                if w:
                    p[ARR[i, t]] += w
            out.append(tuple(p))
        return out

    def line_odds(self, mine: int) -> list[tuple[Fraction, Fraction, Fraction]]:
        """Return for each line (P(all mine), P(all the opponent's), P(holds the bomb))."""
        out = []
        for k in range(len(LINES)):
            a = sum((w for i, w in enumerate(self.w) if w and LINE_ALL[mine, k, i]), Fraction(0))
            b = sum(
                (w for i, w in enumerate(self.w) if w and LINE_ALL[1 - mine, k, i]), Fraction(0)
            )
            c = sum((w for i, w in enumerate(self.w) if w and LINE_BOMB[k, i]), Fraction(0))
            out.append((a, b, c))
        return out

    def support(self) -> int:
        """Return how many arrangements are still possible."""
        return sum(1 for w in self.w if w)


def exact_belief(events: list[tuple]) -> ExactBelief:
    """Return the exact belief after a list of events, naming the impossible one if any."""
    b = ExactBelief()
    for n, ev in enumerate(events, 1):
        b.update(ev, where=f" (event {n})")
    return b


# ----- Fast NumPy version for agents ----------------------------------------------------


_HAS_F = HAS.reshape(N_TILES * 3, N_ARR).astype(np.float64)
# _NOT_BOMB_F[t]: 1 for the arrangements whose tile t is not the bomb.
_NOT_BOMB_F = (~HAS[:, BOMB]).astype(np.float64)
_LINE_F = np.stack(
    [np.concatenate([LINE_ALL[s], LINE_ALL[1 - s], LINE_BOMB]).astype(np.float64) for s in (0, 1)]
)


@dataclass
class FastBelief:
    """Float beliefs over the 630 arrangements (same updates as ExactBelief)."""

    w: np.ndarray

    @classmethod
    def uniform(cls) -> FastBelief:
        return cls(np.full(N_ARR, 1.0 / N_ARR))

    def copy(self) -> FastBelief:
        return FastBelief(self.w.copy())

    def update(self, ev: tuple) -> None:
        """Apply one event (see ExactBelief.update); an impossible event raises BadInput."""
        kind = ev[0]
        if kind in ("peek", "show"):
            w = self.w * _HAS_F[ev[1] * 3 + ev[2]]
            total = w.sum()
            if total <= 0:
                raise BadInput(f"impossible position: {event_text(ev)}")
            self.w = w / total
        elif kind == "not_bomb":
            w = self.w * _NOT_BOMB_F[ev[1]]
            total = w.sum()
            if total <= 0:
                raise BadInput(f"impossible position: {event_text(ev)} (tile {ev[1]} is the bomb)")
            self.w = w / total
        elif kind == "swap":
            self.w = self.w[SWAP_MAP[PAIR_INDEX[ev[1], ev[2]]]]
        elif kind == "shuffle":
            self.w = _mix_np(self.w, TRIPLE_MAP[_triple(ev[1])])
        elif kind == "place":
            self.w = _mix_np(self.w, TRIPLE_MAP[_triple(ev[1])])
            for t, v in zip(ev[1], ev[2], strict=True):
                self.update(("show", t, v))
        elif kind == "secret_swap":
            t = ev[1]
            maps = np.array([SWAP_MAP[PAIR_INDEX[t, u]] for u in range(N_TILES) if u != t])
            self.w = _mix_np(self.w, maps)
        elif kind == "move":
            # One known permutation (not closed under inverses): scatter, not gather.
            new = np.empty_like(self.w)
            new[perm3_map(tuple(ev[1]), tuple(ev[2]))] = self.w
            self.w = new

    def tile_odds(self) -> np.ndarray:
        """Return a (9, 3) array: P(tile t holds value v)."""
        return (_HAS_F @ self.w).reshape(N_TILES, 3)

    def line_odds(self, mine: int) -> np.ndarray:
        """Return an (8, 3) array: P(all mine), P(all the opponent's), P(bomb) per line."""
        return (_LINE_F[mine] @ self.w).reshape(3, len(LINES)).T

    def sample(self, rng: np.random.Generator) -> int:
        """Draw an arrangement number from the beliefs."""
        return int(rng.choice(N_ARR, p=self.w / self.w.sum()))


def _mix_np(w: np.ndarray, maps: np.ndarray) -> np.ndarray:
    """Average of w moved by each map. The maps of one event (all orders of three tiles,
    or all swaps with one tile) are closed under inverses, so the scatter-average equals
    the gather-average w[map].mean(), which NumPy does much faster."""
    return w[maps].mean(axis=0)


# ----- Numba kernels --------------------------------------------------------------------


@njit(cache=True)
def mask_full() -> np.ndarray:
    """Return the mask of all 630 arrangements."""
    m = np.zeros(N_WORDS, dtype=np.uint64)
    for i in range(N_ARR):
        m[i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    return m


@njit(cache=True)
def mask_observe(m: np.ndarray, t: int, v: int, has_bits: np.ndarray) -> int:
    """Peek or show: keep arrangements with value v at tile t; return how many remain."""
    n = 0
    for w in range(N_WORDS):
        m[w] &= has_bits[t, v, w]
        x = m[w]
        while x:
            x &= x - np.uint64(1)
            n += 1
    return n


@njit(cache=True)
def mask_observe_fast(m: np.ndarray, t: int, v: int, has_bits: np.ndarray) -> None:
    """Peek or show without counting (10 ANDs)."""
    for w in range(N_WORDS):
        m[w] &= has_bits[t, v, w]


@njit(cache=True)
def mask_exclude(m: np.ndarray, t: int, v: int, has_bits: np.ndarray) -> int:
    """Tile t is known not to hold v (a survived "Peek at as many"): drop those
    arrangements; return how many remain."""
    n = 0
    for w in range(N_WORDS):
        m[w] &= ~has_bits[t, v, w]
        x = m[w]
        while x:
            x &= x - np.uint64(1)
            n += 1
    return n


# De Bruijn multiplication finds the index of the lowest set bit without a loop.
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_TABLE = np.zeros(64, dtype=np.int64)
for _b in range(64):
    _DEBRUIJN_TABLE[((int(_DEBRUIJN) << _b) & 0xFFFFFFFFFFFFFFFF) >> 58] = _b


@njit(cache=True)
def mask_map(m: np.ndarray, maps: np.ndarray, out: np.ndarray) -> None:
    """out = union over maps of the image of m (a swap: one map; a shuffle: six)."""
    for w in range(N_WORDS):
        out[w] = 0
    for w in range(N_WORDS):
        x = m[w]
        while x:
            low = x & (~x + np.uint64(1))
            b = _DEBRUIJN_TABLE[(low * _DEBRUIJN) >> np.uint64(58)]
            i = (w << 6) + b
            for k in range(maps.shape[0]):
                j = maps[k, i]
                out[j >> 6] |= np.uint64(1) << np.uint64(j & 63)
            x ^= low


@njit(cache=True)
def framed_swap(frame: np.ndarray, a: int, b: int) -> None:
    """A public swap on a framed mask: O(1), the bits stay where they are.

    A framed mask keeps its bits over the grid as it was when the frame was set, and
    `frame[t]` says which position of that grid the tile now at t came from.
    """
    t = frame[a]
    frame[a] = frame[b]
    frame[b] = t


@njit(cache=True)
def framed_observe(m: np.ndarray, frame: np.ndarray, t: int, v: int, has_bits: np.ndarray) -> None:
    """Peek or show on a framed mask: tile t now is the frame's tile frame[t]."""
    f = frame[t]
    for w in range(N_WORDS):
        m[w] &= has_bits[f, v, w]


@njit(cache=True)
def weights_observe(w: np.ndarray, t: int, v: int, arr: np.ndarray) -> float:
    """Peek or show on float beliefs: zero the rest, renormalise; return the old mass kept."""
    total = 0.0
    for i in range(w.shape[0]):
        if arr[i, t] != v:
            w[i] = 0.0
        else:
            total += w[i]
    if total > 0:
        for i in range(w.shape[0]):
            w[i] /= total
    return total


@njit(cache=True)
def weights_exclude(w: np.ndarray, t: int, v: int, arr: np.ndarray) -> float:
    """Tile t is known not to hold v: zero those beliefs, renormalise; return the mass kept."""
    total = 0.0
    for i in range(w.shape[0]):
        if arr[i, t] == v:
            w[i] = 0.0
        else:
            total += w[i]
    if total > 0:
        for i in range(w.shape[0]):
            w[i] /= total
    return total


@njit(cache=True)
def weights_mix(w: np.ndarray, maps: np.ndarray, out: np.ndarray) -> None:
    """out = average over maps of w moved by the map (swap: one map; shuffle: six)."""
    out[:] = 0.0
    share = 1.0 / maps.shape[0]
    for k in range(maps.shape[0]):
        for i in range(w.shape[0]):
            out[maps[k, i]] += w[i] * share


def mask_to_bool(m: np.ndarray) -> np.ndarray:
    """Return a mask as 630 booleans."""
    return np.array([(int(m[i >> 6]) >> (i & 63)) & 1 == 1 for i in range(N_ARR)])


def event_maps(ev: tuple) -> np.ndarray | None:
    """Return the arrangement maps of a moving event (None for peek/show/not-bomb/others)."""
    kind = ev[0]
    if kind == "swap":
        return SWAP_MAP[PAIR_INDEX[ev[1], ev[2]]][None, :]
    if kind in ("shuffle", "place"):
        return TRIPLE_MAP[_triple(ev[1])]
    if kind == "secret_swap":
        t = ev[1]
        return np.array([SWAP_MAP[PAIR_INDEX[t, u]] for u in range(N_TILES) if u != t])
    if kind == "move":
        return perm3_map(tuple(ev[1]), tuple(ev[2]))[None, :]
    return None


def mask_after(events: list[tuple]) -> np.ndarray:
    """Return the 630-bit mask after the events, with the Numba kernels."""
    m = mask_full()
    out = np.empty_like(m)
    for ev in events:
        if ev[0] in ("peek", "show"):
            mask_observe(m, ev[1], ev[2], HAS_BITS)
        elif ev[0] == "not_bomb":
            mask_exclude(m, ev[1], BOMB, HAS_BITS)
        maps = event_maps(ev)
        if maps is not None:
            mask_map(m, maps, out)
            m[:] = out
            if ev[0] == "place":
                for t, v in zip(ev[1], ev[2], strict=True):
                    mask_observe(m, t, v, HAS_BITS)
    return m


@njit(cache=True)
def mask_update_loop(tiles: np.ndarray, values: np.ndarray, has_bits: np.ndarray) -> int:
    """Benchmark loop: peek/show updates on a mask, starting afresh every 4 updates.

    Returns a checksum (the number of arrangements left, summed) so no work is skipped.
    """
    m = mask_full()
    full = m.copy()
    check = 0
    for k in range(tiles.shape[0]):
        if k % 4 == 0:
            m[:] = full
        mask_observe_fast(m, tiles[k], values[k], has_bits)
        check += int(m[0] & np.uint64(1))
    return check


@njit(cache=True)
def framed_loop(tiles: np.ndarray, values: np.ndarray, pairs: np.ndarray, has_bits) -> int:
    """Benchmark loop: alternate a public swap and a peek on a framed mask (reset every 8)."""
    m = mask_full()
    full = m.copy()
    frame = np.arange(9)
    check = 0
    for k in range(tiles.shape[0]):
        if k % 8 == 0:
            m[:] = full
        framed_swap(frame, pairs[k, 0], pairs[k, 1])
        framed_observe(m, frame, tiles[k], values[k], has_bits)
        check += int(m[0] & np.uint64(1))
    return check


@njit(cache=True)
def mask_map_loop(maps: np.ndarray, which: np.ndarray, stride: int) -> int:
    """Benchmark loop: moving updates (swap or shuffle maps) on a 70-arrangement mask."""
    m = mask_full()
    out = np.empty_like(m)
    check = 0
    for k in range(which.shape[0]):
        mask_map(m, maps[which[k] : which[k] + stride], out)
        m[:] = out
        check += int(out[0] & np.uint64(1))
    return check

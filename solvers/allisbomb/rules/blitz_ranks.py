"""Blitz deals numbered (rulebook G, "Blitz"; B, "Setup"): a shuffle of the 13 cards with
its three EQUIPPED cards taken as a set, so in increasing card id; 13!/3! of them, in
lexicographic order. Rank r = (index of the equipped 3-set among the C(13, 3) = 286 sets, in
lexicographic order) * 10! + (lexicographic rank of the order of the other 10 cards).

Kept apart from `exhaust` so that the compiled deck builder depends on no other project
file (its Numba cache digest stays put when the solver changes).
"""

from __future__ import annotations

import math

import numpy as np

from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.numba_jit import njit

#: Digest of the project files this module imports (bombsolve.solvers.common.numba_deps).
NUMBA_DEPENDS_ON = "251ea8c479f20cc6"

#: Cards in a Blitz deck, and how many setup EQUIPS (rulebook B).
N_CARDS, N_EQUIPPED = 13, 3
#: Every Blitz deal: 13! / 3!.
N_DEALS = math.factorial(N_CARDS) // math.factorial(N_EQUIPPED)


def _tables(n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(factorials 0..n, binomial table C[i, j] for i <= n, j <= k) as int64."""
    fact = np.array([math.factorial(i) for i in range(n + 1)], np.int64)
    binom = np.array([[math.comb(i, j) for j in range(k + 1)] for i in range(n + 1)], np.int64)
    return fact, binom


_FACT, _BINOM = _tables(N_CARDS, N_EQUIPPED)


@njit(cache=True)
def _unrank(sub, perm, items, k, fact, binom, row, free):
    """Lay the m = len(items) cards `items` (increasing ids) into row[0:m]: first the
    sub-th k-subset of them (lexicographic), then the perm-th order (lexicographic) of the
    others. `free` is scratch of at least m - k cards."""
    m = items.shape[0]
    c = 0
    for i in range(k):
        while True:
            left = binom[m - c - 1, k - i - 1]  # subsets whose i-th card is items[c]
            if sub < left:
                break
            sub -= left
            c += 1
        row[i] = items[c]
        c += 1
    f = 0
    x = 0
    for c in range(m):
        if x < k and row[x] == items[c]:
            x += 1
        else:
            free[f] = items[c]
            f += 1
    for i in range(m - k):
        q, perm = divmod(perm, fact[m - k - 1 - i])
        row[k + i] = free[q]
        for z in range(q, m - k - 1 - i):
            free[z] = free[z + 1]


@njit(cache=True)
def _fill_decks(ranks, n, k, fact, binom, out):
    """Write the deal of each rank (see the module doc) into the rows of `out` [m, n]."""
    cards = np.arange(n)
    free = np.empty(n, np.int64)
    rest = fact[n - k]
    for r in range(ranks.shape[0]):
        sub, perm = divmod(ranks[r], rest)
        _unrank(sub, perm, cards, k, fact, binom, out[r], free)


@njit(cache=True)
def _fill_group_decks(groups, t, n, k, fact, binom, out, ranks):
    """Write the deals of each group into the rows of `out` [len(groups) * size, n] and
    their ranks into `ranks` (size = C(t, k) * (t - k)!, see `group_decks`).

    Group g fixes the n - t cards under the top t, in order: its digits in the mixed radix
    n, n - 1, ..., t + 1, most significant first, pick them from the bottom card up, each
    among the cards not yet picked, in increasing id (so consecutive groups share their
    bottom cards but the one just under the top t, and groups run in the lexicographic
    order of their bottom cards read from the bottom up). Its deals are every way to lay
    the other t cards on them: the k EQUIPPED ones as a set (lexicographic), then the
    order of the remaining t - k (lexicographic), the set varying slowest."""
    used = np.zeros(n, np.int64)
    top = np.empty(t, np.int64)
    free = np.empty(t, np.int64)
    digit = np.empty(n - t, np.int64)
    size = out.shape[0] // groups.shape[0]
    row = 0
    for gi in range(groups.shape[0]):
        g = groups[gi]
        used[:] = 0
        for i in range(n - t - 1, -1, -1):  # digit i has base n - i; the last is the lowest
            digit[i] = g % (n - i)
            g //= n - i
        # the bottom cards: digit i picks among the n - i cards left
        for i in range(n - t):
            q = digit[i]
            c = 0
            while True:
                if used[c] == 0:
                    if q == 0:
                        break
                    q -= 1
                c += 1
            used[c] = 1
            out[row, n - 1 - i] = c
        m = 0
        for c in range(n):
            if used[c] == 0:
                top[m] = c
                m += 1
        for j in range(size):
            r = row + j
            for i in range(n - t):
                out[r, n - 1 - i] = out[row, n - 1 - i]
            sub, perm = divmod(j, fact[t - k])
            _unrank(sub, perm, top, k, fact, binom, out[r], free)
        row += size
    _rank_rows(out, n, k, fact, binom, ranks)


@njit(cache=True)
def _rank_rows(decks, n, k, fact, binom, ranks):
    """The rank (module doc) of each row of `decks`, whose first k cards increase."""
    free = np.empty(n, np.int64)
    for r in range(decks.shape[0]):
        sub = 0
        c = 0
        for i in range(k):
            x = decks[r, i]
            while c < x:
                sub += binom[n - c - 1, k - i - 1]
                c += 1
            c = x + 1
        for c in range(n):
            free[c] = 1
        for i in range(k):
            free[decks[r, i]] = 0
        perm = 0
        for i in range(n - k):
            x = decks[r, k + i]
            j = 0
            for c in range(x):
                j += free[c]
            free[x] = 0
            perm += j * fact[n - k - 1 - i]
        ranks[r] = sub * fact[n - k] + perm


#: Top cards a group of `group_decks` varies: its C(8, 3) * 5! = 6,720 deals share the
#: order of the 5 cards under them.
GROUP_TOP = 8


def n_groups(t: int = GROUP_TOP, n: int = N_CARDS) -> int:
    """How many groups of `group_decks`: n! / t! (one per order of the n - t bottom cards)."""
    return math.factorial(n) // math.factorial(t)


def group_size(t: int = GROUP_TOP, n: int = N_CARDS, k: int = N_EQUIPPED) -> int:
    """Deals in one group: C(t, k) * (t - k)!."""
    return math.comb(t, k) * math.factorial(t - k)


def group_decks(
    groups: np.ndarray, t: int = GROUP_TOP, n: int = N_CARDS, k: int = N_EQUIPPED
) -> tuple[np.ndarray, np.ndarray]:
    """(decks [len(groups) * group_size, n], their ranks): the deals of each group, a group
    being the deals whose n - t bottom cards lie in one order (`_fill_group_decks`), in the
    order of `groups`. Every deal is in exactly one of the n! / t! groups.

    Within a group the deals run from the bottom of the deck up (sorted by the card at
    t - 1, then t - 2, ..., then the EQUIPPED set), so consecutive deals share the longest
    bottom of the deck: a position is reached only by deals with its DECK, and those come
    one after another, which is what lets `exhaust_kernel` answer later deals from earlier
    ones out of a table small enough to stay in the processor's cache."""
    if not k <= t <= n:
        raise BadInput(f"group top {t}: expected {k} <= t <= {n}")
    groups = np.ascontiguousarray(groups, dtype=np.int64)
    size = group_size(t, n, k)
    fact, binom = _tables(n, k)
    out = np.zeros((groups.shape[0] * size, n), np.int64)
    ranks = np.zeros(groups.shape[0] * size, np.int64)
    _fill_group_decks(groups, t, n, k, fact, binom, out, ranks)
    which = np.repeat(np.arange(groups.shape[0]), size)
    # np.lexsort's last key is the primary one: the group, then the deck from t - 1 down
    order = np.lexsort((*(out[:, j] for j in range(t)), which))
    return out[order], ranks[order]


def deal_of_rank(r: int) -> list[int]:
    """The Blitz deal (card ids, top first; the first three increasing) of rank r.

    >>> deal_of_rank(0)
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    >>> deal_of_rank(N_DEALS - 1)
    [10, 11, 12, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    """
    r = int(r)
    if not 0 <= r < N_DEALS:
        raise BadInput(f"Blitz deal rank {r} out of range: expected 0..{N_DEALS - 1:,}")
    out = np.zeros((1, N_CARDS), np.int64)
    _fill_decks(np.array([r], np.int64), N_CARDS, N_EQUIPPED, _FACT, _BINOM, out)
    return out[0].tolist()


def deal_rank(deck) -> int:
    """The rank of a Blitz shuffle's deal (any order of its first three cards).

    >>> deal_rank([2, 0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    0
    """
    deck = [int(c) for c in deck]
    if sorted(deck) != list(range(N_CARDS)):
        raise BadInput(f"a Blitz deck holds each card id 0..{N_CARDS - 1} once, not {deck}")
    row = np.array([sorted(deck[:N_EQUIPPED]) + deck[N_EQUIPPED:]], np.int64)
    rank = np.zeros(1, np.int64)
    _rank_rows(row, N_CARDS, N_EQUIPPED, _FACT, _BINOM, rank)
    return int(rank[0])


def decks_of_ranks(ranks: np.ndarray) -> np.ndarray:
    """The deals of many ranks as an int64 array [m, 13] (for `solver.solve_batch`)."""
    ranks = np.ascontiguousarray(ranks, dtype=np.int64)
    out = np.zeros((ranks.shape[0], N_CARDS), np.int64)
    _fill_decks(ranks, N_CARDS, N_EQUIPPED, _FACT, _BINOM, out)
    return out


def parse_ranks(text: str | None) -> tuple[int, int]:
    """'A:B' (a half-open range of deal ranks; either end may be left out) -> (A, B)."""
    if not text:
        return 0, N_DEALS
    parts = text.split(":")
    try:
        if len(parts) != 2:
            raise ValueError
        a = int(parts[0].replace("_", "").replace(",", "")) if parts[0].strip() else 0
        b = int(parts[1].replace("_", "").replace(",", "")) if parts[1].strip() else N_DEALS
    except ValueError:
        raise BadInput(f"--ranks {text!r}: expected A:B, two deal ranks (e.g. 0:100000)") from None
    if not 0 <= a < b <= N_DEALS:
        raise BadInput(f"--ranks {text!r}: expected 0 <= A < B <= {N_DEALS:,}")
    return a, b

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
from numba import njit

from solvers.common.errors import BadInput

#: Digest of the project files this module imports (solvers.common.numba_deps).
NUMBA_DEPENDS_ON = "865ec93694bbaae2"

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
def _fill_decks(ranks, n, k, fact, binom, out):
    """Write the deal of each rank (see the module doc) into the rows of `out` [m, n]."""
    free = np.empty(n, np.int64)
    rest = fact[n - k]
    for r in range(ranks.shape[0]):
        sub, perm = divmod(ranks[r], rest)
        # the sub-th k-subset of 0..n-1 in lexicographic order
        c = 0
        for i in range(k):
            while True:
                left = binom[n - c - 1, k - i - 1]  # subsets whose i-th card is c
                if sub < left:
                    break
                sub -= left
                c += 1
            out[r, i] = c
            c += 1
        m = 0
        j = 0
        for c in range(n):
            if j < k and out[r, j] == c:
                j += 1
            else:
                free[m] = c
                m += 1
        # the perm-th order of the free cards (lexicographic)
        for i in range(n - k):
            f = fact[n - k - 1 - i]
            q, perm = divmod(perm, f)
            out[r, k + i] = free[q]
            for t in range(q, n - k - 1 - i):
                free[t] = free[t + 1]


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
    first = sorted(deck[:N_EQUIPPED])
    sub = 0
    c = 0
    for i, x in enumerate(first):
        while c < x:
            sub += math.comb(N_CARDS - c - 1, N_EQUIPPED - i - 1)
            c += 1
        c = x + 1
    free = [c for c in range(N_CARDS) if c not in first]
    perm = 0
    for i, x in enumerate(deck[N_EQUIPPED:]):
        j = free.index(x)
        perm += j * math.factorial(N_CARDS - N_EQUIPPED - 1 - i)
        free.pop(j)
    return sub * math.factorial(N_CARDS - N_EQUIPPED) + perm


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

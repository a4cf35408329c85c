"""Tiles, the grid, its lines and L-shapes, and the 630 tile arrangements.

Rulebook, "Components" and "Setup": 9 tiles (4 Xs, 4 Os, 1 Bomb) shuffled face down into
a 3x3 grid. Positions are numbered row by row::

    0 1 2
    3 4 5
    6 7 8

An *arrangement* says what lies at each position. There are 9! / (4! 4! 1!) = 630 of them,
numbered 0..629 in lexicographic order of their value strings (X < O < Bomb). Every
table here is a module constant computed once at import.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

X, O, BOMB = 0, 1, 2  # noqa: E741 (the rulebook calls the symbols X and O)
VALUE_CHARS = "XOB"
VALUE_NAMES = ("X", "O", "Bomb")
N_TILES = 9
N_ARR = 630

# Rulebook, "Go for It": "Show 3 in a row (horizontally, vertically, or diagonally)".
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)
LINE_NAMES = ("row1", "row2", "row3", "col1", "col2", "col3", "diag", "anti")


def _l_shapes() -> tuple[tuple[int, int, int], ...]:
    """Return the 16 L-shapes: a corner tile and one edge neighbour in each direction.

    ALARM card "Show 3 in an L shape": "Flip any 3 tiles that are in an L shape (edge to
    edge, no diagonals)". Three tiles edge to edge that do not lie in one row or column
    are exactly a 2x2 block with one tile left out: 4 blocks x 4 tiles left out.
    """
    shapes = []
    for r in range(2):
        for c in range(2):
            block = (3 * r + c, 3 * r + c + 1, 3 * (r + 1) + c, 3 * (r + 1) + c + 1)
            for left_out in block:
                shapes.append(tuple(t for t in block if t != left_out))
    return tuple(shapes)


L_SHAPES = _l_shapes()

# The 6 orders of three positions, used by "Opponent shuffles them" and "Secretly
# arrange them": permutation p sends the tile at positions[i] to positions[p[i]].
PERMS3: tuple[tuple[int, int, int], ...] = tuple(itertools.permutations(range(3)))


def _arrangements() -> np.ndarray:
    values = [X] * 4 + [O] * 4 + [BOMB]
    arrs = sorted(set(itertools.permutations(values)))
    return np.array(arrs, dtype=np.int8)


ARR = _arrangements()
assert ARR.shape == (N_ARR, N_TILES)
assert N_ARR == math.factorial(9) // (math.factorial(4) ** 2)

# Base-3 code of an arrangement -> its index (or -1): a flat lookup, no dict.
_POW3 = 3 ** np.arange(N_TILES - 1, -1, -1, dtype=np.int64)
CODE = ARR.astype(np.int64) @ _POW3
CODE_TO_INDEX = np.full(3**N_TILES, -1, dtype=np.int32)
CODE_TO_INDEX[CODE] = np.arange(N_ARR, dtype=np.int32)


def index_of(tiles) -> int:
    """Return the arrangement number (0..629) of a sequence of 9 tile values.

    >>> index_of([0, 0, 0, 0, 1, 1, 1, 1, 2])
    0
    """
    code = int(np.asarray(tiles, dtype=np.int64) @ _POW3)
    idx = int(CODE_TO_INDEX[code])
    if idx < 0:
        raise ValueError(f"not a Bombastic arrangement: {list(tiles)}")
    return idx


def arrangement_string(idx: int) -> str:
    """Return an arrangement as 9 characters, e.g. 'XXXXOOOOB'."""
    return "".join(VALUE_CHARS[v] for v in ARR[idx])


def _permuted_index(perm_of_positions) -> np.ndarray:
    """Return m with ARR[m[i]] = ARR[i] after moving the tile at p to perm_of_positions[p]."""
    moved = np.empty_like(ARR)
    moved[:, perm_of_positions] = ARR
    return CODE_TO_INDEX[moved.astype(np.int64) @ _POW3].astype(np.int32)


PAIRS: tuple[tuple[int, int], ...] = tuple(itertools.combinations(range(N_TILES), 2))
PAIR_INDEX = np.full((N_TILES, N_TILES), -1, dtype=np.int32)
for _k, (_a, _b) in enumerate(PAIRS):
    PAIR_INDEX[_a, _b] = PAIR_INDEX[_b, _a] = _k

# SWAP_MAP[k][i]: arrangement i with the tiles of pair k swapped.
SWAP_MAP = np.empty((len(PAIRS), N_ARR), dtype=np.int32)
for _k, (_a, _b) in enumerate(PAIRS):
    _p = list(range(N_TILES))
    _p[_a], _p[_b] = _b, _a
    SWAP_MAP[_k] = _permuted_index(_p)


def perm3_map(positions: tuple[int, int, int], perm: tuple[int, int, int]) -> np.ndarray:
    """Return the arrangement map for moving positions[i] to positions[perm[i]]."""
    p = list(range(N_TILES))
    for i in range(3):
        p[positions[i]] = positions[perm[i]]
    return _permuted_index(p)


# Which arrangements hold value v at tile t: HAS[t, v] is a boolean row over the 630.
HAS = np.zeros((N_TILES, 3, N_ARR), dtype=bool)
for _t in range(N_TILES):
    for _v in range(3):
        HAS[_t, _v] = ARR[:, _t] == _v

# LINE_ALL[s, k]: line k holds three tiles of symbol s; LINE_BOMB[k]: line k holds the bomb.
LINE_ALL = np.zeros((2, len(LINES), N_ARR), dtype=bool)
LINE_BOMB = np.zeros((len(LINES), N_ARR), dtype=bool)
for _k, _line in enumerate(LINES):
    _vals = ARR[:, list(_line)]
    for _s in (X, O):
        LINE_ALL[_s, _k] = (_vals == _s).all(axis=1)
    LINE_BOMB[_k] = (_vals == BOMB).any(axis=1)

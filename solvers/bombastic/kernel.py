"""The Bombastic rules compiled with Numba, for fast random playouts.

This is a second copy of `rules.py` (the spec), over one flat int32 array per game;
`tests/bombastic/test_bombastic_kernel.py` plays thousands of seeded games in both and
demands the same decisions, tiles, cards, winner and ending at every step. It keeps no
observations: agents that need them use the reference engine and `beliefs`.

State layout (int32, `STATE_SIZE` cells)::

    0..8    tiles (0 X, 1 O, 2 Bomb), positions row by row
    9, 10   face-up cards (slots 0, 1)
    11..21  the face-down deck, top first; DECK_LEN cells are used
    22      DECK_LEN        23  TO_MOVE (0, 1, -1 chance, -2 over)
    24      TURN_PLAYER     25  TURN_NUMBER       26  PHASE (rules.Phase)
    27      CARD            28  SLOT
    29..37  PICKED: tiles peeked or shown on this card, 38 N_PICKED
    39, 40  the first swap of PEEK1_SWAP_SWAP (sorted)  41 SWAP_A
    42      WINNER (-1 none)  43 ENDING (index in rules.Ending, -1 none)
    44      TURN_CAP        45  SECOND_SWAP (0 distinct, 1 disjoint, 2 any)
    46      SHUFFLE_BY (0 chance, 1 the opponent chooses)

Random numbers: SplitMix64 on a one-cell uint64 array, exactly as `rules.SplitMix64`.
"""

from __future__ import annotations

import numpy as np

from bombsolve.solvers.bombastic.rules import (
    SECOND_SWAP_READINGS,
    SHUFFLE_READINGS,
    Ending,
    Options,
)
from bombsolve.solvers.bombastic.tiles import L_SHAPES, LINES, PERMS3
from bombsolve.solvers.common.numba_jit import njit

#: Digest of the project files this module imports (bombsolve.solvers.common.numba_deps): a change to
#: them changes this file too, so Numba rebuilds its on-disk cache of this module.
NUMBA_DEPENDS_ON = "157f01bff753fc10"

DECK = 11
DECK_LEN = 22
TO_MOVE = 23
TURN_PLAYER = 24
TURN_NUMBER = 25
PHASE = 26
CARD = 27
SLOT = 28
PICKED = 29
N_PICKED = 38
FIRST_A = 39
FIRST_B = 40
SWAP_A = 41
WINNER = 42
ENDING = 43
TURN_CAP = 44
SECOND_SWAP = 45
SHUFFLE_BY = 46
STATE_SIZE = 47

# Phases (rules.Phase).
P_TURN, P_PEEK, P_PEEK_OR_STOP, P_SHOW_PEEKED, P_MAY_SWAP = 0, 1, 2, 3, 4
P_OUT_PEEKED, P_OUT_OTHER, P_SWAP_A, P_SWAP_B, P_SWAP2_A, P_SWAP2_B = 5, 6, 7, 8, 9, 10
P_PEEK_LINE, P_SHUFFLE, P_SHOW, P_ARRANGE, P_GO, P_L_SHAPE = 11, 12, 13, 14, 15, 16
P_OPP_SHOW, P_SECRET_SWAP, P_OVER = 17, 18, 19

# Actions (rules.ACTION_*).
A_LINE, A_CARD, A_STOP, A_L, A_PERM, A_SHOWSET, A_YES = 9, 17, 19, 20, 36, 42, 48

# Endings, by their index in rules.Ending.
_E = list(Ending)
E_GO_WIN = _E.index(Ending.GO_FOR_IT_WIN)
E_GO_BOMB = _E.index(Ending.GO_FOR_IT_BOMB)
E_PEEKED_BOMB = _E.index(Ending.PEEKED_BOMB)
E_ALARM_WIN = _E.index(Ending.ALARM_GO_FOR_IT_WIN)
E_ALARM_BOMB = _E.index(Ending.ALARM_GO_FOR_IT_BOMB)
E_L_WIN = _E.index(Ending.L_SHAPE_WIN)
E_L_LOSS = _E.index(Ending.L_SHAPE_LOSS)
E_OPP_BOMB = _E.index(Ending.OPPONENT_SHOWED_BOMB)
E_CAP = _E.index(Ending.TURN_CAP)

LINES_A = np.array(LINES, dtype=np.int32)
L_A = np.array(L_SHAPES, dtype=np.int32)
PERMS_A = np.array(PERMS3, dtype=np.int32)
SHOWSETS_A = np.array([[0, -1], [1, -1], [2, -1], [0, 1], [0, 2], [1, 2]], dtype=np.int32)
# The first phase of each card (rules.State._start_turn).
FIRST_PHASE = np.array(
    [
        P_PEEK,
        P_PEEK,
        P_PEEK,
        P_PEEK,
        P_PEEK,
        P_PEEK_LINE,
        P_SHOW,
        P_PEEK,
        P_L_SHAPE,
        P_PEEK,
        P_SHOW,
    ],
    dtype=np.int32,
)
ALARM_A, ALARM_B = 7, 8
BOMB = 2
MASK = np.uint64(0xFFFFFFFFFFFFFFFF)

#: How the rules' steps (`legal_actions`, `apply`, the helpers they call, the SplitMix64
#: steps) are compiled: without Numba's reference counting (NRT). With it, every array
#: argument of a call that is not inlined takes an atomic increment and a decrement, and an
#: atomic operation is costly on some processors: on an AMD EPYC (family 26) KVM guest
#: about 75% of the random-games kernel's samples were on NRT_incref/NRT_decref. These
#: functions allocate nothing and return no array (they work in the caller's state `s`
#: and buffers), so the counts are never needed; the functions that allocate (`setup`,
#: `random_game`, `random_games`, the playouts) keep NRT and only allocate, then hand
#: their arrays to an `_nrt=False` twin (`setup_into`, `_play_random`, `_random_batch`),
#: so a batch of random games allocates once, not per game. Numba compiles a callee met
#: first from such a function without NRT too, so what they call must not allocate either.
_no_refcount = njit(cache=True, _nrt=False)


@_no_refcount
def rng_next(rng: np.ndarray) -> np.uint64:
    """SplitMix64 step on rng[0]; returns the next 64-bit value."""
    rng[0] = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@_no_refcount
def rng_below(rng: np.ndarray, n: int) -> int:
    """A number in 0..n-1, as rules.SplitMix64.below."""
    return int(rng_next(rng) % np.uint64(n))


@_no_refcount
def _shuffle(a: np.ndarray, n: int, rng: np.ndarray) -> None:
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


@_no_refcount
def _shuffle_at(a: np.ndarray, lo: int, n: int, rng: np.ndarray) -> None:
    """`_shuffle` of a[lo:lo + n] in place, with the same draws."""
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        t = a[lo + i]
        a[lo + i] = a[lo + j]
        a[lo + j] = t


@_no_refcount
def setup_into(
    s: np.ndarray,
    cards: np.ndarray,
    rng: np.ndarray,
    turn_cap: int,
    second: int,
    shuffle_by: int,
    work: np.ndarray,
) -> None:
    """Fill `s` with a new game (rulebook, "Setup"), drawing like rules.State.setup.

    The nine tiles are shuffled face down, two cards are turned face up (an alarm card
    drawn for them is set aside and shuffled back into the deck). `work` is scratch of at
    least len(cards) + 2 int32 (the shuffled deck, then the cards set aside), so that
    nothing is allocated here: compiled with `_nrt=False` (see `_no_refcount`), which a
    batch of games needs to avoid an atomic increment and decrement per array per game.
    """
    for i in range(9):
        s[i] = 0 if i < 4 else (1 if i < 8 else 2)
    _shuffle(s, 9, rng)
    n = cards.shape[0]
    for i in range(n):
        work[i] = cards[i]
    _shuffle(work, n, rng)
    n_aside = 0
    n_up = 0
    head = 0
    while n_up < 2:
        c = work[head]
        head += 1
        if c == ALARM_A or c == ALARM_B:
            work[n + n_aside] = c
            n_aside += 1
        else:
            s[9 + n_up] = c
            n_up += 1
    k = 0
    for i in range(head, n):
        s[DECK + k] = work[i]
        k += 1
    for i in range(n_aside):
        s[DECK + k] = work[n + i]
        k += 1
    if n_aside > 0:
        _shuffle_at(s, DECK, k, rng)
    s[DECK_LEN] = k
    s[TO_MOVE] = 0
    s[TURN_PLAYER] = 0
    s[TURN_NUMBER] = 1
    s[PHASE] = P_TURN
    s[CARD] = -1
    s[SLOT] = -1
    s[N_PICKED] = 0
    s[FIRST_A] = -1
    s[FIRST_B] = -1
    s[SWAP_A] = -1
    s[WINNER] = -1
    s[ENDING] = -1
    s[TURN_CAP] = turn_cap
    s[SECOND_SWAP] = second
    s[SHUFFLE_BY] = shuffle_by


@njit(cache=True)
def setup(
    s: np.ndarray, cards: np.ndarray, rng: np.ndarray, turn_cap: int, second: int, shuffle_by=0
) -> None:
    """Fill `s` with a new game (rulebook, "Setup"), drawing like rules.State.setup."""
    work = np.empty(cards.shape[0] + 2, dtype=np.int32)
    setup_into(s, cards, rng, turn_cap, second, shuffle_by, work)


@_no_refcount
def _is_picked(s: np.ndarray, t: int) -> bool:
    for i in range(s[N_PICKED]):
        if s[PICKED + i] == t:
            return True
    return False


@_no_refcount
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal actions, increasing, into `out`; return how many."""
    ph = s[PHASE]
    n = 0
    if ph == P_OVER:
        return 0
    if ph == P_TURN:
        for k in range(8):
            out[n] = A_LINE + k
            n += 1
        out[n] = A_CARD
        out[n + 1] = A_CARD + 1
        return n + 2
    if ph == P_PEEK or ph == P_SHOW or ph == P_OUT_OTHER or ph == P_PEEK_OR_STOP:
        for t in range(9):
            if not _is_picked(s, t):
                out[n] = t
                n += 1
        if ph == P_PEEK_OR_STOP:
            out[n] = A_STOP
            n += 1
        return n
    if ph == P_SHOW_PEEKED or ph == P_OUT_PEEKED:
        a = s[PICKED]
        b = s[PICKED + 1]
        out[0] = min(a, b)
        out[1] = max(a, b)
        n = 2
        if ph == P_SHOW_PEEKED:
            out[2] = A_STOP
            n = 3
        return n
    if ph == P_MAY_SWAP:
        out[0] = A_STOP
        out[1] = A_YES
        return 2
    if ph == P_SWAP_A:
        for t in range(9):
            out[t] = t
        return 9
    if ph == P_SWAP_B:
        for t in range(9):
            if t != s[SWAP_A]:
                out[n] = t
                n += 1
        return n
    if ph == P_SWAP2_A:
        for t in range(9):
            if s[SECOND_SWAP] == 1 and (t == s[FIRST_A] or t == s[FIRST_B]):
                continue
            out[n] = t
            n += 1
        out[n] = A_STOP
        return n + 1
    if ph == P_SWAP2_B:
        a = s[SWAP_A]
        for t in range(9):
            if t == a:
                continue
            lo = min(a, t)
            hi = max(a, t)
            if s[SECOND_SWAP] == 0 and lo == s[FIRST_A] and hi == s[FIRST_B]:
                continue
            if s[SECOND_SWAP] == 1 and (t == s[FIRST_A] or t == s[FIRST_B]):
                continue
            out[n] = t
            n += 1
        return n
    if ph == P_PEEK_LINE or ph == P_GO:
        for k in range(8):
            out[k] = A_LINE + k
        return 8
    if ph == P_SHUFFLE or ph == P_ARRANGE:
        for k in range(6):
            out[k] = A_PERM + k
        return 6
    if ph == P_L_SHAPE:
        for k in range(16):
            out[k] = A_L + k
        return 16
    if ph == P_OPP_SHOW:
        for k in range(6):
            out[k] = A_SHOWSET + k
        return 6
    if ph == P_SECRET_SWAP:
        for t in range(9):
            if t != s[PICKED]:
                out[n] = t
                n += 1
        return n
    return 0


@_no_refcount
def _end(s: np.ndarray, winner: int, ending: int) -> None:
    s[WINNER] = winner
    s[ENDING] = ending
    s[PHASE] = P_OVER
    s[TO_MOVE] = -2


@_no_refcount
def _end_turn(s: np.ndarray) -> None:
    s[TURN_PLAYER] = 1 - s[TURN_PLAYER]
    s[TO_MOVE] = s[TURN_PLAYER]
    s[TURN_NUMBER] += 1
    s[CARD] = -1
    s[SLOT] = -1
    s[N_PICKED] = 0
    s[FIRST_A] = -1
    s[FIRST_B] = -1
    s[SWAP_A] = -1
    s[PHASE] = P_TURN
    if s[TURN_NUMBER] > s[TURN_CAP]:
        _end(s, -1, E_CAP)


@_no_refcount
def _finish_card(s: np.ndarray) -> None:
    n = s[DECK_LEN]
    s[DECK + n] = s[CARD]
    top = s[DECK]
    for i in range(n):
        s[DECK + i] = s[DECK + i + 1]
    s[9 + s[SLOT]] = top
    _end_turn(s)


@_no_refcount
def _swap(s: np.ndarray, a: int, b: int) -> None:
    t = s[a]
    s[a] = s[b]
    s[b] = t


@_no_refcount
def _permute(s: np.ndarray, p: int) -> None:
    v0 = s[s[PICKED]]
    v1 = s[s[PICKED + 1]]
    v2 = s[s[PICKED + 2]]
    s[s[PICKED + PERMS_A[p, 0]]] = v0
    s[s[PICKED + PERMS_A[p, 1]]] = v1
    s[s[PICKED + PERMS_A[p, 2]]] = v2


@_no_refcount
def _pick(s: np.ndarray, t: int) -> None:
    s[PICKED + s[N_PICKED]] = t
    s[N_PICKED] += 1


@_no_refcount
def _go_for_it(s: np.ndarray, line: int, alarm: bool) -> None:
    p = s[TURN_PLAYER]
    mine = 0
    bomb = False
    for i in range(3):
        v = s[LINES_A[line, i]]
        if v == p:  # seat 0 plays X (0), seat 1 plays O (1)
            mine += 1
        if v == BOMB:
            bomb = True
    if mine == 3:
        _end(s, p, E_ALARM_WIN if alarm else E_GO_WIN)
    elif bomb:
        _end(s, 1 - p, E_ALARM_BOMB if alarm else E_GO_BOMB)


# Callers pass the action as np.int64: an int32 (a `buf` entry) and an int64 would compile
# `apply` and everything it calls twice.
@_no_refcount
def apply(s: np.ndarray, a: int) -> None:
    """Apply one legal decision (not checked), as rules.State.apply."""
    ph = s[PHASE]
    p = s[TURN_PLAYER]
    if ph == P_TURN:
        if a < A_CARD:
            _go_for_it(s, a - A_LINE, False)
            if s[PHASE] != P_OVER:
                _end_turn(s)
            return
        s[SLOT] = a - A_CARD
        s[CARD] = s[9 + s[SLOT]]
        s[N_PICKED] = 0
        s[PHASE] = FIRST_PHASE[s[CARD]]
        return
    if ph == P_GO:
        _go_for_it(s, a - A_LINE, True)
        if s[PHASE] != P_OVER:
            _finish_card(s)
        return
    c = s[CARD]
    if c == 0:  # PEEK2_SHOW
        if ph == P_PEEK:
            _pick(s, a)
            if s[N_PICKED] == 2:
                s[PHASE] = P_SHOW_PEEKED
        elif ph == P_SHOW_PEEKED:
            if a == A_STOP:
                _finish_card(s)
            else:
                s[PHASE] = P_PEEK_OR_STOP
        else:
            _finish_card(s)
    elif c == 1:  # PEEK2_MAY_SWAP
        if ph == P_PEEK:
            _pick(s, a)
            if s[N_PICKED] == 2:
                s[PHASE] = P_MAY_SWAP
        else:
            if a == A_YES:
                _swap(s, s[PICKED], s[PICKED + 1])
            _finish_card(s)
    elif c == 2:  # PEEK2_SWAP_OUT
        if ph == P_PEEK:
            _pick(s, a)
            if s[N_PICKED] == 2:
                s[PHASE] = P_OUT_PEEKED
        elif ph == P_OUT_PEEKED:
            s[SWAP_A] = a
            s[PHASE] = P_OUT_OTHER
        else:
            _swap(s, s[SWAP_A], a)
            _finish_card(s)
    elif c == 3:  # PEEK1_SWAP_SWAP
        if ph == P_PEEK:
            _pick(s, a)
            s[PHASE] = P_SWAP_A
        elif ph == P_SWAP_A:
            s[SWAP_A] = a
            s[PHASE] = P_SWAP_B
        elif ph == P_SWAP_B:
            _swap(s, s[SWAP_A], a)
            s[FIRST_A] = min(s[SWAP_A], a)
            s[FIRST_B] = max(s[SWAP_A], a)
            s[PHASE] = P_SWAP2_A
        elif ph == P_SWAP2_A:
            if a == A_STOP:
                _finish_card(s)
            else:
                s[SWAP_A] = a
                s[PHASE] = P_SWAP2_B
        else:
            _swap(s, s[SWAP_A], a)
            _finish_card(s)
    elif c == 4:  # PEEK_MANY
        if a == A_STOP:
            _finish_card(s)
            return
        _pick(s, a)
        if s[a] == BOMB:
            _end(s, 1 - p, E_PEEKED_BOMB)
            return
        s[PHASE] = P_PEEK_OR_STOP
    elif c == 5:  # PEEK_LINE_SHUFFLE
        if ph == P_PEEK_LINE:
            for i in range(3):
                _pick(s, LINES_A[a - A_LINE, i])
            s[PHASE] = P_SHUFFLE
            s[TO_MOVE] = -1 if s[SHUFFLE_BY] == 0 else 1 - p
        else:
            _permute(s, a - A_PERM)
            _finish_card(s)
    elif c == 6:  # SHOW3_ARRANGE
        if ph == P_SHOW:
            _pick(s, a)
            if s[N_PICKED] == 3:
                s[PHASE] = P_ARRANGE
        else:
            _permute(s, a - A_PERM)
            _finish_card(s)
    elif c == 7:  # ALARM_PEEK_GO
        _pick(s, a)
        s[PHASE] = P_GO
    elif c == 8:  # ALARM_L_SHAPE
        k = a - A_L
        mine = 0
        for i in range(3):
            if s[L_A[k, i]] == p:
                mine += 1
        if mine == 3:
            _end(s, p, E_L_WIN)
        else:
            _end(s, 1 - p, E_L_LOSS)
    elif c == 9:  # PROMO_PEEK3
        if ph == P_PEEK:
            _pick(s, a)
            if s[N_PICKED] == 3:
                s[PHASE] = P_OPP_SHOW
                s[TO_MOVE] = 1 - p
        else:
            k = a - A_SHOWSET
            bomb = False
            for i in range(2):
                j = SHOWSETS_A[k, i]
                if j >= 0 and s[s[PICKED + j]] == BOMB:
                    bomb = True
            if bomb:
                _end(s, p, E_OPP_BOMB)
            else:
                _finish_card(s)
    else:  # PROMO_SHOW_SWAP
        if ph == P_SHOW:
            _pick(s, a)
            s[PHASE] = P_SECRET_SWAP
        else:
            _swap(s, s[PICKED], a)
            _finish_card(s)


@_no_refcount
def _play_random(
    seed: int,
    cards: np.ndarray,
    turn_cap: int,
    second: int,
    s: np.ndarray,
    shuffle_by: int,
    rng: np.ndarray,
    buf: np.ndarray,
    work: np.ndarray,
) -> int:
    """Set up and play one uniformly random game in `s` (rulebook, "Setup" and "A Turn").

    The caller's rng (1 uint64), buf (64 int32) and work (len(cards) + 2 int32) are
    overwritten, so the same arrays serve a whole batch: `_nrt=False`, nothing allocated.
    Returns the decisions made.
    """
    rng[0] = np.uint64(seed)
    setup_into(s, cards, rng, turn_cap, second, shuffle_by, work)
    steps = 0
    while s[PHASE] != P_OVER:
        n = legal_actions(s, buf)
        apply(s, np.int64(buf[rng_below(rng, n)]))
        steps += 1
    return steps


@njit(cache=True)
def random_game(
    seed: int, cards: np.ndarray, turn_cap: int, second: int, s: np.ndarray, shuffle_by=0
) -> int:
    """Play one uniformly random game as rules.random_game; return the decisions made."""
    rng = np.empty(1, dtype=np.uint64)
    buf = np.empty(64, dtype=np.int32)
    work = np.empty(cards.shape[0] + 2, dtype=np.int32)
    return _play_random(seed, cards, turn_cap, second, s, shuffle_by, rng, buf, work)


@_no_refcount
def _random_batch(
    first_seed: int,
    cards: np.ndarray,
    turn_cap: int,
    second: int,
    shuffle_by: int,
    out: np.ndarray,
    s: np.ndarray,
    rng: np.ndarray,
    buf: np.ndarray,
    work: np.ndarray,
) -> None:
    """Fill out[g] with game first_seed + g, reusing `s` and the scratch for every game.

    `_nrt=False` so the per-game loop takes no atomic reference count (see `_no_refcount`).
    """
    for g in range(out.shape[0]):
        steps = _play_random(first_seed + g, cards, turn_cap, second, s, shuffle_by, rng, buf, work)
        out[g, 0] = s[WINNER]
        out[g, 1] = s[ENDING]
        out[g, 2] = s[TURN_NUMBER]
        out[g, 3] = steps


@njit(cache=True)
def random_games(
    first_seed: int, n_games: int, cards: np.ndarray, turn_cap: int, second: int, shuffle_by=0
) -> np.ndarray:
    """Play games with seeds first_seed.. ; rows: winner, ending, turns, decisions."""
    out = np.empty((n_games, 4), dtype=np.int32)
    s = np.empty(STATE_SIZE, dtype=np.int32)
    rng = np.empty(1, dtype=np.uint64)
    buf = np.empty(64, dtype=np.int32)
    work = np.empty(cards.shape[0] + 2, dtype=np.int32)
    _random_batch(first_seed, cards, turn_cap, second, shuffle_by, out, s, rng, buf, work)
    return out


def options_args(options: Options) -> tuple[np.ndarray, int, int, int]:
    """Return (cards, turn_cap, second_swap code, shuffle code) for the kernel."""
    cards = np.array([int(c) for c in options.deck_cards()], dtype=np.int32)
    return (
        cards,
        options.turn_cap,
        SECOND_SWAP_READINGS.index(options.second_swap),
        SHUFFLE_READINGS.index(options.shuffle),
    )


def new_state(seed: int, options: Options | None = None) -> np.ndarray:
    """Return a kernel state set up from `seed` (same deal as rules.State.new(seed))."""
    cards, cap, second, shuffle_by = options_args(options or Options())
    s = np.empty(STATE_SIZE, dtype=np.int32)
    rng = np.array([seed], dtype=np.uint64)
    setup(s, cards, rng, cap, second, shuffle_by)
    return s


def legal_list(s: np.ndarray) -> list[int]:
    """Return the legal actions of a kernel state as a Python list."""
    buf = np.empty(64, dtype=np.int32)
    n = legal_actions(s, buf)
    return buf[:n].tolist()


@njit(cache=True)
def playout(s: np.ndarray, seed: int) -> int:
    """Finish the game in `s` with uniformly random decisions; return the winner (-1 none)."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    buf = np.empty(64, dtype=np.int32)
    while s[PHASE] != P_OVER:
        n = legal_actions(s, buf)
        apply(s, np.int64(buf[rng_below(rng, n)]))
    return s[WINNER]


@njit(cache=True)
def _all_mine(s: np.ndarray, tiles: np.ndarray, k: int, p: int) -> bool:
    for i in range(3):
        if s[tiles[k, i]] != p:
            return False
    return True


@njit(cache=True)
def _has_bomb(s: np.ndarray, tiles: np.ndarray, k: int) -> bool:
    for i in range(3):
        if s[tiles[k, i]] == BOMB:
            return True
    return False


@njit(cache=True)
def informed_action(s: np.ndarray, buf: np.ndarray, n: int, rng: np.ndarray) -> int:
    """A playout policy that sees the (sampled) grid: random, but no blunders.

    It goes for a line only when it is all the mover's, plays the L-shape ALARM only to
    win, never peeks at the bomb with "Peek at as many", never shows the bomb when asked
    to show, and otherwise picks uniformly among the legal decisions.
    """
    ph = s[PHASE]
    p = s[TO_MOVE]
    if ph == P_TURN:
        for k in range(8):
            if _all_mine(s, LINES_A, k, p):
                return A_LINE + k
        for slot in range(2):
            if s[9 + slot] == ALARM_B:
                for k in range(16):
                    if _all_mine(s, L_A, k, p):
                        return A_CARD + slot  # the L-shape ALARM wins: play it
        slot = 0 if rng_below(rng, 2) == 0 else 1
        if s[9 + slot] == ALARM_B:
            slot = 1 - slot  # the L-shape ALARM would lose: take the other card
        return A_CARD + slot
    if ph == P_GO:
        best = -1
        for k in range(8):
            if _all_mine(s, LINES_A, k, s[TURN_PLAYER]):
                return A_LINE + k
            if best < 0 and not _has_bomb(s, LINES_A, k):
                best = k
        return A_LINE + best
    if ph == P_L_SHAPE:
        for k in range(16):
            if _all_mine(s, L_A, k, s[TURN_PLAYER]):
                return A_L + k
        return buf[rng_below(rng, n)]
    if ph == P_PEEK_OR_STOP and s[CARD] == 4:
        if rng_below(rng, 2) == 0:
            return A_STOP
        a = buf[rng_below(rng, n)]
        if a != A_STOP and s[a] == BOMB:
            return A_STOP
        return a
    if ph == P_PEEK and s[CARD] == 4:
        for _ in range(16):
            a = buf[rng_below(rng, n)]
            if s[a] != BOMB:
                return a
    if ph == P_OPP_SHOW:
        for _ in range(16):
            a = buf[rng_below(rng, n)]
            k = a - A_SHOWSET
            safe = True
            for i in range(2):
                j = SHOWSETS_A[k, i]
                if j >= 0 and s[s[PICKED + j]] == BOMB:
                    safe = False
            if safe:
                return a
    return buf[rng_below(rng, n)]


@njit(cache=True)
def playout_informed(s: np.ndarray, seed: int) -> int:
    """Finish the game in `s` with `informed_action` for both players; return the winner."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    buf = np.empty(64, dtype=np.int32)
    while s[PHASE] != P_OVER:
        n = legal_actions(s, buf)
        apply(s, np.int64(informed_action(s, buf, n, rng)))
    return s[WINNER]


# ----- Players who remember: knowledge flags and a casual playout policy ---------------
#
# ISMCTS needs playouts whose players behave like players, not coin flips: a random
# playout goes for a line at once and so makes waiting look like a gamble. The policy
# below plays like the reference `heuristic` agent but on a sampled grid, with what
# each player knows kept as flags: know[p, t] is 1 when player p knows the tile now at
# position t (the value is read from the grid, so a flag never claims a wrong value),
# 2 when p knows only that it is not the bomb (the opponent survived a peek at it with
# "Peek at as many as you want"), 0 when p knows nothing of it.
# Flags follow the rulebook's vocabulary: PEEK tells the peeker, SHOW and Go for It
# tell both, SWAP moves both players' flags (everyone sees which tiles moved), a
# shuffle or a secret arrangement wipes the flags of whoever did not see the order.

# Cards in the order a casual player likes them (rank 0 best); ALARM cards last.
CASUAL_RANK = np.array([3, 0, 1, 2, 8, 5, 4, 99, 99, 7, 6], dtype=np.int32)
PEEK_MANY_C, LINE_SHUFFLE_C, ARRANGE_C, PEEK3_C, SHOW_SWAP_C = 4, 5, 6, 9, 10
# A casual player's patience (as the reference `heuristic`): after this turn, a line
# with two of its own tiles and no tile known to be another is worth a try.
CASUAL_PATIENCE = 20


@_no_refcount
def _know_swap(know: np.ndarray, a: int, b: int) -> None:
    for p in range(2):
        t = know[p, a]
        know[p, a] = know[p, b]
        know[p, b] = t


@_no_refcount
def apply_know(s: np.ndarray, know: np.ndarray, a: int) -> None:
    """Update both players' knowledge flags for decision `a`, then apply it."""
    ph = s[PHASE]
    p = s[TURN_PLAYER]
    c = s[CARD]
    if ph == P_TURN:
        if a < A_CARD:
            for i in range(3):
                know[0, LINES_A[a - A_LINE, i]] = 1
                know[1, LINES_A[a - A_LINE, i]] = 1
    elif ph == P_GO:
        for i in range(3):
            know[0, LINES_A[a - A_LINE, i]] = 1
            know[1, LINES_A[a - A_LINE, i]] = 1
    elif ph == P_PEEK or ph == P_PEEK_OR_STOP:
        if a < 9:
            know[p, a] = 1
            # "If it's the bomb, you lose": a game that goes on tells the opponent.
            if c == PEEK_MANY_C and s[a] != BOMB and know[1 - p, a] == 0:
                know[1 - p, a] = 2
    elif ph == P_SHOW_PEEKED or ph == P_SHOW:
        if a < 9:
            know[0, a] = 1
            know[1, a] = 1
    elif ph == P_MAY_SWAP:
        if a == A_YES:
            _know_swap(know, s[PICKED], s[PICKED + 1])
    elif ph == P_OUT_OTHER or ph == P_SWAP_B or ph == P_SWAP2_B:
        _know_swap(know, s[SWAP_A], a)
    elif ph == P_PEEK_LINE:
        for i in range(3):
            know[p, LINES_A[a - A_LINE, i]] = 1
    elif ph == P_SHUFFLE:
        # Chance: no one sees the order. The opponent's choice: only they know it, and
        # they knew no values there, so both forget.
        for i in range(3):
            know[0, s[PICKED + i]] = 0
            know[1, s[PICKED + i]] = 0
    elif ph == P_ARRANGE:
        for i in range(3):
            know[p, s[PICKED + i]] = 1
            know[1 - p, s[PICKED + i]] = 0
    elif ph == P_OPP_SHOW:
        for i in range(2):
            j = SHOWSETS_A[a - A_SHOWSET, i]
            if j >= 0:
                know[0, s[PICKED + j]] = 1
                know[1, s[PICKED + j]] = 1
    elif ph == P_SECRET_SWAP and c == SHOW_SWAP_C:
        t = s[PICKED]
        mine = know[p, a]
        know[p, a] = 1  # the shown tile went there
        know[p, t] = mine  # and the unseen one came here
        # The opponent does not know where the shown tile went: a tile it knew stays
        # known only if it holds the shown value (whether or not it was the partner).
        for j in range(9):
            if j == t or s[j] != s[t]:
                know[1 - p, j] = 0
    apply(s, a)


@_no_refcount
def observe_code(s: np.ndarray, a: int, me: int) -> int:
    """What player `me` learns from decision `a` (before it is applied), as one number.

    -1 when `me` cannot see which decision it was (a chance shuffle, the opponent's
    secret order or secret swap partner); otherwise 64 * a + the base-3 code (plus 27
    for "values seen") of the tile values the decision shows `me`.
    """
    ph = s[PHASE]
    mover = s[TO_MOVE]
    if ph == P_SHUFFLE:
        return -1 if mover != me else 64 * a
    if mover != me and (ph == P_ARRANGE or ph == P_SECRET_SWAP):
        return -1
    code = 0
    seen = False
    if (ph == P_TURN and a < A_CARD) or ph == P_GO:
        for i in range(3):
            code = code * 3 + s[LINES_A[a - A_LINE, i]]
        seen = True
    elif (ph == P_PEEK or ph == P_PEEK_OR_STOP) and a < 9 and mover == me:
        code = s[a]
        seen = True
    elif ph == P_PEEK_LINE and mover == me:
        for i in range(3):
            code = code * 3 + s[LINES_A[a - A_LINE, i]]
        seen = True
    elif (ph == P_SHOW_PEEKED or ph == P_SHOW) and a < 9:
        code = s[a]
        seen = True
    elif ph == P_OPP_SHOW:
        for i in range(2):
            j = SHOWSETS_A[a - A_SHOWSET, i]
            if j >= 0:
                code = code * 3 + s[s[PICKED + j]]
        seen = True
    return 64 * a + (27 + code if seen else 0)


@_no_refcount
def _know_score(s: np.ndarray, know: np.ndarray, p: int) -> float:
    """How good the grid looks to player p from what p knows.

    Ten points per own tile in p's best line that holds no tile p knows to be another,
    a point per such tile over all lines, minus five per opponent tile in the line p
    knows to be best for the opponent.
    """
    best_mine = 0
    total = 0
    best_opp = 0
    for k in range(8):
        m = 0
        other = 0
        om = 0
        oother = 0
        for i in range(3):
            t = LINES_A[k, i]
            if know[p, t] == 1:
                if s[t] == p:
                    m += 1
                    oother += 1
                elif s[t] == 1 - p:
                    om += 1
                    other += 1
                else:
                    other += 1
                    oother += 1
        if other == 0:
            total += m
            if m > best_mine:
                best_mine = m
        if oother == 0 and om > best_opp:
            best_opp = om
    return 10.0 * best_mine + total - 5.0 * best_opp


@_no_refcount
def _swap_gain(s: np.ndarray, know: np.ndarray, p: int, a: int, b: int) -> float:
    _swap(s, a, b)
    _know_swap(know, a, b)
    v = _know_score(s, know, p)
    _swap(s, a, b)
    _know_swap(know, a, b)
    return v


@_no_refcount
def _line_counts(s: np.ndarray, know: np.ndarray, p: int, tiles: np.ndarray, k: int):
    mine = 0
    other = 0
    bomb = 0
    for i in range(3):
        t = tiles[k, i]
        if know[p, t] == 1:
            if s[t] == p:
                mine += 1
            else:
                other += 1
                if s[t] == BOMB:
                    bomb += 1
    return mine, other, bomb


@_no_refcount
def _bomb_known(s: np.ndarray, know: np.ndarray, p: int) -> bool:
    for t in range(9):
        if know[p, t] == 1 and s[t] == BOMB:
            return True
    return False


@_no_refcount
def _n_unknown(know: np.ndarray, p: int) -> int:
    """How many tiles could be the bomb for p (neither known nor known not the bomb)."""
    n = 0
    for t in range(9):
        if know[p, t] == 0:
            n += 1
    return n


@_no_refcount
def _pick_best(vals: np.ndarray, acts: np.ndarray, n: int, rng: np.ndarray) -> int:
    """The action with the largest value; ties broken at random."""
    best = -1e18
    for i in range(n):
        if vals[i] > best:
            best = vals[i]
    ties = 0
    for i in range(n):
        if vals[i] >= best - 1e-9:
            ties += 1
    r = rng_below(rng, ties)
    for i in range(n):
        if vals[i] >= best - 1e-9:
            if r == 0:
                return acts[i]
            r -= 1
    return acts[0]


@_no_refcount
def _peek_choice(
    s: np.ndarray,
    know: np.ndarray,
    p: int,
    buf: np.ndarray,
    n: int,
    rng: np.ndarray,
    safe: bool,
    vals: np.ndarray,
    acts: np.ndarray,
) -> int:
    """A tile p does not know, on the lines where p has most of its own; -1 if none.

    With `safe`, never a tile p knows is the bomb ("Peek at as many as you want").
    `vals` / `acts` are the caller's scratch (at least 9 long; only what is written here
    is read), so nothing is allocated: `_nrt=False`.
    """
    m = 0
    for i in range(n):
        t = buf[i]
        if t >= 9 or know[p, t] == 1:
            continue
        v = 0.0
        for k in range(8):
            on = False
            for j in range(3):
                if LINES_A[k, j] == t:
                    on = True
            if on:
                mine, other, _ = _line_counts(s, know, p, LINES_A, k)
                if other == 0:
                    v += mine
        vals[m] = v
        acts[m] = t
        m += 1
    if m == 0:
        if safe:
            for i in range(n):
                t = buf[i]
                if t < 9 and not (know[p, t] == 1 and s[t] == BOMB):
                    return t
        return -1
    return _pick_best(vals, acts, m, rng)


@_no_refcount
def _go_choice(s: np.ndarray, know: np.ndarray, p: int) -> int:
    """The line to Go for It on: all mine if known, else most mine at the least risk."""
    n_unk = _n_unknown(know, p)
    bomb_known = _bomb_known(s, know, p)
    best = -1e18
    best_k = 0
    for k in range(8):
        mine, other, bomb = _line_counts(s, know, p, LINES_A, k)
        if mine == 3:
            return k
        unk = 0  # tiles on the line that could be the bomb
        for i in range(3):
            if know[p, LINES_A[k, i]] == 0:
                unk += 1
        risk = 0.0
        if bomb > 0:
            risk = 1.0
        elif not bomb_known and n_unk > 0:
            risk = unk / n_unk
        v = mine - 3.0 * risk - (0.5 if other > 0 else 0.0)
        if v > best:
            best = v
            best_k = k
    return best_k


@njit(cache=True)
def casual_action(s: np.ndarray, know: np.ndarray, buf: np.ndarray, n: int, rng: np.ndarray) -> int:
    """A casual player's decision from what it knows (`know`): `_casual_action` with
    fresh scratch (the playouts and `advance_others` pass theirs, once per call)."""
    vals = np.empty(64, dtype=np.float64)
    acts = np.empty(64, dtype=np.int32)
    return _casual_action(s, know, buf, n, rng, vals, acts)


@_no_refcount
def _casual_action(
    s: np.ndarray,
    know: np.ndarray,
    buf: np.ndarray,
    n: int,
    rng: np.ndarray,
    vals: np.ndarray,
    acts: np.ndarray,
) -> int:
    """A casual player's decision from what it knows (`know`), as the `heuristic` agent.

    Goes for a line only when it knows all three are its own (or, after
    CASUAL_PATIENCE turns, two of them and no other); plays the L-shape ALARM only to
    win and "Peek at 1. Go for It." only when both face-up cards are ALARM cards;
    otherwise takes its favourite face-up card (one time in five the other one).
    Peeks at tiles it does not know, stops "Peek at as many" after two peeks or when
    the bomb could be one of five or fewer unknown tiles, never shows what it peeked
    at, and chooses every swap and order by `_know_score`. Chance: uniform.

    `vals` (float64) and `acts` (int32) are scratch at least 64 long: every branch
    writes the entries it reads before reading them, so reused scratch gives the same
    decision as fresh arrays. Nothing is allocated: `_nrt=False` (see `_no_refcount`).
    """
    ph = s[PHASE]
    mover = s[TO_MOVE]
    if mover == -1:
        return buf[rng_below(rng, n)]
    p = mover
    c = s[CARD]
    if ph == P_TURN:
        for k in range(8):
            mine, other, _ = _line_counts(s, know, p, LINES_A, k)
            if mine == 3:
                return A_LINE + k
        for slot in range(2):
            if s[9 + slot] == ALARM_B:
                for k in range(16):
                    mine, other, _ = _line_counts(s, know, p, L_A, k)
                    if mine == 3:
                        return A_CARD + slot
        if s[TURN_NUMBER] > CASUAL_PATIENCE:
            for k in range(8):
                mine, other, _ = _line_counts(s, know, p, LINES_A, k)
                if mine == 2 and other == 0:
                    return A_LINE + k
        r0 = CASUAL_RANK[s[9]]
        r1 = CASUAL_RANK[s[10]]
        if r0 == 99 and r1 == 99:
            return A_CARD + (0 if s[9] == ALARM_A else 1)
        slot = 0 if r0 <= r1 else 1
        other_rank = r1 if slot == 0 else r0
        if other_rank < 99 and rng_below(rng, 5) == 0:
            slot = 1 - slot
        return A_CARD + slot
    if ph == P_PEEK:
        t = _peek_choice(s, know, p, buf, n, rng, c == PEEK_MANY_C, vals, acts)
        return t if t >= 0 else buf[rng_below(rng, n)]
    if ph == P_PEEK_OR_STOP:
        if c == PEEK_MANY_C:
            bomb_known = _bomb_known(s, know, p)
            if s[N_PICKED] >= 2 or (not bomb_known and _n_unknown(know, p) <= 5):
                return A_STOP
        t = _peek_choice(s, know, p, buf, n, rng, c == PEEK_MANY_C, vals, acts)
        return t if t >= 0 else A_STOP
    if ph == P_SHOW_PEEKED:
        return A_STOP
    if ph == P_SHOW:
        t = _peek_choice(s, know, p, buf, n, rng, False, vals, acts)
        return t if t >= 0 else buf[rng_below(rng, n)]
    if ph == P_PEEK_LINE:
        for k in range(8):
            vals[k] = 0.0
            for i in range(3):
                if know[p, LINES_A[k, i]] != 1:
                    vals[k] += 1.0
        return _pick_best(vals, buf, 8, rng)
    if ph == P_GO:
        return A_LINE + _go_choice(s, know, p)
    if ph == P_L_SHAPE:
        for k in range(16):
            mine, other, _ = _line_counts(s, know, p, L_A, k)
            if mine == 3:
                return A_L + k
        return buf[rng_below(rng, n)]
    if ph == P_OPP_SHOW:
        # Show one tile, one I know is not the bomb if I can.
        for i in range(3):
            t = s[PICKED + i]
            acts[i] = A_SHOWSET + i
            vals[i] = 0.0
            if know[p, t] == 1:
                vals[i] = -1.0 if s[t] == BOMB else 1.0
        return _pick_best(vals, acts, 3, rng)
    if ph == P_SHUFFLE:
        return buf[rng_below(rng, n)]
    if ph == P_MAY_SWAP:
        a = s[PICKED]
        b = s[PICKED + 1]
        stay = _know_score(s, know, p)
        return A_YES if _swap_gain(s, know, p, a, b) > stay + 1e-9 else A_STOP
    if ph == P_OUT_PEEKED:
        best = -1e18
        best_a = buf[0]
        for i in range(n):
            a = buf[i]
            for t in range(9):
                if _is_picked(s, t):
                    continue
                v = _swap_gain(s, know, p, a, t)
                if v > best:
                    best = v
                    best_a = a
        return best_a
    if ph == P_OUT_OTHER or ph == P_SWAP_B or ph == P_SWAP2_B or ph == P_SECRET_SWAP:
        a = s[PICKED] if ph == P_SECRET_SWAP else s[SWAP_A]
        for i in range(n):
            vals[i] = _swap_gain(s, know, p, a, buf[i])
        return _pick_best(vals, buf, n, rng)
    if ph == P_SWAP_A or ph == P_SWAP2_A:
        stay = _know_score(s, know, p)
        m = 0
        for a in range(9):
            for b in range(a + 1, 9):
                if ph == P_SWAP2_A:
                    if s[SECOND_SWAP] == 0 and a == s[FIRST_A] and b == s[FIRST_B]:
                        continue
                    if s[SECOND_SWAP] == 1 and (
                        a == s[FIRST_A] or a == s[FIRST_B] or b == s[FIRST_A] or b == s[FIRST_B]
                    ):
                        continue
                vals[m] = _swap_gain(s, know, p, a, b)
                acts[m] = a
                m += 1
        if ph == P_SWAP2_A:
            best = -1e18
            for i in range(m):
                if vals[i] > best:
                    best = vals[i]
            if best <= stay + 1e-9:
                return A_STOP
        return _pick_best(vals, acts, m, rng)
    if ph == P_ARRANGE:
        v0 = s[s[PICKED]]
        v1 = s[s[PICKED + 1]]
        v2 = s[s[PICKED + 2]]
        for q in range(6):
            _permute(s, q)
            vals[q] = _know_score(s, know, p)
            acts[q] = A_PERM + q
            s[s[PICKED]] = v0
            s[s[PICKED + 1]] = v1
            s[s[PICKED + 2]] = v2
        return _pick_best(vals, acts, 6, rng)
    return buf[rng_below(rng, n)]


@njit(cache=True)
def playout_casual(s: np.ndarray, know: np.ndarray, seed: int) -> int:
    """Finish the game in `s` with `casual_action` for both players; return the winner.

    Allocates the generator and the scratch once (NRT kept for that), then plays in
    `_playout_casual`.
    """
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    buf = np.empty(64, dtype=np.int32)
    vals = np.empty(64, dtype=np.float64)
    acts = np.empty(64, dtype=np.int32)
    return _playout_casual(s, know, rng, buf, vals, acts)


@_no_refcount
def _playout_casual(
    s: np.ndarray,
    know: np.ndarray,
    rng: np.ndarray,
    buf: np.ndarray,
    vals: np.ndarray,
    acts: np.ndarray,
) -> int:
    """The loop of `playout_casual`: every decision by `_casual_action` in the caller's
    scratch, so the decisions take no atomic reference count (`_nrt=False`)."""
    while s[PHASE] != P_OVER:
        n = legal_actions(s, buf)
        apply_know(s, know, np.int64(_casual_action(s, know, buf, n, rng, vals, acts)))
    return s[WINNER]


@njit(cache=True)
def advance_others(
    s: np.ndarray, know: np.ndarray, me: int, rng: np.ndarray, codes: np.ndarray
) -> int:
    """Play chance and the opponent (`casual_action`) until `me` decides or the game ends.

    Writes what `me` observes of each decision (`observe_code`) into `codes`; returns
    how many were written. Allocates the scratch once, then plays in `_advance_others`.
    """
    buf = np.empty(64, dtype=np.int32)
    vals = np.empty(64, dtype=np.float64)
    acts = np.empty(64, dtype=np.int32)
    return _advance_others(s, know, me, rng, codes, buf, vals, acts)


@_no_refcount
def _advance_others(
    s: np.ndarray,
    know: np.ndarray,
    me: int,
    rng: np.ndarray,
    codes: np.ndarray,
    buf: np.ndarray,
    vals: np.ndarray,
    acts: np.ndarray,
) -> int:
    """The loop of `advance_others` in the caller's scratch (`_nrt=False`, no allocation)."""
    m = 0
    while s[PHASE] != P_OVER and s[TO_MOVE] != me and m < codes.shape[0]:
        n = legal_actions(s, buf)
        a = np.int64(_casual_action(s, know, buf, n, rng, vals, acts))
        code = observe_code(s, a, me)
        apply_know(s, know, a)
        codes[m] = face_up_code(s, code)
        m += 1
    return m


@_no_refcount
def face_up_code(s: np.ndarray, code: int) -> int:
    """`code` with the face-up cards after the decision (a revealed card is seen by all)."""
    return code * 256 + s[9] * 16 + s[10]

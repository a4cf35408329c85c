"""Catch the Bomber compiled with Numba: random-agent playouts on flat arrays.

The same rules as `rules.py` (the spec), section for section; `tests/bomber/
test_bomber_kernel.py` plays thousands of seeded games through both and demands the
same deal, the same action sequence and the same assessment.

State layout (one game, players P <= 6)::

    card[7, 5]   int8  card code (rules.Card) at index i of location loc, -1 empty
    up[7, 5]     int8  1 face up, 0 face down
    owner[7, 5]  int8  the player who played it
    length[7]    int8  cards in each line (locations 0..5 Gathering Points, 6 Bridge)
    hand[6, 9]   int8  hand[p, card] = copies of card in p's hand
    size[6]      int8  cards in p's hand
    out[6]       int8  1 once p had no possible action and left play
    chars[6]     int8  the character card dealt to p

Actions are the dense integers of `rules.py` (0..114). Both the deal and the random
agent use SplitMix64, the deal seeded with the game seed and the agent with
``seed ^ AGENT_SALT``.

Rule options are passed as small integers: dog_forbid (0 'caught', 1 'forbid'),
warrior_bombing (1/0), stuck_assess (0 'loses', 1 'assess'), move_optional (1/0).
"""

from __future__ import annotations

import numpy as np

from bombsolve.solvers.bomber.rules import AGENT_SALT, Options
from bombsolve.solvers.common.numba_jit import njit

#: Digest of the project files this module imports (bombsolve.solvers.common.numba_deps): a change to
#: them changes this file too, so Numba rebuilds its on-disk cache of this module.
NUMBA_DEPENDS_ON = "ac0bfae91fc8a698"

# Result columns of `play_random_games`.
COLUMNS = (
    "outcome",
    "chaos",
    "escape",
    "bombing",
    "survival",
    "bomber_stuck",
    "chaos_locations",
    "turns",
    "eliminated",
    "extras",
    "bomber_seat",
)
N_COLS = len(COLUMNS)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)

BOMBER, POLICE, YOUNG_LADY, HOLY_WARRIOR, SUSPICIOUS = 0, 1, 2, 3, 4
DOG, BOMB, SQUAD, CITIZEN = 5, 6, 7, 8
NG, BRIDGE, NL, LMAX = 6, 6, 7, 5
SHELTER_ONLY, TO_BRIDGE, FROM_BRIDGE = 54, 55, 85

#: How the game loop (`play_one`, `_play_batch`) and the helpers it calls are compiled:
#: without Numba's reference counting (NRT). With it, every array argument of a call that
#: is not inlined and every view (`res[k]`) takes an atomic increment and a decrement, and
#: an atomic operation is costly on some processors: on an AMD EPYC (family 26) KVM guest
#: 37.6% of a random game's samples were on NRT_incref/NRT_decref. These functions
#: allocate nothing and keep no array past their return (the state arrays are allocated
#: once per batch by `new_work`, which keeps NRT explicitly), so the counts are never
#: needed. Numba compiles a callee met first from such a function without NRT too, so
#: what they call must not allocate either. (`scratch[0:3]` allocates nothing: it is a new
#: header over the same data.)
_no_refcount = njit(cache=True, _nrt=False)


def rule_flags(rules: Options) -> tuple[int, int, int, int]:
    """Return (dog_forbid, warrior_bombing, stuck_assess, move_optional) for the kernel."""
    return (
        int(rules.dog == "forbid"),
        int(rules.warrior_bombing),
        int(rules.stuck_bomber == "assess"),
        int(rules.move_optional),
    )


@_no_refcount
def _next(rng):
    """SplitMix64 step on a one-element uint64 array (see rules.SplitMix64)."""
    rng[0] = rng[0] + _GOLDEN
    z = rng[0]
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@_no_refcount
def _below(rng, n):
    return np.int64(_next(rng) % np.uint64(n))


@_no_refcount
def _shuffle(arr, n, rng):
    for i in range(n - 1, 0, -1):
        j = _below(rng, i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t


@_no_refcount
def deal(players, extras_mask, rng, hand, size, chars, scratch):
    """Deal characters and Basic cards exactly as rules.new_game; return the extras mask.

    scratch: int8[48] reused across games (views into it, no allocation per game).
    """
    n_extra = players - 3
    extras = scratch[0:3]
    if extras_mask < 0:
        extras[0] = YOUNG_LADY
        extras[1] = HOLY_WARRIOR
        extras[2] = SUSPICIOUS
        _shuffle(extras, 3, rng)
        # rules.deal_characters sorts an explicit tuple; a random one keeps pool order.
    else:
        k = 0
        for b in range(3):
            if extras_mask & (1 << b):
                extras[k] = YOUNG_LADY + b
                k += 1
    mask = 0
    for k in range(n_extra):
        mask |= 1 << np.int64(extras[k] - YOUNG_LADY)
    c = scratch[3:9]
    c[0] = BOMBER
    c[1] = POLICE
    c[2] = POLICE
    for k in range(n_extra):
        c[3 + k] = extras[k]
    _shuffle(c, players, rng)
    basics = scratch[16:46]
    n = 0
    for _ in range(2):
        basics[n] = DOG
        n += 1
    for _ in range(4):
        basics[n] = BOMB
        n += 1
    for _ in range(6):
        basics[n] = SQUAD
        n += 1
    n_cit = 16 if players == 4 else 18
    for _ in range(n_cit):
        basics[n] = CITIZEN
        n += 1
    _shuffle(basics, n, rng)
    per = n // players
    hand[:, :] = 0
    for p in range(players):
        chars[p] = c[p]
        hand[p, c[p]] += 1
        for k in range(p * per, (p + 1) * per):
            hand[p, basics[k]] += 1
        size[p] = per + 1
    return mask


@_no_refcount
def legal(p, card, up, length, hand, size, dog_forbid, move_optional, buf):
    """Write p's legal actions into buf in ascending order; return how many."""
    n = 0
    last = size[p] == 1
    for c in range(9):
        if hand[p, c] == 0:
            continue
        for g in range(NG):
            ln = length[g]
            if ln >= LMAX:
                continue
            face_up = ln % 2 == 0
            if c == DOG and not face_up:
                continue
            if c == YOUNG_LADY and face_up:
                continue
            if c == BOMBER:
                if last and face_up:
                    continue
                if dog_forbid:
                    has_dog = False
                    for i in range(ln):
                        if card[g, i] == DOG:
                            has_dog = True
                    if has_dog:
                        continue
            if c == SUSPICIOUS and not last:
                continue
            buf[n] = c * NG + g
            n += 1
    if hand[p, CITIZEN] > 0:
        if move_optional:
            buf[n] = SHELTER_ONLY
            n += 1
        if length[BRIDGE] < LMAX:
            for g in range(NG):
                for i in range(length[g]):
                    cc = card[g, i]
                    if up[g, i] and (cc == CITIZEN or cc == DOG or cc == SQUAD):
                        buf[n] = TO_BRIDGE + g * LMAX + i
                        n += 1
        for i in range(length[BRIDGE]):
            cc = card[BRIDGE, i]
            if up[BRIDGE, i] and (cc == CITIZEN or cc == DOG or cc == SQUAD):
                for g in range(NG):
                    if length[g] < LMAX:
                        buf[n] = FROM_BRIDGE + i * NG + g
                        n += 1
    return n


@_no_refcount
def step(p, a, card, up, owner, length, hand, size):
    """Apply action a (assumed legal) for player p."""
    if a < SHELTER_ONLY:
        c = a // NG
        g = a % NG
        ln = length[g]
        card[g, ln] = c
        up[g, ln] = 1 if ln % 2 == 0 else 0
        owner[g, ln] = p
        length[g] = ln + 1
        hand[p, c] -= 1
        size[p] -= 1
        return
    hand[p, CITIZEN] -= 1
    size[p] -= 1
    if a == SHELTER_ONLY:
        return
    if a < FROM_BRIDGE:
        k = a - TO_BRIDGE
        src = k // LMAX
        i = k % LMAX
        dst = BRIDGE
    else:
        k = a - FROM_BRIDGE
        src = BRIDGE
        i = k // NG
        dst = k % NG
    cc, uu, oo = card[src, i], up[src, i], owner[src, i]
    ln = length[src]
    for j in range(i, ln - 1):
        card[src, j] = card[src, j + 1]
        up[src, j] = up[src, j + 1]
        owner[src, j] = owner[src, j + 1]
    card[src, ln - 1] = -1
    length[src] = ln - 1
    d = length[dst]
    card[dst, d] = cc
    up[dst, d] = uu
    owner[dst, d] = oo
    length[dst] = d + 1


@_no_refcount
def assess(card, up, length, dog_forbid, warrior_bombing, out_row):
    """Achievement Assessment as rules.assess; fill out_row[0:7]."""
    chaos_locs = 0
    for loc in range(NL):
        for i in range(length[loc]):
            if card[loc, i] == CITIZEN and up[loc, i]:
                chaos_locs += 1
                break
    chaos = chaos_locs <= 4
    bombing = False
    bomber_loc = -1
    bomber_idx = -1
    exploded = 0  # bit loc set when that location explodes
    for loc in range(NL):
        has_bomb = False
        by_bomb = False
        has_squad = False
        for i in range(length[loc]):
            cc = card[loc, i]
            if cc == BOMB:
                has_bomb = True
                by_bomb = True
            elif cc == HOLY_WARRIOR:
                has_bomb = True
            elif cc == SQUAD:
                has_squad = True
            elif cc == BOMBER:
                bomber_loc = loc
                bomber_idx = i
        if has_bomb and not has_squad:
            exploded |= 1 << loc
            if by_bomb or warrior_bombing:
                for i in range(length[loc]):
                    cc = card[loc, i]
                    if cc == YOUNG_LADY or cc == HOLY_WARRIOR or cc == SUSPICIOUS or cc == CITIZEN:
                        bombing = True
    survival = bomber_loc < 0 or not (exploded >> bomber_loc) & 1
    escape = False
    warrior_there = False
    if bomber_loc >= 0:
        police_here = False
        for i in range(length[bomber_loc]):
            cc = card[bomber_loc, i]
            if cc == POLICE:
                police_here = True
            if cc == DOG and not dog_forbid and i < bomber_idx:
                police_here = True
            if cc == HOLY_WARRIOR:
                warrior_there = True
        escape = survival and not police_here
    achieved = chaos or escape or bombing
    if survival and achieved:
        outcome = 0
    elif not achieved:
        outcome = 1
    elif warrior_there:
        outcome = 3
    else:
        outcome = 2
    out_row[0] = outcome
    out_row[1] = chaos
    out_row[2] = escape
    out_row[3] = bombing
    out_row[4] = survival
    out_row[5] = 0
    out_row[6] = chaos_locs


# Allocates, so it keeps NRT (explicitly: it must not inherit _nrt=False from a caller).
@njit(cache=True, _nrt=True)
def new_work():
    """Allocate the per-game arrays once; `play_one` resets them for every game."""
    return (
        np.empty(1, np.uint64),
        np.empty(1, np.uint64),
        np.empty((NL, LMAX), np.int8),
        np.empty((NL, LMAX), np.int8),
        np.empty((NL, LMAX), np.int8),
        np.empty(NL, np.int8),
        np.empty((6, 9), np.int8),
        np.empty(6, np.int8),
        np.empty(6, np.int8),
        np.empty(6, np.int8),
        np.empty(128, np.int16),
        np.empty(48, np.int8),
    )


@_no_refcount
def play_one(
    seed, players, extras_mask, dog_forbid, warrior_bombing, stuck_assess, move_optional,
    out_row, actions, work,
):  # fmt: skip
    """Play one random-agent game; fill out_row (COLUMNS) and actions (-1 padded).

    Rulebook "Preparation" (`deal`), "Rounds" and "Steps in Detail" (`legal`, `step`),
    "Achievement Assessment" (`assess`). The turn loop mirrors rules.apply /
    rules._pass_turn: the next player with cards who has no possible action leaves play; a
    stuck Bomber ends the game under 'loses'. `work` (from `new_work`) is reset here, so a
    game never depends on the games played before it in the same arrays.
    """
    rng, agent, card, up, owner, length, hand, size, out, chars, buf, scratch = work
    rng[0] = np.uint64(seed)
    agent[0] = np.uint64(seed) ^ np.uint64(AGENT_SALT)
    card[:, :] = -1
    up[:, :] = 0
    owner[:, :] = 0
    length[:] = 0
    size[:] = 0
    out[:] = 0
    chars[:] = 0
    mask = deal(players, extras_mask, rng, hand, size, chars, scratch)
    for k in range(actions.shape[0]):
        actions[k] = -1
    turns = 0
    eliminated = 0
    stuck = False
    p = 0
    n = legal(p, card, up, length, hand, size, dog_forbid, move_optional, buf)
    while True:
        a = buf[_below(agent, n)]
        if turns < actions.shape[0]:
            actions[turns] = a
        step(p, a, card, up, owner, length, hand, size)
        turns += 1
        # pass the turn
        n = 0
        while True:
            active = False
            for i in range(players):
                if out[i] == 0 and size[i] > 0:
                    active = True
            if not active:
                break
            p = (p + 1) % players
            if out[p] or size[p] == 0:
                continue
            n = legal(p, card, up, length, hand, size, dog_forbid, move_optional, buf)
            if n > 0:
                break
            out[p] = 1
            eliminated += 1
            if chars[p] == BOMBER and not stuck_assess:
                stuck = True
                break
        if n == 0:
            break
    bomber_seat = 0
    warrior_seat = -1
    for i in range(players):
        if chars[i] == BOMBER:
            bomber_seat = i
        elif chars[i] == HOLY_WARRIOR:
            warrior_seat = i
    assess(card, up, length, dog_forbid, warrior_bombing, out_row)
    # as rules.assess: a player who left play has lost, so his victory becomes a draw
    if out_row[0] == 0 and out[bomber_seat]:
        out_row[0] = 2
    if out_row[0] == 3 and warrior_seat >= 0 and out[warrior_seat]:
        out_row[0] = 2
    if stuck:
        out_row[0] = 1
        out_row[1] = 0
        out_row[2] = 0
        out_row[3] = 0
        out_row[4] = 1
        out_row[5] = 1
    out_row[7] = turns
    out_row[8] = eliminated
    out_row[9] = mask
    out_row[10] = bomber_seat


@_no_refcount
def _play_batch(
    seeds, players, extras_mask, dog_forbid, warrior_bombing, stuck_assess, move_optional,
    res, actions, work,
):  # fmt: skip
    """Play the game of seeds[k] into res[k] for every k, in the one set of state arrays
    `work` (`play_one` resets them per game).

    The loop runs without NRT (see `_no_refcount`): in a reference-counted caller the view
    `res[k]` and each of the twelve arrays of `work` passed to `play_one` took an atomic
    increment and decrement on every game.
    """
    for k in range(seeds.shape[0]):
        play_one(
            seeds[k], players, extras_mask, dog_forbid, warrior_bombing, stuck_assess,
            move_optional, res[k], actions, work,
        )  # fmt: skip


@njit(cache=True)
def play_random_games(
    seeds, players, extras_mask, dog_forbid, warrior_bombing, stuck_assess, move_optional
):
    """Play one random-agent game per seed; return an int32 array [len(seeds), N_COLS]."""
    res = np.zeros((seeds.shape[0], N_COLS), np.int32)
    actions = np.empty(0, np.int16)
    _play_batch(
        seeds, players, extras_mask, dog_forbid, warrior_bombing, stuck_assess,
        move_optional, res, actions, new_work(),
    )  # fmt: skip
    return res


def run_random_games(
    seeds: np.ndarray, players: int, rules: Options | None = None, extras_mask: int = -1
) -> np.ndarray:
    """Play random-agent games in the kernel; return int32 rows in `COLUMNS` order."""
    flags = rule_flags(rules or Options())
    seeds = np.asarray(seeds, dtype=np.uint64)
    return play_random_games(seeds, players, extras_mask, *flags)


def trace_game(
    seed: int, players: int, rules: Options | None = None, extras_mask: int = -1
) -> tuple[np.ndarray, list[int]]:
    """Play one kernel game; return (result row, list of actions) for differential tests."""
    flags = rule_flags(rules or Options())
    row = np.zeros(N_COLS, np.int32)
    actions = np.full(80, -1, np.int16)
    play_one(np.uint64(seed), players, extras_mask, *flags, row, actions, new_work())
    return row, [int(a) for a in actions if a >= 0]

"""The All Is Bomb rules and search compiled with Numba (the reference is `rules.py`).

Every function here mirrors one in `rules.py` / `search.py`; tests run both on many
seeded deals and demand the same outcome, node count and solution.

State layout (one int16 array `st`, N = number of cards, H = 5N):

    st[0:N]      DECK, card ids top first (st[H+0] of them are valid)
    st[N:2N]     zone of each card: 0 deck, 1/2 equipped by player 1/2, 3 discard, 4 out, 5 play
    st[2N:3N]    1 if the card is ignited
    st[3N:4N]    DISCARD PILE, bottom first (st[H+1] valid)
    st[4N:5N]    1 if the card was played at least once
    st[H+0..7]   deck length, discard length, desired dish (-1), active player, GIFT plays,
                 outcome (0 ongoing, 1 win, 2 loss), ending bits (rules.Ending), turn

Program arrays (cards.compile_program): number[n, 2], keyword[n, 2] (1 URGENT, 2 ROYAL),
step_start[n, 2], step_count[n, 2], steps[k, 13] (layout in cards.py), info (cards.win_info's
16 entries, then the tables of prune.py).

A turn is run with a choice list: `ch` holds the choices, `chk` their numbers of options,
`cs` = [position, how many are given, options of a choice that did not fit, order]. A choice
past the given ones is taken as option 0 and appended, and the caller then advances the
list like an odometer over choice sequences, which visits moves in lexicographic order
like `rules.State.children`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.allisbomb.prune import bound_reaches, dead, lower_bound, still_alive

DECK, EQUIP0, EQUIP1, DISCARD, OUT, PLAY = 0, 1, 2, 3, 4, 5
OP_MOVE, OP_IGNITE, OP_FLIP, OP_SWAP, OP_REORDER, OP_PROPHECY, OP_EQUIPWIN = range(7)
Z_DECK, Z_EQUIPPED, Z_DISCARD, Z_PLAY, Z_DRAWN = range(5)
P_TOP, P_BOTTOM, P_NTH, P_ANY, P_NAME, P_CLASS, P_SELF = range(7)
D_TOP, D_BOTTOM, D_EQUIPPED, D_DISCARD, D_OUT = range(5)
KW_URGENT, KW_ROYAL = 1, 2
NEED = -1
NO_MORE = -2  # _next_child: the frame has no move left
E_DRAW, E_NOCARD, E_UNMET, E_CYCLE = 1, 2, 4, 8
E_NOT_BEST = 16  # best mode: the node limit stopped the search before the best win was proven
E_DEAD = 32  # a position from which no win is reachable (prune.dead), counted as a loss
R_ONGOING, R_WIN, R_LOSS = 0, 1, 2
MAXC = 64  # most choices in one turn (more: the search answers undecided)
ON_PATH, DONE = 1, 2
#: Table slots a search starts with (doubled as it fills, up to the whole table).
TT_START = 1 << 12
#: outcome codes of solve_batch
CODE_WIN, CODE_LOSS, CODE_UNDECIDED = 1, 0, 2
CODE_PAUSED = 3  # dfs only: stopped at `pause_at` nodes, resumable


def state_len(n: int) -> int:
    """Length of the state array for n cards."""
    return 5 * n + 8


#: The decorator of `_turn` and its helpers. They only read and write arrays they are given
#: (they never allocate one or keep one), so Numba's reference counting of array arguments is
#: pure cost there (a call and an atomic add per array per call): `_nrt=False` (Numba's switch
#: for it) leaves it out, and `forceinline=True` has LLVM inline them (with the counting in
#: place it declined to). error_model="numpy" means they cannot raise (the only candidates are
#: the integer divisions of the REORDER step, whose divisors are never 0); a callee that can
#: raise keeps Numba from pruning the counts `run_turn` itself takes on its arguments.
_turn_helper = njit(cache=True, _nrt=False, forceinline=True, error_model="numpy")


@njit(cache=True, inline="always")
def _bit(lo, hi, c):
    if c < 31:
        return (lo >> c) & 1
    return (hi >> (c - 31)) & 1


@_turn_helper
def _equipped(st, n, player, out):
    z = EQUIP0 + player
    k = 0
    for c in range(n):
        # written always, kept only if equipped: no branch to mispredict (out has room)
        out[k] = c
        k += st[n + c] == z
    return k


@_turn_helper
def _playable(st, n, keyword, out):
    H = 5 * n
    k = _equipped(st, n, st[H + 3], out)
    urgent = False
    for i in range(k):
        c = out[i]
        if keyword[c, st[2 * n + c]] == KW_URGENT:
            urgent = True
    if not urgent:
        return k
    m = 0
    for i in range(k):
        c = out[i]
        kw = keyword[c, st[2 * n + c]]
        if kw == KW_URGENT or kw == KW_ROYAL:
            out[m] = c
            m += 1
    return m


@_turn_helper
def _choose(k, ch, chk, cs):
    """The next choice of the turn among k options. When the list `ch` runs out, the
    choice is appended as option 0 (cs[1] grows; its option count goes to chk[p]):
    exactly what the odometer would do by restarting the turn with a 0 appended, without
    replaying the turn. NEED only when the list is full (MAXC choices)."""
    if k <= 1:
        return 0
    p = cs[0]
    if p < cs[1]:
        r = ch[p]
    else:
        if p >= MAXC:
            cs[2] = k
            return NEED
        ch[p] = 0
        chk[p] = k
        cs[1] = p + 1
        r = 0
    cs[0] = p + 1
    if cs[3] == 1:  # the search enumerates options last-first (portfolio order B)
        return k - 1 - r
    return r


@_turn_helper
def _remove(st, n, c):
    H = 5 * n
    z = st[n + c]
    if z == DECK:
        L = st[H]
        j = 0
        while st[j] != c:
            j += 1
        for i in range(j, L - 1):
            st[i] = st[i + 1]
        st[H] = L - 1
    elif z == DISCARD:
        L = st[H + 1]
        j = 0
        while st[3 * n + j] != c:
            j += 1
        for i in range(j, L - 1):
            st[3 * n + i] = st[3 * n + i + 1]
        st[H + 1] = L - 1


@_turn_helper
def _discard(st, n, c):
    H = 5 * n
    if st[n + c] == DISCARD:
        return
    _remove(st, n, c)
    st[3 * n + st[H + 1]] = c
    st[H + 1] += 1
    st[n + c] = DISCARD


@_turn_helper
def _ignite(st, n, c):
    if st[2 * n + c] == 1:
        _discard(st, n, c)
    else:
        st[2 * n + c] = 1


@_turn_helper
def _deck_top(st, n, c):
    H = 5 * n
    L = st[H]
    for i in range(L, 0, -1):
        st[i] = st[i - 1]
    st[0] = c
    st[H] = L + 1
    st[n + c] = DECK


@_turn_helper
def _deck_bottom(st, n, c):
    H = 5 * n
    st[st[H]] = c
    st[H] += 1
    st[n + c] = DECK


@_turn_helper
def _move(st, n, c, to):
    if to == D_DISCARD:
        _discard(st, n, c)
        return
    _remove(st, n, c)
    if to == D_TOP:
        _deck_top(st, n, c)
    elif to == D_BOTTOM:
        _deck_bottom(st, n, c)
    elif to == D_EQUIPPED:
        st[n + c] = EQUIP0 + st[5 * n + 3]
    else:
        st[n + c] = OUT


@_turn_helper
def _candidates(st, n, card, steps, si, players, out, tmp):
    H = 5 * n
    zone, pick, nth, within = steps[si, 1], steps[si, 2], steps[si, 3], steps[si, 4]
    k = 0
    if zone == Z_PLAY:
        if st[n + card] == PLAY:
            tmp[0] = card
            k = 1
    elif zone == Z_DECK:
        for i in range(st[H]):
            tmp[k] = st[i]
            k += 1
    elif zone == Z_DISCARD:
        for i in range(st[H + 1] - 1, -1, -1):
            tmp[k] = st[3 * n + i]
            k += 1
    else:
        act = st[H + 3]
        z = EQUIP0 + act
        for c in range(n):
            if st[n + c] == z:
                tmp[k] = c
                k += 1
        if (pick == P_NAME or pick == P_CLASS) and players == 2:
            z = EQUIP0 + 1 - act
            for c in range(n):
                if st[n + c] == z:
                    tmp[k] = c
                    k += 1
    lo, hi = 0, k
    if pick == P_TOP:
        hi = min(k, 1)
    elif pick == P_BOTTOM:
        lo = max(0, k - 1)
    elif pick == P_NTH:
        lo = min(nth - 1, k)
        hi = min(nth, k)
    elif within > 0:
        hi = min(within, k)
    m = 0
    for i in range(lo, hi):
        c = tmp[i]
        if pick == P_NAME and _bit(steps[si, 5], steps[si, 6], c) == 0:
            continue
        if pick == P_CLASS and _bit(steps[si, 7], steps[si, 8], c) == 0:
            continue
        if steps[si, 0] == OP_FLIP and st[2 * n + c] == 0:
            continue
        out[m] = c
        m += 1
    return m


@_turn_helper
def _fixed_targets(st, n, card, steps, si, out, tmp):
    H = 5 * n
    zone, pick, nth, count = steps[si, 1], steps[si, 2], steps[si, 3], steps[si, 11]
    if zone == Z_PLAY:
        if st[n + card] == PLAY and not (steps[si, 0] == OP_FLIP and st[2 * n + card] == 0):
            out[0] = card
            return 1
        return 0  # (the reference filters flip_back the same way for every zone)
    # the pool, top first: the deck st[0..k-1], or the discard pile read from its top
    if zone == Z_DECK:
        k = st[H]
        base, sign = 0, 1
    else:
        k = st[H + 1]
        base, sign = 3 * n + k - 1, -1
    m = 0
    if pick == P_TOP:
        for i in range(min(count, k)):
            out[m] = st[base + sign * i]
            m += 1
    elif pick == P_BOTTOM:
        for i in range(min(count, k)):
            out[m] = st[base + sign * (k - 1 - i)]
            m += 1
    else:
        for i in range(nth - 1, min(nth - 1 + count, k)):
            out[m] = st[base + sign * i]
            m += 1
    if steps[si, 0] == OP_FLIP:
        j = 0
        for i in range(m):
            if st[2 * n + out[i]] == 1:
                out[j] = out[i]
                j += 1
        m = j
    return m


@_turn_helper
def _apply_select(st, n, c, steps, si):
    if steps[si, 0] == OP_MOVE:
        _move(st, n, c, steps[si, 9])
    elif steps[si, 0] == OP_IGNITE:
        _ignite(st, n, c)
    else:
        st[2 * n + c] = 0


@_turn_helper
def _unmet(st, n, card, played_ignited, info, gift_ids, n_gifts):
    """True if some win condition is unmet (rules.State.unmet_conditions)."""
    H = 5 * n
    d = st[H + 2]
    princess_ok = card == info[1] and played_ignited == 1
    if d < 0:
        return True
    if info[0] == 1:
        if st[n + d] != DISCARD:
            return True
        t = info[2]
        if not princess_ok or t < 0 or st[2 * n + t] == 0:
            return True
        if st[n + t] != EQUIP0 and st[n + t] != EQUIP1:
            return True
    else:
        if st[2 * n + d] == 0:
            return True
        if not princess_ok or (st[n + d] != EQUIP0 and st[n + d] != EQUIP1):
            return True
    if info[3] != -1:  # mosquitos in play as a condition (mask, -1 = not a condition)
        lo, hi = info[3], info[4]
        if lo == 0 and hi == 0:
            return True
        for c in range(n):
            if _bit(lo, hi, c) == 1 and st[n + c] != DISCARD:
                return True
    if info[5] != -2:
        g = info[5]
        if g < 0 or st[4 * n + g] == 0:
            return True
    if info[8] > 0:
        if info[9] == 1:
            cnt = 0
            for i in range(n_gifts):
                cnt += st[4 * n + gift_ids[i]]
        else:
            cnt = st[H + 4]
        if cnt < 3:
            return True
    if info[10] != -2:
        j = info[10]
        if j < 0 or d != j:
            return True
    if info[11] != -2:
        a = info[11]
        if a < 0:
            return True
        if info[13] == 1:
            if st[n + a] != EQUIP0 and st[n + a] != EQUIP1:
                return True
        elif st[n + a] != EQUIP0 + st[H + 3]:
            return True
    return False


@_turn_helper
def _is_gift(c, info):
    return _bit(info[6], info[7], c) == 1


#: How the searches (`dfs`, `shortest`) are compiled: without Numba's reference counting
#: (NRT). With it, a jitted function increments the count of every array argument on entry
#: and decrements it on exit, and every view it makes (`states[d + 1]`) too, each an atomic
#: operation in a call LLVM may not inline: 15 pairs around each turn in `dfs` (the array
#: arguments of the inlined `_next_child`), 13 at `run_turn`'s own entry and exit, more in
#: its helpers, about a third of the cost of a position. These functions allocate nothing
#: and keep no array past their return, so the counts are never needed. Numba compiles a
#: callee met first from such a function without NRT too (flag inheritance; only speed
#: differs), so anything they call must not allocate: `_tt_grow`, which does, asks for NRT
#: explicitly.
_no_refcount = njit(cache=True, _nrt=False)


# Inlined into `_next_child`, so into `dfs` and `shortest` (compiled once each, see `dfs`):
# as a call it took about 110 machine arguments on every child (each array is 7 to 9
# fields), which cost about 15% of a position.
@njit(cache=True, _nrt=False, inline="always")
def run_turn(
    st, n, number, keyword, sstart, scount, steps, info, gift_ids, n_gifts, ch, chk, cs, buf, tmp
):
    """Play one turn on `st` with the choices in `ch`; choices past the given ones are
    taken as option 0 and appended (see `_choose`). Return 0 when done, NEED (-1) if the
    turn needs more than MAXC choices. Mirrors rules.State._run_turn."""
    # The turn is played by `_turn` (see `_turn_helper`): around one call that cannot raise,
    # Numba's pruning pass removes the reference counts taken here on the 13 arrays (26 calls
    # with an atomic add each, every turn), which in the body itself (loops, many exits,
    # divisions that could raise) it could not.
    return _turn(
        st,
        n,
        number,
        keyword,
        sstart,
        scount,
        steps,
        info,
        gift_ids,
        n_gifts,
        ch,
        chk,
        cs,
        buf,
        tmp,
    )


@_turn_helper
def _turn(
    st, n, number, keyword, sstart, scount, steps, info, gift_ids, n_gifts, ch, chk, cs, buf, tmp
):
    """The body of `run_turn`: rulebook D.1-D.5, mirroring rules.State._run_turn."""
    H = 5 * n
    players = info[12]
    act = st[H + 3]
    # D.1 play a card
    k = _playable(st, n, keyword, buf)
    i = _choose(k, ch, chk, cs)
    if i < 0:
        return NEED
    card = buf[i]
    side = st[2 * n + card]
    st[n + card] = PLAY
    st[4 * n + card] = 1
    if info[8] > 0 and _is_gift(card, info):
        st[H + 4] += 1
    # D.2 draw and equip
    num = number[card, side]
    L = st[H]
    drawn = -1
    if num > L:
        st[H + 5] = R_LOSS
        st[H + 6] = E_DRAW
        return 0
    if num > 0:
        for j in range(num):
            tmp[j] = st[j]
        for j in range(L - num):
            st[j] = st[j + num]
        st[n + tmp[num - 1]] = EQUIP0 + act
        drawn = tmp[num - 1]
        for j in range(num - 1):
            st[L - num + j] = tmp[j]
        st[H] = L - 1
    # D.3 card action
    s0 = sstart[card, side]
    for si in range(s0, s0 + scount[card, side]):
        # the step's fields are read as steps[si, k], not through a row view: a view costs a
        # reference-count increment and decrement per step
        op = steps[si, 0]
        if op == OP_MOVE or op == OP_IGNITE or op == OP_FLIP:
            may = steps[si, 10]
            pick = steps[si, 2]
            if pick == P_TOP or pick == P_BOTTOM or pick == P_NTH or pick == P_SELF:
                m = _fixed_targets(st, n, card, steps, si, buf, tmp)
                # copy: buf is reused below only after this loop
                stop = False
                for j in range(m):
                    c = buf[j]
                    if may == 1:
                        r = _choose(2, ch, chk, cs)
                        if r < 0:
                            return NEED
                        if r == 1:
                            stop = True
                            break
                    _apply_select(st, n, c, steps, si)
                if stop:
                    continue
            else:
                for _rep in range(steps[si, 11]):
                    m = _candidates(st, n, card, steps, si, players, buf, tmp)
                    if m == 0:
                        break
                    r = _choose(m + may, ch, chk, cs)
                    if r < 0:
                        return NEED
                    if r == m:
                        break
                    _apply_select(st, n, buf[r], steps, si)
        elif op == OP_SWAP:
            kk = _equipped(st, n, st[H + 3], buf)
            if kk == 0 or st[H] == 0:
                continue
            r = _choose(kk + steps[si, 10], ch, chk, cs)
            if r < 0:
                return NEED
            if r == kk:
                continue
            e = buf[r]
            top = st[0]
            st[0] = e
            st[n + e] = DECK
            st[n + top] = EQUIP0 + st[H + 3]
        elif op == OP_REORDER:
            m = min(steps[si, 3], st[H])
            if m < 2:
                continue
            f = 1
            for j in range(2, m + 1):
                f *= j
            r = _choose(f, ch, chk, cs)
            if r < 0:
                return NEED
            # r-th lexicographic permutation (as itertools.permutations lists them)
            for j in range(m):
                tmp[j] = st[j]
                buf[j] = 1
            for pos in range(m):
                f //= m - pos
                q = r // f
                r = r % f
                j = 0
                while True:
                    if buf[j] == 1:
                        if q == 0:
                            break
                        q -= 1
                    j += 1
                buf[j] = 0
                st[pos] = tmp[j]
        elif op == OP_PROPHECY:
            if st[H + 2] >= 0 or steps[si, 12] < 0:
                continue
            st[H + 2] = steps[si, 12]
            if st[n + card] == PLAY:
                st[n + card] = OUT
        else:  # OP_EQUIPWIN
            t = st[H + 2] if steps[si, 12] == -2 else steps[si, 12]
            if steps[si, 1] == Z_DRAWN:
                if t < 0 or t != drawn or st[n + t] != EQUIP0 + act or st[2 * n + t] == 0:
                    continue
            elif t < 0 or st[n + t] != DECK or st[2 * n + t] == 0:
                continue
            if steps[si, 10] == 1:
                r = _choose(2, ch, chk, cs)
                if r < 0:
                    return NEED
                if r == 1:
                    continue
            if steps[si, 1] != Z_DRAWN:
                _remove(st, n, t)
                st[n + t] = EQUIP0 + st[H + 3]
            if _unmet(st, n, card, side, info, gift_ids, n_gifts):
                st[H + 5] = R_LOSS
                st[H + 6] = E_UNMET
            else:
                st[H + 5] = R_WIN
            return 0
    # D.4 ignite
    if st[n + card] == PLAY:
        _ignite(st, n, card)
    # D.5 clean-up
    if st[n + card] == PLAY:
        _deck_bottom(st, n, card)
    if players == 2:
        kk = _equipped(st, n, act, buf)
        if kk > 0:
            r = _choose(kk + info[14], ch, chk, cs)
            if r < 0:
                return NEED
            if r < kk:
                st[n + buf[r]] = EQUIP0 + 1 - act
        st[H + 3] = 1 - act
    st[H + 7] += 1
    # D.1 of the next turn: a player with any EQUIPPED CARD can play one (an URGENT card
    # is itself playable), so the game is lost exactly when nothing is equipped
    z = EQUIP0 + st[H + 3]
    for c in range(n):
        if st[n + c] == z:
            return 0
    st[H + 5] = R_LOSS
    st[H + 6] = E_NOCARD
    return 0


@njit(cache=True, inline="always")
def _mix(h):
    """Spread every bit of h over the high and the low bits (the table takes its slot from
    the low bits and its tag from the high ones)."""
    h ^= h >> np.uint64(32)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    return h ^ (h >> np.uint64(29))


@njit(cache=True)
def key_words(n: int, n_tracked: int) -> int:
    """Words (uint64) of the packed position `pack_state` writes for n cards: ten 6-bit
    values a word (two lengths, at most n deck and discard cards, n zones, the tracked
    play marks), then one word for the prophecy, GIFT plays and active player."""
    return (2 + 2 * n + n_tracked + 9) // 10 + 1


@njit(cache=True)
def pack_state(st, n, tracked, n_tracked, kw):
    """Write the position into kw (all of `key_words` words) and return its 64-bit hash.

    The words hold exactly what rules.State.key() holds, ten 6-bit values a word (every
    value fits: card ids < 63, zone * 2 + side <= 11), the first in the lowest bits: the
    deck and discard lengths, the deck top first, the discard pile bottom first, each
    card's zone * 2 + side, the tracked play marks; the last word holds the desired dish
    + 1, GIFT plays capped at 3 and the active player; unused words are 0. The lengths
    come first, so the layout of the rest is fixed by them: two positions have the same
    words if and only if they have the same key().

    Each value is OR-ed in at its place (`acc |= v << shift`) rather than shifted in
    (`acc = acc << 6 | v`): the chain from one value to the next is then one operation,
    not two, and this chain is the packing's critical path.
    """
    H = 5 * n
    six = np.uint64(6)
    acc = np.uint64(st[H]) | np.uint64(st[H + 1]) << six
    sh = 12  # where the next value goes (an int: Numba compares uint64 with int as floats)
    j = 0
    for i in range(st[H]):
        acc |= np.uint64(st[i] + 1) << np.uint64(sh)
        sh += 6
        if sh == 60:
            kw[j] = acc
            j += 1
            acc = np.uint64(0)
            sh = 0
    for i in range(st[H + 1]):
        acc |= np.uint64(st[3 * n + i] + 1) << np.uint64(sh)
        sh += 6
        if sh == 60:
            kw[j] = acc
            j += 1
            acc = np.uint64(0)
            sh = 0
    for c in range(n):
        acc |= np.uint64(st[n + c] * 2 + st[2 * n + c]) << np.uint64(sh)
        sh += 6
        if sh == 60:
            kw[j] = acc
            j += 1
            acc = np.uint64(0)
            sh = 0
    for i in range(n_tracked):
        acc |= np.uint64(st[4 * n + tracked[i]]) << np.uint64(sh)
        sh += 6
        if sh == 60:
            kw[j] = acc
            j += 1
            acc = np.uint64(0)
            sh = 0
    W = kw.shape[0]
    for i in range(j, W - 1):
        kw[i] = 0
    kw[j] = acc  # a partial word (0 values when sh == 0: still unambiguous, lengths first)
    # desired dish (-1..n-1), GIFT plays (capped at 3), active player: 6 + 2 + 1 bits
    kw[W - 1] = (
        np.uint64(st[H + 2] + 1) << np.uint64(3)
        | np.uint64(min(st[H + 4], 3) << 1)
        | np.uint64(st[H + 3])
    )
    return _hash_words(kw)


@njit(cache=True, inline="always")
def _hash_words(kw):
    """The 64-bit hash of packed words (so a table can be rehashed from its entries).

    Each word is multiplied by its own odd constant and the products are summed, then
    mixed once: the multiplies do not wait for one another, where a chain of one mix per
    word made the hash as slow as its number of words times a multiply.
    """
    h = np.uint64(0)
    m = np.uint64(0x9E3779B97F4A7C15)
    for i in range(kw.shape[0]):
        h += kw[i] * m
        m += np.uint64(0x3C6EF372FE94F82A)  # even: m stays odd
    return _mix(h)


@njit(cache=True)
def state_hash(st, n, tracked, n_tracked):
    """64-bit hash of what rules.State.key() holds (the hash `pack_state` returns)."""
    kw = np.zeros(key_words(n, n_tracked), np.uint64)
    return pack_state(st, n, tracked, n_tracked, kw)


@njit(cache=True)
def setup(deck, n, players, st):
    """Rulebook B: the deck (top first), player 1 EQUIPS 3 cards, player 2 (if any) 2."""
    st[:] = 0
    H = 5 * n
    for c in range(n):
        st[n + c] = DECK
    first = 3 if players == 1 else 5
    for i in range(first):
        st[n + deck[i]] = EQUIP0 if i < 3 else EQUIP1
    L = 0
    for i in range(first, n):
        st[L] = deck[i]
        L += 1
    st[H] = L
    st[H + 2] = -1


@njit(cache=True, inline="always")
def _tt_find(tags, table, gen, h, kw, cap):
    """Find the packed position kw (hash h) in the table: (slot, found). Not found: the
    slot is the empty one where it would go.

    Layout: tags (uint64 [2**bits]) = generation (high 32 bits) | the hash's top 30 bits
    << 2 | mark (ON_PATH / DONE, 2 bits); table (uint64 [2**bits, W]) = the packed
    positions. A slot whose generation is not `gen` is empty (earlier searches' entries
    expire without clearing). Probing reads the small tags only; a tag match is confirmed
    by comparing every word of the position, so two different positions are never taken
    for one another: the table is exact. A search uses only the first `cap` slots (a
    power of two that `_tt_grow` doubles as it fills), so a small search stays in cache.
    """
    W = table.shape[1]
    g = np.uint64(gen)
    tag = (g << np.uint64(32)) | ((h >> np.uint64(34)) << np.uint64(2))
    idx = np.int64(h & np.uint64(cap - 1))
    while True:
        t = tags[idx]
        if (t >> np.uint64(32)) != g:
            return idx, False
        if (t & ~np.uint64(3)) == tag:
            same = True
            for j in range(W):
                if table[idx, j] != kw[j]:
                    same = False
                    break
            if same:
                return idx, True
        idx = (idx + 1) & (cap - 1)


@njit(cache=True, inline="always")
def _tt_put(tags, table, idx, gen, h, kw, mark):
    """Store the packed position kw (hash h) in slot idx with a mark."""
    tags[idx] = (
        (np.uint64(gen) << np.uint64(32)) | ((h >> np.uint64(34)) << np.uint64(2)) | np.uint64(mark)
    )
    for j in range(table.shape[1]):
        table[idx, j] = kw[j]


@njit(cache=True, _nrt=True)  # it allocates: see _no_refcount
def _tt_grow(tags, table, gen, cap, fidx, d):
    """Double the slots in use (cap -> 2 cap) and move this search's entries to their
    slots under the new mask; fidx[0..d] (the slots of the current line) follow them.
    Slots past cap hold only older generations, i.e. they are empty for this search."""
    W = table.shape[1]
    olds = np.empty(cap, np.int64)
    m = 0
    g = np.uint64(gen)
    for i in range(cap):
        if (tags[i] >> np.uint64(32)) == g:
            olds[m] = i
            m += 1
    keep_tags = np.empty(m, np.uint64)
    keep = np.empty((m, W), np.uint64)
    for e in range(m):
        keep_tags[e] = tags[olds[e]]
        keep[e, :] = table[olds[e]]
        tags[olds[e]] = 0
    new_cap = 2 * cap
    newpos = np.full(cap, -1, np.int64)
    for e in range(m):
        idx = np.int64(_hash_words(keep[e]) & np.uint64(new_cap - 1))
        while (tags[idx] >> np.uint64(32)) == g:
            idx = (idx + 1) & (new_cap - 1)
        tags[idx] = keep_tags[e]
        table[idx, :] = keep[e]
        newpos[olds[e]] = idx
    for t in range(d + 1):
        if fidx[t] >= 0:
            fidx[t] = newpos[fidx[t]]
    return new_cap


@njit(cache=True, inline="always")
def _tt_mark(tags, idx):
    return tags[idx] & np.uint64(3)


@njit(cache=True, inline="always")
def _tt_done(tags, idx):
    tags[idx] = (tags[idx] & ~np.uint64(3)) | np.uint64(DONE)


@njit(cache=True, inline="always")
def _next_child(
    d,
    states,
    fch,
    fk,
    fplen,
    fstarted,
    n,
    number,
    keyword,
    sstart,
    scount,
    steps,
    info,
    gift_ids,
    n_gifts,
    cs,
    buf,
    tmp,
):
    """Build the next child of frame d in states[d + 1] (the next complete move: the
    odometer over choice sequences, see the module docstring). Returns NO_MORE when frame
    d has no move left, NEED when a turn needs more than MAXC choices, else 0.

    The child loop of `dfs` and `shortest`; inlined, so it costs them no call.
    """
    if fstarted[d] == 0:
        fstarted[d] = 1
        fplen[d] = 0
    else:
        p = fplen[d]
        while p > 0 and fch[d, p - 1] + 1 >= fk[d, p - 1]:
            p -= 1
        if p == 0:
            return NO_MORE
        fch[d, p - 1] += 1
        fplen[d] = p
    # an element loop, because `states[d + 1][:] = states[d]` makes Numba copy through a
    # temporary (the two may overlap)
    for j in range(states.shape[1]):
        states[d + 1, j] = states[d, j]
    cs[0] = 0
    cs[1] = fplen[d]
    status = run_turn(
        states[d + 1],
        n,
        number,
        keyword,
        sstart,
        scount,
        steps,
        info,
        gift_ids,
        n_gifts,
        fch[d],
        fk[d],
        cs,
        buf,
        tmp,
    )
    # choices met for the first time were appended to fch[d] (option 0)
    fplen[d] = cs[1]
    return status


@_no_refcount
def dfs(
    root,
    n,
    number,
    keyword,
    sstart,
    scount,
    steps,
    info,
    gift_ids,
    n_gifts,
    tracked,
    n_tracked,
    tags,
    table,
    kw,
    gen,
    node_limit,
    states,
    fch,
    fk,
    fplen,
    fstarted,
    fidx,
    sol,
    sol_len,
    buf,
    tmp,
    cs,
    objective,
    best_mode,
    ctl,
    pause_at,
    order,
):
    """Exhaustive DFS from `root` (search.reference_search). Returns (code, nodes, reasons,
    solution turns); the winning line is left in sol[0:turns, :] with sol_len[t] choices.

    best_mode=1: do not stop at the first win; return the win whose final position has the
    smallest sum of objective[c] over the cards c in the DISCARD PILE (campaign: the star
    cards lost). Exact, because the wins reachable from a position do not depend on the
    path to it, so visiting each position once still meets every reachable win. If the
    node limit stops it after a win was found, that win is returned with E_NOT_BEST set.
    It stops early only at a win of objective 0.

    best_mode=2: the same answer by branch and bound on `prune.lower_bound` (a sound lower
    bound on the objective of every win reachable from a position): once a win of
    objective `best` is known, a new position whose bound is >= best is not entered, and
    the search stops as soon as best equals the root's bound (no win can do better, so
    that win is proven best, without E_NOT_BEST). Only the best_mode 2 lines differ.

    Pausing (for time limits): when `nodes` reaches `pause_at` the search saves its
    counters in `ctl` and returns CODE_PAUSED; calling again with ctl[0] == 1 and the same
    arrays resumes exactly where it stopped.

    order=1 enumerates every choice last-option-first (the solution is still written in
    option indices); `portfolio` runs both orders side by side.

    Jitted callers pass best_mode and order as np.int64 values, never as the literals 0
    or 1: Numba compiles one copy of a function per literal argument value, and this is the
    largest function here (four copies of it were most of the first-run compile time).
    """
    H = 5 * n
    L = states.shape[1]
    max_depth = states.shape[0] - 1
    cs[3] = order
    full = tags.shape[0]
    if root[H + 5] == R_WIN:
        return CODE_WIN, 0, 0, 0
    if root[H + 5] == R_LOSS:
        return CODE_LOSS, 0, root[H + 6], 0
    if ctl[0] == 1:  # resume a paused search
        d, nodes, reasons, filled, best, best_turns = ctl[1], ctl[2], ctl[3], ctl[4], ctl[5], ctl[6]
        cap = ctl[7]
    else:
        filled = 0
        cap = min(full, TT_START)
        h = pack_state(root, n, tracked, n_tracked, kw)
        idx, found = _tt_find(tags, table, gen, h, kw, cap)
        _tt_put(tags, table, idx, gen, h, kw, ON_PATH)
        filled += 1
        for j in range(L):
            states[0, j] = root[j]
        fstarted[0] = 0
        fidx[0] = idx
        nodes = 1
        reasons = 0
        best = -1
        best_turns = 0
        d = 0
    ctl[0] = 0
    # the objective no win can go below (0 without the bound: the old early stop)
    root_lb = lower_bound(root, n, info, objective) if best_mode == 2 else 0
    limit_fill = (cap * 3) // 4
    child = states[1]
    # every entered position below the root passed the dead check; the root did not
    root_alive = not dead(root, n, info)
    while d >= 0:
        if nodes >= pause_at:
            ctl[0], ctl[1], ctl[2], ctl[3], ctl[4], ctl[5], ctl[6], ctl[7] = (
                1,
                d,
                nodes,
                reasons,
                filled,
                best,
                best_turns,
                cap,
            )
            return CODE_PAUSED, nodes, reasons, 0
        status = _next_child(
            d,
            states,
            fch,
            fk,
            fplen,
            fstarted,
            n,
            number,
            keyword,
            sstart,
            scount,
            steps,
            info,
            gift_ids,
            n_gifts,
            cs,
            buf,
            tmp,
        )
        if status == NO_MORE:
            if fidx[d] >= 0:
                _tt_done(tags, fidx[d])
            d -= 1
            continue
        child = states[d + 1]  # the child is built in place in the next frame's slot
        if status == NEED:  # a turn with more choices than the stack holds: give up
            if best >= 0:
                return CODE_WIN, nodes, reasons | E_NOT_BEST, best_turns
            return CODE_UNDECIDED, nodes, reasons, 0
        res = child[H + 5]
        if res == R_WIN:
            score = 0
            if best_mode >= 1:
                for c in range(n):
                    if child[n + c] == DISCARD:
                        score += objective[c]
                if best >= 0 and score >= best:
                    continue
            for t in range(d + 1):
                sol_len[t] = fplen[t]
                for j in range(fplen[t]):
                    sol[t, j] = fch[t, j] if order == 0 else fk[t, j] - 1 - fch[t, j]
            if best_mode == 0 or score <= root_lb:
                return CODE_WIN, nodes, reasons, d + 1
            best = score
            best_turns = d + 1
            continue
        if res == R_LOSS:
            reasons |= child[H + 6]
            continue
        alive = (d > 0 or root_alive) and still_alive(states[d], child, n, info)
        if not alive and dead(child, n, info):
            reasons |= E_DEAD
            continue
        h = pack_state(child, n, tracked, n_tracked, kw)
        idx, found = _tt_find(tags, table, gen, h, kw, cap)
        if found:
            if _tt_mark(tags, idx) == ON_PATH:
                reasons |= E_CYCLE
            continue
        if best_mode == 2 and best >= 0 and bound_reaches(child, n, info, objective, best):
            # Every win below it has objective >= best: not entered. It is stored as DONE
            # (a later meeting skips it without the bound), which is safe because `best`
            # only decreases: cut under best, its bound is >= every later best too. The
            # same holds for a DONE position explored under an older best: what was cut
            # or skipped in its subtree then would be cut or skipped now.
            if filled < limit_fill:
                _tt_put(tags, table, idx, gen, h, kw, DONE)
                filled += 1
            continue
        if nodes >= node_limit or d + 1 >= max_depth:
            if best >= 0:
                return CODE_WIN, nodes, reasons | E_NOT_BEST, best_turns
            return CODE_UNDECIDED, nodes, reasons, 0
        nodes += 1
        if filled >= limit_fill and cap < full:
            cap = _tt_grow(tags, table, gen, cap, fidx, d)
            limit_fill = (cap * 3) // 4
            idx, found = _tt_find(tags, table, gen, h, kw, cap)
        if filled < limit_fill:
            _tt_put(tags, table, idx, gen, h, kw, ON_PATH)
            filled += 1
            fidx[d + 1] = idx
        else:
            fidx[d + 1] = -1
        d += 1
        fstarted[d] = 0
    if best >= 0:
        return CODE_WIN, nodes, reasons, best_turns
    return CODE_LOSS, nodes, reasons, 0


@_no_refcount
def shortest(
    root,
    n,
    number,
    keyword,
    sstart,
    scount,
    steps,
    info,
    gift_ids,
    n_gifts,
    tracked,
    n_tracked,
    tags,
    table,
    kw,
    tdepth,
    gen0,
    node_limit,
    max_turns,
    states,
    fch,
    fk,
    fplen,
    fstarted,
    sol,
    sol_len,
    buf,
    tmp,
    cs,
):
    """A win with the fewest turns, by iterative deepening (search.reference_shortest is
    the breadth-first reference). Returns (code, nodes, reasons, turns, last generation);
    the line is left in sol[0:turns, :] like `dfs`.

    Depth limit D = 1, 2, ..., max_turns (the caller knows a win of max_turns turns, e.g.
    from `dfs`, so the deepening ends). Within one limit, each position is entered again
    only when reached at a smaller depth than before (tdepth[slot], a fresh table
    generation per limit). This is complete: along a shortest winning line p0..pL, every
    p_i is entered at depth <= i (by induction: p_i's visit at depth <= i tries p_(i+1),
    which is then entered at depth <= i + 1 or already was, an ancestor on the line
    included), so the limit D = L finds a win and no limit below L does: the first win
    found has exactly L turns. A full table only stops recording (more work, never a
    wrong prune). `nodes` counts positions entered over all limits.
    """
    H = 5 * n
    L = states.shape[1]
    cap = tags.shape[0]
    limit_fill = (cap * 3) // 4
    cs[3] = 0
    nodes = 0
    reasons = 0
    gen = gen0
    if root[H + 5] == R_WIN:
        return CODE_WIN, 0, 0, 0, gen
    if root[H + 5] == R_LOSS:
        return CODE_LOSS, 0, root[H + 6], 0, gen
    root_alive = not dead(root, n, info)
    for D in range(1, max_turns + 1):
        gen += 1
        if gen >= 4294967295:
            tags[:] = 0
            gen = 1
        filled = 0
        h = pack_state(root, n, tracked, n_tracked, kw)
        idx, found = _tt_find(tags, table, gen, h, kw, cap)
        _tt_put(tags, table, idx, gen, h, kw, ON_PATH)
        tdepth[idx] = 0
        filled += 1
        for j in range(L):
            states[0, j] = root[j]
        fstarted[0] = 0
        nodes += 1
        d = 0
        while d >= 0:
            status = _next_child(
                d,
                states,
                fch,
                fk,
                fplen,
                fstarted,
                n,
                number,
                keyword,
                sstart,
                scount,
                steps,
                info,
                gift_ids,
                n_gifts,
                cs,
                buf,
                tmp,
            )
            if status == NO_MORE:
                d -= 1
                continue
            child = states[d + 1]
            if status == NEED:
                return CODE_UNDECIDED, nodes, reasons, 0, gen
            res = child[H + 5]
            if res == R_WIN:
                for t in range(d + 1):
                    sol_len[t] = fplen[t]
                    for j in range(fplen[t]):
                        sol[t, j] = fch[t, j]
                return CODE_WIN, nodes, reasons, d + 1, gen
            if res == R_LOSS:
                reasons |= child[H + 6]
                continue
            # no win below a dead child, so no shortest line through it (see dfs)
            alive = (d > 0 or root_alive) and still_alive(states[d], child, n, info)
            if not alive and dead(child, n, info):
                reasons |= E_DEAD
                continue
            if d + 1 >= D:
                continue  # the depth limit: its children are tried by the next limit
            h = pack_state(child, n, tracked, n_tracked, kw)
            idx, found = _tt_find(tags, table, gen, h, kw, cap)
            if found and tdepth[idx] <= d + 1:
                continue
            if nodes >= node_limit:
                return CODE_UNDECIDED, nodes, reasons, 0, gen
            nodes += 1
            if found:
                tdepth[idx] = d + 1
            elif filled < limit_fill:
                _tt_put(tags, table, idx, gen, h, kw, ON_PATH)
                tdepth[idx] = d + 1
                filled += 1
            d += 1
            fstarted[d] = 0
    return CODE_UNDECIDED, nodes, reasons, 0, gen


@njit(cache=True)
def portfolio(
    root,
    n,
    number,
    keyword,
    sstart,
    scount,
    steps,
    info,
    gift_ids,
    n_gifts,
    tracked,
    n_tracked,
    gen,
    node_limit,
    buf,
    tmp,
    cs,
    objective,
    A,
    B,
    first_budget,
):
    """Run the DFS in two move orders (0 and 1) side by side, with doubling node budgets,
    until one of them finishes: both are exhaustive, so the first verdict is exact.

    A and B are tuples (tags, table, kw, states, fch, fk, fplen, fstarted, fidx, sol, sol_len,
    ctl) of separate tables and stacks. Each order may use up to node_limit // 2
    positions. Returns (code, nodes of both, reasons, turns, which order answered).
    """
    half = max(1, node_limit // 2)
    A[11][0] = 0
    B[11][0] = 0
    budget = first_budget
    nodes_a = 0
    nodes_b = 0
    reasons_a = 0
    reasons_b = 0
    alive_a = True
    alive_b = True
    while True:
        if alive_a:
            code, nodes_a, reasons_a, turns = dfs(
                root,
                n,
                number,
                keyword,
                sstart,
                scount,
                steps,
                info,
                gift_ids,
                n_gifts,
                tracked,
                n_tracked,
                A[0],
                A[1],
                A[2],
                gen,
                half,
                A[3],
                A[4],
                A[5],
                A[6],
                A[7],
                A[8],
                A[9],
                A[10],
                buf,
                tmp,
                cs,
                objective,
                np.int64(0),
                A[11],
                budget,
                np.int64(0),
            )
            if code == CODE_UNDECIDED:
                alive_a = False  # its share of the node limit is spent; B goes on alone
            elif code != CODE_PAUSED:
                return code, nodes_a + nodes_b, reasons_a, turns, 0
        if alive_b:
            code, nodes_b, reasons_b, turns = dfs(
                root,
                n,
                number,
                keyword,
                sstart,
                scount,
                steps,
                info,
                gift_ids,
                n_gifts,
                tracked,
                n_tracked,
                B[0],
                B[1],
                B[2],
                gen,
                half,
                B[3],
                B[4],
                B[5],
                B[6],
                B[7],
                B[8],
                B[9],
                B[10],
                buf,
                tmp,
                cs,
                objective,
                np.int64(0),
                B[11],
                budget,
                np.int64(1),
            )
            if code == CODE_UNDECIDED:
                alive_b = False
            elif code != CODE_PAUSED:
                return code, nodes_a + nodes_b, reasons_b, turns, 1
        if not alive_a and not alive_b:
            return CODE_UNDECIDED, nodes_a + nodes_b, reasons_a | reasons_b, 0, 0
        budget *= 2


@njit(cache=True)
def _frames(max_depth, L):
    return (
        np.zeros((max_depth + 1, L), np.int16),
        np.zeros((max_depth + 1, MAXC), np.int32),
        np.zeros((max_depth + 1, MAXC), np.int32),
        np.zeros(max_depth + 1, np.int32),
        np.zeros(max_depth + 1, np.int32),
        np.zeros(max_depth + 1, np.int64),
        np.zeros((max_depth + 1, MAXC), np.int32),
        np.zeros(max_depth + 1, np.int32),
        np.zeros(8, np.int64),
    )


@njit(cache=True)
def solve_many(
    decks,
    n,
    players,
    number,
    keyword,
    sstart,
    scount,
    steps,
    info,
    gift_ids,
    n_gifts,
    tracked,
    n_tracked,
    tags,
    table,
    gen0,
    node_limit,
    max_depth,
    out_code,
    out_nodes,
    out_len,
    out_reason,
    tags_b,
    table_b,
    use_portfolio,
    first_budget,
    fa,
    fb,
):
    """Solve each row of `decks` (card ids, top first); results into the out arrays.
    use_portfolio=1 runs `portfolio` (second table in tags_b, table_b).

    fa and fb are the two orders' stacks, as `_frames(max_depth, 5 * n + 8)` makes them.
    The caller keeps them for the life of the process: zeroing a megabyte of fresh stack
    on every call cost more than deciding a base deal (about 1 ms against 0.8 ms), and a
    sweep calls this once per deal to time each one. Nothing is read from them before
    the search writes it.
    Returns the last table generation used."""
    L = 5 * n + 8
    states, fch, fk, fplen, fstarted, fidx, sol, sol_len, ctl = fa
    buf = np.zeros(2 * n + 8, np.int64)
    tmp = np.zeros(2 * n + 8, np.int64)
    cs = np.zeros(4, np.int64)
    root = np.zeros(L, np.int16)
    objective = np.zeros(n, np.int64)
    kw = np.zeros(table.shape[1], np.uint64)
    kw_b = np.zeros(table.shape[1], np.uint64)
    A = (tags, table, kw, states, fch, fk, fplen, fstarted, fidx, sol, sol_len, ctl)
    B = (tags_b, table_b, kw_b, fb[0], fb[1], fb[2], fb[3], fb[4], fb[5], fb[6], fb[7], fb[8])
    gen = gen0
    for r in range(decks.shape[0]):
        gen += 1
        if gen >= 4294967295:
            tags[:] = 0
            tags_b[:] = 0
            gen = 1
        setup(decks[r], n, players, root)
        if use_portfolio == 1:
            code, nodes, reasons, turns, _which = portfolio(
                root,
                n,
                number,
                keyword,
                sstart,
                scount,
                steps,
                info,
                gift_ids,
                n_gifts,
                tracked,
                n_tracked,
                np.uint32(gen),
                node_limit,
                buf,
                tmp,
                cs,
                objective,
                A,
                B,
                first_budget,
            )
            out_code[r] = code
            out_nodes[r] = nodes
            out_len[r] = turns
            out_reason[r] = reasons
            continue
        ctl[0] = 0  # a fresh search, whatever an earlier call left paused
        code, nodes, reasons, turns = dfs(
            root,
            n,
            number,
            keyword,
            sstart,
            scount,
            steps,
            info,
            gift_ids,
            n_gifts,
            tracked,
            n_tracked,
            tags,
            table,
            kw,
            np.uint32(gen),
            node_limit,
            states,
            fch,
            fk,
            fplen,
            fstarted,
            fidx,
            sol,
            sol_len,
            buf,
            tmp,
            cs,
            objective,
            np.int64(0),
            ctl,
            node_limit + 1,
            np.int64(0),
        )
        out_code[r] = code
        out_nodes[r] = nodes
        out_len[r] = turns
        out_reason[r] = reasons
    return gen

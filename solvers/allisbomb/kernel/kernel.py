"""The All Is Bomb rules and search compiled with Numba (the reference is `rules.py`).

Every function here mirrors one in `rules.py` / `search.py`; tests run both on many
seeded deals and demand the same outcome, node count and solution.

State layout: one row `s` of uint64 words, its bytes read and written through the int8
view `b = s.view(np.int8)`; the first `key_words(n)` words are the position's key, which
the transposition table hashes and compares as they are (layout in `layout.py`).

Program arrays (program.compile_program): number[n, 2], keyword[n, 2] (1 URGENT, 2 ROYAL),
step_start[n, 2], step_count[n, 2], steps[k, program.STEP_WIDTH] (layout in program.py), info (program.win_info's
16 entries, then the tables of prune.py).

A turn is run with a choice list: `ch` holds the choices, `chk` their numbers of options,
`cs` = [position, how many are given, options of a choice that did not fit, order]. A choice
past the given ones is taken as option 0 and appended, and the caller then advances the
list like an odometer over choice sequences, which visits moves in lexicographic order
like `rules.State.children`.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic, overload

from bombsolve.solvers.allisbomb.kernel.copies import kernel_search_key
from bombsolve.solvers.allisbomb.kernel.layout import (
    H_DECK,
    H_ENDING,
    H_OUTCOME,
    H_PILE,
    NEXT_ADD_ZERO,
    NEXT_IGNITED,
    NEXT_KEEP,
    NEXT_NO_ACTION,
    NEXT_SHIFT,
    PAD,
    PLAYED,
    SIDE,
    TURN_SHIFT,
    W_MASKS,
    ZONE,
    key_words,
    state_words,
)
from bombsolve.solvers.allisbomb.kernel.ordering import INFO_ORDER
from bombsolve.solvers.allisbomb.kernel.prune import (
    bound_reaches,
    dead,
    lower_bound,
    mark_start,
    may_win_now,
    still_alive,
)
from bombsolve.solvers.common.numba_call import address_of, check_types, indirect_call
from bombsolve.solvers.common.numba_entry import entry_point
from bombsolve.solvers.common.numba_jit import njit
from bombsolve.solvers.common.numba_opt import linked_helper

#: Digest of the project files this module imports (bombsolve.solvers.common.numba_deps): a change to
#: them changes this file too, so Numba rebuilds its on-disk cache of this module.
NUMBA_DEPENDS_ON = "473a5fa840808759"

DECK, EQUIP0, EQUIP1, DISCARD, OUT, PLAY = 0, 1, 2, 3, 4, 5
OP_MOVE, OP_IGNITE, OP_FLIP, OP_SWAP, OP_REORDER, OP_PROPHECY, OP_EQUIPWIN = range(7)
#: The extended vocabulary (program.py): turn_over, and the row of a selecting step with a
#: side filter, `all` or turn_over, run by `_xselect` (its op in column 13).
OP_TURN, OP_XSELECT = 7, 16
#: Guard rows (program.py): a condition and/or "you may do all of this" over the next rows,
#: and "if you do".
OP_GROUP, OP_IFDONE = 17, 18
#: "Choose one of these": the choice row, and the jump past the options not chosen.
OP_CHOOSE, OP_JUMP = 19, 20
#: exchange: the played card and a chosen card trade places (`_exchange`).
OP_EXCHANGE = 21
#: reorder of the DISCARD PILE's top, reverse of the DECK's or the pile's (`_xreorder`).
OP_XREORDER = 22
#: draw: changes the number drawn in the Draw & Equip phase (`_draw_number`).
OP_DRAW = 23
#: next: leaves an effect on the next card played (column 3 its code, layout.py; `_next_number`).
OP_NEXT = 24
Z_DECK, Z_EQUIPPED, Z_DISCARD, Z_PLAY, Z_DRAWN, Z_ANYWHERE = range(6)
P_TOP, P_BOTTOM, P_NTH, P_ANY, P_NAME, P_CLASS, P_SELF, P_ABOVE, P_BELOW = range(9)
D_TOP, D_BOTTOM, D_EQUIPPED, D_DISCARD, D_OUT = range(5)
D_PLACE, D_ABOVE, D_BELOW, D_PARTNER = range(5, 9)  # (the extended rows only: `_xmove`)
KW_URGENT, KW_ROYAL = 1, 2
NEED = -1
NO_MORE = -2  # _next_child: the frame has no move left
TOO_MANY = -3  # _next_child: the position has more than MAX_MOVES moves
#: `_turn`: the turn's picks of a step asked for as a set ran out in the order its first
#: pick listed them: the same cards in that order are another move (rules._OtherOrder);
#: the searches go on to the next move.
OTHER_ORDER = -4
#: Most moves (whole turns, as choice sequences) one position may have: the searches cut
#: its moves past it, and a turn of more than MAXC choices, recording E_MOVES, and go on
#: (rules.MAX_MOVES, CARDS.md "Limits"). Bounds the work per position whatever a card file
#: asks (e.g. "up to 8 cards of the DECK on top, one by one").
MAX_MOVES = 100_000
#: ctl[CTL_PAUSE_BUILT] > 0: `dfs` also pauses once it built that many moves in one call
#: (so a time limit is looked at even while no new position is entered, and the DECK
#: floors' turns, floors.py, end on the moves they build). Every move is counted: counted
#: only when their position was done, the moves of the positions still on the stack were
#: not, and a floor's turn of 2,000 moves built millions on random set 11 (positions of
#: thousands of moves, most of them found in the table); the count per move executes
#: fewer instructions than the count per position did (results/PERFORMANCE.md, "Moves
#: counted as they are built"). `shortest` counts its moves the same way.
CTL_PAUSE_BUILT = 8
#: ctl[CTL_BUILT_LIMIT] > 0 (`shortest` only, ctl of CTL_BUILT_TOTAL + 1 slots): the search
#: answers undecided once it built that many moves over all its calls (every move, as
#: CTL_PAUSE_BUILT counts them); ctl[CTL_BUILT_TOTAL] keeps that count across pauses. Deepening builds every move
#: of a depth limit's last positions and enters none of them, so its positions cost many
#: times a depth-first search's: this caps its work at a depth-first search's of as many
#: positions.
CTL_BUILT_LIMIT, CTL_BUILT_TOTAL = 9, 10
#: ctl[CTL_FIRST_DEPTH] > 0 (`shortest` only, ctl of CTL_FIRST_DEPTH + 1 slots): the first
#: depth limit, instead of 1. With max_turns the same, one search to that bound: every
#: line at most that many turns deep (a win found has at most that many turns, not
#: necessarily the fewest).
CTL_FIRST_DEPTH = 11
#: ctl[CTL_FLOOR] > 0 (`dfs` only, ctl of CTL_FLOOR + 1 slots): the DECK floor. A move into
#: a position whose DECK holds fewer cards is cut (not entered, E_CUT recorded, the search
#: goes on), so the search decides the positions whose DECK holds at least that many: a win
#: found is a win, and its end without one is undecided (`floors.floor_portfolio`).
CTL_FLOOR = 12
#: ctl[0] when `shortest` returns having searched every depth limit up to max_turns (no
#: win that short exists); 1 is a pause, 0 any other answer.
CTL_SEARCHED_ALL = 2
E_DRAW, E_NOCARD, E_UNMET, E_CYCLE = 1, 2, 4, 8
E_NOT_BEST = 16  # best mode: the node limit stopped the search before the best win was proven
E_DEAD = 32  # a position from which no win is reachable (prune.dead), counted as a loss
E_MOVES = 64  # a position had more than MAX_MOVES moves, or a turn more than MAXC choices
E_CUT = 128  # a line reached the stack's depth and was cut there (rules.Ending.DEPTH_CUT)
R_ONGOING, R_WIN, R_LOSS = 0, 1, 2
MAXC = 64  # most choices in one turn (more: the searches cut the position there)
ON_PATH, DONE = 1, 2
#: Table slots a search starts with (enlarged TT_GROW times whenever it is half full, up to
#: the whole table).
TT_START = 1 << 12
TT_GROW = 2
#: outcome codes of solve_batch
CODE_WIN, CODE_LOSS, CODE_UNDECIDED = 1, 0, 2
CODE_PAUSED = 3  # dfs and shortest: stopped at `pause_at` nodes, resumable


def state_len(n: int) -> int:
    """Length (uint64 words) of the state row for n cards (layout.py)."""
    return int(state_words(n))


#: The decorator of `_turn` and its helpers. They only read and write arrays they are given
#: (they never allocate one or keep one), so Numba's reference counting of array arguments is
#: pure cost there (a call and an atomic add per array per call): `_nrt=False` (Numba's switch
#: for it) leaves it out, and `forceinline=True` has LLVM inline them (with the counting in
#: place it declined to). error_model="numpy" means they cannot raise (the only candidates are
#: the integer divisions of the REORDER step, whose divisors are never 0); a callee that can
#: raise keeps Numba from pruning the counts `run_turn` itself takes on its arguments.
#: `linked_helper` (bombsolve.solvers.common.numba_opt): each is optimised in full once, inside the
#: searches that link it, not first in a library of its own. Their callers pass np.int64
#: (or one fixed type) where they would pass a named constant or an int8/int32 value: each
#: combination of argument types, a literal constant being one, compiles a helper again.
_turn_helper = linked_helper(cache=True, _nrt=False, forceinline=True, error_model="numpy")


@njit(cache=True, inline="always")
def _bit(lo, hi, c):
    if c < 31:
        return (lo >> c) & 1
    return (hi >> (c - 31)) & 1


@njit(cache=True, inline="always")
def _mask_of(lo, hi):
    """The uint64 card mask of a (lo, hi) pair of a program array (cards 0-30 in lo, 31 on in
    hi, as `_bit` reads them)."""
    return np.uint64(lo) | (np.uint64(hi) << np.uint64(31))


@njit(cache=True, inline="always")
def _low_card(m):
    """The lowest card of a non-empty uint64 mask (one count-trailing-zeros instruction)."""
    return np.int64(trailing_zeros(m))


@njit(cache=True, inline="always")
def _zone(b, n, c):
    return b[n + c] & ZONE


@njit(cache=True, inline="always")
def _side(b, n, c):
    return (b[n + c] >> 3) & 1


@_turn_helper
def _set_zone(s, b, n, c, z):
    """Move card c to zone z in its card byte and in the zone masks (the one place a zone
    changes, so the masks always match the bytes)."""
    v = b[n + c]
    _rezone(s, b, n, c, v, v & ZONE, z)


@njit(cache=True, inline="always")
def _rezone(s, b, n, c, v, old, z):
    """`_set_zone` for a caller that knows card c's zone `old` and holds its byte v (its side
    and mark as they are to be): the masks' addresses then do not wait for a load of the
    byte. Writes the byte v with its zone set to z."""
    # one compiled copy for every caller: called with the zone constants and int8 bytes, as
    # it is, it compiled once per combination of argument types (10 of them)
    _rezone_at(s, b, n, np.int64(c), np.int64(v), np.int64(old), np.int64(z))


@_turn_helper
def _rezone_at(s, b, n, c, v, old, z):
    M = key_words(n) + W_MASKS
    bit = np.uint64(1) << np.uint64(c)
    s[M + old] &= ~bit
    s[M + z] |= bit
    b[n + c] = (v & ~ZONE) | z


@_turn_helper
def _mask_cards(m, out, k):
    """Append the cards of mask m to out[k:], lowest id first; return the new length."""
    while m != 0:
        out[k] = _low_card(m)
        k += 1
        m &= m - np.uint64(1)
    return k


@_turn_helper
def _equipped(s, n, player, out):
    """A player's EQUIPPED CARDS, lowest id first (as rules.State.equipped), in out."""
    return _mask_cards(s[key_words(n) + W_MASKS + EQUIP0 + player], out, np.int64(0))


@_turn_helper
def _playable(s, b, n, keyword, out, tmp):
    """The active player's EQUIPPED CARDS that may be played (D.1: with an URGENT card among
    them, only URGENT and ROYAL cards), by id, in out; returns how many.

    One pass over the set bits of the player's mask (a player rarely holds more than a few
    cards): every card goes to out, the URGENT and ROYAL ones also to tmp, which replaces
    out only if an URGENT card was met."""
    act = b[2 * n + 1] & 1
    m = s[key_words(n) + W_MASKS + EQUIP0 + act]
    k = 0
    u = 0
    urgent = False
    while m != 0:
        c = _low_card(m)
        m &= m - np.uint64(1)
        kw = keyword[c, _side(b, n, c)]
        out[k] = c
        k += 1
        # written always, kept only if URGENT or ROYAL: no branch to mispredict
        tmp[u] = c
        u += kw == KW_URGENT or kw == KW_ROYAL
        urgent |= kw == KW_URGENT
    if not urgent:
        return k
    for i in range(u):
        out[i] = tmp[i]
    return u


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
    if cs[3] & 1 == 1:  # the search enumerates options last-first (orders 1 and 3)
        return k - 1 - r
    return r


@_turn_helper
def _order_cards(sb, n, info, out, k, order):
    """Put the k playable cards in out[0:k] in the order the search tries them (ordering.py):
    by their side's priority in the table at info[INFO_ORDER], lowest first, ties by id
    (order 2). Order 3 enumerates last-first (`_choose`), so it sorts highest first, ties by
    id: read backwards that is lowest priority first, ties highest id first. A stable
    insertion sort (a player holds a few cards)."""
    t = info[INFO_ORDER]
    sign = 1 if order == 2 else -1
    for i in range(1, k):
        c = out[i]
        key = sign * info[t + 2 * c + ((sb[n + c] >> 3) & 1)]
        j = i - 1
        while j >= 0:
            cj = out[j]
            if sign * info[t + 2 * cj + ((sb[n + cj] >> 3) & 1)] <= key:
                break
            out[j + 1] = cj
            j -= 1
        out[j + 1] = c


@linked_helper(cache=True, _nrt=False)
def _card_choice(st, n, keyword, info, order, r, buf, tmp):
    """The option index (in id order, as `rules.State.playable` lists them) of the card that
    search choice r of the card choice plays in position st under `order`, or -1 when that
    turn asks no card choice (one card playable). What a winning line records."""
    KW = key_words(n)
    sb = st.view(np.int8)
    hand = st[KW + W_MASKS + EQUIP0 + (sb[2 * n + 1] & 1)]
    if hand == 0 or hand & (hand - np.uint64(1)) == 0:
        return -1
    k = _playable(st, sb, n, keyword, buf, tmp)
    if k <= 1:
        return -1
    if order >= 2 and info[INFO_ORDER] > 0:
        _order_cards(sb, n, info, buf, k, order)
    card = buf[k - 1 - r if order & 1 == 1 else r]
    k = _playable(st, sb, n, keyword, buf, tmp)
    for i in range(k):
        if buf[i] == card:
            return i
    return -1


@_turn_helper
def _remove(s, b, n, c, z):
    """Take card c, in zone z, out of the DECK or the DISCARD PILE (its zone is then set by
    the caller), closing the gap; the byte freed next to the gap becomes PAD."""
    HB = 8 * key_words(n)
    if z == DECK:
        L = np.int64(b[HB + H_DECK])
        j = 0
        while b[j] != c:
            j += 1
        _deck_close(s, b, j, L)
        b[HB + H_DECK] = L - 1
    elif z == DISCARD:
        # the pile runs from b[n - L] (its top) to b[n - 1] (its bottom): the cards above c
        # move down one place towards the bottom
        L = b[HB + H_PILE]
        j = n - L
        while b[j] != c:
            j += 1
        for i in range(j, n - L, -1):
            b[i] = b[i - 1]
        b[n - L] = PAD
        b[HB + H_PILE] = L - 1


@_turn_helper
def _discard(s, b, n, c):
    v = b[n + c]
    z = v & ZONE
    if z == DISCARD:
        return
    _remove(s, b, n, c, z)
    _pile_top(s, b, n, c, v, z)


@_turn_helper
def _pile_top(s, b, n, c, v, z):
    """Put card c (byte v, zone z, already out of the DECK) on top of the DISCARD PILE."""
    HB = 8 * key_words(n)
    L = b[HB + H_PILE] + 1
    b[n - L] = c
    b[HB + H_PILE] = L
    _rezone(s, b, n, c, v, z, DISCARD)


@_turn_helper
def _ignite(s, b, n, c):
    if b[n + c] & SIDE:
        _discard(s, b, n, c)
    else:
        b[n + c] |= SIDE


@_turn_helper
def _deck_top(s, b, n, c, v, z):
    """Put card c (byte v, zone z, already out of its pile) on top of the DECK."""
    HB = 8 * key_words(n)
    L = b[HB + H_DECK]
    for i in range(L, 0, -1):
        b[i] = b[i - 1]
    b[0] = c
    b[HB + H_DECK] = L + 1
    _rezone(s, b, n, c, v, z, DECK)


@_turn_helper
def _deck_bottom(s, b, n, c, v, z):
    """Put card c (byte v, zone z, already out of its pile) at the bottom of the DECK."""
    HB = 8 * key_words(n)
    L = b[HB + H_DECK]
    b[L] = c
    b[HB + H_DECK] = L + 1
    _rezone(s, b, n, c, v, z, DECK)


@_turn_helper
def _deck_shift(s, b, L, num):
    """Move the DECK's bytes num..L-1 to 0..L-num-1 (the top num cards drawn, D.2); bytes
    L-num..L-1 are left for the caller to write, bytes from L on are kept.

    Done on whole words (a byte loop of unknown length cost a memmove-like call, with its
    overlap checks, on nearly every turn): each word takes its own bytes shifted down and
    the next word's low bytes, and the word holding byte L-1 keeps its bytes from L on.
    The row always has a word after the one holding byte L-1 (the key is followed by
    the header word), so s[w + 1] exists."""
    if num >= 8:  # (no card draws that many; kept exact anyway)
        for j in range(L - num):
            b[j] = b[j + num]
        return
    sh = np.uint64(8 * num)
    back = np.uint64(64 - 8 * num)
    last = (L - 1) // 8
    for w in range(last):
        s[w] = (s[w] >> sh) | (s[w + 1] << back)
    shifted = (s[last] >> sh) | (s[last + 1] << back)
    hi = L - 8 * last  # bytes of the last word below L (1..8)
    if hi >= 8:
        s[last] = shifted
    else:
        low = (np.uint64(1) << np.uint64(8 * hi)) - np.uint64(1)
        s[last] = (shifted & low) | (s[last] & ~low)


@_turn_helper
def _deck_close(s, b, j, L):
    """Take the DECK's card at byte j out: bytes j+1..L-1 move to j..L-2 and byte L-1
    becomes PAD; bytes from L on (the gap, the DISCARD PILE) are kept.

    On whole words, like `_deck_shift` (a byte loop of unknown length compiled to a
    memmove-like call): each word from the one holding byte j takes its bytes shifted down
    one place and the next word's lowest byte; the first keeps its bytes below j, the one
    holding byte L-1 its bytes from L on. s[last + 1] exists (see `_deck_shift`)."""
    first = j // 8
    last = (L - 1) // 8
    keep_lo = (np.uint64(1) << np.uint64(8 * (j - 8 * first))) - np.uint64(1)
    for w in range(first, last + 1):
        old = s[w]
        new = (old >> np.uint64(8)) | (s[w + 1] << np.uint64(56))
        if w == first:
            new = (old & keep_lo) | (new & ~keep_lo)
        if w == last:
            hi = L - 8 * last  # bytes of the last word below L (1..8)
            if hi < 8:
                low = (np.uint64(1) << np.uint64(8 * hi)) - np.uint64(1)
                new = (new & low) | (old & ~low)
        s[w] = new
    b[L - 1] = PAD


@_turn_helper
def _move(s, b, n, c, to):
    if to == D_DISCARD:
        _discard(s, b, n, c)
        return
    v = b[n + c]
    z = v & ZONE
    _remove(s, b, n, c, z)
    if to == D_TOP:
        _deck_top(s, b, n, c, v, z)
    elif to == D_BOTTOM:
        _deck_bottom(s, b, n, c, v, z)
    elif to == D_EQUIPPED:
        _rezone(s, b, n, c, v, z, EQUIP0 + (b[2 * n + 1] & 1))
    else:
        _rezone(s, b, n, c, v, z, OUT)


@_turn_helper
def _candidates(s, b, n, card, steps, si, players, out, tmp):
    HB = 8 * key_words(n)
    M = key_words(n) + W_MASKS
    zone, pick, nth, within = steps[si, 1], steps[si, 2], steps[si, 3], steps[si, 4]
    k = 0
    if zone == Z_PLAY:
        if _zone(b, n, card) == PLAY:
            tmp[0] = card
            k = 1
    elif zone == Z_DECK:
        for i in range(b[HB + H_DECK]):
            tmp[k] = b[i]
            k += 1
    elif zone == Z_DISCARD:
        # from the top of the pile down: b[n - L] .. b[n - 1]
        for i in range(n - b[HB + H_PILE], n):
            tmp[k] = b[i]
            k += 1
    else:
        act = b[2 * n + 1] & 1
        if (pick == P_ANY or pick == P_NAME or pick == P_CLASS) and within == 0:
            if steps[si, 0] != OP_FLIP:
                # the common EQUIPPED pick (JOKER, GUARDIAN, the dishes): no range and no
                # side to test, so the candidates are the masks' cards, named or classed
                # ones only, the active player's first (as the general path lists them)
                sel = ~np.uint64(0)
                if pick == P_NAME:
                    sel = _mask_of(steps[si, 5], steps[si, 6])
                elif pick == P_CLASS:
                    sel = _mask_of(steps[si, 7], steps[si, 8])
                m = _mask_cards(s[M + EQUIP0 + act] & sel, out, np.int64(0))
                if pick != P_ANY and players == 2:
                    m = _mask_cards(s[M + EQUIP0 + 1 - act] & sel, out, m)
                return m
        k = _mask_cards(s[M + EQUIP0 + act], tmp, np.int64(0))
        if (pick == P_NAME or pick == P_CLASS) and players == 2:
            k = _mask_cards(s[M + EQUIP0 + 1 - act], tmp, k)
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
        if steps[si, 0] == OP_FLIP and _side(b, n, c) == 0:
            continue
        out[m] = c
        m += 1
    return m


@_turn_helper
def _fixed_targets(s, b, n, card, steps, si, out, tmp):
    return _fixed_k(s, b, n, card, steps, si, out, tmp, np.int64(steps[si, 11]))


@_turn_helper
def _fixed_k(s, b, n, card, steps, si, out, tmp, count):
    """`_fixed_targets` with `count` cards (a counting number's, for the extended rows)."""
    HB = 8 * key_words(n)
    zone, pick, nth = steps[si, 1], steps[si, 2], steps[si, 3]
    if zone == Z_PLAY:
        if _zone(b, n, card) == PLAY and not (steps[si, 0] == OP_FLIP and _side(b, n, card) == 0):
            out[0] = card
            return 1
        return 0  # (the reference filters flip_back the same way for every zone)
    # the pool, top first, is b[base .. base + k - 1]: the DECK from b[0], the DISCARD PILE
    # from its top card b[n - k]
    if zone == Z_DECK:
        k = np.int64(b[HB + H_DECK])
        base = 0
    else:
        k = np.int64(b[HB + H_PILE])
        base = n - k
    m = 0
    if pick == P_TOP:
        for i in range(min(count, k)):
            out[m] = b[base + i]
            m += 1
    elif pick == P_BOTTOM:
        for i in range(min(count, k)):
            out[m] = b[base + k - 1 - i]
            m += 1
    else:
        for i in range(nth - 1, min(nth - 1 + count, k)):
            out[m] = b[base + i]
            m += 1
    if steps[si, 0] == OP_FLIP:
        j = 0
        for i in range(m):
            if _side(b, n, out[i]) == 1:
                out[j] = out[i]
                j += 1
        m = j
    return m


@_turn_helper
def _apply_select(s, b, n, c, steps, si):
    if steps[si, 0] == OP_MOVE:
        _move(s, b, n, c, steps[si, 9])
    elif steps[si, 0] == OP_IGNITE:
        _ignite(s, b, n, c)
    else:
        b[n + c] &= ~SIDE


#: The decorator of the extended vocabulary's steps under `_ext_step`: like `_turn_helper`
#: (no reference counting, cannot raise) but not forced inline (each is large and called
#: for its own kind of row); a card set without these steps never compiles them.
_ext_helper = linked_helper(cache=True, _nrt=False, error_model="numpy")
#: The decorator of the two entry points `_turn` calls through their addresses
#: (`extended_entries`): their own machine code is what runs, so they are optimised in full
#: (the linked helpers' level is for code a caller optimises again), as entry points
#: (bombsolve.solvers.common.numba_entry: their calls bind to their own copies).
_ext_entry = entry_point(cache=True, _nrt=False, error_model="numpy", no_cfunc_wrapper=True)


@_turn_helper
def _as_listed(out, n, m, rep, last):
    """A step whose picks are asked for as a set (`Step.picks_as_set`; rules._run_select):
    at its first pick (`rep` 0) note each candidate's place in out[n + card]; at a later
    one keep the candidates out[:m] listed then no earlier than the last pick (`last`, its
    place), in their order. Returns how many."""
    if rep == 0:
        for i in range(m):
            out[n + out[i]] = i
        return m
    j = 0
    for i in range(m):
        if out[n + out[i]] >= last:
            out[j] = out[i]
            j += 1
    return j


@_turn_helper
def _keep_side(b, n, out, m, op, want):
    """Keep the cards out[:m] a selecting step can act on by their side (rules._on_side):
    flip_back only ignited ones; want 1 passive only, 2 ignited only. Returns how many."""
    j = 0
    for i in range(m):
        sd = _side(b, n, out[i])
        if op == OP_FLIP and sd == 0:
            continue
        if want != 0 and sd != want - 1:
            continue
        out[j] = out[i]
        j += 1
    return j


@_turn_helper
def _deck_index(b, n, c):
    """The place of card c in the DECK (0 = top); it must be there."""
    j = 0
    while b[j] != c:
        j += 1
    return j


@_turn_helper
def _xmove(s, b, n, card, c, steps, si, to, players):
    """Move card c to a place in the DECK, next to a card, or to the partner's EQUIPPED
    CARDS (rules.State._move)."""
    HB = 8 * key_words(n)
    act = b[2 * n + 1] & 1
    if to == D_PARTNER:
        if players == 2:
            v = b[n + c]
            z = v & ZONE
            _remove(s, b, n, c, z)
            _rezone(s, b, n, c, v, z, EQUIP0 + 1 - act)
        return
    x = -1
    if to != D_PLACE:
        x = card if steps[si, 27] == -1 else np.int64(steps[si, 27])
        if x == c or x < 0 or _zone(b, n, x) != DECK:
            return
    v = b[n + c]
    z = v & ZONE
    _remove(s, b, n, c, z)
    L = np.int64(b[HB + H_DECK])
    if to == D_PLACE:
        k = np.int64(steps[si, 26])
        i = min(k - 1, L) if k > 0 else max(0, L + 1 + k)
    else:
        i = _deck_index(b, n, x) + (1 if to == D_BELOW else 0)
    for j in range(L, i, -1):
        b[j] = b[j - 1]
    b[i] = c
    b[HB + H_DECK] = L + 1
    _rezone(s, b, n, c, v, z, DECK)


@_turn_helper
def _xapply(s, b, n, card, c, steps, si, op, to, players):
    """Act on card c (rules._apply_select): move, ignite, flip back or turn over."""
    if op == OP_MOVE and to >= D_PLACE:
        _xmove(s, b, n, card, c, steps, si, to, players)
    elif op == OP_MOVE:
        _move(s, b, n, c, to)
    elif op == OP_IGNITE:
        _ignite(s, b, n, c)
    elif op == OP_FLIP:
        b[n + c] &= ~SIDE
    else:  # OP_TURN: passive <-> ignited, never discarding
        b[n + c] ^= SIDE


@_turn_helper
def _xcandidates(s, b, n, card, steps, si, players, out, tmp):
    """`_candidates`, and for zone 'anywhere' the DECK from the top down, the DISCARD PILE
    from the top down, then the EQUIPPED CARDS by card id (the active player's; by name or
    class the partner's too), named or classed ones only (rules._candidates)."""
    if steps[si, 1] != Z_ANYWHERE:
        return _candidates(s, b, n, card, steps, si, players, out, tmp)
    HB = 8 * key_words(n)
    M = key_words(n) + W_MASKS
    pick = steps[si, 2]
    k = 0
    for i in range(b[HB + H_DECK]):
        tmp[k] = b[i]
        k += 1
    for i in range(n - b[HB + H_PILE], n):
        tmp[k] = b[i]
        k += 1
    act = b[2 * n + 1] & 1
    k = _mask_cards(s[M + EQUIP0 + act], tmp, k)
    if pick != P_ANY and players == 2:
        k = _mask_cards(s[M + EQUIP0 + 1 - act], tmp, k)
    m = 0
    for i in range(k):
        c = tmp[i]
        if pick == P_NAME and _bit(steps[si, 5], steps[si, 6], c) == 0:
            continue
        if pick == P_CLASS and _bit(steps[si, 7], steps[si, 8], c) == 0:
            continue
        out[m] = c
        m += 1
    return m


@_ext_helper
def _xselect(s, b, n, card, steps, si, players, ch, chk, cs, buf, tmp):
    """A selecting step with the extended vocabulary (rules._run_select): a side filter,
    `all`, turn_over, or one that an "if you do" step follows. Returns 1 if it acted on
    some card, else 0; NEED when the turn's choices run out."""
    op, want, every = steps[si, 13], steps[si, 14], steps[si, 15]
    may, pick, to = steps[si, 10], steps[si, 2], steps[si, 9]
    did = 0
    count = np.int64(steps[si, 11]) if steps[si, 16] != 2 else _amount(s, b, n, card, steps, si)
    if pick == P_ABOVE or pick == P_BELOW:
        # the card directly above / below a card (or this card) in the DECK
        x = card if steps[si, 28] == -1 else np.int64(steps[si, 28])
        m = 0
        if x >= 0 and _zone(b, n, x) == DECK:
            i = _deck_index(b, n, x) + (1 if pick == P_BELOW else -1)
            if 0 <= i < b[8 * key_words(n) + H_DECK]:
                buf[0] = b[i]
                m = 1
        m = _keep_side(b, n, buf, m, op, want)
        for j in range(m):
            if may == 1:
                r = _choose(np.int64(2), ch, chk, cs)
                if r < 0:
                    return NEED
                if r == 1:
                    return did
            _xapply(s, b, n, card, buf[j], steps, si, op, to, players)
            did = 1
        return did
    if pick == P_TOP or pick == P_BOTTOM or pick == P_NTH or pick == P_SELF:
        m = _keep_side(b, n, buf, _fixed_k(s, b, n, card, steps, si, buf, tmp, count), op, want)
        for j in range(m):
            if may == 1:
                r = _choose(np.int64(2), ch, chk, cs)
                if r < 0:
                    return NEED
                if r == 1:
                    return did
            _xapply(s, b, n, card, buf[j], steps, si, op, to, players)
            did = 1
        return did
    if every == 1:
        m = _keep_side(
            b, n, buf, _xcandidates(s, b, n, card, steps, si, players, buf, tmp), op, want
        )
        if m == 0:
            return 0
        if may == 1:
            r = _choose(np.int64(2), ch, chk, cs)
            if r < 0:
                return NEED
            if r == 1:
                return 0
        for j in range(m):
            _xapply(s, b, n, card, buf[j], steps, si, op, to, players)
        return 1
    done = np.uint64(0)  # turn_over: k different cards (turning one twice undoes it)
    last = np.int64(-1)
    for _rep in range(count):
        m = _keep_side(
            b, n, buf, _xcandidates(s, b, n, card, steps, si, players, buf, tmp), op, want
        )
        j = 0
        for i in range(m):
            if (done >> np.uint64(buf[i])) & np.uint64(1) == 0:
                buf[j] = buf[i]
                j += 1
        m = j
        if m == 0:
            return did
        if steps[si, 29] == 1:
            m = _as_listed(buf, n, m, _rep, last)
            if m == 0:
                return did if may == 1 else OTHER_ORDER  # (with `may`: then "do not")
        r = _choose(m + may, ch, chk, cs)
        if r < 0:
            return NEED
        if r == m:
            return did
        last = np.int64(buf[n + buf[r]])
        _xapply(s, b, n, card, buf[r], steps, si, op, to, players)
        did = 1
        if op == OP_TURN:
            done |= np.uint64(1) << np.uint64(buf[r])
    return did


@_turn_helper
def _holds(s, b, n, card, steps, si):
    """Whether the condition of guard row si holds now (rules._holds): the cards of its mask
    (or the played card), in its zone, on its side, number at_least..at_most."""
    k = _amount(s, b, n, card, steps, si)
    ok = k >= steps[si, 22] and (steps[si, 23] < 0 or k <= steps[si, 23])
    return ok != (steps[si, 24] == 1)


@_turn_helper
def _amount(s, b, n, card, steps, si):
    """How many cards match row si's condition columns (rules._amount)."""
    M = key_words(n) + W_MASKS
    if steps[si, 21] == 1:
        m = np.uint64(1) << np.uint64(card)
    else:
        m = _mask_of(steps[si, 19], steps[si, 20])
    z = steps[si, 17]
    if z == EQUIP0:
        m &= s[M + EQUIP0 + (b[2 * n + 1] & 1)]
    elif z >= 0:
        m &= s[M + z]
    k = 0
    want = steps[si, 18]
    while m != 0:
        c = _low_card(m)
        m &= m - np.uint64(1)
        if want == 0 or _side(b, n, c) == want - 1:
            k += 1
    return k


@_ext_entry
def _draw_number(s, b, n, card, base, steps, s0, k):
    """The number D.2 draws (rules.State._draw_number): NUMBER `base`, changed by the side's
    draw rows s0..s0+k-1 in order (each after its guard row, if it has an `if`), >= 0."""
    num = base
    si = s0
    while si < s0 + k:
        if steps[si, 0] == OP_GROUP and si + 1 < s0 + k and steps[si + 1, 0] == OP_DRAW:
            # a draw step's own `if` (draw steps are never inside groups)
            if not _holds(s, b, n, card, steps, si):
                si += 2
                continue
            si += 1
        if steps[si, 0] == OP_DRAW:
            v = steps[si, 3] if steps[si, 16] != 2 else _amount(s, b, n, card, steps, si)
            num = v if steps[si, 15] == 1 else num + v
        si += 1
    return max(0, num)


@_turn_helper
def _byte_of(b, n, c, z):
    """The index of card c's byte in b[0:n] (it is in the DECK or the DISCARD PILE, z)."""
    HB = 8 * key_words(n)
    j = 0 if z == DECK else n - b[HB + H_PILE]
    while b[j] != c:
        j += 1
    return j


@_ext_helper
def _exchange(s, b, n, card, steps, si, players, ch, chk, cs, buf, tmp):
    """exchange (rules._run_exchange): the played card and a chosen card trade places; from
    the PLAY AREA the chosen card goes there or (column 15 = 1) to the EQUIPPED CARDS.
    Returns 1 if done, 0 if not, NEED."""
    zc = _zone(b, n, card)
    if zc == OUT:
        return 0
    pick = steps[si, 2]
    if pick == P_TOP or pick == P_BOTTOM or pick == P_NTH:
        m = _fixed_targets(s, b, n, card, steps, si, buf, tmp)
    else:
        m = _xcandidates(s, b, n, card, steps, si, players, buf, tmp)
    m = _keep_side(b, n, buf, m, OP_EXCHANGE, steps[si, 14])
    j = 0
    for i in range(m):
        if buf[i] != card:
            buf[j] = buf[i]
            j += 1
    if j == 0:
        return 0
    r = _choose(j + steps[si, 10], ch, chk, cs)
    if r < 0:
        return NEED
    if r == j:
        return 0
    x = buf[r]
    zx = _zone(b, n, x)
    # Both places found before either is written: when the two cards lie in one zone (the
    # played card put into the DISCARD PILE by an earlier step), the second search would
    # find the card just written in the first place and undo the trade.
    jx = _byte_of(b, n, x, zx) if zx == DECK or zx == DISCARD else -1
    jc = _byte_of(b, n, card, zc) if zc == DECK or zc == DISCARD else -1
    if jx >= 0:
        b[jx] = card
    if jc >= 0:
        b[jc] = x
    to = zc
    if zc == PLAY and steps[si, 15] == 1:
        to = EQUIP0 + (b[2 * n + 1] & 1)
    _rezone(s, b, n, card, b[n + card], zc, zx)
    _rezone(s, b, n, x, b[n + x], zx, to)
    return 1


@_ext_helper
def _xreorder(s, b, n, steps, si, ch, chk, cs, buf, tmp):
    """reorder of the top of the DISCARD PILE, or reverse (column 15) of the top of the DECK
    or the pile (rules._run_reorder, _run_reverse). The top m cards are b[base..base+m-1]
    from the top down: the DECK from b[0], the pile from its top b[n - L]."""
    HB = 8 * key_words(n)
    if steps[si, 1] == Z_DISCARD:
        L = np.int64(b[HB + H_PILE])
        base = n - L
    else:
        L = np.int64(b[HB + H_DECK])
        base = 0
    m = min(steps[si, 3], L)
    if m < 2:
        return 0
    for j in range(m):
        tmp[j] = b[base + j]
    if steps[si, 15] == 1:  # reverse
        for j in range(m):
            b[base + j] = tmp[m - 1 - j]
        return 1
    f = np.int64(1)
    for j in range(2, m + 1):
        f *= j
    r = _choose(f, ch, chk, cs)
    if r < 0:
        return NEED
    # r-th lexicographic permutation (as itertools.permutations lists them)
    for j in range(m):
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
        b[base + pos] = tmp[j]
    return 1


@_ext_entry
def _ext_step(s, b, n, card, steps, si, players, ch, chk, cs, buf, tmp, did):
    """A row of the extended vocabulary (program.py): returns (rows to skip << 1) | whether
    it acted on some card, or NEED. Guard rows that fail skip their span (and count as not
    done); a guard that holds lets the rows after it run."""
    op = steps[si, 0]
    if op == OP_XSELECT:
        return _xselect(s, b, n, card, steps, si, players, ch, chk, cs, buf, tmp)
    if op == OP_EXCHANGE:
        return _exchange(s, b, n, card, steps, si, players, ch, chk, cs, buf, tmp)
    if op == OP_XREORDER:
        return _xreorder(s, b, n, steps, si, ch, chk, cs, buf, tmp)
    if op == OP_DRAW:
        return 0  # (done in the Draw & Equip phase)
    if op == OP_NEXT:  # the next card's effect, in the header byte (a later one replaces it)
        b[2 * n + 1] = (b[2 * n + 1] & NEXT_KEEP) | (steps[si, 3] << NEXT_SHIFT)
        return 0
    span = steps[si, 25]
    if op == OP_IFDONE:
        return did if did == 1 else span << 1
    if op == OP_JUMP:  # the chosen option is done: past the others
        return (span << 1) | did
    if op == OP_CHOOSE:
        k = steps[si, 11]
        r = _choose(k + steps[si, 10], ch, chk, cs)
        if r < 0:
            return NEED
        if r == k:  # none of them (with `may`)
            return span << 1
        return (steps[si, 13 + r] << 1) | 1
    # OP_GROUP: its condition, then (with `may`) "do all of this" or not
    if steps[si, 16] == 1 and not _holds(s, b, n, card, steps, si):
        return span << 1
    if steps[si, 10] == 1:
        r = _choose(np.int64(2), ch, chk, cs)
        if r < 0:
            return NEED
        if r == 1:
            return span << 1
    return 1


# The extended vocabulary is compiled only for the programs that use it: `_turn` calls its
# two entry points through their addresses (bombsolve.solvers.common.numba_call), given in `ext`
# (`extended_entries`; zeros for a program without extended rows, which never reaches
# them). The solver's compiled code is then the same for every card set, and a card file
# with extended rows compiles these steps alone (a second solver around them, as a
# compiled form of its own, cost more than the solver itself).

#: The argument types of `_ext_step` and `_draw_number` as `_turn` calls them: the state
#: row, its byte view, the program's int32 rows, the choices (int32), the scratch arrays,
#: and every number as an int64.
_I64 = types.int64
_ROW = types.Array(types.uint64, 1, "C")
_BYTES = types.Array(types.int8, 1, "C")
_I64S = types.Array(types.int64, 1, "C")
_STEPS = types.Array(types.int32, 2, "C")
_I32S = types.Array(types.int32, 1, "C")
EXT_STEP_ARGS = (
    _ROW,
    _BYTES,
    _I64,
    _I64,
    _STEPS,
    _I64,
    _I64,
    _I32S,
    _I32S,
    _I64S,
    _I64S,
    _I64S,
    _I64,
)
EXT_DRAW_ARGS = (_ROW, _BYTES, _I64, _I64, _I64, _STEPS, _I64, _I64)


@intrinsic
def _call_ext_step(
    typingctx, address, s, b, n, card, steps, si, players, ch, chk, cs, buf, tmp, did
):
    """`_ext_step(...)` at `address` (see above)."""
    args = (s, b, n, card, steps, si, players, ch, chk, cs, buf, tmp, did)
    check_types("_ext_step", args, EXT_STEP_ARGS)

    def codegen(context, builder, sig, llargs):
        return indirect_call(context, builder, _I64, EXT_STEP_ARGS, llargs[0], llargs[1:])

    return _I64(address, *args), codegen


@intrinsic
def _call_ext_draw(typingctx, address, s, b, n, card, base, steps, s0, k):
    """`_draw_number(...)` at `address` (see above)."""
    args = (s, b, n, card, base, steps, s0, k)
    check_types("_draw_number", args, EXT_DRAW_ARGS)

    def codegen(context, builder, sig, llargs):
        return indirect_call(context, builder, _I64, EXT_DRAW_ARGS, llargs[0], llargs[1:])

    return _I64(address, *args), codegen


#: `extended_entries`'s answers in this process: the zeros, and the addresses once known
_NO_ENTRIES = np.zeros(2, np.int64)
_ENTRIES: list[np.ndarray] = []


def extended_entries(extended: bool) -> np.ndarray:
    """The `ext` argument of the kernel's entry points for a program with extended rows or
    without (program.Program.extended): the addresses of `_ext_step` and `_draw_number` in
    this process (compiled on first use), or zeros. The kernel only reads it: every call
    gets the same array."""
    if not extended:
        return _NO_ENTRIES
    if not _ENTRIES:
        _ENTRIES.append(
            np.array(
                [address_of(_ext_step, EXT_STEP_ARGS), address_of(_draw_number, EXT_DRAW_ARGS)],
                np.int64,
            )
        )
    return _ENTRIES[0]


@_turn_helper
def _equipped_by_anyone(b, n, c):
    z = _zone(b, n, c)
    return z == EQUIP0 or z == EQUIP1


@_turn_helper
def _unmet(s, b, n, card, played_ignited, info, gift_ids, n_gifts):
    """True if some win condition is unmet (rules.State.unmet_conditions)."""
    d = b[2 * n]
    princess_ok = card == info[1] and played_ignited == 1
    if d < 0:
        return True
    if info[0] == 1:
        if _zone(b, n, d) != DISCARD:
            return True
        t = info[2]
        if not princess_ok or t < 0 or _side(b, n, t) == 0:
            return True
        if not _equipped_by_anyone(b, n, np.int64(t)):
            return True
    else:
        if _side(b, n, d) == 0:
            return True
        if not princess_ok or not _equipped_by_anyone(b, n, np.int64(d)):
            return True
    if info[3] != -1:  # mosquitos in play as a condition (mask, -1 = not a condition)
        lo, hi = info[3], info[4]
        if lo == 0 and hi == 0:
            return True
        for c in range(n):
            if _bit(lo, hi, c) == 1 and _zone(b, n, c) != DISCARD:
                return True
    if info[5] != -2:
        g = info[5]
        if g < 0 or b[n + g] & PLAYED == 0:
            return True
    if info[8] > 0:
        if info[9] == 1:
            cnt = 0
            for i in range(n_gifts):
                cnt += (b[n + gift_ids[i]] >> 4) & 1
        else:
            cnt = (b[2 * n + 1] >> 1) & 3  # (capped at 3: enough for "fewer than 3")
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
            if not _equipped_by_anyone(b, n, np.int64(a)):
                return True
        elif _zone(b, n, a) != EQUIP0 + (b[2 * n + 1] & 1):
            return True
    return False


@_ext_helper
def _next_number(raw, num, code):
    """The number D.2 draws under an earlier card's `next` effect `code` (layout.py;
    rules.State._run_turn): with no CARD ACTION, the NUMBER itself (`raw`, the `number`
    entry: -(NUMBER + 1) for a side with draw steps, which are part of the action); with
    "draws k more", `num` (after the side's draw steps) + k, never below 0."""
    if code == NEXT_NO_ACTION:
        return raw if raw >= 0 else -raw - 1
    if code > NEXT_NO_ACTION:
        return max(0, num + code - NEXT_ADD_ZERO)
    return num


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
#: differs), so anything they call must not allocate (`_tt_grow` included: it rebuilds the
#: table's index in place). (`s.view(np.int8)` allocates nothing: it is a new header over
#: the same data.)
_no_refcount = entry_point(cache=True, _nrt=False)


# Inlined into `_next_child`, so into `dfs` and `shortest` (compiled once each, see `dfs`):
# as a call it took about 110 machine arguments on every child (each array is 7 to 9
# fields), which cost about 15% of a position.
@njit(cache=True, _nrt=False, inline="always")
def run_turn(
    src,
    s,
    n,
    number,
    keyword,
    sstart,
    scount,
    steps,
    info,
    gift_ids,
    n_gifts,
    ext,
    ch,
    chk,
    cs,
    buf,
    tmp,
):
    """Play one turn on the state row `s` with the choices in `ch`; choices past the given
    ones are taken as option 0 and appended (see `_choose`). Return 0 when done, NEED (-1)
    if the turn needs more than MAXC choices. Mirrors rules.State._run_turn.

    `src` holds the same position as `s` on entry: `s` itself, or the row `s` was just
    copied from. The turn's first reads (D.1's player, hand and card, D.2's DECK) come from
    `src`: read from a row just written by the copy, they would wait for the copy's wide
    stores to reach the cache (a store-forwarding stall) at the head of every turn."""
    # The turn is played by `_turn` (see `_turn_helper`): around one call that cannot raise,
    # Numba's pruning pass removes the reference counts taken here on the 13 arrays (26 calls
    # with an atomic add each, every turn), which in the body itself (loops, many exits,
    # divisions that could raise) it could not.
    return _turn(
        src,
        s,
        n,
        number,
        keyword,
        sstart,
        scount,
        steps,
        info,
        gift_ids,
        n_gifts,
        ext,
        ch,
        chk,
        cs,
        buf,
        tmp,
    )


@_turn_helper
def _turn(
    src,
    s,
    n,
    number,
    keyword,
    sstart,
    scount,
    steps,
    info,
    gift_ids,
    n_gifts,
    ext,
    ch,
    chk,
    cs,
    buf,
    tmp,
):
    """The body of `run_turn`: rulebook D.1-D.5, mirroring rules.State._run_turn."""
    b = s.view(np.int8)
    sb = src.view(np.int8)  # (read-only: see run_turn)
    KW = key_words(n)
    HB = 8 * KW
    players = info[12]
    hdr = sb[2 * n + 1]  # bits 3-6 (rare, >= 8): an earlier card's `next` effect (layout.py)
    act = hdr & 1
    # D.1 play a card
    hand = src[KW + W_MASKS + EQUIP0 + act]
    if hand != 0 and hand & (hand - np.uint64(1)) == 0:
        # one EQUIPPED CARD (most turns of the base game): it is playable whatever its
        # KEYWORD, and a choice among one option is no choice (_choose records none)
        card = _low_card(hand)
    else:
        k = _playable(src, sb, n, keyword, buf, tmp)
        if cs[3] >= 2 and k > 1 and info[INFO_ORDER] > 0:
            _order_cards(sb, n, info, buf, k, cs[3])
        i = _choose(k, ch, chk, cs)
        if i < 0:
            return NEED
        card = buf[i]
    v = sb[n + card]
    if hdr >= 8:  # the `next` effect is used up by this play; "plays ignited" turns it
        b[2 * n + 1] = hdr & NEXT_KEEP
        if hdr >> NEXT_SHIFT == NEXT_IGNITED:
            v |= SIDE
    side = (v >> 3) & 1
    # the play mark, only on the cards whose mark a win condition reads (layout.py)
    _rezone(
        s,
        b,
        n,
        card,
        v | PLAYED * _bit(info[mark_start(n)], info[mark_start(n) + 1], card),
        EQUIP0 + act,
        PLAY,
    )
    if info[8] > 0 and _is_gift(card, info) and (b[2 * n + 1] >> 1) & 3 < 3:
        b[2 * n + 1] += 2  # GIFT plays, capped at 3 (bits 1-2)
    # D.2 draw and equip
    num = number[card, side]
    if num < 0:  # (rare) the side has draw steps: -(NUMBER + 1)
        num = _call_ext_draw(
            ext[1],
            s,
            b,
            np.int64(n),
            np.int64(card),
            np.int64(-num - 1),
            steps,
            np.int64(sstart[card, side]),
            np.int64(scount[card, side]),
        )
    if hdr >= 8:
        num = _next_number(number[card, side], num, hdr >> NEXT_SHIFT)
    L = np.int64(sb[HB + H_DECK])  # (D.1 changed neither the DECK nor its length)
    drawn = -1
    if num > L:
        b[HB + H_OUTCOME] = R_LOSS
        b[HB + H_ENDING] = E_DRAW
        return 0
    if 0 < num < 8:
        # the top num cards are the low bytes of word 0: kept in a register while the
        # DECK shifts, not copied out byte by byte
        top = src[0]
        _deck_shift(s, b, L, num)
        drawn = np.int64(np.int8(top >> np.uint64(8 * (num - 1))))
        _rezone(s, b, n, drawn, b[n + drawn], DECK, EQUIP0 + act)
        for j in range(num - 1):
            b[L - num + j] = np.int8(top >> np.uint64(8 * j))
        b[L - 1] = PAD
        b[HB + H_DECK] = L - 1
    elif num > 0:  # (no card draws 8 or more; kept exact anyway)
        for j in range(num):
            tmp[j] = b[j]
        _deck_shift(s, b, L, num)
        drawn = tmp[num - 1]
        _set_zone(s, b, n, drawn, EQUIP0 + act)
        for j in range(num - 1):
            b[L - num + j] = tmp[j]
        b[L - 1] = PAD
        b[HB + H_DECK] = L - 1
    # D.3 card action
    # int64 from the start: read as the int32 of sstart (and `did` as the literal 0), the
    # first pass of Numba's type inference compiled `_ext_step` and all it calls a second
    # time for those types, a copy never used (see scripts/bench/compile_profile.py)
    nxt = np.int64(sstart[card, side])
    end = nxt + np.int64(scount[card, side])
    if hdr >= 8 and hdr >> NEXT_SHIFT == NEXT_NO_ACTION:
        end = nxt  # no CARD ACTION (an earlier card's `next` effect)
    did = np.int64(0)  # (the extended rows only) whether the last step acted on some card
    while nxt < end:
        si = nxt
        nxt += 1
        # the step's fields are read as steps[si, k], not through a row view: a view costs a
        # reference-count increment and decrement per step
        op = steps[si, 0]
        if op == OP_MOVE or op == OP_IGNITE or op == OP_FLIP:
            may = steps[si, 10]
            pick = steps[si, 2]
            if pick == P_TOP or pick == P_BOTTOM or pick == P_NTH or pick == P_SELF:
                m = _fixed_targets(s, b, n, card, steps, si, buf, tmp)
                # copy: buf is reused below only after this loop
                stop = False
                for j in range(m):
                    c = buf[j]
                    if may == 1:
                        r = _choose(np.int64(2), ch, chk, cs)
                        if r < 0:
                            return NEED
                        if r == 1:
                            stop = True
                            break
                    _apply_select(s, b, n, c, steps, si)
                if stop:
                    continue
            else:
                last = np.int64(-1)
                for _rep in range(steps[si, 11]):
                    m = _candidates(s, b, n, card, steps, si, players, buf, tmp)
                    if m == 0:
                        break
                    if steps[si, 29] == 1:
                        m = _as_listed(buf, n, m, _rep, last)
                        if m == 0:
                            if may == 1:
                                break  # the picks so far, then "do not"
                            return OTHER_ORDER
                    r = _choose(m + may, ch, chk, cs)
                    if r < 0:
                        return NEED
                    if r == m:
                        break
                    last = np.int64(buf[n + buf[r]])  # (its place: read by `_as_listed` only)
                    _apply_select(s, b, n, buf[r], steps, si)
        elif op == OP_SWAP:
            kk = _equipped(s, n, act, buf)
            if kk == 0 or b[HB + H_DECK] == 0:
                continue
            r = _choose(kk + steps[si, 10], ch, chk, cs)
            if r < 0:
                return NEED
            if r == kk:
                continue
            e = buf[r]
            top = b[0]
            b[0] = e
            _rezone(s, b, n, e, b[n + e], EQUIP0 + act, DECK)
            _rezone(s, b, n, top, b[n + top], DECK, EQUIP0 + act)
        elif op == OP_REORDER:
            m = min(steps[si, 3], np.int64(b[HB + H_DECK]))
            if m < 2:
                continue
            f = np.int64(1)
            for j in range(2, m + 1):
                f *= j
            r = _choose(f, ch, chk, cs)
            if r < 0:
                return NEED
            # r-th lexicographic permutation (as itertools.permutations lists them)
            for j in range(m):
                tmp[j] = b[j]
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
                b[pos] = tmp[j]
        elif op == OP_PROPHECY:
            if b[2 * n] >= 0 or steps[si, 12] < 0:
                continue
            b[2 * n] = steps[si, 12]
            v = b[n + card]
            if v & ZONE == PLAY:
                _rezone(s, b, n, card, v, PLAY, OUT)
        elif op >= OP_XSELECT:
            r = _call_ext_step(
                ext[0],
                s,
                b,
                np.int64(n),
                np.int64(card),
                steps,
                np.int64(si),
                np.int64(players),
                ch,
                chk,
                cs,
                buf,
                tmp,
                np.int64(did),
            )
            if r < 0:
                return r  # NEED or OTHER_ORDER
            did = r & 1
            nxt += r >> 1
        else:  # OP_EQUIPWIN
            t = np.int64(b[2 * n]) if steps[si, 12] == -2 else np.int64(steps[si, 12])
            if steps[si, 1] == Z_DRAWN:
                if t < 0 or t != drawn or _zone(b, n, t) != EQUIP0 + act or _side(b, n, t) == 0:
                    continue
            elif t < 0 or _zone(b, n, t) != DECK or _side(b, n, t) == 0:
                continue
            if steps[si, 10] == 1:
                r = _choose(np.int64(2), ch, chk, cs)
                if r < 0:
                    return NEED
                if r == 1:
                    continue
            if steps[si, 1] != Z_DRAWN:
                _remove(s, b, n, t, np.int64(DECK))
                _rezone(s, b, n, t, b[n + t], DECK, EQUIP0 + act)
            if _unmet(s, b, n, card, side, info, gift_ids, n_gifts):
                b[HB + H_OUTCOME] = R_LOSS
                b[HB + H_ENDING] = E_UNMET
            else:
                b[HB + H_OUTCOME] = R_WIN
            return 0
    # D.4 ignite
    # (and D.5 clean-up) a card still in PLAY (its action may have moved it): an ignited
    # card is discarded, a passive one turns to its ignited side and goes to the bottom of
    # the DECK. Not through _ignite: a card in PLAY is in neither the DECK nor the
    # DISCARD PILE, so there is no gap to close (_remove's work).
    v = b[n + card]
    if v & ZONE != PLAY and s[KW + W_MASKS + PLAY] != 0:
        # (rare: only an exchange puts another card in the PLAY AREA) that card instead
        card = _low_card(s[KW + W_MASKS + PLAY])
        v = b[n + card]
    if v & ZONE == PLAY:
        if v & SIDE:
            _pile_top(s, b, n, card, v, np.int64(PLAY))
        else:
            _deck_bottom(s, b, n, card, np.int8(v | SIDE), np.int64(PLAY))
    M = KW + W_MASKS
    if players == 2:
        kk = _equipped(s, n, act, buf)
        if kk > 0:
            r = _choose(kk + info[14], ch, chk, cs)
            if r < 0:
                return NEED
            if r < kk:
                c = buf[r]
                _rezone(s, b, n, c, b[n + c], EQUIP0 + act, EQUIP0 + 1 - act)
        b[2 * n + 1] ^= 1
    # the turn counter is the header word's high half: added to as an int32 of its own, since
    # a 64-bit read of the word right after the byte stores to its low half (H_DECK, ...)
    # waits for those stores to reach the cache (a store-forwarding stall, 4% of `dfs`)
    s.view(np.int32)[2 * KW + TURN_SHIFT // 32] += 1
    # D.1 of the next turn: a player with any EQUIPPED CARD can play one (an URGENT card
    # is itself playable), so the game is lost exactly when nothing is equipped
    if s[M + EQUIP0 + (b[2 * n + 1] & 1)] != 0:
        return 0
    b[HB + H_OUTCOME] = R_LOSS
    b[HB + H_ENDING] = E_NOCARD
    return 0


@njit(cache=True, inline="always")
def _mix(h):
    """Spread every bit of h over the high and the low bits (the table takes its slot from
    the low bits and its tag from the high ones)."""
    h ^= h >> np.uint64(32)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    return h ^ (h >> np.uint64(29))


@njit(cache=True, inline="always")
def _hash_words(s, W):
    """The 64-bit hash of the first W words of s (a state row's key).

    Each word is multiplied by its own odd constant and the products are summed, then
    mixed once: the multiplies do not wait for one another, where a chain of one mix per
    word made the hash as slow as its number of words times a multiply.
    """
    h = np.uint64(0)
    m = np.uint64(0x9E3779B97F4A7C15)
    for i in range(W):
        h += s[i] * m
        m += np.uint64(0x3C6EF372FE94F82A)  # even: m stays odd
    return _mix(h)


@njit(cache=True)
def state_hash(s, n):
    """64-bit hash of what rules.State.key() holds: of the key words of the row s."""
    return _hash_words(s, key_words(n))


@njit(cache=True, inline="always")
def _header(s, n, k):
    """Header byte k (layout.H_*) of the state row s."""
    return np.int64(s.view(np.int8)[8 * key_words(n) + k])


@njit(cache=True)
def setup(deck, n, players, s):
    """Rulebook B: the deck (top first), player 1 EQUIPS 3 cards, player 2 (if any) 2."""
    s[:] = 0
    b = s.view(np.int8)
    HB = 8 * key_words(n)
    for i in range(n):
        b[i] = PAD
    # every card starts in the DECK (zone byte 0): its mask holds them all
    s[key_words(n) + W_MASKS + DECK] = (np.uint64(1) << np.uint64(n)) - np.uint64(1)
    first = 3 if players == 1 else 5
    for i in range(first):
        _set_zone(s, b, n, deck[i], EQUIP0 if i < 3 else EQUIP1)
    L = 0
    for i in range(first, n):
        b[L] = deck[i]
        L += 1
    b[HB + H_DECK] = L
    b[2 * n] = -1


@njit(cache=True, inline="always")
def tt_entry_words(n):
    """Words of a table entry for n cards: the hash and mark word, then the key words."""
    return key_words(n) + 1


def bits_to_store(positions: int) -> int:
    """log2 of the fewest index slots (a power of two) whose table stores `positions`
    entries: `dfs` stores entries up to 3/4 of the slots, so 4/3 as many slots."""
    need = (4 * max(1, int(positions)) + 2) // 3
    return (need - 1).bit_length()


def entry_rows(slots: int) -> int:
    """Entry rows for an index of `slots` slots: a search stops storing at 3/4 full
    (`dfs`), and stores the root even in a table of one slot."""
    return max(1, (3 * slots) // 4)


#: Bits of an index slot that hold the entry number (below them: nothing; above them,
#: up to bit 31, TT_STAMP_BITS bits of the hash; bits 32-63 the generation). 2**27 entries
#: is more than the largest table a search may ask for fills (3/4 of 2**27, about 100 M
#: positions: the deals that need it are losses whose every reachable position must be
#: stored, or the search revisits them without end).
TT_ENTRY_BITS = 27
#: Hash bits an index slot keeps beside its entry number: a probe that meets another
#: position's slot reads that entry's key only when these bits match (1 in 32).
TT_STAMP_BITS = 32 - TT_ENTRY_BITS


@njit(cache=True, inline="always")
def _tt_stamp(gen, h):
    """An index slot without its entry number: the generation (high 32 bits) and
    TT_STAMP_BITS hash bits from bit 48 up (bits that `_tt_grow` can still read from an
    entry's word 0), between the entry number and the generation."""
    return (np.uint64(gen) << np.uint64(32)) | (
        ((h >> np.uint64(48)) & np.uint64((1 << TT_STAMP_BITS) - 1)) << np.uint64(TT_ENTRY_BITS)
    )


@intrinsic
def _prefetch(typingctx, arr, i):
    """Ask the CPU to start loading the cache line of arr[i] (a 1-d array) and go on
    without waiting for it: LLVM's `llvm.prefetch` intrinsic (a read, to every cache
    level), which Numba does not expose."""

    def codegen(context, builder, sig, args):
        aryty = sig.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer2(
            context,
            builder,
            data=ary.data,
            shape=cgutils.unpack_tuple(builder, ary.shape),
            strides=cgutils.unpack_tuple(builder, ary.strides),
            layout=aryty.layout,
            inds=[args[1]],
            wraparound=False,
            boundscheck=False,
        )
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.none(arr, types.intp), codegen


@njit(cache=True, inline="always")
def _tt_prefetch(index, h, cap):
    """Start loading the index slot where `_tt_find` will begin probing for hash h."""
    _prefetch(index, np.int64(h & np.uint64(cap - 1)))


@njit(cache=True, inline="always")
def _tt_find(index, entries, gen, h, s, KW, cap):
    """Find the position whose key is the first KW words of s (hash h) in the table:
    (slot, entry), entry -1 if it is not there; then the slot is the empty one where it
    would go.

    Layout: the table is an open-addressing `index` (uint64 [slots]: `_tt_stamp` | the
    entry's number) over `entries` (uint64 [rows, tt_entry_words(n)], filled in order:
    word 0 = hash << 2 | mark (ON_PATH / DONE), then the key words). An index slot is 8
    bytes, so probing stays in a small, mostly cached array (a 64-byte row per slot made
    probing slower, measured), and a new position's key is appended to the next entry
    row, written in order, rather than to a random row. A slot whose generation is not
    `gen` is empty (earlier searches' entries expire without clearing). A stamp match is
    confirmed by comparing every key word, so two different positions are never taken
    for one another: the table is exact. A search uses only the first `cap` slots (a
    power of two that `_tt_grow` enlarges as it fills), so a small search stays in cache.
    """
    g = np.uint64(gen)
    stamp = _tt_stamp(gen, h)
    emask = (np.uint64(1) << np.uint64(TT_ENTRY_BITS)) - np.uint64(1)
    idx = np.int64(h & np.uint64(cap - 1))
    while True:
        t = index[idx]
        if (t >> np.uint64(32)) != g:
            return idx, np.int64(-1)
        if (t & ~emask) == stamp:
            e = np.int64(t & emask)
            same = True
            for j in range(KW):
                if entries[e, 1 + j] != s[j]:
                    same = False
                    break
            if same:
                return idx, e
        idx = (idx + 1) & (cap - 1)


@njit(cache=True, inline="always")
def _tt_put(index, entries, idx, e, gen, h, s, KW, mark):
    """Store the first KW words of s (hash h) as entry e, in slot idx, with a mark."""
    index[idx] = _tt_stamp(gen, h) | np.uint64(e)
    entries[e, 0] = (h << np.uint64(2)) | np.uint64(mark)
    for j in range(KW):
        entries[e, 1 + j] = s[j]


@njit(cache=True, _nrt=False)
def _tt_grow(index, entries, gen, cap, filled):
    """Enlarge the slots in use (cap -> TT_GROW * cap, at most the whole index) and put
    this search's entries 0..filled-1 in their slots under the new mask. Returns the new
    cap.

    Only the index is rebuilt: the entries stay where they are (so the line's entry
    numbers, fidx in `dfs`, stay valid) and their word 0 holds the hash bits that the
    slot and the stamp need. Slots past cap hold only older generations, i.e. they are
    empty for this search. Nothing is allocated, so this compiles without NRT like the
    searches."""
    g = np.uint64(gen)
    for i in range(cap):
        index[i] = 0
    new_cap = min(TT_GROW * cap, index.shape[0])
    mask = new_cap - 1
    for e in range(filled):
        h = entries[e, 0] >> np.uint64(2)  # the hash's low 62 bits
        idx = np.int64(h & np.uint64(mask))
        while (index[idx] >> np.uint64(32)) == g:
            idx = (idx + 1) & mask
        index[idx] = _tt_stamp(gen, h) | np.uint64(e)
    return new_cap


@njit(cache=True, inline="always")
def _unstored_tag(h):
    """fidx of a position of the line the full table could not store: negative, from its
    key's hash, so that `_on_unstored_line` can find it."""
    return np.int64(-1) - np.int64(h >> np.uint64(2))


@njit(cache=True)
def _on_unstored_line(states, fidx, d, child, h, KW):
    """Whether `child` (its key hashing to h) is a position of the line states[0..d] that
    the table could not store. Without this, once the table is full a line could go round
    a cycle of such positions until the depth cut. The rows are compared word for word
    (the key's first KW words), so a copy of the same position under other copy names
    (copies.py) is not found: found, it is the same position (an ancestor: the move is a
    cycle); not found, the child is searched, as it would be without the check."""
    tag = _unstored_tag(h)
    for t in range(d, 0, -1):
        if fidx[t] == tag:
            same = True
            for j in range(KW):
                if states[t, j] != child[j]:
                    same = False
                    break
            if same:
                return True
    return False


@njit(cache=True, inline="always")
def _tt_mark(entries, e):
    return entries[e, 0] & np.uint64(3)


@njit(cache=True, inline="always")
def _tt_done(entries, e):
    entries[e, 0] = (entries[e, 0] & ~np.uint64(3)) | np.uint64(DONE)


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
    ext,
    cs,
    buf,
    tmp,
):
    """Build the next child of frame d in states[d + 1] (the next complete move: the
    odometer over choice sequences, see the module docstring). Returns NO_MORE when frame
    d has no move left, NEED when a turn needs more than MAXC choices, TOO_MANY when it has
    a move past the first MAX_MOVES, else 0. fstarted[d] counts the moves built so far.

    OTHER_ORDER when the move is another move's picks in another order (`_turn`): the
    callers go on to the next move.

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
        if fstarted[d] >= MAX_MOVES:
            return TOO_MANY
        fstarted[d] += 1
        fch[d, p - 1] += 1
        fplen[d] = p
    # an element loop, because `states[d + 1][:] = states[d]` makes Numba copy through a
    # temporary (the two may overlap)
    for j in range(states.shape[1]):
        states[d + 1, j] = states[d, j]
    cs[0] = 0
    cs[1] = fplen[d]
    status = run_turn(
        states[d],
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
        ext,
        fch[d],
        fk[d],
        cs,
        buf,
        tmp,
    )
    # choices met for the first time were appended to fch[d] (option 0)
    fplen[d] = cs[1]
    return status


# The keep-most branch and bound (best_mode 2, `prune.lower_bound` and
# `prune.bound_reaches`) is compiled only for the searches that use it: `dfs` calls it
# through the two stubs below, whose compiled form is chosen by the type of `objective`
# (read-only for the bounded keep-most search, solver._dfs_call), so the plain solve and
# the sweep, which never bound, never compile it.
def _bound_at_root(root, n, info, objective):
    """`prune.lower_bound` of the root for a read-only `objective`; 0 for a writable one
    (no bound: the search then stops early only at a win of objective 0, as best_mode 1
    does). Only compiled code calls it (see `_ol_bound_at_root`)."""
    raise NotImplementedError("compiled code only")


def _bound_cuts(child, n, info, objective, best):
    """`prune.bound_reaches` for a read-only `objective`; False (nothing is cut) for a
    writable one. Only compiled code calls it (see `_ol_bound_cuts`)."""
    raise NotImplementedError("compiled code only")


def _bounded(objective) -> bool:
    # the array type solver._dfs_call gives the bounded keep-most search's objective
    return not objective.mutable


@overload(_bound_at_root, jit_options={"_nrt": False})
def _ol_bound_at_root(root, n, info, objective):
    if _bounded(objective):

        def impl(root, n, info, objective):
            return lower_bound(root, n, info, objective)

    else:

        def impl(root, n, info, objective):
            return np.int64(0)

    return impl


@overload(_bound_cuts, jit_options={"_nrt": False})
def _ol_bound_cuts(child, n, info, objective, best):
    if _bounded(objective):

        def impl(child, n, info, objective, best):
            return bound_reaches(child, n, info, objective, best)

    else:

        def impl(child, n, info, objective, best):
            return False

    return impl


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
    ext,
    index,
    entries,
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
    that win is proven best, without E_NOT_BEST). Only the best_mode 2 lines differ. The
    bound is compiled only for a read-only `objective` (`_bound_at_root`): with a writable
    one, best_mode 2 searches as best_mode 1 does (the same best win, more positions).

    Pausing (for time limits): when `nodes` reaches `pause_at` the search saves its
    counters in `ctl` and returns CODE_PAUSED; calling again with ctl[0] == 1 and the same
    arrays resumes exactly where it stopped.

    order=1 enumerates every choice last-option-first (the solution is still written in
    option indices); `portfolio` runs both orders side by side.

    Jitted callers pass best_mode and order as np.int64 values, never as the literals 0
    or 1: Numba compiles one copy of a function per literal argument value, and this is the
    largest function here (four copies of it were most of the first-run compile time).

    The table hashes and stores the first `key_words(n)` words of each state row (the key
    is the row's prefix, layout.py; the tracked play marks live in the card bytes):
    `index` and `entries` as `_tt_find` describes them, entries with at least 3/4 as
    many rows as index has slots. fidx[t] is the entry of states[t], or, for a position
    the full table could not store, a negative tag of its hash (`_unstored_tag`), which the
    line below it checks (`_on_unstored_line`) so that it never goes round a cycle of such
    positions.
    With best_mode 0 the table stores the copy-symmetric key instead (copies.py: the key of
    a renaming of the copies, written to buf's first words) when `info` switches it on;
    the rows themselves are never renamed, so the winning line is the deal's own.

    A child as deep as the stack holds (max_depth turns) is cut, as the reference cuts
    it (search.reference_search): not entered, E_CUT recorded, the search goes on; the
    end without a win is then undecided, never a loss (positions finished after a cut
    stay DONE for this search only: the table's generation ends with it). A position
    with more than MAX_MOVES moves, or a move of more than MAXC choices, is cut the same
    way at that move (E_MOVES): its moves before it were searched, the rest are not. With
    a DECK floor (ctl[CTL_FLOOR]) a move into a position whose DECK holds fewer cards is
    cut as a line at the depth is (E_CUT), before its table lookup and dead checks.
    """
    KW = key_words(n)
    L = states.shape[1]
    max_depth = states.shape[0] - 1
    cs[3] = order
    full = index.shape[0]
    # copy-symmetric table keys (copies.py), written into buf's first words between turns
    # (a turn uses buf only as scratch it writes before it reads); not in the keep-most
    # modes, whose objective is given per card id
    copy_keys = best_mode == 0 and info[info.shape[0] - 1] != 0
    kbuf = buf.view(np.uint64)
    if _header(root, n, H_OUTCOME) == R_WIN:
        return CODE_WIN, 0, 0, 0
    if _header(root, n, H_OUTCOME) == R_LOSS:
        return CODE_LOSS, 0, _header(root, n, H_ENDING), 0
    if ctl[0] == 1:  # resume a paused search
        d, nodes, reasons, filled, best, best_turns = ctl[1], ctl[2], ctl[3], ctl[4], ctl[5], ctl[6]
        cap = ctl[7]
    else:
        filled = 0
        cap = min(full, TT_START)
        rkey = root
        if copy_keys and kernel_search_key(root, n, info, kbuf, tmp):
            rkey = kbuf
        h = _hash_words(rkey, KW)
        idx, _ = _tt_find(index, entries, gen, h, rkey, KW, cap)
        _tt_put(index, entries, idx, 0, gen, h, rkey, KW, ON_PATH)
        filled += 1
        for j in range(L):
            states[0, j] = root[j]
        fstarted[0] = 0
        fidx[0] = 0
        nodes = 1
        reasons = 0
        best = -1
        best_turns = 0
        d = 0
    ctl[0] = 0
    # positions of the line not stored (the table was full when they were entered)
    unstored = 0
    for t in range(d + 1):
        if fidx[t] < 0:
            unstored += 1
    # moves built in this call (every one, the move cut by the floor or found in the
    # table included), and after how many to pause (never, without a time limit)
    built = 0
    pause_built = np.int64(1) << np.int64(62)
    if ctl.shape[0] > CTL_PAUSE_BUILT and ctl[CTL_PAUSE_BUILT] > 0:
        pause_built = ctl[CTL_PAUSE_BUILT]
    floor = ctl[CTL_FLOOR] if ctl.shape[0] > CTL_FLOOR else 0
    # the objective no win can go below (0 without the bound: the old early stop)
    root_lb = _bound_at_root(root, n, info, objective) if best_mode == 2 else 0
    limit_fill = (cap * 3) // 4
    child = states[1]
    # every entered position below the root passed the dead check; the root did not
    root_alive = not dead(root, n, info)
    while d >= 0:
        if nodes >= pause_at or built >= pause_built:
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
            ext,
            cs,
            buf,
            tmp,
        )
        built += 1
        if status == NO_MORE:
            if fidx[d] >= 0:
                _tt_done(entries, fidx[d])
            else:
                unstored -= 1
            d -= 1
            continue
        child = states[d + 1]  # the child is built in place in the next frame's slot
        if status < 0:
            if status == OTHER_ORDER:
                continue  # not a move of its own: the next one
            # NEED or TOO_MANY: the position's other moves are cut, as a line at the
            # stack's depth is (E_MOVES recorded, the position finished, the search goes
            # on); a position met again is cut again at the same move
            reasons |= E_MOVES
            if fidx[d] >= 0:
                _tt_done(entries, fidx[d])
            else:
                unstored -= 1
            d -= 1
            continue
        res = _header(child, n, H_OUTCOME)
        if res == R_WIN:
            score = 0
            if best_mode >= 1:
                pile = child[KW + W_MASKS + DISCARD]  # the cards in the DISCARD PILE
                while pile != 0:
                    score += objective[_low_card(pile)]
                    pile &= pile - np.uint64(1)
                if best >= 0 and score >= best:
                    continue
            for t in range(d + 1):
                sol_len[t] = fplen[t]
                for j in range(fplen[t]):
                    sol[t, j] = fch[t, j] if order & 1 == 0 else fk[t, j] - 1 - fch[t, j]
                if order >= 2 and fplen[t] > 0:
                    # the card choice was tried in the table's order: written as its option
                    r = _card_choice(states[t], n, keyword, info, order, fch[t, 0], buf, tmp)
                    if r >= 0:
                        sol[t, 0] = r
            if best_mode == 0 or score <= root_lb:
                return CODE_WIN, nodes, reasons, d + 1
            best = score
            best_turns = d + 1
            continue
        if res == R_LOSS:
            reasons |= _header(child, n, H_ENDING)
            continue
        if _header(child, n, H_DECK) < floor:
            reasons |= E_CUT
            continue
        # the child's first index slot is known as soon as its key is: its line is
        # fetched while the dead checks run (the probe's load was the kernel's costliest
        # instruction, 4.7% of the search's time in a perf profile, and 2% with this)
        key = child
        if copy_keys and kernel_search_key(child, n, info, kbuf, tmp):
            key = kbuf
        h = _hash_words(key, KW)
        _tt_prefetch(index, h, cap)
        alive = (d > 0 or root_alive) and still_alive(states[d], child, n, info)
        if not alive and dead(child, n, info):
            reasons |= E_DEAD
            continue
        idx, e = _tt_find(index, entries, gen, h, key, KW, cap)
        if e >= 0:
            if _tt_mark(entries, e) == ON_PATH:
                reasons |= E_CYCLE
            continue
        if unstored > 0 and _on_unstored_line(states, fidx, d, child, h, KW):
            reasons |= E_CYCLE
            continue
        if best_mode == 2 and best >= 0 and _bound_cuts(child, n, info, objective, best):
            # Every win below it has objective >= best: not entered. It is stored as DONE
            # (a later meeting skips it without the bound), which is safe because `best`
            # only decreases: cut under best, its bound is >= every later best too. The
            # same holds for a DONE position explored under an older best: what was cut
            # or skipped in its subtree then would be cut or skipped now.
            if filled < limit_fill:
                _tt_put(index, entries, idx, filled, gen, h, key, KW, DONE)
                filled += 1
            continue
        if nodes >= node_limit or d + 1 >= max_depth:
            if nodes < node_limit:
                # the depth: this line is cut (not entered nor stored), the search goes on;
                # the verdict at the end accounts for it. One test on the hot path, as
                # before the cut existed (two cost 1.7% more instructions, measured).
                reasons |= E_CUT
                continue
            if best >= 0:
                return CODE_WIN, nodes, reasons | E_NOT_BEST, best_turns
            return CODE_UNDECIDED, nodes, reasons, 0
        nodes += 1
        # grown at half full, though it could hold 3/4: shorter probes, measured faster
        # (the whole table still takes entries up to 3/4 full)
        if filled >= cap // 2 and cap < full:
            cap = _tt_grow(index, entries, gen, cap, filled)
            limit_fill = (cap * 3) // 4
            idx, _ = _tt_find(index, entries, gen, h, key, KW, cap)
        if filled < limit_fill:
            _tt_put(index, entries, idx, filled, gen, h, key, KW, ON_PATH)
            fidx[d + 1] = filled
            filled += 1
        else:
            # not stored: the line below still meets it as an ancestor by its tag
            fidx[d + 1] = _unstored_tag(h)
            unstored += 1
        d += 1
        fstarted[d] = 0
    if best >= 0:
        if reasons & (E_CUT | E_MOVES):
            return CODE_WIN, nodes, reasons | E_NOT_BEST, best_turns
        return CODE_WIN, nodes, reasons, best_turns
    if reasons & (E_CUT | E_MOVES):
        return CODE_UNDECIDED, nodes, reasons, 0
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
    ext,
    index,
    entries,
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
    ctl,
    pause_at,
):
    """A win with the fewest turns, by iterative deepening (search.reference_shortest is
    the breadth-first reference). Returns (code, nodes, reasons, turns, last generation);
    the line is left in sol[0:turns, :] like `dfs`.

    Pausing, as `dfs` pauses: when `nodes` reaches `pause_at`, or this call built
    ctl[CTL_PAUSE_BUILT] moves (when > 0: a depth limit's last level builds every move of
    its positions and enters none), the search saves its place in
    `ctl` (flag, depth limit, depth, nodes, reasons, generation, entries filled, whether
    the root is alive) and returns CODE_PAUSED; called again with ctl[0] == 1 and the same
    arrays, it goes on exactly where it stopped.

    Depth limit D = 1, 2, ..., max_turns (the caller knows a win of max_turns turns, e.g.
    from `dfs`, so the deepening ends), or from ctl[CTL_FIRST_DEPTH] on; having searched
    them all without a win it sets ctl[0] = CTL_SEARCHED_ALL. Within one limit, each
    position is entered again only when reached at a smaller depth than before
    (tdepth[entry], a fresh table generation per limit). This is complete: along a shortest winning line p0..pL, every
    p_i is entered at depth <= i (by induction: p_i's visit at depth <= i tries p_(i+1),
    which is then entered at depth <= i + 1 or already was, an ancestor on the line
    included), so the limit D = L finds a win and no limit below L does: the first win
    found has exactly L turns. A full table only stops recording (more work, never a
    wrong prune). `nodes` counts positions entered over all limits. A position of a limit's
    last level (its children are the next limit's) builds its moves only if one could win
    now (`prune.may_win_now`: only an `equip_win` step wins, rulebook E.3, after its card
    drew its NUMBER, D.2), since that is all they could show at this limit. A position past the
    move cap is cut as `dfs` cuts it (E_MOVES in reasons): a win found then has at most
    the limit's turns but is not proven the fewest, and "searched all" means every line
    was searched or cut.
    """
    KW = key_words(n)
    L = states.shape[1]
    cap = index.shape[0]
    limit_fill = (cap * 3) // 4
    cs[3] = 0
    resume = ctl[0] == 1
    if resume:
        D, d, nodes, reasons, gen, filled = ctl[1], ctl[2], ctl[3], ctl[4], ctl[5], ctl[6]
        root_alive = ctl[7] != 0
    else:
        nodes = np.int64(0)
        reasons = np.int64(0)
        gen = np.int64(gen0)
        if _header(root, n, H_OUTCOME) == R_WIN:
            return CODE_WIN, 0, 0, 0, gen
        if _header(root, n, H_OUTCOME) == R_LOSS:
            return CODE_LOSS, 0, _header(root, n, H_ENDING), 0, gen
        root_alive = not dead(root, n, info)
        D = np.int64(1)
        if ctl.shape[0] > CTL_FIRST_DEPTH and ctl[CTL_FIRST_DEPTH] > 0:
            D = ctl[CTL_FIRST_DEPTH]
        d = np.int64(0)
        filled = np.int64(0)
    ctl[0] = 0
    # moves built in this call (every one, those of the positions still on the stack
    # included), and after how many to pause
    built = 0
    pause_built = np.int64(1) << np.int64(62)
    if ctl.shape[0] > CTL_PAUSE_BUILT and ctl[CTL_PAUSE_BUILT] > 0:
        pause_built = ctl[CTL_PAUSE_BUILT]
    # moves built in earlier calls of this search, and after how many to give up
    built_before = np.int64(0)
    built_limit = np.int64(1) << np.int64(62)
    if ctl.shape[0] > CTL_BUILT_TOTAL:
        if resume:
            built_before = ctl[CTL_BUILT_TOTAL]
        if ctl[CTL_BUILT_LIMIT] > 0:
            built_limit = ctl[CTL_BUILT_LIMIT]
    while D <= max_turns:
        if not resume:
            gen += 1
            if gen >= 4294967295:
                index[:] = 0
                gen = 1
            filled = 0
            h = _hash_words(root, KW)
            idx, _ = _tt_find(index, entries, gen, h, root, KW, cap)
            _tt_put(index, entries, idx, 0, gen, h, root, KW, ON_PATH)
            tdepth[0] = 0
            filled += 1
            for j in range(L):
                states[0, j] = root[j]
            fstarted[0] = 0
            nodes += 1
            d = 0
            if D == 1 and not may_win_now(root, n, info):
                d = -1  # the last level: its moves could only show a win, and none can win
        resume = False
        while d >= 0:
            if built_before + built >= built_limit:
                return CODE_UNDECIDED, nodes, reasons, 0, gen
            if nodes >= pause_at or built >= pause_built:
                ctl[0], ctl[1], ctl[2], ctl[3], ctl[4], ctl[5], ctl[6], ctl[7] = (
                    1,
                    D,
                    d,
                    nodes,
                    reasons,
                    gen,
                    filled,
                    1 if root_alive else 0,
                )
                if ctl.shape[0] > CTL_BUILT_TOTAL:
                    ctl[CTL_BUILT_TOTAL] = built_before + built
                return CODE_PAUSED, nodes, reasons, 0, gen
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
                ext,
                cs,
                buf,
                tmp,
            )
            built += 1
            if status == NO_MORE:
                d -= 1
                continue
            child = states[d + 1]
            if status < 0:
                if status == OTHER_ORDER:
                    continue  # not a move of its own: the next one
                # too many choices or moves: the position's other moves are cut (as `dfs`)
                reasons |= E_MOVES
                d -= 1
                continue
            res = _header(child, n, H_OUTCOME)
            if res == R_WIN:
                for t in range(d + 1):
                    sol_len[t] = fplen[t]
                    for j in range(fplen[t]):
                        sol[t, j] = fch[t, j]
                return CODE_WIN, nodes, reasons, d + 1, gen
            if res == R_LOSS:
                reasons |= _header(child, n, H_ENDING)
                continue
            # no win below a dead child, so no shortest line through it (see dfs)
            alive = (d > 0 or root_alive) and still_alive(states[d], child, n, info)
            if not alive and dead(child, n, info):
                reasons |= E_DEAD
                continue
            if d + 1 >= D:
                continue  # the depth limit: its children are tried by the next limit
            h = _hash_words(child, KW)
            idx, e = _tt_find(index, entries, gen, h, child, KW, cap)
            if e >= 0 and tdepth[e] <= d + 1:
                continue
            if nodes >= node_limit:
                return CODE_UNDECIDED, nodes, reasons, 0, gen
            nodes += 1
            if e >= 0:
                tdepth[e] = d + 1
            elif filled < limit_fill:
                _tt_put(index, entries, idx, filled, gen, h, child, KW, ON_PATH)
                tdepth[filled] = d + 1
                filled += 1
            d += 1
            fstarted[d] = 0
            if d + 1 >= D and not may_win_now(child, n, info):
                d -= 1  # the last level, and no move of it can win: none is built
        D += 1
    ctl[0] = CTL_SEARCHED_ALL
    return CODE_UNDECIDED, nodes, reasons, 0, gen


@entry_point(cache=True)
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
    ext,
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
    """Run the DFS in two move orders (2 and 3: ordering.py's card order, ties and the other
    choices first-first and last-first) side by side, with doubling node budgets,
    until one of them finishes: both are exhaustive, so the first verdict is exact.

    A and B are tuples (index, entries, states, fch, fk, fplen, fstarted, fidx, sol,
    sol_len, ctl) of separate tables and stacks (the table as in `dfs`). Each order may use up to node_limit // 2
    positions. Returns (code, nodes of both, reasons, turns, which order answered).
    """
    half = max(1, node_limit // 2)
    A[10][0] = 0
    B[10][0] = 0
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
                ext,
                A[0],
                A[1],
                gen,
                half,
                A[2],
                A[3],
                A[4],
                A[5],
                A[6],
                A[7],
                A[8],
                A[9],
                buf,
                tmp,
                cs,
                objective,
                np.int64(0),
                A[10],
                budget,
                np.int64(2),
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
                ext,
                B[0],
                B[1],
                gen,
                half,
                B[2],
                B[3],
                B[4],
                B[5],
                B[6],
                B[7],
                B[8],
                B[9],
                buf,
                tmp,
                cs,
                objective,
                np.int64(0),
                B[10],
                budget,
                np.int64(3),
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
        np.zeros((max_depth + 1, L), np.uint64),
        np.zeros((max_depth + 1, MAXC), np.int32),
        np.zeros((max_depth + 1, MAXC), np.int32),
        np.zeros(max_depth + 1, np.int32),
        np.zeros(max_depth + 1, np.int32),
        np.zeros(max_depth + 1, np.int64),
        np.zeros((max_depth + 1, MAXC), np.int32),
        np.zeros(max_depth + 1, np.int32),
        np.zeros(CTL_PAUSE_BUILT + 1, np.int64),
    )


@entry_point(cache=True)
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
    ext,
    index,
    entries,
    gen0,
    node_limit,
    max_depth,
    out_code,
    out_nodes,
    out_len,
    out_reason,
    index_b,
    entries_b,
    use_portfolio,
    first_budget,
    fa,
    fb,
):
    """Solve each row of `decks` (card ids, top first); results into the out arrays.
    use_portfolio=1 runs `portfolio` (second table in index_b, entries_b).

    fa and fb are the two orders' stacks, as `_frames(max_depth, state_len(n))` makes them.
    The caller keeps them for the life of the process: zeroing a megabyte of fresh stack
    on every call cost more than deciding a base deal (about 1 ms against 0.8 ms), and a
    sweep calls this once per deal to time each one. Nothing is read from them before
    the search writes it.
    Returns the last table generation used."""
    L = state_words(n)
    states, fch, fk, fplen, fstarted, fidx, sol, sol_len, ctl = fa
    buf = np.zeros(2 * n + 8, np.int64)
    tmp = np.zeros(2 * n + 8, np.int64)
    cs = np.zeros(4, np.int64)
    root = np.zeros(L, np.uint64)
    objective = np.zeros(n, np.int64)
    A = (index, entries, states, fch, fk, fplen, fstarted, fidx, sol, sol_len, ctl)
    B = (index_b, entries_b, fb[0], fb[1], fb[2], fb[3], fb[4], fb[5], fb[6], fb[7], fb[8])
    gen = gen0
    for r in range(decks.shape[0]):
        gen += 1
        if gen >= 4294967295:
            index[:] = 0
            index_b[:] = 0
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
                ext,
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
            ext,
            index,
            entries,
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

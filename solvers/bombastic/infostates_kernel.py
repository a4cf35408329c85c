"""Count information states with Numba: the same count as `infostates.py`, far faster.

What `bombsolve bombastic infostates --depth D` prints: the distinct information states
each player can reach in D turns. The definition is the one in
`solvers/bombastic/infostates.py` (read its docstring): a player's information state is
their whole history as they saw it (perfect recall), what they cannot see is merged, and
the number of histories below a node depends only on the node's *knowledge state*, so
the walk is memoised on it. This module walks the same tree on flat arrays:

* the grids still possible are a 630-bit mask (10 uint64 words, as in `beliefs.py`);
  a peek or a show splits it by `HAS_BITS` (10 ANDs), a swap or an order of three tiles
  moves it through the arrangement maps of `tiles.py` (one lookup per set bit), and a
  choice the player cannot see (chance's shuffle, the opponent's secret arrangement or
  secret swap) is the union of the moved masks;
* the public state is a row of small ints (`F_*` below), the rulebook's turn split into
  the phases of `rules.Phase`, each card's effects "from top to bottom" as in
  `rules.State._card_step`;
* the memo is an open-addressing hash table on NumPy arrays, its key the knowledge state
  reduced by the 16 symmetries (8 of the square, which map the 8 lines and 16 L-shapes
  onto themselves, times the swap of the two face-up slots): the smallest image wins;
* counts are 128-bit (two uint64 words), since deeper counts pass 2**63.

The key keeps only what the count below a node depends on, so it can be coarser than
the reference's (more states share one entry, the counts are the same):

* the tiles picked on the current card as a set (every card uses them as one: "peek at
  another 1" means one not picked, the orders of three tiles are all enumerated, the
  opponent may show any 1 or 2 of three);
* the deck as the set of cards never seen and the known order of the cards cycled under
  it; in the last turn only how many cards the reveal at its end may show (plus the
  face-up pair, before a card is chosen);
* no turn number: the turn cap (`Options.turn_cap`) only shortens the depth, so the root
  counts min(depth, cap) turns.

`Options.deck_known` does not change the count (a reveal is seen either way), nor does
who plays which symbol beyond the seat rule of `rules.py`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import llvmlite.ir as llir
import numpy as np
from numba import types
from numba.extending import intrinsic

from bombsolve.solvers.bombastic.beliefs import HAS_BITS, N_WORDS, TRIPLE_MAP, TRIPLES
from bombsolve.solvers.bombastic.infostates import SYM_ARR, SYMMETRIES
from bombsolve.solvers.bombastic.rules import ALARM_CARDS, Options, Phase, State
from bombsolve.solvers.bombastic.tiles import L_SHAPES, LINES, N_ARR, PAIR_INDEX, PAIRS, SWAP_MAP
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.numba_jit import njit

#: Digest of the project files this module imports (bombsolve.solvers.common.numba_deps): a change to
#: them changes this file too, so Numba rebuilds its on-disk cache of this module.
NUMBA_DEPENDS_ON = "e11d262496ce1331"


@intrinsic
def _popcount(typingctx, x):
    """The number of set bits of a uint64 (LLVM ctpop: one instruction)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _lowest_bit(typingctx, x):
    """The index of the lowest set bit of a nonzero uint64 (LLVM cttz)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], llir.Constant(llir.IntType(1), 0))

    return sig, codegen


# ----- Tables ---------------------------------------------------------------------------

# Phases and cards as plain ints (rules.Phase, rules.Card).
PH_TURN, PH_PEEK, PH_PEEK_OR_STOP, PH_SHOW_PEEKED, PH_MAY_SWAP = 0, 1, 2, 3, 4
PH_OUT_PEEKED, PH_OUT_OTHER, PH_SWAP_A, PH_SWAP_B, PH_SWAP2_A, PH_SWAP2_B = 5, 6, 7, 8, 9, 10
PH_PEEK_LINE, PH_SHUFFLE, PH_SHOW, PH_ARRANGE, PH_GO, PH_L_SHAPE = 11, 12, 13, 14, 15, 16
PH_OPP_SHOW, PH_SECRET_SWAP = 17, 18
assert [int(p) for p in Phase][:19] == list(range(19))

# The phase each card starts in (rules.State._start_turn).
FIRST_PHASE = np.array(
    [PH_PEEK, PH_PEEK, PH_PEEK, PH_PEEK, PH_PEEK, PH_PEEK_LINE, PH_SHOW, PH_PEEK, PH_L_SHAPE]
    + [PH_PEEK, PH_SHOW],
    dtype=np.int64,
)

# Fields of a node's public state (one int64 row per search level).
F_PH, F_TP, F_CARD, F_SLOT, F_PICK, F_SWA, F_SWF = 0, 1, 2, 3, 4, 5, 6
F_FU0, F_FU1, F_UNSEEN, F_TAIL, F_TLEN, F_LEFT = 7, 8, 9, 10, 11, 12
N_FIELDS = 13

# What a child is: a node of the same turn, a finished game, the end of a turn by Go for
# It (no card to replace), or the end of a card (a card is revealed, then the turn ends).
K_NODE, K_OVER, K_END_TURN, K_FINISH = 0, 1, 2, 3

MAX_LEVEL = 80  # decisions on one path (a turn takes at most 12)
MAX_CHILD = 512  # children of one node (the L shape: 16 shapes x at most 20 value triples)
KEY_WORDS = N_WORDS + 2

LINES_A = np.array(LINES, dtype=np.int64)
L_A = np.array(L_SHAPES, dtype=np.int64)
PAIR_INDEX_A = PAIR_INDEX.astype(np.int64)
PAIRS_A = np.array(PAIRS, dtype=np.int64)
# TRIPLE_OF[bits]: the index in beliefs.TRIPLES of a 3-tile set given as 9 bits.
TRIPLE_OF = np.full(512, -1, dtype=np.int64)
for _k, _tr in enumerate(TRIPLES):
    TRIPLE_OF[sum(1 << t for t in _tr)] = _k
SYM_TILE = np.array(SYMMETRIES, dtype=np.int64)  # tile t goes to SYM_TILE[g, t]
SYM_INV = np.argsort(SYM_TILE, axis=1).astype(np.int64)  # position s holds SYM_INV[g, s]
# The arrangement maps, passed to the kernels as one tuple (large globals would stop
# Numba from caching the compiled code): swaps, orders of three tiles, symmetries.
MAPS = (SWAP_MAP.astype(np.int64), TRIPLE_MAP.astype(np.int64), SYM_ARR.astype(np.int64))
HAS = HAS_BITS


# ----- Mask operations ------------------------------------------------------------------


@njit(cache=True, inline="always")
def _empty(m) -> bool:
    for w in range(N_WORDS):
        if m[w] != 0:
            return False
    return True


@njit(cache=True)
def _map_or(m, mp, out) -> None:
    """out |= the image of mask m under the arrangement map mp (one row of a map table)."""
    for w in range(N_WORDS):
        x = m[w]
        while x:
            b = np.int64(_lowest_bit(x))
            j = mp[(w << 6) + b]
            out[j >> 6] |= np.uint64(1) << np.uint64(j & 63)
            x &= x - np.uint64(1)


@njit(cache=True, inline="always")
def _clear(out) -> None:
    for w in range(N_WORDS):
        out[w] = 0


# ----- The search -----------------------------------------------------------------------


@njit(cache=True)
def _n_reveal(unseen: int) -> int:
    """How many cards the next reveal may show: any never-seen card, else the known top."""
    n = np.int64(_popcount(np.uint64(unseen)))
    return n if n > 0 else 1


@njit(cache=True)
def _key(m, s, key, cnt, maps) -> None:
    """Write the knowledge state's key: its smallest image under the 16 symmetries.

    The 8 grid symmetries are ranked first by a cheap signature (how many possible grids
    have an X, and the bomb, at each position of the image), then by the image mask and
    the tiles of the card in play; only images that tie on the signature are built.
    """
    for t in range(9):
        c0 = np.uint64(0)
        c2 = np.uint64(0)
        for w in range(N_WORDS):
            c0 += _popcount(m[w] & HAS[t, 0, w])
            c2 += _popcount(m[w] & HAS[t, 2, w])
        cnt[t] = np.int64(c0 * np.uint64(1024) + c2)
    # Signature ranking.
    best = np.zeros(8, dtype=np.int64)
    nbest = 0
    for g in range(8):
        if nbest == 0:
            best[0] = g
            nbest = 1
            continue
        b = best[0]
        cmp = 0
        for pos in range(9):
            a1 = cnt[SYM_INV[g, pos]]
            a2 = cnt[SYM_INV[b, pos]]
            if a1 != a2:
                cmp = -1 if a1 < a2 else 1
                break
        if cmp < 0:
            best[0] = g
            nbest = 1
        elif cmp == 0:
            best[nbest] = g
            nbest += 1
    pick = s[F_PICK]
    swa = s[F_SWA]
    swf = s[F_SWF]
    left = s[F_LEFT]
    ph = s[F_PH]
    img = np.empty(N_WORDS, dtype=np.uint64)
    have = False
    for i in range(nbest):
        g = best[i]
        if g == 0:
            for w in range(N_WORDS):
                img[w] = m[w]
        else:
            _clear(img)
            _map_or(m, maps[2][g], img)
        gp = 0
        for t in range(9):
            if (pick >> t) & 1:
                gp |= 1 << SYM_TILE[g, t]
        ga = SYM_TILE[g, swa] if swa >= 0 else -1
        gf = -1
        if swf >= 0:
            gf = PAIR_INDEX_A[SYM_TILE[g, PAIRS_A[swf, 0]], SYM_TILE[g, PAIRS_A[swf, 1]]]
        tword = (gp << 10) | ((ga + 1) << 6) | (gf + 1)
        better = not have
        if have:
            decided = False
            for w in range(N_WORDS):
                if img[w] != key[w]:
                    better = img[w] < key[w]
                    decided = True
                    break
            if not decided:
                better = np.uint64(tword) < key[N_WORDS]
        if better:
            for w in range(N_WORDS):
                key[w] = img[w]
            key[N_WORDS] = np.uint64(tword)
            have = True
    # The public word: phase, seat, card, turns left, the deck, the face-up pair and slot.
    f0, f1, slot = s[F_FU0] + 1, s[F_FU1] + 1, s[F_SLOT] + 1
    if f1 * 16 + f0 < f0 * 16 + f1:  # the swap of the two slots
        f0, f1 = f1, f0
        if slot > 0:
            slot = 3 - slot
    if left == 1:
        # The turn ends in a leaf: only how many cards may be revealed matters (and,
        # before a card is chosen, which two are face up).
        unseen = _n_reveal(s[F_UNSEEN])
        tail = 0
        if ph != PH_TURN:
            f0, f1, slot = 0, 0, 0
    else:
        unseen = s[F_UNSEEN]
        tail = s[F_TAIL]
    pword = (
        (ph << 40)
        | (s[F_TP] << 39)
        | ((s[F_CARD] + 1) << 35)
        | (left << 30)
        | (unseen << 18)
        | (f0 << 10)
        | (f1 << 4)
        | slot
    )
    key[N_WORDS] |= np.uint64(pword) << np.uint64(19)  # the tile word took 19 bits
    key[N_WORDS + 1] = np.uint64(tail) | (np.uint64(s[F_TLEN]) << np.uint64(56))


@njit(cache=True)
def _hash(key) -> np.uint64:
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(KEY_WORDS):
        h ^= key[w]
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    h *= np.uint64(0x94D049BB133111EB)
    h ^= h >> np.uint64(29)
    return h


@njit(cache=True)
def _find(key, keys, used) -> tuple[int, bool]:
    """Return (slot, found): the slot holding key, or the empty slot where it goes."""
    cap = used.shape[0]
    i = np.int64(_hash(key) & np.uint64(cap - 1))
    while used[i]:
        same = True
        for w in range(KEY_WORDS):
            if keys[i, w] != key[w]:
                same = False
                break
        if same:
            return i, True
        i = (i + 1) & (cap - 1)
    return i, False


@njit(cache=True)
def _split(m, tiles, n, out_m, out_v) -> int:
    """Split mask m by the values of n tiles; write each nonempty class and its values."""
    k = 0
    for code in range(3**n):
        c = code
        ok = True
        for w in range(N_WORDS):
            out_m[k, w] = m[w]
        for i in range(n):
            v = c % 3
            c //= 3
            out_v[k, i] = v
            for w in range(N_WORDS):
                out_m[k, w] &= HAS[tiles[i], v, w]
        ok = not _empty(out_m[k])
        if ok:
            k += 1
    return k


@njit(cache=True)
def _write_child(cm, cs, ck, lvl, n, mask, kind, phase, pk, sa, sf, card, slot) -> int:
    """Write child n of level lvl; return n + 1."""
    for w in range(N_WORDS):
        cm[lvl, n, w] = mask[w]
    ck[lvl, n] = kind
    cs[lvl, n, 0] = phase
    cs[lvl, n, 1] = pk
    cs[lvl, n, 2] = sa
    cs[lvl, n, 3] = sf
    cs[lvl, n, 4] = card
    cs[lvl, n, 5] = slot
    return n + 1


# `_children` calls `_add` with named constants (K_*, PH_*, 0, -1), which Numba types as
# literals, and a called function is compiled once per literal combination (48 copies of
# `_write_child`, a third of the cold compile). Inlined in Numba's IR, `_add` only casts
# them to int64, so `_write_child` is compiled once and LLVM inlines it at each call site;
# inlining the whole write in Numba's IR (as before) typed and lowered its loop 35 times
# (commit f7f4868).
@njit(cache=True, inline="always")
def _add(cm, cs, ck, lvl, n, mask, kind, phase, pk, sa, sf, card, slot) -> int:
    """Write child n of level lvl (`_write_child`); return n + 1."""
    return _write_child(
        cm,
        cs,
        ck,
        np.int64(lvl),
        np.int64(n),
        mask,
        np.int64(kind),
        np.int64(phase),
        np.int64(pk),
        np.int64(sa),
        np.int64(sf),
        np.int64(card),
        np.int64(slot),
    )


@njit(cache=True)
def _children(lvl, p, second_swap, shuffle_chance, mk, st, cm, cs, ck, tmpm, tmpv, maps) -> int:
    """Write the children of the node at `lvl` into the level's buffers; return how many.

    cm[lvl, k]: the child's mask; cs[lvl, k]: its (phase, picked, swap_a, swap_first,
    card, slot); ck[lvl, k]: its kind (K_*). One child per history the player can tell
    apart: each decision they see, each value class of what they see, and one merged
    child for a choice they cannot see.
    """
    m = mk[lvl]
    s = st[lvl]
    ph, tp, card = s[F_PH], s[F_TP], s[F_CARD]
    pick, swa, swf = s[F_PICK], s[F_SWA], s[F_SWF]
    me = tp == p  # does the counting player make this turn's own decisions?
    n = 0
    tiles = np.empty(3, dtype=np.int64)

    slot0 = s[F_SLOT]

    if ph == PH_TURN:
        # "Go for It: Show 3 in a row. If all 3 are yours, you win! If 1 is the bomb, you
        # lose! Otherwise, flip all the tiles face down, and your turn is over."
        for line in range(8):
            for i in range(3):
                tiles[i] = LINES_A[line, i]
            k = _split(m, tiles, np.int64(3), tmpm, tmpv)
            for j in range(k):
                v0, v1, v2 = tmpv[j, 0], tmpv[j, 1], tmpv[j, 2]
                if (v0 == tp and v1 == tp and v2 == tp) or v0 == 2 or v1 == 2 or v2 == 2:
                    n = _add(cm, cs, ck, lvl, n, tmpm[j], K_OVER, ph, 0, -1, -1, card, slot0)
                else:
                    n = _add(
                        cm, cs, ck, lvl, n, tmpm[j], K_END_TURN, PH_TURN, 0, -1, -1, card, slot0
                    )
        # "Use an Action Card: Select 1 of the 2 revealed action cards."
        for slot in range(2):
            c = s[F_FU0 + slot]
            n = _add(cm, cs, ck, lvl, n, m, K_NODE, FIRST_PHASE[c], 0, -1, -1, card, slot0)
            cs[lvl, n - 1, 4] = c
            cs[lvl, n - 1, 5] = slot
        return n

    if ph == PH_PEEK or (ph == PH_PEEK_OR_STOP and card == 4):
        if ph == PH_PEEK_OR_STOP:
            n = _add(
                cm, cs, ck, lvl, n, m, K_FINISH, ph, pick, swa, swf, card, slot0
            )  # stop peeking
        npick = np.int64(_popcount(np.uint64(pick))) + 1
        for t in range(9):
            if (pick >> t) & 1:
                continue
            np_ = pick | (1 << t)
            if card == 4:
                nxt = PH_PEEK_OR_STOP
            elif card == 3:
                nxt = PH_SWAP_A
            elif card == 7:
                nxt = PH_GO
            elif card == 9:
                nxt = PH_OPP_SHOW if npick == 3 else PH_PEEK
            elif npick < 2:
                nxt = PH_PEEK
            elif card == 0:
                nxt = PH_SHOW_PEEKED
            elif card == 1:
                nxt = PH_MAY_SWAP
            else:
                nxt = PH_OUT_PEEKED
            if me:
                # My peek: one child per value seen; "If it's the bomb, you lose."
                tiles[0] = t
                k = _split(m, tiles, np.int64(1), tmpm, tmpv)
                for j in range(k):
                    if card == 4 and tmpv[j, 0] == 2:
                        n = _add(
                            cm, cs, ck, lvl, n, tmpm[j], K_OVER, ph, np_, swa, swf, card, slot0
                        )
                    else:
                        n = _add(
                            cm, cs, ck, lvl, n, tmpm[j], K_NODE, nxt, np_, swa, swf, card, slot0
                        )
            elif card == 4:
                # The opponent's peek at as many: I learn only whether it was the bomb.
                for w in range(N_WORDS):
                    tmpm[0, w] = m[w] & HAS[t, 2, w]
                    tmpm[1, w] = m[w] & ~HAS[t, 2, w]
                if not _empty(tmpm[0]):
                    n = _add(cm, cs, ck, lvl, n, tmpm[0], K_OVER, ph, np_, swa, swf, card, slot0)
                if not _empty(tmpm[1]):
                    n = _add(cm, cs, ck, lvl, n, tmpm[1], K_NODE, nxt, np_, swa, swf, card, slot0)
            else:
                n = _add(cm, cs, ck, lvl, n, m, K_NODE, nxt, np_, swa, swf, card, slot0)
        return n

    if ph == PH_PEEK_OR_STOP:
        # PEEK2_SHOW after a show: "If you do, you may peek at another 1."
        n = _add(cm, cs, ck, lvl, n, m, K_FINISH, ph, pick, swa, swf, card, slot0)
        for t in range(9):
            if (pick >> t) & 1:
                continue
            if me:
                tiles[0] = t
                k = _split(m, tiles, np.int64(1), tmpm, tmpv)
                for j in range(k):
                    n = _add(cm, cs, ck, lvl, n, tmpm[j], K_FINISH, ph, pick, swa, swf, card, slot0)
            else:
                n = _add(cm, cs, ck, lvl, n, m, K_FINISH, ph, pick, swa, swf, card, slot0)
        return n

    if ph == PH_SHOW_PEEKED:
        # "You may choose to show 1 of these to your opponent."
        n = _add(cm, cs, ck, lvl, n, m, K_FINISH, ph, pick, swa, swf, card, slot0)
        for t in range(9):
            if (pick >> t) & 1:
                tiles[0] = t
                k = _split(m, tiles, np.int64(1), tmpm, tmpv)
                for j in range(k):
                    n = _add(
                        cm,
                        cs,
                        ck,
                        lvl,
                        n,
                        tmpm[j],
                        K_NODE,
                        PH_PEEK_OR_STOP,
                        pick,
                        swa,
                        swf,
                        card,
                        slot0,
                    )
        return n

    if ph == PH_MAY_SWAP:
        # "Then, you may choose to swap the 2 tiles you peeked at with each other."
        n = _add(cm, cs, ck, lvl, n, m, K_FINISH, ph, pick, swa, swf, card, slot0)
        a = np.int64(_lowest_bit(np.uint64(pick)))
        b = np.int64(_lowest_bit(np.uint64(pick & (pick - 1))))
        _clear(tmpm[0])
        _map_or(m, maps[0][PAIR_INDEX_A[a, b]], tmpm[0])
        n = _add(cm, cs, ck, lvl, n, tmpm[0], K_FINISH, ph, pick, swa, swf, card, slot0)
        return n

    if ph == PH_OUT_PEEKED:
        for t in range(9):
            if (pick >> t) & 1:
                n = _add(cm, cs, ck, lvl, n, m, K_NODE, PH_OUT_OTHER, pick, t, swf, card, slot0)
        return n

    if ph == PH_OUT_OTHER:
        # "Swap 1 of the tiles you peeked at with 1 of the tiles you did not peek at."
        for t in range(9):
            if (pick >> t) & 1:
                continue
            _clear(tmpm[0])
            _map_or(m, maps[0][PAIR_INDEX_A[swa, t]], tmpm[0])
            n = _add(cm, cs, ck, lvl, n, tmpm[0], K_FINISH, ph, pick, swa, swf, card, slot0)
        return n

    if ph == PH_SWAP_A:
        for t in range(9):
            n = _add(cm, cs, ck, lvl, n, m, K_NODE, PH_SWAP_B, pick, t, swf, card, slot0)
        return n

    if ph == PH_SWAP_B:
        # "Then, you must swap any 2 tiles in the grid."
        for t in range(9):
            if t == swa:
                continue
            _clear(tmpm[0])
            _map_or(m, maps[0][PAIR_INDEX_A[swa, t]], tmpm[0])
            n = _add(
                cm,
                cs,
                ck,
                lvl,
                n,
                tmpm[0],
                K_NODE,
                PH_SWAP2_A,
                pick,
                -1,
                PAIR_INDEX_A[swa, t],
                card,
                slot0,
            )
        return n

    if ph == PH_SWAP2_A:
        # "Then, you may choose to swap any 2 tiles again." (Options.second_swap)
        n = _add(cm, cs, ck, lvl, n, m, K_FINISH, ph, pick, swa, swf, card, slot0)
        fa, fb = PAIRS_A[swf, 0], PAIRS_A[swf, 1]
        for t in range(9):
            if second_swap == 1 and (t == fa or t == fb):
                continue
            n = _add(cm, cs, ck, lvl, n, m, K_NODE, PH_SWAP2_B, pick, t, swf, card, slot0)
        return n

    if ph == PH_SWAP2_B:
        fa, fb = PAIRS_A[swf, 0], PAIRS_A[swf, 1]
        for t in range(9):
            if t == swa:
                continue
            if second_swap == 0 and PAIR_INDEX_A[swa, t] == swf:
                continue
            if second_swap == 1 and (t == fa or t == fb):
                continue
            _clear(tmpm[0])
            _map_or(m, maps[0][PAIR_INDEX_A[swa, t]], tmpm[0])
            n = _add(cm, cs, ck, lvl, n, tmpm[0], K_FINISH, ph, pick, swa, swf, card, slot0)
        return n

    if ph == PH_PEEK_LINE:
        # "Peek at 3 tiles that are in a row."
        for line in range(8):
            lp = 0
            for i in range(3):
                tiles[i] = LINES_A[line, i]
                lp |= 1 << tiles[i]
            if me:
                k = _split(m, tiles, np.int64(3), tmpm, tmpv)
                for j in range(k):
                    n = _add(
                        cm, cs, ck, lvl, n, tmpm[j], K_NODE, PH_SHUFFLE, lp, swa, swf, card, slot0
                    )
            else:
                n = _add(cm, cs, ck, lvl, n, m, K_NODE, PH_SHUFFLE, lp, swa, swf, card, slot0)
        return n

    if ph == PH_SHUFFLE or ph == PH_ARRANGE:
        # "Your opponent shuffles their positions randomly" / "place them back ... in
        # whatever order you want": six orders of the three tiles, seen only by the one
        # who chooses (nobody, for a random shuffle).
        tr = TRIPLE_OF[pick]
        if ph == PH_SHUFFLE:
            sees = (not shuffle_chance) and not me
        else:
            sees = me
        if sees:
            for q in range(6):
                _clear(tmpm[0])
                _map_or(m, maps[1][tr, q], tmpm[0])
                n = _add(cm, cs, ck, lvl, n, tmpm[0], K_FINISH, ph, pick, swa, swf, card, slot0)
        else:
            _clear(tmpm[0])
            for q in range(6):
                _map_or(m, maps[1][tr, q], tmpm[0])
            n = _add(cm, cs, ck, lvl, n, tmpm[0], K_FINISH, ph, pick, swa, swf, card, slot0)
        return n

    if ph == PH_SHOW:
        # "Show any 3 tiles" (SHOW3_ARRANGE) / "Show any tile" (PROMO_SHOW_SWAP).
        npick = np.int64(_popcount(np.uint64(pick))) + 1
        for t in range(9):
            if (pick >> t) & 1:
                continue
            np_ = pick | (1 << t)
            if card == 10:
                nxt = PH_SECRET_SWAP
            else:
                nxt = PH_ARRANGE if npick == 3 else PH_SHOW
            tiles[0] = t
            k = _split(m, tiles, np.int64(1), tmpm, tmpv)
            for j in range(k):
                n = _add(cm, cs, ck, lvl, n, tmpm[j], K_NODE, nxt, np_, swa, swf, card, slot0)
        return n

    if ph == PH_GO:
        # ALARM "Peek at 1. Go for It. All the rules of Go for It apply."
        for line in range(8):
            for i in range(3):
                tiles[i] = LINES_A[line, i]
            k = _split(m, tiles, np.int64(3), tmpm, tmpv)
            for j in range(k):
                v0, v1, v2 = tmpv[j, 0], tmpv[j, 1], tmpv[j, 2]
                if (v0 == tp and v1 == tp and v2 == tp) or v0 == 2 or v1 == 2 or v2 == 2:
                    n = _add(cm, cs, ck, lvl, n, tmpm[j], K_OVER, ph, pick, swa, swf, card, slot0)
                else:
                    n = _add(cm, cs, ck, lvl, n, tmpm[j], K_FINISH, ph, pick, swa, swf, card, slot0)
        return n

    if ph == PH_L_SHAPE:
        # ALARM "Show 3 in an L shape": the game ends, whatever is shown.
        for shape in range(16):
            for i in range(3):
                tiles[i] = L_A[shape, i]
            k = _split(m, tiles, np.int64(3), tmpm, tmpv)
            for j in range(k):
                n = _add(cm, cs, ck, lvl, n, tmpm[j], K_OVER, ph, pick, swa, swf, card, slot0)
        return n

    if ph == PH_OPP_SHOW:
        # Promo "your opponent must show 1 or 2 of the tiles you peeked at. If they show
        # the bomb, you win."
        a = np.int64(_lowest_bit(np.uint64(pick)))
        rest = pick & (pick - 1)
        b = np.int64(_lowest_bit(np.uint64(rest)))
        c = np.int64(_lowest_bit(np.uint64(rest & (rest - 1))))
        for q in range(6):
            if q < 3:
                tiles[0] = (a, b, c)[q]
                nt = 1
            else:
                tiles[0] = a if q < 5 else b
                tiles[1] = c if q > 3 else b
                nt = 2
            k = _split(m, tiles, nt, tmpm, tmpv)
            for j in range(k):
                bomb = tmpv[j, 0] == 2 or (nt == 2 and tmpv[j, 1] == 2)
                n = _add(
                    cm,
                    cs,
                    ck,
                    lvl,
                    n,
                    tmpm[j],
                    K_OVER if bomb else K_FINISH,
                    ph,
                    pick,
                    swa,
                    swf,
                    card,
                    slot0,
                )
        return n

    if ph == PH_SECRET_SWAP:
        # Promo "flip it face down and swap it with any other tile": the opponent sees
        # only which tile was shown.
        t0 = np.int64(_lowest_bit(np.uint64(pick)))
        if me:
            for u in range(9):
                if u == t0:
                    continue
                _clear(tmpm[0])
                _map_or(m, maps[0][PAIR_INDEX_A[t0, u]], tmpm[0])
                n = _add(cm, cs, ck, lvl, n, tmpm[0], K_FINISH, ph, pick, swa, swf, card, slot0)
        else:
            _clear(tmpm[0])
            for u in range(9):
                if u != t0:
                    _map_or(m, maps[0][PAIR_INDEX_A[t0, u]], tmpm[0])
            n = _add(cm, cs, ck, lvl, n, tmpm[0], K_FINISH, ph, pick, swa, swf, card, slot0)
        return n

    return -1  # not a phase of a turn in progress


@njit(cache=True)
def _add128(lo, hi, a_lo, a_hi):
    nl = lo + a_lo
    carry = np.uint64(1) if nl < lo else np.uint64(0)
    return nl, hi + a_hi + carry


@njit(cache=True)
def _enter(
    lvl, p, second_swap, shuffle_chance, mk, st, cm, cs, ck, tmpm, tmpv, kb, cnt, memo, maps
):
    """Look the node at `lvl` up; if new, write its children. Return (found, n, lo, hi)."""
    keys, vals, used, stats = memo
    key = kb[lvl]
    _key(mk[lvl], st[lvl], key, cnt, maps)
    slot_, found = _find(key, keys, used)
    if found:
        return True, 0, vals[slot_, 0], vals[slot_, 1]
    stats[0] += 1
    n = _children(lvl, p, second_swap, shuffle_chance, mk, st, cm, cs, ck, tmpm, tmpv, maps)
    return False, n, np.uint64(0), np.uint64(0)


@njit(cache=True)
def _count_root(mask, fields, p, second_swap, shuffle_chance, keys, vals, used, stats, maps):
    """Count the histories below one node that end at a turn boundary F_LEFT turns on.

    The node (a 10-word mask and an N_FIELDS row) is a turn in progress or the start of
    one, F_LEFT >= 1. A depth-first walk with an explicit stack (one level per decision):
    each level keeps its children, the child and the revealed card it is at, and its
    running count. Returns the count as (low, high) words; stats = [knowledge states
    searched, entries, entry limit, status (1: the table filled up; the count is void)].
    """
    mk = np.zeros((MAX_LEVEL, N_WORDS), dtype=np.uint64)
    st = np.zeros((MAX_LEVEL, N_FIELDS), dtype=np.int64)
    cm = np.zeros((MAX_LEVEL, MAX_CHILD, N_WORDS), dtype=np.uint64)
    cs = np.zeros((MAX_LEVEL, MAX_CHILD, 6), dtype=np.int64)
    ck = np.zeros((MAX_LEVEL, MAX_CHILD), dtype=np.int64)
    tmpm = np.zeros((32, N_WORDS), dtype=np.uint64)
    tmpv = np.zeros((32, 3), dtype=np.int64)
    kb = np.zeros((MAX_LEVEL, KEY_WORDS), dtype=np.uint64)
    cnt = np.zeros(9, dtype=np.int64)
    nch = np.zeros(MAX_LEVEL, dtype=np.int64)  # children of the level
    at = np.zeros(MAX_LEVEL, dtype=np.int64)  # the child being counted
    rev = np.zeros(MAX_LEVEL, dtype=np.int64)  # the next card to reveal after it
    acc = np.zeros((MAX_LEVEL, 2), dtype=np.uint64)  # the running count
    memo = (keys, vals, used, stats)
    zero = np.uint64(0)
    one = np.uint64(1)
    # element by element: a whole-row assignment compiles Numba's shape-mismatch error
    # message (string formatting, about 2 s of the cold compile)
    for w in range(N_WORDS):
        mk[0, w] = mask[w]
    for f in range(N_FIELDS):
        st[0, f] = fields[f]
    # np.int64(0), not 0: a literal level would compile _enter and _children a second time
    found, n, lo, hi = _enter(
        np.int64(0),
        p,
        second_swap,
        shuffle_chance,
        mk,
        st,
        cm,
        cs,
        ck,
        tmpm,
        tmpv,
        kb,
        cnt,
        memo,
        maps,
    )
    if found:
        return lo, hi
    nch[0] = n
    lvl = 0
    while True:
        s = st[lvl]
        left = s[F_LEFT]
        k = at[lvl]
        if k == nch[lvl]:
            # Every child counted: remember, and hand the count to the parent.
            lo, hi = acc[lvl, 0], acc[lvl, 1]
            if stats[1] >= stats[2]:
                stats[3] = 1  # the table is full: the caller grows it and starts again
                return zero, zero
            slot_, _ = _find(kb[lvl], keys, used)
            for w in range(KEY_WORDS):
                keys[slot_, w] = kb[lvl, w]
            vals[slot_, 0] = lo
            vals[slot_, 1] = hi
            used[slot_] = 1
            stats[1] += 1
            if lvl == 0:
                return lo, hi
            lvl -= 1
            acc[lvl, 0], acc[lvl, 1] = _add128(acc[lvl, 0], acc[lvl, 1], lo, hi)
            continue
        kind = ck[lvl, k]
        c = lvl + 1
        if kind == K_OVER:
            acc[lvl, 0], acc[lvl, 1] = _add128(acc[lvl, 0], acc[lvl, 1], one, zero)
            at[lvl] += 1
            continue
        if kind == K_NODE:
            for f in range(N_FIELDS):
                st[c, f] = s[f]
            st[c, F_PH] = cs[lvl, k, 0]
            st[c, F_PICK] = cs[lvl, k, 1]
            st[c, F_SWA] = cs[lvl, k, 2]
            st[c, F_SWF] = cs[lvl, k, 3]
            st[c, F_CARD] = cs[lvl, k, 4]
            st[c, F_SLOT] = cs[lvl, k, 5]
            at[lvl] += 1
        elif left == 1:
            # The turn ends in a leaf: one history per card that may be revealed.
            add = 1 if kind == K_END_TURN else _n_reveal(s[F_UNSEEN])
            acc[lvl, 0], acc[lvl, 1] = _add128(acc[lvl, 0], acc[lvl, 1], np.uint64(add), zero)
            at[lvl] += 1
            continue
        else:
            # A new turn: "Place the card face down under the deck and reveal the top card."
            unseen, tail, tlen = s[F_UNSEEN], s[F_TAIL], s[F_TLEN]
            f0, f1 = s[F_FU0], s[F_FU1]
            r = rev[lvl]
            if kind == K_FINISH:
                tail = tail | ((s[F_CARD] + 1) << (4 * tlen))
                tlen += 1
                if r + 1 >= _n_reveal(unseen):
                    rev[lvl] = 0
                    at[lvl] += 1
                else:
                    rev[lvl] = r + 1
                if unseen != 0:
                    # The r-th never-seen card: any of them may be on top.
                    x = unseen
                    for _ in range(r):
                        x &= x - 1
                    shown = np.int64(_lowest_bit(np.uint64(x)))
                    unseen = unseen & ~(1 << shown)
                else:
                    # Every card has been seen: the top is the first card cycled.
                    shown = (tail & 15) - 1
                    tail = tail >> 4
                    tlen -= 1
                if s[F_SLOT] == 0:
                    f0 = shown
                else:
                    f1 = shown
            else:
                at[lvl] += 1
            st[c, F_PH] = PH_TURN
            st[c, F_TP] = 1 - s[F_TP]
            st[c, F_CARD] = -1
            st[c, F_SLOT] = -1
            st[c, F_PICK] = 0
            st[c, F_SWA] = -1
            st[c, F_SWF] = -1
            st[c, F_FU0] = f0
            st[c, F_FU1] = f1
            st[c, F_UNSEEN] = unseen
            st[c, F_TAIL] = tail
            st[c, F_TLEN] = tlen
            st[c, F_LEFT] = left - 1
        for w in range(N_WORDS):
            mk[c, w] = cm[lvl, k, w]
        found, n, lo, hi = _enter(
            c, p, second_swap, shuffle_chance, mk, st, cm, cs, ck, tmpm, tmpv, kb, cnt, memo, maps
        )
        if found:
            acc[lvl, 0], acc[lvl, 1] = _add128(acc[lvl, 0], acc[lvl, 1], lo, hi)
            continue
        lvl = c
        nch[lvl] = n
        at[lvl] = 0
        rev[lvl] = 0
        acc[lvl, 0] = zero
        acc[lvl, 1] = zero


# ----- Python surface -------------------------------------------------------------------


@njit(cache=True)
def _rehash(keys, vals, used, new_keys, new_vals, new_used) -> None:
    """Insert every entry of the old table into the new (larger, empty) one."""
    for i in range(used.shape[0]):
        if used[i]:
            j, _ = _find(keys[i], new_keys, new_used)
            new_keys[j] = keys[i]
            new_vals[j] = vals[i]
            new_used[j] = 1


class Memo:
    """The hash table of counts: one row of KEY_WORDS words per knowledge state.

    It keeps its entries from one count to the next (openings share states). When a
    count fills it to `LOAD` of its slots, the table doubles (keeping every entry, each
    a finished count) and the count starts again, finding what it had done; past
    `max_log2_slots` it raises `MemoFull` instead.
    """

    LOAD = 0.7
    BYTES_PER_SLOT = 8 * (KEY_WORDS + 2) + 1

    def __init__(self, log2_slots: int = 20, max_log2_slots: int = 25) -> None:
        self.max_log2 = max_log2_slots
        self._alloc(log2_slots)
        self.searched = 0

    def _alloc(self, log2_slots: int) -> None:
        cap = 1 << log2_slots
        self.log2 = log2_slots
        self.keys = np.zeros((cap, KEY_WORDS), dtype=np.uint64)
        self.vals = np.zeros((cap, 2), dtype=np.uint64)
        self.used = np.zeros(cap, dtype=np.uint8)
        self.stats = np.array([0, 0, int(cap * self.LOAD), 0], dtype=np.int64)

    def grow(self) -> None:
        """Double the table, keeping its entries; raise MemoFull past the limit."""
        if self.log2 >= self.max_log2:
            raise MemoFull(
                f"the memo is full: {self.entries:,} knowledge states in 2**{self.log2} slots "
                f"({self.nbytes / 2**30:.1f} GiB)"
            )
        old = (self.keys, self.vals, self.used)
        searched, entries = self.stats[0], self.stats[1]
        self._alloc(self.log2 + 1)
        _rehash(*old, self.keys, self.vals, self.used)
        self.stats[0], self.stats[1] = searched, entries

    @property
    def entries(self) -> int:
        return int(self.stats[1])

    @property
    def nbytes(self) -> int:
        return self.BYTES_PER_SLOT << self.log2


class MemoFull(RuntimeError):
    """The memo reached its size limit before the count finished."""


def _fields(st: State, left: int) -> np.ndarray:
    """The kernel's public-state row for a reference state (see F_*)."""
    cycled = set(st.cycled)
    unseen = [c for c in st.deck if c not in cycled]
    tail = [c for c in st.deck if c in cycled]
    if st.deck[: len(unseen)] != unseen:
        raise BadInput("the deck must hold its never-seen cards above the cycled ones")
    packed = 0
    for i, c in enumerate(tail):
        packed |= (c + 1) << (4 * i)
    pick = 0
    for t in st.picked:
        pick |= 1 << t
    swf = -1 if st.swap_first is None else int(PAIR_INDEX[st.swap_first[0], st.swap_first[1]])
    # The turn cap only shortens the count: the game stops after turn `turn_cap`.
    left = min(left, st.options.turn_cap - st.turn_number + 1)
    row = np.zeros(N_FIELDS, dtype=np.int64)
    row[[F_PH, F_TP, F_CARD, F_SLOT, F_PICK, F_SWA, F_SWF]] = [
        int(st.phase),
        st.turn_player,
        st.card,
        st.slot,
        pick,
        st.swap_a,
        swf,
    ]
    row[[F_FU0, F_FU1, F_UNSEEN, F_TAIL, F_TLEN, F_LEFT]] = [
        st.face_up[0],
        st.face_up[1],
        sum(1 << c for c in unseen),
        packed,
        len(tail),
        left,
    ]
    return row


def mask_words(mask: np.ndarray) -> np.ndarray:
    """Pack 630 booleans into the 10-word mask."""
    words = np.zeros(N_WORDS, dtype=np.uint64)
    for i in np.flatnonzero(mask):
        words[i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    return words


def count_node(st: State, mask: np.ndarray, left: int, p: int, memo: Memo | None = None) -> int:
    """Count player p's histories below a reference state and its 630-bool mask.

    The kernel twin of `infostates._Counter.count(st, mask, left)` (the same number).
    """
    if st.is_over() or (st.phase == Phase.TURN and left == 0):
        return 1
    memo = memo or Memo()
    row = _fields(st, left)
    words = mask_words(mask)
    opts = st.options
    second = ("distinct", "disjoint", "any").index(opts.second_swap)
    chance = opts.shuffle == "chance"
    while True:
        before = memo.stats[0]
        lo, hi = _count_root(
            words, row, p, second, chance, memo.keys, memo.vals, memo.used, memo.stats, MAPS
        )
        memo.searched += int(memo.stats[0] - before)
        if memo.stats[3] == 0:
            return (int(hi) << 64) | int(lo)
        memo.stats[3] = 0
        memo.grow()


def openings(options: Options) -> list[tuple[int, int]]:
    """The ordered pairs of regular (not ALARM) cards that may start face up ("Setup")."""
    regular = [int(c) for c in options.deck_cards() if c not in ALARM_CARDS]
    return [(a, b) for a in regular for b in regular if a != b]


def opening_state(a: int, b: int, options: Options) -> State:
    """The public start with cards a, b face up and the rest of the deck unseen."""
    deck = [int(c) for c in options.deck_cards() if c not in (a, b)]
    return State(options=options, tiles=[0, 0, 0, 0, 1, 1, 1, 1, 2], face_up=[a, b], deck=deck)


def count_opening(a: int, b: int, depth: int, p: int, options: Options, memo: Memo) -> int:
    """Player p's information states after `depth` turns from the opening pair (a, b)."""
    return count_node(opening_state(a, b, options), np.ones(N_ARR, dtype=bool), depth, p, memo)


@dataclass
class KernelCount:
    """Counts for one player: information states after each number of whole turns."""

    player: int
    by_depth: list[int]
    nodes: int
    seconds: float


def count_infostates_fast(
    depth: int,
    player: int,
    options: Options | None = None,
    log2_slots: int = 20,
    max_log2_slots: int = 25,
) -> KernelCount:
    """Count `player`'s information states after 0..depth whole turns, in the kernel.

    The same numbers as `infostates.count_infostates` (tests check it). The memo starts
    at 2**log2_slots slots and may grow to 2**max_log2_slots (`Memo`); past that the
    count raises MemoFull.

    >>> count_infostates_fast(1, 1).by_depth
    [42, 69325248]
    """
    if depth < 0:
        raise BadInput(f"--depth {depth} must be 0 or more")
    if player not in (0, 1):
        raise BadInput(f"player {player} must be 0 (X) or 1 (O)")
    options = options or Options()
    memo = Memo(log2_slots, max_log2_slots)
    t0 = time.perf_counter()
    by_depth = [
        sum(count_opening(a, b, d, player, options, memo) for a, b in openings(options))
        for d in range(depth + 1)
    ]
    return KernelCount(player, by_depth, memo.searched, time.perf_counter() - t0)

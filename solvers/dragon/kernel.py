"""Bomb the Dragon in Numba: the rules of `rules.py` on flat arrays, for fast playouts.

The kernel is never the only copy of a rule: `tests/dragon/test_dragon_kernel.py` plays
thousands of seeded games in both engines and demands identical scores and captures.
It draws chance and agent randomness from the same splitmix64 streams as the reference
(`bombsolve.solvers.common.rng.SplitMix64`, its exact draws `below_exact` and `shuffle`)
and implements the strategies random, greedy, position and montecarlo move for move.

Array layout (all int64 unless said; n players, S = row slots, at most 6):

    cnt[16]       counters: DECK_N, DISC_N, DRAGON_N, ROUND, TURN, TURNS, N, SLOTS,
                  PICKS, BASE, STALLED, CAP_N, OVER, RESHUFFLES
    deck[45]      firecracker deck, top at deck[DECK_N - 1]
    disc[45]      discard pile in the order cards went there
    dragon[19]    Dragon deck, top at dragon[DRAGON_N - 1]
    hands[6, 16]  hand cards in draw order; hand_n[6] their counts
    row[3, 6]     per slot: ROW_BODY (-1 = taken), ROW_N (cards under it), ROW_POWER
    rowc[6, 64]   the cards under each slot, in placement order
    kept[6, 45]   Doubles set aside face down in front of each player
    ps[8, 6]      per player: SCORE, BODIES_GAME, ROUND_PTS, BODIES_ROUND, BONUS, KEPT_N,
                  TOOK_13, TOOK_4 (the game's 13s and bad-luck 4s taken)
    rng[7]        uint64 splitmix64 states: 0 chance, p + 1 seat p's strategy
    caps[K, 6]    captures: round, turn, player, body, doubled, card
    ft[3, 45]     firecracker table: power, lanterns, special (0 none 1 string 2 rocket 3 double)
    bt[3, 19]     body table: vitality, points, special (0 none 1 bad luck 2 hand limit)
    opts[19]      rule options, see `encode_options`

Strategy codes: 0 random, 1 greedy, 2 position, 3 montecarlo (`strategies.CODES`).
"""

from __future__ import annotations

import numpy as np
from numba import types, uint64
from numba.extending import overload

from bombsolve.solvers.common.numba_jit import njit
from bombsolve.solvers.dragon.cards import Cards, load_cards
from bombsolve.solvers.dragon.rules import Options

#: Digest of the project files this module imports (bombsolve.solvers.common.numba_deps): a change to
#: them changes this file too, so Numba rebuilds its on-disk cache of this module.
NUMBA_DEPENDS_ON = "fd5df1fb7a5852f4"

# cnt indices
DECK_N, DISC_N, DRAGON_N, ROUND, TURN, TURNS, N, SLOTS, PICKS, BASE, STALLED, CAP_N, OVER = range(
    13
)
#: cnt index: how many times the discard pile became the new deck in the game.
RESHUFFLES = 13
# row indices
ROW_BODY, ROW_N, ROW_POWER = range(3)
# ps indices
SCORE, BODIES_GAME, ROUND_PTS, BODIES_ROUND, BONUS, KEPT_N, TOOK_13, TOOK_4 = range(8)
# opts indices
(
    O_PLACEMENT,
    O_ROCKET_TIMING,
    O_ROCKET_EMPTY,
    O_DOUBLE_WHEN,
    O_DOUBLE_CARD,
    O_STRING_CARD,
    O_STRING_RESHUFFLE,
    O_ROUND_END,
    O_PARTIAL,
    O_NEW_ROUND,
    O_TIEBREAK,
    O_TWO_DEAL,
    O_THIRTEEN,
    O_BAD_LUCK,
    O_TARGET,
    O_MAX_TURNS,
    O_MAX_ROUNDS,
    O_RESHUFFLE_WHEN,
    O_EQUAL_VITALITY,
) = range(19)
N_OPTS = 19
MAX_CAPS = 512
#: Row of the scratch array `sc` marking the slots just filled from the Dragon deck.
SC_DRAWN = 10
S_STRING, S_ROCKET, S_DOUBLE = 1, 2, 3
B_BAD_LUCK, B_HAND_LIMIT = 1, 2

#: How the game loop (`_play_game`) and the helpers it calls are compiled: without Numba's
#: reference counting (NRT). With it, every array argument of a call that is not inlined
#: and every view (`sc[0]`, `stats[i]`) takes an atomic increment and a decrement, and an
#: atomic operation is costly on some processors: on an AMD EPYC (family 26) KVM guest 81-89%
#: of a random game's samples were on NRT_incref/NRT_decref. These functions allocate
#: nothing and keep no array past their return (the state arrays are allocated once per
#: batch by `run_games`, in Python), so the counts are never needed. Numba compiles a callee met first
#: from such a function without NRT too, so what they call must not allocate either; the
#: one exception, `_mc_choose`, asks for NRT explicitly.
_no_refcount = njit(cache=True, _nrt=False)
#: The small helpers of a turn: calls in Numba (each compiled once, not once per call site
#: as `inline="always"` does, which made the cold compile 49 CPU-s), inlined by LLVM
#: (`forceinline`), so the warm kernel pays no call for them.
_inlined = njit(cache=True, _nrt=False, forceinline=True)

# Calls to `_expected` and `_sure` pass np.int64(x), not a literal such as 0 or a variable
# Numba types as one (low = -1): a called function is compiled once per literal argument
# value, and they made two and four copies.


def encode_options(o: Options) -> np.ndarray:
    """Return the options as the kernel's int64 array (see the O_* indices)."""
    return np.array(
        [
            ("fixed", "close_up").index(o.placement),
            ("last", "in_order").index(o.rocket_timing),
            int(o.rocket_empty_slot),
            ("placer", "under").index(o.double_when),
            ("kept", "discard").index(o.double_card),
            ("slot", "discard").index(o.string_card),
            int(o.string_reshuffle),
            ("short", "empty").index(o.round_end),
            int(o.partial_refill),
            ("rebuild", "continue").index(o.new_round),
            ("game", "round").index(o.tiebreak),
            o.two_player_deal,
            o.thirteen_bonus,
            int(o.bad_luck),
            o.target,
            o.max_turns,
            o.max_rounds,
            ("draw", "empty").index(o.reshuffle_when),
            ("slot", "row_first").index(o.equal_vitality),
        ],
        dtype=np.int64,
    )


def tables(cards: Cards | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Return (ft, bt): the firecracker and body tables of the kernel."""
    a = (cards or load_cards()).arrays()
    ft = np.stack([a["fc_power"], a["fc_lanterns"], a["fc_special"]]).astype(np.int64)
    bt = np.stack([a["body_vitality"], a["body_points"], a["body_special"]]).astype(np.int64)
    return ft, bt


# --- chance ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _mix(x):
    """splitmix64's output for the advanced state x (bombsolve.solvers.common.rng.splitmix64)."""
    z = (x ^ (x >> uint64(30))) * uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> uint64(27))) * uint64(0x94D049BB133111EB)
    return z ^ (z >> uint64(31))


@njit(cache=True, inline="always")
def _next(rng, i):
    x = rng[i] + uint64(0x9E3779B97F4A7C15)
    rng[i] = x
    return _mix(x)


@njit(cache=True, inline="always")
def _below(rng, i, n):
    """Uniform in [0, n) by Lemire's multiply-and-reject, exactly as SplitMix64.below_exact."""
    un = uint64(n)
    low_mask = uint64(0xFFFFFFFF)
    m = (_next(rng, i) >> uint64(32)) * un
    low = m & low_mask
    if low < un:
        threshold = (uint64(0x100000000) - un) % un
        while low < threshold:
            m = (_next(rng, i) >> uint64(32)) * un
            low = m & low_mask
    return np.int64(m >> uint64(32))


@_no_refcount
def _shuffle_s(rng, stream, arr, n):
    """Shuffle arr[:n] with the given stream (SplitMix64.shuffle)."""
    for i in range(n - 1, 0, -1):
        j = _below(rng, stream, i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t


@_inlined
def _shuffle(rng, arr, n):
    for i in range(n - 1, 0, -1):
        j = _below(rng, np.int64(0), i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t


@_inlined
def _derive(seed, stream):
    """splitmix-derived stream seed, identical to bombsolve.solvers.common.rng.derive_seed: two splitmix64 steps,
    the second from the first's output, on scalars (no scratch array to allocate)."""
    x = uint64(seed) ^ (uint64(stream) * uint64(0xD1B54A32D192ED03))
    a = _mix(x + uint64(0x9E3779B97F4A7C15))
    return _mix(a + uint64(0x9E3779B97F4A7C15))


# --- piles ----------------------------------------------------------------------------


@_inlined
def _new_deck(cnt, deck, disc, rng):
    """Shuffle the discard pile into the (empty) deck."""
    cnt[RESHUFFLES] += 1
    for i in range(cnt[DISC_N]):
        deck[i] = disc[i]
    cnt[DECK_N] = cnt[DISC_N]
    cnt[DISC_N] = 0
    _shuffle(rng, deck, cnt[DECK_N])


@_inlined
def _keep_deck(cnt, deck, disc, rng, opts):
    """With reshuffle_when=empty: a new deck as soon as the deck is empty and the discard
    pile is not (rules.GameState.keep_deck)."""
    if opts[O_RESHUFFLE_WHEN] == 1 and cnt[DECK_N] == 0 and cnt[DISC_N] > 0:
        _new_deck(cnt, deck, disc, rng)


@_inlined
def _draw(cnt, deck, disc, rng, opts):
    """Draw the top firecracker, reshuffling the discard pile first; -1 if none."""
    if cnt[DECK_N] == 0:
        if cnt[DISC_N] == 0:
            return -1
        _new_deck(cnt, deck, disc, rng)
    cnt[DECK_N] -= 1
    card = deck[cnt[DECK_N]]
    _keep_deck(cnt, deck, disc, rng, opts)
    return card


@njit(cache=True, inline="always")
def _to_discard(cnt, disc, card):
    disc[cnt[DISC_N]] = card
    cnt[DISC_N] += 1


# (a call, not inlined: `_setup_round` and `_play_turn` call it three times, and three
# inlined copies of it made the cold compile longer)
@_no_refcount
def _sort_row(cnt, row, rowc, bt, opts, sc, rowtmp, rowctmp):
    """Stable sort of the slots by vitality (empty slots last); cards move with bodies.

    sc[SC_DRAWN, i] = 1 marks slot i as just filled from the Dragon deck: with
    equal_vitality=row_first it goes after the bodies of equal vitality already in the
    row. sc rows 6 and 7 and rowtmp, rowctmp are scratch space.
    """
    s = cnt[SLOTS]
    order = sc[6]
    key = sc[7]
    late = opts[O_EQUAL_VITALITY] == 1
    for i in range(s):
        order[i] = i
    for i in range(s):
        if row[ROW_BODY, i] < 0:
            key[i] = 1_000_000_000
        else:
            key[i] = 2 * bt[0, row[ROW_BODY, i]]
            if late:
                key[i] += sc[SC_DRAWN, i]
    for i in range(1, s):
        j = i
        while j > 0 and key[order[j - 1]] > key[order[j]]:
            t = order[j - 1]
            order[j - 1] = order[j]
            order[j] = t
            j -= 1
    moved = False
    for i in range(s):
        if order[i] != i:
            moved = True
    if not moved:
        return
    for i in range(s):
        for f in range(3):
            rowtmp[f, i] = row[f, i]
        for c in range(row[ROW_N, i]):
            rowctmp[i, c] = rowc[i, c]
    for i in range(s):
        o = order[i]
        for f in range(3):
            row[f, i] = rowtmp[f, o]
        for c in range(rowtmp[ROW_N, o]):
            rowc[i, c] = rowctmp[o, c]


@njit(cache=True, inline="always")
def _body_points(bt, opts, body):
    pts = bt[1, body]
    if bt[2, body] == B_BAD_LUCK and opts[O_BAD_LUCK] == 0:
        return -pts
    return pts


@_inlined
def _draw_cards(cnt, deck, disc, hands, hand_n, ps, rng, opts):
    """Step 4: each player in seat order draws up to the hand limit."""
    for p in range(cnt[N]):
        while hand_n[p] < cnt[BASE] + ps[BONUS, p]:
            card = _draw(cnt, deck, disc, rng, opts)
            if card < 0:
                break
            hands[p, hand_n[p]] = card
            hand_n[p] += 1


@_no_refcount
def _setup_round(
    cnt, deck, disc, dragon, hands, hand_n, row, rowc, kept, ps, rng, bt, opts, sc, rowtmp, rowctmp
):
    """Setup (and a new round): decks, the row in ascending order, hands."""
    n = cnt[N]
    cnt[ROUND] += 1
    cnt[TURN] = 0
    rebuild = cnt[ROUND] == 1 or opts[O_NEW_ROUND] == 0
    if rebuild:
        for i in range(45):
            deck[i] = i
        cnt[DECK_N] = 45
        cnt[DISC_N] = 0
        for p in range(n):
            hand_n[p] = 0
        _shuffle(rng, deck, np.int64(45))
    else:
        for i in range(cnt[SLOTS]):
            for c in range(row[ROW_N, i]):
                _to_discard(cnt, disc, rowc[i, c])
        for p in range(n):
            for c in range(ps[KEPT_N, p]):
                _to_discard(cnt, disc, kept[p, c])
        _keep_deck(cnt, deck, disc, rng, opts)
    for p in range(n):
        ps[KEPT_N, p] = 0
    for i in range(19):
        dragon[i] = i
    cnt[DRAGON_N] = 19
    _shuffle(rng, dragon, np.int64(19))
    for i in range(cnt[SLOTS]):
        cnt[DRAGON_N] -= 1
        row[ROW_BODY, i] = dragon[cnt[DRAGON_N]]
        row[ROW_N, i] = 0
        row[ROW_POWER, i] = 0
        sc[SC_DRAWN, i] = 0
    _sort_row(cnt, row, rowc, bt, opts, sc, rowtmp, rowctmp)
    for p in range(n):
        ps[ROUND_PTS, p] = 0
        ps[BODIES_ROUND, p] = 0
        ps[BONUS, p] = 0
    if rebuild:
        deal = opts[O_TWO_DEAL] if n == 2 else 3
        for p in range(n):
            for _ in range(deal):
                card = _draw(cnt, deck, disc, rng, opts)
                if card >= 0:
                    hands[p, hand_n[p]] = card
                    hand_n[p] += 1
    else:
        _draw_cards(cnt, deck, disc, hands, hand_n, ps, rng, opts)


# --- strategies -----------------------------------------------------------------------


@njit(cache=True, inline="always")
def _key(ft, card):
    return ft[0, card] * 64 + ft[1, card]


@_no_refcount
def _sorted_hand(hands, hand_n, p, ft, h):
    """Write seat p's hand into h, by power then lanterns (stable); return its size."""
    hs = hand_n[p]
    for i in range(hs):
        h[i] = hands[p, i]
    for i in range(1, hs):
        j = i
        while j > 0 and _key(ft, h[j - 1]) > _key(ft, h[j]):
            t = h[j - 1]
            h[j - 1] = h[j]
            h[j] = t
            j -= 1
    return hs


@_no_refcount
def _unseen(cnt, disc, hands, hand_n, p, row, rowc, kept, ps, out):
    """Write the cards seat p has not seen into out, in id order; return how many.

    out[:45] doubles as the "seen" marks while they are gathered (out[c] = 1 if seen).
    """
    seen = out
    for c in range(45):
        seen[c] = 0
    for c in range(hand_n[p]):
        seen[hands[p, c]] = 1
    for c in range(cnt[DISC_N]):
        seen[disc[c]] = 1
    for q in range(cnt[N]):
        for c in range(ps[KEPT_N, q]):
            seen[kept[q, c]] = 1
    for i in range(cnt[SLOTS]):
        for c in range(row[ROW_N, i]):
            seen[rowc[i, c]] = 1
    # k <= c throughout, so out[k] = c never overwrites a mark still to be read
    k = 0
    for c in range(45):
        if seen[c] == 0:
            out[k] = c
            k += 1
    return k


@_no_refcount
def _expected(cnt, row, ft, bt, opts, card, shift, unseen, nu, m):
    """Expected points of `card` (strategies.expected_points, operation for operation);
    unseen[:nu] are the cards its player has not seen."""
    if ft[2, card] == S_ROCKET:
        best = 0.0
        for i in range(cnt[SLOTS]):
            b = row[ROW_BODY, i]
            if b >= 0 and row[ROW_POWER, i] + ft[0, card] >= bt[0, b]:
                v = float(_body_points(bt, opts, b))
                if v > best:
                    best = v
        return best
    below = 0
    for iu in range(nu):
        u = unseen[iu]
        if _key(ft, u) < _key(ft, card) and ft[2, u] != S_ROCKET:
            below += 1
    p = below / nu if nu > 0 else 0.0
    total = 0.0
    for k in range(m + 1):
        slot = k + shift
        if slot >= cnt[SLOTS]:
            break
        b = row[ROW_BODY, slot]
        if b < 0:
            continue
        need = bt[0, b] - row[ROW_POWER, slot]
        if ft[2, card] == S_STRING:
            if need <= 1:
                reach = 1.0
            elif nu == 0:
                reach = 0.0
            else:
                hits = 0
                for iu in range(nu):
                    if ft[0, unseen[iu]] >= need - 1:
                        hits += 1
                reach = hits / nu
        else:
            reach = 1.0 if ft[0, card] >= need else 0.0
        if reach > 0.0:
            c = 1.0
            for i in range(k):
                c = c * (m - i) / (i + 1)
            pk = 1.0
            for _ in range(k):
                pk = pk * p
            qk = 1.0
            for _ in range(m - k):
                qk = qk * (1.0 - p)
            bv = _body_points(bt, opts, b) * (2 if ft[2, card] == S_DOUBLE else 1)
            total += (c * pk * qk) * reach * bv
    return total


@_no_refcount
def _sure(cnt, row, ft, bt, opts, card, slot):
    if slot < 0 or slot >= cnt[SLOTS]:
        return 0
    b = row[ROW_BODY, slot]
    if b < 0 or row[ROW_POWER, slot] + ft[0, card] < bt[0, b]:
        return 0
    return _body_points(bt, opts, b) * (2 if ft[2, card] == S_DOUBLE else 1)


#: Strategy code of montecarlo (`agents.CODES`).
MONTECARLO = 3
#: Monte Carlo samples per decision (strategies.MonteCarloStrategy's default).
MC_SAMPLES = 24


@_no_refcount
def _place_world(
    played,
    owner,
    m,
    wstrat,
    cnt,
    deck,
    disc,
    hands,
    hand_n,
    row,
    rowc,
    kept,
    ps,
    rng,
    caps,
    stats,
    ft,
    bt,
    opts,
    sc,
):
    """Step 2 of a turn (place every played card), compiled once: `_play_turn` and the
    Monte Carlo worlds of `_mc_choose` both call it."""
    _place_all(
        played,
        owner,
        m,
        wstrat,
        cnt,
        deck,
        disc,
        hands,
        hand_n,
        row,
        rowc,
        kept,
        ps,
        rng,
        caps,
        stats,
        ft,
        bt,
        opts,
        sc,
    )


# The one kernel function that allocates inside a game (its sample worlds), so it keeps
# Numba's reference counting: `_nrt=True` must be explicit, or it would inherit `_nrt=False`
# from `_play_game`, the caller it is first compiled from. It returns only an int, so no
# counted array passes back to that caller.
@njit(cache=True, _nrt=True)
def _mc_choose(
    p, out, cnt, disc, hands, hand_n, row, rowc, kept, ps, rng, ft, bt, opts, hand, unseen
):
    """strategies.MonteCarloStrategy, draw for draw. Sees only seat p's view: its own hand,
    the hand sizes, the row, the discard pile, kept Doubles and the round points. hand and
    unseen are scratch rows (16 and 45 entries at least)."""
    n = cnt[N]
    picks = min(cnt[PICKS], hand_n[p])
    hs = _sorted_hand(hands, hand_n, p, ft, hand)
    cand = np.zeros((16, 2), dtype=np.int64)
    nc = 0
    if picks == 1:
        for i in range(hs):
            cand[nc, 0] = hand[i]
            nc += 1
    else:
        for i in range(hs):
            for j in range(i + 1, hs):
                cand[nc, 0] = hand[i]
                cand[nc, 1] = hand[j]
                nc += 1
    if nc == 1:
        for t in range(picks):
            out[t] = cand[0, t]
        return picks
    nu = _unseen(cnt, disc, hands, hand_n, p, row, rowc, kept, ps, unseen)
    totals = np.zeros(nc)
    pool = np.empty(max(nu, 1), dtype=np.int64)
    whands = np.zeros((6, 16), dtype=np.int64)
    whand_n = np.zeros(6, dtype=np.int64)
    oth = np.zeros((6, 2), dtype=np.int64)
    oth_n = np.zeros(6, dtype=np.int64)
    hbuf = np.zeros(16, dtype=np.int64)
    wcnt = np.zeros(16, dtype=np.int64)
    wdeck = np.zeros(45, dtype=np.int64)
    wdisc = np.zeros(45, dtype=np.int64)
    wh = np.zeros((6, 16), dtype=np.int64)
    whn = np.zeros(6, dtype=np.int64)
    wrow = np.zeros((3, 6), dtype=np.int64)
    wrowc = np.zeros((6, 64), dtype=np.int64)
    wkept = np.zeros((6, 45), dtype=np.int64)
    wps = np.zeros((8, 6), dtype=np.int64)
    wrng = np.zeros(7, dtype=np.uint64)
    wcaps = np.zeros((1, 6), dtype=np.int64)
    wstats = np.zeros((3, 45), dtype=np.int64)
    wsc = np.zeros((8, 64), dtype=np.int64)
    wstrat = np.ones(6, dtype=np.int64)  # every Rocket in a sample goes by smart_rocket
    for _ in range(MC_SAMPLES):
        for i in range(nu):
            pool[i] = unseen[i]
        _shuffle_s(rng, p + 1, pool, nu)
        pool_n = nu
        for q in range(n):
            if q == p:
                for c in range(hand_n[p]):
                    whands[q, c] = hands[p, c]
                whand_n[q] = hand_n[p]
                continue
            size = min(hand_n[q], pool_n)
            for c in range(size):
                pool_n -= 1
                whands[q, c] = pool[pool_n]
            whand_n[q] = size
        for q in range(n):
            oth_n[q] = 0
            if q == p:
                continue
            k = min(picks, whand_n[q])
            hl = whand_n[q]
            for c in range(hl):
                hbuf[c] = whands[q, c]
            for t in range(k):
                j = _below(rng, p + 1, hl)
                oth[q, t] = hbuf[j]
                for x in range(j, hl - 1):
                    hbuf[x] = hbuf[x + 1]
                hl -= 1
            oth_n[q] = k
        seed = _next(rng, p + 1)
        for ci in range(nc):
            for f in range(16):
                wcnt[f] = cnt[f]
            wcnt[DECK_N] = pool_n
            wcnt[CAP_N] = 0
            for i in range(pool_n):
                wdeck[i] = pool[i]
            for i in range(cnt[DISC_N]):
                wdisc[i] = disc[i]
            for q in range(n):
                whn[q] = whand_n[q]
                for c in range(whand_n[q]):
                    wh[q, c] = whands[q, c]
                for f in range(8):
                    wps[f, q] = 0
                wps[ROUND_PTS, q] = ps[ROUND_PTS, q]
            for sl in range(cnt[SLOTS]):
                for f in range(3):
                    wrow[f, sl] = row[f, sl]
                for c in range(row[ROW_N, sl]):
                    wrowc[sl, c] = rowc[sl, c]
            wrng[0] = seed
            # not a literal 0: Numba would also compile `_place_world` for Literal[int](0)
            m = np.int64(0)
            for q in range(n):
                if q == p:
                    for t in range(picks):
                        wsc[0, m] = cand[ci, t]
                        wsc[1, m] = q
                        m += 1
                else:
                    for t in range(oth_n[q]):
                        wsc[0, m] = oth[q, t]
                        wsc[1, m] = q
                        m += 1
            _place_world(
                wsc[0],
                wsc[1],
                m,
                wstrat,
                wcnt,
                wdeck,
                wdisc,
                wh,
                whn,
                wrow,
                wrowc,
                wkept,
                wps,
                wrng,
                wcaps,
                wstats,
                ft,
                bt,
                opts,
                wsc,
            )
            mine = wps[ROUND_PTS, p] - ps[ROUND_PTS, p]
            rival = -1_000_000
            for q in range(n):
                if q != p:
                    g = wps[ROUND_PTS, q] - ps[ROUND_PTS, q]
                    if g > rival:
                        rival = g
            totals[ci] += mine - rival
    best = 0
    for ci in range(1, nc):
        if totals[ci] > totals[best] + 1e-9:
            best = ci
    for t in range(picks):
        out[t] = cand[best, t]
    return picks


# (a call, not inlined into `_play_turn`: it holds every strategy, and the one huge inlined
# function that `_play_game` was took most of the Dragon kernel's cold compile)
@_no_refcount
def _choose(
    strategy, p, out, cnt, disc, hands, hand_n, row, rowc, kept, ps, rng, ft, bt, opts, hand, unseen
):
    """Step 1 for one seat with strategy random, greedy or position: write the chosen card
    ids into out; return how many.

    hand and unseen are scratch rows for the sorted hand and the unseen cards.
    """
    picks = min(cnt[PICKS], hand_n[p])
    if picks == 0:
        return 0
    if strategy == 0:
        n = hand_n[p]
        i = _below(rng, p + 1, n)
        out[0] = hands[p, i]
        if picks == 1:
            return 1
        j = _below(rng, p + 1, n - 1)
        if j >= i:
            j += 1
        out[1] = hands[p, j]
        return 2
    hs = _sorted_hand(hands, hand_n, p, ft, hand)
    if strategy == 1:
        nu = _unseen(cnt, disc, hands, hand_n, p, row, rowc, kept, ps, unseen)
        m = (cnt[N] - 1) * picks
        if picks == 1:
            best = hand[0]
            best_v = -1e18
            for i in range(hs):
                c = hand[i]
                v = _expected(cnt, row, ft, bt, opts, c, np.int64(0), unseen, nu, m)
                if v > best_v + 1e-9:
                    best = c
                    best_v = v
            out[0] = best
            return 1
        out[0] = hand[0]
        out[1] = hand[1]
        best_v = -1e18
        for i in range(hs):
            for j in range(i + 1, hs):
                a = hand[i]
                b = hand[j]
                shift = 0 if ft[2, a] == S_ROCKET else 1
                v = _expected(cnt, row, ft, bt, opts, a, np.int64(0), unseen, nu, m) + _expected(
                    cnt, row, ft, bt, opts, b, np.int64(shift), unseen, nu, m
                )
                if v > best_v + 1e-9:
                    out[0] = a
                    out[1] = b
                    best_v = v
        return 2
    # position
    if picks == 2:
        out[0] = hand[0]
        out[1] = hand[hs - 1]
        return 2
    low = -1
    high = -1
    rocket = -1
    for i in range(hs):
        c = hand[i]
        if ft[2, c] == S_ROCKET:
            if rocket < 0:
                rocket = c
        else:
            if low < 0:
                low = c
            high = c
    rocket_v = 0
    if rocket >= 0:
        for i in range(cnt[SLOTS]):
            if row[ROW_BODY, i] >= 0:
                v = _sure(cnt, row, ft, bt, opts, np.int64(rocket), i)
                if v > rocket_v:
                    rocket_v = v
    if low < 0:
        out[0] = rocket
        return 1
    low_v = _sure(cnt, row, ft, bt, opts, np.int64(low), np.int64(0))
    high_v = _sure(cnt, row, ft, bt, opts, np.int64(high), cnt[SLOTS] - 1)
    if rocket_v > 0 and rocket_v > low_v and rocket_v > high_v:
        out[0] = rocket
    elif high_v > 0 and high_v > low_v:
        out[0] = high
    else:
        out[0] = low
    return 1


# The Monte Carlo strategy is a chooser of its own, which `_pick` calls only in the games
# of the entry points that may need it (`play_many_mc`, `play_one_mc`), so the runs without
# it never compile it: its sample worlds were a sixth of the kernel's cold compile.
@_no_refcount
def _choose_mc(
    strategy, p, out, cnt, disc, hands, hand_n, row, rowc, kept, ps, rng, ft, bt, opts, hand, unseen
):
    """Step 1 for one seat with any strategy, montecarlo included (see `_choose`)."""
    if strategy == MONTECARLO and min(cnt[PICKS], hand_n[p]) > 0:
        return _mc_choose(
            p, out, cnt, disc, hands, hand_n, row, rowc, kept, ps, rng, ft, bt, opts, hand, unseen
        )
    return _choose(
        strategy,
        p,
        out,
        cnt,
        disc,
        hands,
        hand_n,
        row,
        rowc,
        kept,
        ps,
        rng,
        ft,
        bt,
        opts,
        hand,
        unseen,
    )


def _pick(
    mc,
    strategy,
    p,
    out,
    cnt,
    disc,
    hands,
    hand_n,
    row,
    rowc,
    kept,
    ps,
    rng,
    ft,
    bt,
    opts,
    hand,
    unseen,
):
    """Step 1 for one seat: `_choose_mc` if mc is the literal True, else `_choose`. Only
    compiled code calls it (see `_ol_pick`)."""
    raise NotImplementedError("compiled code only")


# mc is a literal (Literal[bool]: a compile-time constant, like a template argument), so
# each game loop holds a call to one chooser only, and one with mc=False never compiles the
# Monte Carlo strategy. (A dispatcher passed as an argument would do it too, but Numba's
# on-disk cache misses on dispatcher arguments in every new process.)
@overload(_pick, prefer_literal=True, inline="always")
def _ol_pick(
    mc,
    strategy,
    p,
    out,
    cnt,
    disc,
    hands,
    hand_n,
    row,
    rowc,
    kept,
    ps,
    rng,
    ft,
    bt,
    opts,
    hand,
    unseen,
):
    if not isinstance(mc, types.BooleanLiteral):
        return None  # (mc must be the constant True or False)
    chooser = _choose_mc if mc.literal_value else _choose

    def impl(
        mc,
        strategy,
        p,
        out,
        cnt,
        disc,
        hands,
        hand_n,
        row,
        rowc,
        kept,
        ps,
        rng,
        ft,
        bt,
        opts,
        hand,
        unseen,
    ):
        return chooser(
            strategy,
            p,
            out,
            cnt,
            disc,
            hands,
            hand_n,
            row,
            rowc,
            kept,
            ps,
            rng,
            ft,
            bt,
            opts,
            hand,
            unseen,
        )

    return impl


@_inlined
def _rocket_target(strategy, p, card, slots, ns, cnt, row, rng, ft, bt, opts):
    """Where seat p's Rocket goes (random, or strategies.smart_rocket)."""
    if strategy == 0:
        return slots[_below(rng, p + 1, ns)]
    power = ft[0, card]
    best = -1
    best_val = 0
    for k in range(ns):
        i = slots[k]
        b = row[ROW_BODY, i]
        if b >= 0 and row[ROW_POWER, i] + power >= bt[0, b]:
            v = _body_points(bt, opts, b)
            if v > best_val:
                best = i
                best_val = v
    if best >= 0:
        return best
    best_val = 1_000_000_000
    for k in range(ns):
        i = slots[k]
        b = row[ROW_BODY, i]
        if b >= 0 and row[ROW_POWER, i] + power >= bt[0, b]:
            continue
        v = _body_points(bt, opts, b) if b >= 0 else 0
        if v < best_val:
            best = i
            best_val = v
    if best >= 0:
        return best
    best = slots[0]
    best_val = -1_000_000_000
    for k in range(ns):
        i = slots[k]
        v = _body_points(bt, opts, row[ROW_BODY, i])
        if v > best_val:
            best = i
            best_val = v
    return best


# --- a turn ---------------------------------------------------------------------------


@_inlined
def _put(card, p, target, cnt, deck, disc, row, rowc, kept, ps, rng, caps, stats, ft, bt, opts):
    """Put one card under a slot, apply its special, take the body if reached."""
    row[ROW_POWER, target] += ft[0, card]
    rowc[target, row[ROW_N, target]] = card
    row[ROW_N, target] += 1
    extra = 0
    if ft[2, card] == S_STRING:
        drawn = -1
        if cnt[DECK_N] > 0 or opts[O_STRING_RESHUFFLE] == 1:
            drawn = _draw(cnt, deck, disc, rng, opts)
        if drawn >= 0:
            if opts[O_STRING_CARD] == 0:
                rowc[target, row[ROW_N, target]] = drawn
                row[ROW_N, target] += 1
                row[ROW_POWER, target] += ft[0, drawn]
            else:
                extra = ft[0, drawn]
                _to_discard(cnt, disc, drawn)
                _keep_deck(cnt, deck, disc, rng, opts)
    b = row[ROW_BODY, target]
    if b < 0:
        return
    if row[ROW_POWER, target] + extra < bt[0, b]:
        return
    doubled = False
    if opts[O_DOUBLE_WHEN] == 0:
        doubled = ft[2, card] == S_DOUBLE
    else:
        for c in range(row[ROW_N, target]):
            if ft[2, rowc[target, c]] == S_DOUBLE:
                doubled = True
    pts = _body_points(bt, opts, b) * (2 if doubled else 1)
    ps[ROUND_PTS, p] += pts
    ps[BODIES_ROUND, p] += 1
    ps[BODIES_GAME, p] += 1
    if bt[2, b] == B_HAND_LIMIT:
        ps[BONUS, p] += opts[O_THIRTEEN]
        ps[TOOK_13, p] += 1
    if bt[2, b] == B_BAD_LUCK:
        ps[TOOK_4, p] += 1
    k = cnt[CAP_N]
    if k < caps.shape[0]:
        caps[k, 0] = cnt[ROUND]
        caps[k, 1] = cnt[TURN]
        caps[k, 2] = p
        caps[k, 3] = b
        caps[k, 4] = 1 if doubled else 0
        caps[k, 5] = card
    cnt[CAP_N] += 1
    # stats: points and takes by the card that took the body
    stats[0, card] += pts
    stats[1, card] += 1
    for c in range(row[ROW_N, target]):
        x = rowc[target, c]
        trig = False
        if doubled and opts[O_DOUBLE_CARD] == 0:
            if opts[O_DOUBLE_WHEN] == 0:
                trig = x == card
            else:
                trig = ft[2, x] == S_DOUBLE
        if trig:
            kept[p, ps[KEPT_N, p]] = x
            ps[KEPT_N, p] += 1
        else:
            _to_discard(cnt, disc, x)
    _keep_deck(cnt, deck, disc, rng, opts)
    row[ROW_BODY, target] = -1
    row[ROW_N, target] = 0
    row[ROW_POWER, target] = 0


@_no_refcount
def _place_all(
    played,
    owner,
    m,
    strat,
    cnt,
    deck,
    disc,
    hands,
    hand_n,
    row,
    rowc,
    kept,
    ps,
    rng,
    caps,
    stats,
    ft,
    bt,
    opts,
    sc,
):
    """Step 2: order the m revealed cards and place them one by one (rules.GameState.place)."""
    # placement order: lowest power first, fewer lanterns on ties; Rockets last
    for i in range(1, m):
        j = i
        while j > 0 and _key(ft, played[j - 1]) > _key(ft, played[j]):
            t = played[j - 1]
            played[j - 1] = played[j]
            played[j] = t
            t = owner[j - 1]
            owner[j - 1] = owner[j]
            owner[j] = t
            j -= 1
    if opts[O_ROCKET_TIMING] == 0:
        p2 = sc[4]
        o2 = sc[5]
        w = 0
        for i in range(m):
            if ft[2, played[i]] != S_ROCKET:
                p2[w] = played[i]
                o2[w] = owner[i]
                w += 1
        for i in range(m):
            if ft[2, played[i]] == S_ROCKET:
                p2[w] = played[i]
                o2[w] = owner[i]
                w += 1
        for i in range(m):
            played[i] = p2[i]
            owner[i] = o2[i]
    slots = sc[3]
    k = 0
    for i in range(m):
        card = played[i]
        p = owner[i]
        # remove the card from its owner's hand, keeping the order of the others
        h = 0
        while hands[p, h] != card:
            h += 1
        for x in range(h, hand_n[p] - 1):
            hands[p, x] = hands[p, x + 1]
        hand_n[p] -= 1
        if ft[2, card] == S_ROCKET:
            ns = np.int64(0)  # (not a literal: a call would be compiled for Literal[int](0) too)
            for s in range(cnt[SLOTS]):
                if opts[O_ROCKET_EMPTY] == 1 or row[ROW_BODY, s] >= 0:
                    slots[ns] = s
                    ns += 1
            if ns == 0:
                _to_discard(cnt, disc, card)
                _keep_deck(cnt, deck, disc, rng, opts)
                continue
            target = _rocket_target(strat[p], p, card, slots, ns, cnt, row, rng, ft, bt, opts)
        else:
            target = -1
            if opts[O_PLACEMENT] == 0:
                if k < cnt[SLOTS]:
                    target = k
            else:
                seen = 0
                for s in range(cnt[SLOTS]):
                    if row[ROW_BODY, s] >= 0:
                        if seen == k:
                            target = s
                            break
                        seen += 1
            k += 1
            if target < 0:
                _to_discard(cnt, disc, card)
                _keep_deck(cnt, deck, disc, rng, opts)
                continue
        _put(card, p, target, cnt, deck, disc, row, rowc, kept, ps, rng, caps, stats, ft, bt, opts)


@_no_refcount
def _play_turn(
    mc,
    strat,
    cnt,
    deck,
    disc,
    dragon,
    hands,
    hand_n,
    row,
    rowc,
    kept,
    ps,
    rng,
    caps,
    stats,
    ft,
    bt,
    opts,
    sc,
    rowtmp,
    rowctmp,
):
    """One turn: choose, place, complete the dragon, draw (or end the round).

    sc is scratch space: rows 0..5 hold the played cards, owners, choices, Rocket slots
    and the reordering buffers; rows 6, 7 belong to `_sort_row`; rows 8, 9 hold a
    strategy's sorted hand and unseen cards; row SC_DRAWN marks the slots step 3 fills.
    """
    n = cnt[N]
    cnt[TURN] += 1
    cnt[TURNS] += 1
    # 1. choose (from the state before any card moves)
    played = sc[0]
    owner = sc[1]
    m = np.int64(0)  # (not a literal, as in `_mc_choose`)
    out = sc[2]
    for p in range(n):
        k = _pick(
            mc,
            strat[p],
            p,
            out,
            cnt,
            disc,
            hands,
            hand_n,
            row,
            rowc,
            kept,
            ps,
            rng,
            ft,
            bt,
            opts,
            sc[8],
            sc[9],
        )
        for i in range(k):
            played[m] = out[i]
            owner[m] = p
            m += 1
    for i in range(m):
        stats[2, played[i]] += 1
    # 2. place: through `_place_world`, the one compiled copy of step 2 (the Monte Carlo
    # worlds call it too); inlining `_place_all` here as well compiled it twice
    _place_world(
        played,
        owner,
        m,
        strat,
        cnt,
        deck,
        disc,
        hands,
        hand_n,
        row,
        rowc,
        kept,
        ps,
        rng,
        caps,
        stats,
        ft,
        bt,
        opts,
        sc,
    )
    # 3. complete the dragon
    gaps = 0
    for s in range(cnt[SLOTS]):
        if row[ROW_BODY, s] < 0:
            gaps += 1
            sc[SC_DRAWN, s] = 1
        else:
            sc[SC_DRAWN, s] = 0
    if gaps > cnt[DRAGON_N]:
        if opts[O_PARTIAL] == 1:
            for s in range(cnt[SLOTS]):
                if row[ROW_BODY, s] < 0 and cnt[DRAGON_N] > 0:
                    cnt[DRAGON_N] -= 1
                    row[ROW_BODY, s] = dragon[cnt[DRAGON_N]]
            _sort_row(cnt, row, rowc, bt, opts, sc, rowtmp, rowctmp)
        return False
    for s in range(cnt[SLOTS]):
        if row[ROW_BODY, s] < 0:
            cnt[DRAGON_N] -= 1
            row[ROW_BODY, s] = dragon[cnt[DRAGON_N]]
    _sort_row(cnt, row, rowc, bt, opts, sc, rowtmp, rowctmp)
    if opts[O_ROUND_END] == 1 and cnt[DRAGON_N] == 0:
        return False
    if cnt[TURN] >= opts[O_MAX_TURNS]:
        cnt[STALLED] += 1
        return False
    # 4. draw
    _draw_cards(cnt, deck, disc, hands, hand_n, ps, rng, opts)
    return True


#: Rows of the scratch array `sc` (see `_play_turn`).
SC_ROWS = 11


@njit(cache=True, _nrt=False, inline="always")
def _play_game(
    mc,
    n,
    seed,
    strat,
    opts,
    ft,
    bt,
    caps,
    stats,
    cnt,
    deck,
    disc,
    dragon,
    hands,
    hand_n,
    row,
    rowc,
    kept,
    ps,
    rng,
    sc,
    rowtmp,
    rowctmp,
):
    """Play one game (rulebook "Setup" to "End of Game", as `rules.play_game`) in the
    given state arrays, which are cleared first; the result is left in ps and cnt.

    mc (the constant True or False, see `_pick`): whether a seat may play montecarlo.

    caps receives the captures, stats per-card counts (see `play_one`). Without reference
    counting (see `_no_refcount`): the state arrays are the caller's, allocated once per
    batch by `run_games`, so nothing here allocates.
    """
    # as fresh as np.zeros: the game starts from the same state whatever came before
    cnt[:] = 0
    deck[:] = 0
    disc[:] = 0
    dragon[:] = 0
    hands[:, :] = 0
    hand_n[:] = 0
    row[:, :] = 0
    rowc[:, :] = 0
    kept[:, :] = 0
    ps[:, :] = 0
    rng[:] = 0
    sc[:, :] = 0
    rowtmp[:, :] = 0
    rowctmp[:, :] = 0
    cnt[N] = n
    cnt[SLOTS] = 4 if n == 2 else n
    cnt[PICKS] = 2 if n == 2 else 1
    cnt[BASE] = 4 if n == 2 else 3
    for s in range(n + 1):
        rng[s] = _derive(seed, s)
    new_round = True
    while True:
        if new_round:
            # Setup, and each new round (one call site keeps the inlined code small)
            _setup_round(
                cnt,
                deck,
                disc,
                dragon,
                hands,
                hand_n,
                row,
                rowc,
                kept,
                ps,
                rng,
                bt,
                opts,
                sc,
                rowtmp,
                rowctmp,
            )
            new_round = False
        going = _play_turn(
            mc,
            strat,
            cnt,
            deck,
            disc,
            dragon,
            hands,
            hand_n,
            row,
            rowc,
            kept,
            ps,
            rng,
            caps,
            stats,
            ft,
            bt,
            opts,
            sc,
            rowtmp,
            rowctmp,
        )
        if going:
            continue
        # End of Round: record the points; the game ends at the target.
        best = -1_000_000
        for p in range(n):
            ps[SCORE, p] += ps[ROUND_PTS, p]
            if ps[SCORE, p] > best:
                best = ps[SCORE, p]
        if best >= opts[O_TARGET] or cnt[ROUND] >= opts[O_MAX_ROUNDS]:
            cnt[OVER] = 1
            return
        new_round = True


def _new_state() -> tuple[np.ndarray, ...]:
    """Fresh state arrays for `_play_game`: cnt, deck, disc, dragon, hands, hand_n, row,
    rowc, kept, ps, rng, sc, rowtmp, rowctmp (shapes in the module docstring)."""
    return (
        np.zeros(16, dtype=np.int64),
        np.zeros(45, dtype=np.int64),
        np.zeros(45, dtype=np.int64),
        np.zeros(19, dtype=np.int64),
        np.zeros((6, 16), dtype=np.int64),
        np.zeros(6, dtype=np.int64),
        np.zeros((3, 6), dtype=np.int64),
        np.zeros((6, 64), dtype=np.int64),
        np.zeros((6, 45), dtype=np.int64),
        np.zeros((8, 6), dtype=np.int64),
        np.zeros(7, dtype=np.uint64),
        np.zeros((SC_ROWS, 64), dtype=np.int64),
        np.zeros((3, 6), dtype=np.int64),
        np.zeros((6, 64), dtype=np.int64),
    )


# The entry points are compiled without NRT (`_no_refcount`) and take every array they
# write, allocated by their Python callers (`run_games`, `game_record`): so the game loop
# and the batch loop can be inlined into the entry in Numba's IR (`inline="always"`)
# without taking a reference count per game. Inlined, not called: every compiled function
# links a copy of all it calls, and LLVM optimises and generates the machine code of that
# copy again, so each compiled level between the entry and `_play_turn` (`_play_many`,
# `_play_game`) cost another pass over the whole game (commit 8c2cc9d). Two entry points of one body, each with its own on-disk cache
# (`bombsolve warmup` and the compile announcement ask whether an entry point is cached).


@_no_refcount
def play_one(n, seed, strat, opts, ft, bt, caps, stats, state):
    """Play one game, no seat playing montecarlo (see `_play_one`)."""
    _play_one(False, n, seed, strat, opts, ft, bt, caps, stats, state)


@_no_refcount
def play_one_mc(n, seed, strat, opts, ft, bt, caps, stats, state):
    """Play one game, any seat may play montecarlo (see `_play_one`)."""
    _play_one(True, n, seed, strat, opts, ft, bt, caps, stats, state)


@njit(cache=True, _nrt=False, inline="always")
def _play_one(mc, n, seed, strat, opts, ft, bt, caps, stats, state):
    """Play one game (mc: whether a seat may play montecarlo, see `_pick`) in `state`
    (`_new_state`); the result is left in its ps and cnt. caps receives the captures,
    stats per-card counts.

    stats[0, card] points taken by the card, stats[1, card] bodies taken, stats[2, card]
    times played.
    """
    cnt, deck, disc, dragon, hands, hand_n, row, rowc, kept, ps, rng, sc, rowtmp, rowctmp = state
    _play_game(
        mc,
        n,
        seed,
        strat,
        opts,
        ft,
        bt,
        caps,
        stats,
        cnt,
        deck,
        disc,
        dragon,
        hands,
        hand_n,
        row,
        rowc,
        kept,
        ps,
        rng,
        sc,
        rowtmp,
        rowctmp,
    )


@_no_refcount
def play_many(n, seeds, strat, opts, ft, bt, out, caps, state):
    """Play one game per seed, no seat playing montecarlo (see `_play_many`)."""
    _play_many(False, n, seeds, strat, opts, ft, bt, out, caps, state)


@_no_refcount
def play_many_mc(n, seeds, strat, opts, ft, bt, out, caps, state):
    """Play one game per seed, any seat may play montecarlo (see `_play_many`)."""
    _play_many(True, n, seeds, strat, opts, ft, bt, out, caps, state)


@njit(cache=True, _nrt=False, inline="always")
def _play_many(mc, n, seeds, strat, opts, ft, bt, out, caps, state):
    """Play one game per seed (mc: whether a seat may play montecarlo, see `_pick`), all in
    the one set of state arrays `state` (`_new_state`; `_play_game` clears them per game),
    into `out` (`_new_results`, zeros): scores[G, n], bodies[G, n] used by the tie-break,
    winners[G, n] as 0/1, info[G, 4] = rounds, turns, stalled rounds, reshuffles (the
    discard pile shuffled into a new deck), stats[G, 3, 45]: per game, points taken by
    each card, bodies taken by it, times it was played; took[G, 2, n]: how many 13s and
    bad-luck 4s each player took in the game. caps: a [1, 6] array for the captures.
    """
    scores, bodies, winners, info, stats, took = out
    cnt, deck, disc, dragon, hands, hand_n, row, rowc, kept, ps, rng, sc, rowtmp, rowctmp = state
    tb = BODIES_GAME if opts[O_TIEBREAK] == 0 else BODIES_ROUND
    for i in range(seeds.size):
        _play_game(
            mc,
            n,
            seeds[i],
            strat,
            opts,
            ft,
            bt,
            caps,
            stats[i],
            cnt,
            deck,
            disc,
            dragon,
            hands,
            hand_n,
            row,
            rowc,
            kept,
            ps,
            rng,
            sc,
            rowtmp,
            rowctmp,
        )
        best = -1_000_000
        for p in range(n):
            scores[i, p] = ps[SCORE, p]
            bodies[i, p] = ps[tb, p]
            if ps[SCORE, p] > best:
                best = ps[SCORE, p]
        fewest = 1_000_000
        for p in range(n):
            if ps[SCORE, p] == best and ps[tb, p] < fewest:
                fewest = ps[tb, p]
        for p in range(n):
            if ps[SCORE, p] == best and ps[tb, p] == fewest:
                winners[i, p] = 1
        info[i, 0] = cnt[ROUND]
        info[i, 1] = cnt[TURNS]
        info[i, 2] = cnt[STALLED]
        info[i, 3] = cnt[RESHUFFLES]
        for p in range(n):
            took[i, 0, p] = ps[TOOK_13, p]
            took[i, 1, p] = ps[TOOK_4, p]


def _new_results(g: int, n: int) -> tuple[np.ndarray, ...]:
    """Zeroed result arrays of `_play_many` for g games of n players: scores, bodies,
    winners, info, stats, took."""
    return (
        np.zeros((g, n), dtype=np.int64),
        np.zeros((g, n), dtype=np.int64),
        np.zeros((g, n), dtype=np.int64),
        np.zeros((g, 4), dtype=np.int64),
        np.zeros((g, 3, 45), dtype=np.int64),
        np.zeros((g, 2, n), dtype=np.int64),
    )


def run_games(
    n: int,
    seeds: np.ndarray,
    strategies: list[int],
    options: Options | None = None,
    cards: Cards | None = None,
) -> dict[str, np.ndarray]:
    """Play one game per seed in the kernel; return named result arrays."""
    ft, bt = tables(cards)
    opts = encode_options(options or Options())
    strat = np.asarray(strategies, dtype=np.int64)
    entry = play_many_mc if MONTECARLO in strat else play_many
    seeds = np.asarray(seeds, dtype=np.uint64)
    out = _new_results(seeds.size, n)
    caps = np.zeros((1, 6), dtype=np.int64)
    entry(n, seeds, strat, opts, ft, bt, out, caps, _new_state())
    scores, bodies, winners, info, stats, took = out
    return {
        "scores": scores,
        "bodies": bodies,
        "winners": winners,
        "rounds": info[:, 0],
        "turns": info[:, 1],
        "stalled": info[:, 2],
        "reshuffles": info[:, 3],
        "card_points": stats[:, 0],
        "card_takes": stats[:, 1],
        "card_plays": stats[:, 2],
        "took_13": took[:, 0],
        "took_4": took[:, 1],
    }


def game_record(
    n: int, seed: int, strategies: list[int], options: Options | None = None
) -> tuple[list[int], list[tuple[int, ...]], int, int]:
    """Play one game; return (scores, captures, rounds, turns) for comparison with rules.py."""
    ft, bt = tables()
    opts = encode_options(options or Options())
    caps = np.zeros((MAX_CAPS, 6), dtype=np.int64)
    stats = np.zeros((3, 45), dtype=np.int64)
    entry = play_one_mc if MONTECARLO in strategies else play_one
    state = _new_state()
    strat = np.asarray(strategies, dtype=np.int64)
    entry(n, np.uint64(seed), strat, opts, ft, bt, caps, stats, state)
    cnt, ps = state[0], state[9]
    k = min(int(cnt[CAP_N]), MAX_CAPS)
    captures = [tuple(int(x) for x in caps[i, :6]) for i in range(k)]
    return [int(x) for x in ps[SCORE, :n]], captures, int(cnt[ROUND]), int(cnt[TURNS])

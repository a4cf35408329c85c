"""The verdict search of `exhaust` with one table of decided positions shared by many deals.

Rulebook A and G ("Blitz"): after the shuffle the game has no chance left, so whether a win
is reachable from a position is a property of the position alone, not of the deal (or the
line of play) it was reached from. The kernel's key (layout.py) holds everything the rules
read (the turn counter is kept after the key and never read), so two deals that reach one
key reach one position. The search here keeps what it has *proven* about positions in a
table that lives across the deals of a batch:

- LOST: no win is reachable (every move was tried, and each led to a loss, a position
  `prune.dead` proves dead, or a position already LOST);
- WON: a win is reachable (the position lies on a line that won).

Those two are facts about the position, so a later deal that reaches one is answered from
it at once. Everything else a search learns is tied to that one search and is never read
by another: a position on the search's current line, and one it finished without a proof.
The second comes from cycles: when a line returns to a position still on the line (or to
one finished that way), the positions it passed through are finished without having seen
all of what is reachable from them (the rest is explored from the repeated position, higher
up), so they are marked *seen by this search* and their parent inherits the taint, up to
the root. The search's own verdict is still exact (a depth-first search that skips the
positions it has seen finds a win iff one is reachable), only no LOST is stored for them. A
search stopped by the node limit stores nothing false either: what it marked LOST was
proven below the point it stopped at; its line stays unproven.

So the verdicts equal those of `kernel.dfs` on every deal (tests/allisbomb/
test_allisbomb_exhaust_shared.py checks that on random Blitz deals, and that a table kept
over many deals answers as a fresh one). Node counts do not: a deal answered from an
earlier deal's positions enters fewer.

Table: `index` (uint64 [slots], a power of two: generation << 32 | entry number, 0 free)
over `entries` (uint64 [rows, key_words(n) + 2]: the hash, the status word, the key
words). Status: bits 0-1 the proof (0 none, 1 LOST, 2 WON), bit 2 on the current line
(else: finished without a proof), bits 3-63 the number of the search that last entered it
(bits 2 and up are read only when that number is the current search's). The deals of a
batch run as searches 1, 2, 3, ... of one table generation; `solve_shared` starts a new
generation (an empty table) when the table is fuller than `refill` entries before a deal.
"""

from __future__ import annotations

import numpy as np

from bombsolve.solvers.allisbomb.kernel.copies import kernel_search_key
from bombsolve.solvers.allisbomb.kernel.kernel import (
    CODE_LOSS,
    CODE_UNDECIDED,
    CODE_WIN,
    E_CUT,
    E_CYCLE,
    E_DEAD,
    E_MOVES,
    NO_MORE,
    OTHER_ORDER,
    R_LOSS,
    R_WIN,
    _hash_words,
    _header,
    _next_child,
    _tt_prefetch,
    setup,
)
from bombsolve.solvers.allisbomb.kernel.layout import H_ENDING, H_OUTCOME, key_words
from bombsolve.solvers.allisbomb.kernel.prune import dead, still_alive
from bombsolve.solvers.common.numba_entry import entry_point
from bombsolve.solvers.common.numba_jit import njit

#: Digest of the project files this module imports (bombsolve.solvers.common.numba_deps).
NUMBA_DEPENDS_ON = "87e76dada4e5e6e5"

#: Proofs in bits 0-1 of an entry's status word.
NONE, LOST, WON = 0, 1, 2
#: Status bit 2: the position is on the current search's line.
ON_LINE = 4
#: Entry number bits of an index slot (the generation is above bit 32).
ENTRY_BITS = 32


@njit(cache=True, inline="always")
def _find(index, entries, gen, h, key, KW):
    """(slot, entry) of the position whose key is key[0:KW] (hash h); entry -1 if it is not
    in the table (then slot is the free slot where it goes). Exact: keys are compared."""
    g = np.uint64(gen)
    mask = index.shape[0] - 1
    emask = (np.uint64(1) << np.uint64(ENTRY_BITS)) - np.uint64(1)
    idx = np.int64(h & np.uint64(mask))
    while True:
        t = index[idx]
        if (t >> np.uint64(ENTRY_BITS)) != g:
            return idx, np.int64(-1)
        e = np.int64(t & emask)
        if entries[e, 0] == h:
            same = True
            for j in range(KW):
                if entries[e, 2 + j] != key[j]:
                    same = False
                    break
            if same:
                return idx, e
        idx = (idx + 1) & mask


@njit(cache=True, inline="always")
def _put(index, entries, idx, e, gen, h, key, KW, status):
    index[idx] = (np.uint64(gen) << np.uint64(ENTRY_BITS)) | np.uint64(e)
    entries[e, 0] = h
    entries[e, 1] = status
    for j in range(KW):
        entries[e, 2 + j] = key[j]


@njit(cache=True, inline="always")
def _enter(index, entries, idx, e, filled, gen, h, key, KW, line, fidx, t):
    """The position at depth t of the line goes on the line: its entry e, or (e < 0) a new
    entry at the free slot idx while the table has room (else fidx[t] = -1: it goes
    unrecorded). Returns the next free entry."""
    if e >= 0:
        entries[e, 1] = line
        fidx[t] = e
    elif filled < entries.shape[0]:
        _put(index, entries, idx, filled, gen, h, key, KW, line)
        fidx[t] = filled
        filled += 1
    else:
        fidx[t] = -1
    return filled


@njit(cache=True, inline="always")
def _prove(entries, e, proof):
    entries[e, 1] = (entries[e, 1] & ~np.uint64(3)) | np.uint64(proof)


@njit(cache=True, inline="always")
def _won_line(entries, fidx, d):
    """Every position on the line states[0..d] reaches the win it just found."""
    for t in range(d + 1):
        if fidx[t] >= 0:
            _prove(entries, fidx[t], WON)


@entry_point(cache=True, _nrt=False)
def shared_dfs(
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
    search,
    fill,
    node_limit,
    states,
    fch,
    fk,
    fplen,
    fstarted,
    fidx,
    ftaint,
    buf,
    tmp,
    cs,
    order,
):
    """Exhaustive DFS from `root` over the shared table (module docstring), trying moves in
    `order` (as `kernel.dfs`'s). `search` is this search's number (above every earlier one
    of the generation), fill[0] the table's next free entry (updated). Returns (code, nodes,
    reasons). Node counts as `kernel.dfs` counts them: the root and every position entered.
    """
    KW = key_words(n)
    L = states.shape[1]
    max_depth = states.shape[0] - 1
    cs[3] = order
    cur = np.uint64(search) << np.uint64(3)
    line = cur | np.uint64(ON_LINE)
    copy_keys = info[info.shape[0] - 1] != 0
    kbuf = buf.view(np.uint64)
    if _header(root, n, H_OUTCOME) == R_WIN:
        return CODE_WIN, 0, 0
    if _header(root, n, H_OUTCOME) == R_LOSS:
        return CODE_LOSS, 0, _header(root, n, H_ENDING)
    filled = fill[0]
    rkey = root
    if copy_keys and kernel_search_key(root, n, info, kbuf, tmp):
        rkey = kbuf
    h = _hash_words(rkey, KW)
    idx, e = _find(index, entries, gen, h, rkey, KW)
    if e >= 0:
        proof = entries[e, 1] & np.uint64(3)
        if proof == LOST:
            return CODE_LOSS, 1, 0
        if proof == WON:
            return CODE_WIN, 1, 0
    filled = _enter(index, entries, idx, e, filled, gen, h, rkey, KW, line, fidx, 0)
    for j in range(L):
        states[0, j] = root[j]
    fstarted[0] = 0
    ftaint[0] = 0
    nodes = 1
    reasons = 0
    d = 0
    root_alive = not dead(root, n, info)
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
            ext,
            cs,
            buf,
            tmp,
        )
        if status == NO_MORE:
            e = fidx[d]
            if ftaint[d] == 0:
                if e >= 0:
                    _prove(entries, e, LOST)
            else:
                if e >= 0:
                    entries[e, 1] = cur  # finished by this search, without a proof
                if d > 0:
                    ftaint[d - 1] = 1
            d -= 1
            continue
        if status < 0:  # too many choices or moves: give up
            if status == OTHER_ORDER:
                continue  # not a move of its own: the next one
            fill[0] = filled
            return CODE_UNDECIDED, nodes, reasons | E_MOVES
        child = states[d + 1]
        res = _header(child, n, H_OUTCOME)
        if res == R_WIN:
            _won_line(entries, fidx, d)
            fill[0] = filled
            return CODE_WIN, nodes, reasons
        if res == R_LOSS:
            reasons |= _header(child, n, H_ENDING)
            continue
        key = child
        if copy_keys and kernel_search_key(child, n, info, kbuf, tmp):
            key = kbuf
        h = _hash_words(key, KW)
        _tt_prefetch(index, h, index.shape[0])
        alive = (d > 0 or root_alive) and still_alive(states[d], child, n, info)
        if not alive and dead(child, n, info):
            reasons |= E_DEAD
            continue
        idx, e = _find(index, entries, gen, h, key, KW)
        if e >= 0:
            st = entries[e, 1]
            proof = st & np.uint64(3)
            if proof == LOST:
                continue
            if proof == WON:
                _won_line(entries, fidx, d)
                fill[0] = filled
                return CODE_WIN, nodes, reasons
            if (st & ~np.uint64(7)) == cur:
                # seen by this search: on the line (a cycle) or finished unproven
                if st & np.uint64(ON_LINE):
                    reasons |= E_CYCLE
                ftaint[d] = 1
                continue
            # entered by an earlier search that proved nothing of it: search it again
        if nodes >= node_limit or d + 1 >= max_depth:
            if nodes < node_limit:
                # cut (as kernel.dfs): the position above it finishes unproven, so nothing
                # whose subtree was cut is ever stored LOST in the shared table
                reasons |= E_CUT
                ftaint[d] = 1
                continue
            fill[0] = filled
            return CODE_UNDECIDED, nodes, reasons
        nodes += 1
        filled = _enter(index, entries, idx, e, filled, gen, h, key, KW, line, fidx, d + 1)
        d += 1
        fstarted[d] = 0
        ftaint[d] = 0
    fill[0] = filled
    if reasons & E_CUT:
        return CODE_UNDECIDED, nodes, reasons  # no win, but not all of it was searched
    if fidx[0] >= 0:
        _prove(entries, fidx[0], LOST)  # the whole reachable set was searched: no win
    return CODE_LOSS, nodes, reasons


@entry_point(cache=True)
def solve_shared(
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
    state,
    node_limit,
    refill,
    order,
    frames,
    out_code,
    out_nodes,
    out_reason,
):
    """Decide each row of `decks` (card ids, top first) with `shared_dfs`, one table for
    all of them; results into the out arrays. `state` = [generation, search number, next
    free entry] of the table, read and updated (the caller keeps it with the table, so the
    table can go on over calls). Before a deal, a table holding more than `refill` entries
    is emptied (a new generation; `index` is zeroed when the generation counter would
    overflow its 32 bits)."""
    states, fch, fk, fplen, fstarted, fidx, ftaint = frames
    buf = np.zeros(2 * n + 8, np.int64)
    tmp = np.zeros(2 * n + 8, np.int64)
    cs = np.zeros(4, np.int64)
    root = np.zeros(states.shape[1], np.uint64)
    fill = np.zeros(1, np.int64)
    for r in range(decks.shape[0]):
        if state[0] == 0 or state[2] > refill:
            state[0] += 1
            if state[0] >= 4294967295:
                index[:] = 0
                state[0] = 1
            state[1] = 0
            state[2] = 0
        state[1] += 1
        fill[0] = state[2]
        setup(decks[r], n, players, root)
        code, nodes, reasons = shared_dfs(
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
            state[0],
            state[1],
            fill,
            node_limit,
            states,
            fch,
            fk,
            fplen,
            fstarted,
            fidx,
            ftaint,
            buf,
            tmp,
            cs,
            order,
        )
        state[2] = fill[0]
        out_code[r] = code
        out_nodes[r] = nodes
        out_reason[r] = reasons


@njit(cache=True)
def new_frames(max_depth, L, maxc):
    """The search stacks of `solve_shared` (states, fch, fk, fplen, fstarted, fidx, ftaint)."""
    return (
        np.zeros((max_depth + 1, L), np.uint64),
        np.zeros((max_depth + 1, maxc), np.int32),
        np.zeros((max_depth + 1, maxc), np.int32),
        np.zeros(max_depth + 1, np.int32),
        np.zeros(max_depth + 1, np.int32),
        np.zeros(max_depth + 1, np.int64),
        np.zeros(max_depth + 1, np.int8),
    )

"""Best-first search for a win: the positions nearest the win conditions expanded first.

A depth-first search tries the moves in a fixed order and, once a line has gone wrong,
proves every position below the wrong turn lost before it changes that turn. On card sets
that put cards back (moves from `anywhere`, exchanges with the DISCARD PILE, retrievals
by class) those subtrees are large, and which of them a search meets first is luck of its
move order. A best-first search keeps every position it has built in an open list and
expands next the one that looks nearest a win (`progress`): the win conditions of
rulebook E (and G's MOSQUITOS and WAKING UP) it does not yet meet, then a DECK of a few
cards last (the PRINCESS's winning turn draws from it, D.2), then the deeper line, then
the position stored first. The order only decides which position is looked at next: a
win found is a line of legal turns (replayed like any other), and the search claims a
loss only when it expanded every reachable position and cut nothing.

It is the reference's `search.best_first.reference_best_first` compiled, position for
position: the same children in the same order (`kernel._next_child`, order 0), the same
table key (copy-symmetric, copies.py), the same dead positions (prune.py) and the same
ties, so the two store the same positions and answer the same line.
"""

from __future__ import annotations

import numpy as np

from bombsolve.solvers.allisbomb.kernel.copies import kernel_search_key
from bombsolve.solvers.allisbomb.kernel.kernel import (
    CODE_LOSS,
    CODE_PAUSED,
    CODE_UNDECIDED,
    CODE_WIN,
    DECK,
    DISCARD,
    DONE,
    E_CUT,
    E_DEAD,
    E_MOVES,
    EQUIP0,
    EQUIP1,
    H_DECK,
    H_ENDING,
    H_OUTCOME,
    NO_MORE,
    OTHER_ORDER,
    OUT,
    R_LOSS,
    R_WIN,
    _hash_words,
    _header,
    _next_child,
    _side,
    _tt_find,
    _tt_put,
    _zone,
)
from bombsolve.solvers.allisbomb.kernel.layout import key_words
from bombsolve.solvers.allisbomb.kernel.prune import dead, still_alive
from bombsolve.solvers.common.numba_jit import njit

#: Digest of the project files this module imports (bombsolve.solvers.common.numba_deps): a change to
#: them changes this file too, so Numba rebuilds its on-disk cache of this module.
NUMBA_DEPENDS_ON = "87e76dada4e5e6e5"

#: The range of a priority's depth part (`_priority`); the position's number (the order
#: it was stored in) fills the low 32 bits.
DEPTH_SPAN = 1024
#: A position whose DECK holds fewer cards is expanded after the others of its progress:
#: the PRINCESS's winning turn draws from the DECK (D.2), and such lines mostly lose.
SHORT_DECK = 4
#: Most progress counted (so the packed priority fits an int64).
MAX_PROGRESS = 1 << 13


@njit(cache=True)
def progress(s, n, info, prophets):
    """How far the position (a kernel row) is from the win conditions it can read
    (`search.best_first.progress` on rules.State, which states the rule): 0 is every
    condition met. `prophets` is the mask of the PROPHET cards (card c is bit c)."""
    b = s.view(np.int8)
    v = 0
    d = np.int64(b[2 * n])
    waking = info[0] != 0
    if d < 0:
        v += 2  # no PROPHECY yet (rulebook E.1), and 1 more without an ignited PROPHET
        m = np.uint64(prophets)
        c = 0
        seen = False
        while m != 0:
            if m & np.uint64(1) and _side(b, n, c) == 1:
                z = _zone(b, n, c)
                if z != DISCARD and z != OUT:
                    seen = True
            m >>= np.uint64(1)
            c += 1
        if not seen:
            v += 1
    elif waking:
        if _zone(b, n, d) != DISCARD:
            v += 1  # G, "Waking Up": the DESIRED DISH in the DISCARD PILE
    else:
        if _side(b, n, d) == 0:
            v += 1  # E.2: the DESIRED DISH ignited
        if _zone(b, n, d) != DECK:
            v += 1  # E.2: in the DECK, where the PRINCESS can EQUIP it
    for w in (1, 2):  # the PRINCESS, and with WAKING UP the THRONE (E.3, G)
        c = np.int64(info[w])
        if c < 0 or (w == 2 and not waking):
            continue
        if _side(b, n, c) == 0:
            v += 1
        z = _zone(b, n, c)
        if z == DISCARD or z == OUT:
            v += 2
        if w == 1 and z != EQUIP0 and z != EQUIP1:
            v += 1  # E.3: the PRINCESS wins when she is played
    if info[3] >= 0:  # G, "Mosquitos": both in the DISCARD PILE
        m = np.uint64(info[3]) | (np.uint64(info[4]) << np.uint64(31))
        c = 0
        while m != 0:
            if m & np.uint64(1):
                if _zone(b, n, c) != DISCARD:
                    v += 1
            m >>= np.uint64(1)
            c += 1
    return min(v, MAX_PROGRESS - 1)


@njit(cache=True, inline="always")
def _priority(s, n, info, prophets, depth, stored):
    """The open list's key of a position (lower is expanded first): its `progress`, a DECK
    of fewer than SHORT_DECK cards after the others of its progress, then the deeper line,
    last the position stored first (`stored`, the low 32 bits)."""
    short = 1 if _header(s, n, H_DECK) < SHORT_DECK else 0
    p = (progress(s, n, info, prophets) * 2 + short) * DEPTH_SPAN + DEPTH_SPAN - 1 - depth
    return (p << 32) | stored


@njit(cache=True, inline="always")
def _heap_push(heap, size, key):
    i = size
    heap[i] = key
    while i > 0:
        up = (i - 1) >> 1
        if heap[up] <= heap[i]:
            break
        heap[up], heap[i] = heap[i], heap[up]
        i = up
    return size + 1


@njit(cache=True, inline="always")
def _heap_pop(heap, size):
    top = heap[0]
    size -= 1
    heap[0] = heap[size]
    i = 0
    while True:
        a = 2 * i + 1
        if a >= size:
            break
        if a + 1 < size and heap[a + 1] < heap[a]:
            a += 1
        if heap[i] <= heap[a]:
            break
        heap[a], heap[i] = heap[i], heap[a]
        i = a
    return top, size


@njit(cache=True)
def best_first(
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
    pause_at,
    pause_built,
    pool,
    parent,
    depth,
    ordinal,
    heap,
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
    prophets,
):
    """Best-first search from `root` (module docstring), `prophets` the mask of the PROPHET
    cards (`progress`).
    Returns (code, nodes, reasons, turns): nodes counts the positions stored (the root
    included), as `kernel.dfs` counts the positions it enters; a win's line is left in
    sol[0:turns] (sol_len[t] choices).

    It answers undecided before it would store a position past `node_limit`, and pauses
    (CODE_PAUSED, its counters in ctl) once it has stored `pause_at` positions or built
    `pause_built` moves in this call; called again with ctl[0] == 1 and the same arrays it
    goes on where it stopped, inside a position's moves too. `pool` (node_limit rows of
    the state), `parent`, `depth`, `ordinal` (which of its parent's moves made it) and
    `heap` (the open list) hold the stored positions; `states`, `fch`, `fk`, `fplen` and
    `fstarted` are the position being expanded (kernel._frames' rows 0 and 1);
    `index`/`entries`/`gen` the table (`kernel._tt_find`), large enough for node_limit
    entries; `sol` has as many rows as the deepest line followed (a move into a position
    that deep is cut). ctl holds at least 5 slots."""
    KW = key_words(n)
    L = pool.shape[1]
    max_depth = sol.shape[0]
    cap = index.shape[0]
    cs[3] = 0
    if _header(root, n, H_OUTCOME) == R_WIN:
        return CODE_WIN, 0, 0, 0
    if _header(root, n, H_OUTCOME) == R_LOSS:
        return CODE_LOSS, 0, _header(root, n, H_ENDING), 0
    copy_keys = info[info.shape[0] - 1] != 0
    kbuf = buf.view(np.uint64)
    root_alive = not dead(root, n, info)
    if ctl[0] == 1:  # resume a paused search
        size, nodes, reasons, x = ctl[1], ctl[2], ctl[3], ctl[4]
    else:
        key = root
        if copy_keys and kernel_search_key(root, n, info, kbuf, tmp):
            key = kbuf
        h = _hash_words(key, KW)
        idx, _ = _tt_find(index, entries, gen, h, key, KW, cap)
        _tt_put(index, entries, idx, 0, gen, h, key, KW, DONE)
        for j in range(L):
            pool[0, j] = root[j]
        parent[0] = -1
        depth[0] = 0
        ordinal[0] = 0
        nodes = 1
        size = _heap_push(heap, 0, _priority(root, n, info, prophets, 0, 0))
        reasons = 0
        x = -1
    ctl[0] = 0
    built = 0
    while True:
        if nodes >= pause_at or built >= pause_built:
            ctl[0], ctl[1], ctl[2], ctl[3], ctl[4] = 1, size, nodes, reasons, x
            return CODE_PAUSED, nodes, reasons, 0
        if x < 0:
            if size == 0:
                break
            top, size = _heap_pop(heap, size)
            x = np.int64(top & 0xFFFFFFFF)
            for j in range(L):
                states[0, j] = pool[x, j]
            fstarted[0] = 0
        status = _next_child(
            0,
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
            x = -1
            continue
        if status == OTHER_ORDER:
            continue
        if status < 0:  # NEED or TOO_MANY: the position's other moves are cut
            reasons |= E_MOVES
            x = -1
            continue
        child = states[1]
        res = _header(child, n, H_OUTCOME)
        if res == R_WIN:
            return (
                CODE_WIN,
                nodes,
                reasons,
                _line(
                    x,
                    pool,
                    parent,
                    depth,
                    ordinal,
                    states,
                    fch,
                    fk,
                    fplen,
                    fstarted,
                    sol,
                    sol_len,
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
                ),
            )
        if res == R_LOSS:
            reasons |= _header(child, n, H_ENDING)
            continue
        alive = (x > 0 or root_alive) and still_alive(states[0], child, n, info)
        if not alive and dead(child, n, info):
            reasons |= E_DEAD
            continue
        key = child
        if copy_keys and kernel_search_key(child, n, info, kbuf, tmp):
            key = kbuf
        h = _hash_words(key, KW)
        idx, e = _tt_find(index, entries, gen, h, key, KW, cap)
        if e >= 0:
            continue
        if nodes >= node_limit:
            return CODE_UNDECIDED, nodes, reasons, 0
        if depth[x] + 1 >= max_depth:
            reasons |= E_CUT
            continue
        _tt_put(index, entries, idx, nodes, gen, h, key, KW, DONE)
        for j in range(L):
            pool[nodes, j] = child[j]
        parent[nodes] = x
        depth[nodes] = depth[x] + 1
        ordinal[nodes] = fstarted[0]
        size = _heap_push(heap, size, _priority(child, n, info, prophets, depth[nodes], nodes))
        nodes += 1
    if reasons & (E_CUT | E_MOVES):
        return CODE_UNDECIDED, nodes, reasons, 0
    return CODE_LOSS, nodes, reasons, 0


@njit(cache=True)
def _line(
    x,
    pool,
    parent,
    depth,
    ordinal,
    states,
    fch,
    fk,
    fplen,
    fstarted,
    sol,
    sol_len,
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
    """Write the line to the win just built from stored position x (its move in fch[0])
    into sol/sol_len and return its turns: each earlier turn is the move of its position's
    parent that `ordinal` numbers, found again by building the parent's moves in order."""
    turns = depth[x] + 1
    t = turns - 1
    sol_len[t] = fplen[0]
    for j in range(fplen[0]):
        sol[t, j] = fch[0, j]
    y = x
    while y > 0:
        t -= 1
        p = parent[y]
        for j in range(pool.shape[1]):
            states[0, j] = pool[p, j]
        fstarted[0] = 0
        while fstarted[0] < ordinal[y]:
            _next_child(
                0,
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
        sol_len[t] = fplen[0]
        for j in range(fplen[0]):
            sol[t, j] = fch[0, j]
        y = p
    return turns

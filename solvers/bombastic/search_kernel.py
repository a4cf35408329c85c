"""The `ismcts-heuristic` search loop in Numba: one call per decision, not ~40 per iteration.

`agents.HeuristicISMCTSAgent` walks a tree of its own decisions keyed by what it has
observed, with the opponent and the playouts played by `kernel._casual_action`. Its
plain-Python walk (`walk="python"`) is the reference; `search` here does the same
iterations in one compiled call. Both draw every random number in the same order from
the same SplitMix64 state (the deck order, the opponent's decisions, the untried action
to expand) and seed iteration `it`'s playout with `seed_base + it`, so from the same
inputs they build the same tree and return the same visit counts
(`tests/bombastic/test_bombastic_search_kernel.py`).

The tree: a node is the sequence of observation codes from the root (`kernel.observe_code`
with the face-up cards, as in the reference's tuple keys), hashed to 64 bits; an
open-addressing table maps the hash to a node number, and per node and action the
statistics are [visits, total value, times available] as in the reference.
"""

from __future__ import annotations

import math

import numpy as np

from bombsolve.solvers.bombastic import kernel as K
from bombsolve.solvers.common.numba_jit import njit

#: Digest of the project files this module imports (bombsolve.solvers.common.numba_deps): a change to
#: them changes this file too, so Numba rebuilds its on-disk cache of this module.
NUMBA_DEPENDS_ON = "86ad3024255f99f3"

N_ACTIONS = 49
#: How often (in iterations) a search with `stop_early` checks whether it is decided.
CHECK_EVERY = 16
ROOT_HASH = np.uint64(0x243F6A8885A308D3)
_MUL = np.uint64(0x9E3779B97F4A7C15)
PHASE, TO_MOVE, WINNER, DECK, P_OVER = K.PHASE, K.TO_MOVE, K.WINNER, K.DECK, K.P_OVER


@njit(cache=True)
def _mix(h: np.uint64, code: int) -> np.uint64:
    """Extend a node hash by one observation code (SplitMix64's finaliser on h ^ code)."""
    z = (h ^ np.uint64(code & 0x7FFFFFFFFFFFFFFF)) * _MUL + np.uint64(code < 0)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _node(h: np.uint64, keys: np.ndarray, index: np.ndarray, n_nodes: np.ndarray) -> int:
    """The node number of hash h, a new one if h is new."""
    mask = np.int64(keys.shape[0] - 1)
    # int64 throughout: mixing uint64 and int64 in Numba arithmetic gives float64.
    j = np.int64(h & np.uint64(mask))
    while index[j] >= 0:
        if keys[j] == h:
            return index[j]
        j = (j + 1) & mask
    keys[j] = h
    index[j] = n_nodes[0]
    n_nodes[0] += 1
    return index[j]


@njit(cache=True)
def _decided(visits: np.ndarray, acts: np.ndarray, left: int) -> bool:
    """True when the most visited of `acts` leads every other by more than `left` visits."""
    top = 0.0
    second = 0.0
    for i in range(acts.shape[0]):
        v = visits[acts[i]]
        if v > top:
            second = top
            top = v
        elif v > second:
            second = v
    return top - second > left


@njit(cache=True)
def search(
    template: np.ndarray,
    grids: np.ndarray,
    head: np.ndarray,
    root_acts: np.ndarray,
    know0: np.ndarray,
    me: int,
    c: float,
    kr: np.ndarray,
    seed_base: int,
    stop_early: bool = False,
) -> np.ndarray:
    """Run len(grids) iterations from kernel state `template`; return root visits (49).

    `grids[it]`: the sampled grid of iteration it (9 tile values); `head`: the deck's
    cards in unknown order (shuffled afresh each iteration with `kr`); `root_acts`: the
    decisions allowed at the root (the guard's); `know0`: both players' knowledge flags.
    With `stop_early`, every `CHECK_EVERY` iterations the search stops once the most
    visited root decision leads the second by more than the iterations left: the rest
    could not change which decision is most visited, so the choice is the same as after
    all of them (the returned visits sum to the iterations run).
    """
    iters = grids.shape[0]
    cap = 1
    while cap < 2 * (iters + 2):
        cap *= 2
    keys = np.zeros(cap, dtype=np.uint64)
    index = np.full(cap, -1, dtype=np.int64)
    n_nodes = np.zeros(1, dtype=np.int64)
    stats = np.zeros((iters + 2, N_ACTIONS, 3), dtype=np.float64)
    s = np.empty_like(template)
    know = np.empty_like(know0)
    buf = np.empty(64, dtype=np.int32)
    vals = np.empty(64, dtype=np.float64)
    acts = np.empty(64, dtype=np.int32)
    codes = np.empty(256, dtype=np.int64)
    path_node = np.empty(256, dtype=np.int64)
    path_act = np.empty(256, dtype=np.int32)
    untried = np.empty(64, dtype=np.int32)
    prng = np.empty(1, dtype=np.uint64)
    n_head = head.shape[0]
    for it in range(iters):
        s[:] = template
        for t in range(9):
            s[t] = grids[it, t]
        if n_head > 1:
            for i in range(n_head):
                s[DECK + i] = head[i]
            K._shuffle_at(s, DECK, n_head, kr)
        know[:, :] = know0
        h = ROOT_HASH
        at_root = True
        depth = 0
        while s[PHASE] != P_OVER:
            if s[TO_MOVE] != me:
                m = K._advance_others(s, know, me, kr, codes, buf, vals, acts)
                for j in range(m):
                    h = _mix(h, codes[j])
                at_root = False
                continue
            if at_root:
                n = root_acts.shape[0]
                for i in range(n):
                    buf[i] = root_acts[i]
            else:
                n = K.legal_actions(s, buf)
            node = _node(h, keys, index, n_nodes)
            k = 0
            for i in range(n):
                a = buf[i]
                stats[node, a, 2] += 1.0
                if stats[node, a, 0] == 0.0:
                    untried[k] = a
                    k += 1
            if k > 0:
                a = untried[K.rng_below(kr, k)]
            else:
                best = -1e300
                a = buf[0]
                for i in range(n):
                    x = buf[i]
                    st = stats[node, x]
                    v = st[1] / st[0] + c * math.sqrt(math.log(st[2]) / st[0])
                    if v > best:
                        best = v
                        a = x
            path_node[depth] = node
            path_act[depth] = a
            depth += 1
            a = np.int64(a)  # one type for every caller (see kernel.apply)
            code = K.observe_code(s, a, me)
            K.apply_know(s, know, a)
            h = _mix(h, K.face_up_code(s, code))
            at_root = False
            if k > 0:
                break
        if s[PHASE] == P_OVER:
            winner = s[WINNER]
        else:
            prng[0] = np.uint64(seed_base + it)
            winner = K._playout_casual(s, know, prng, buf, vals, acts)
        value = 0.0 if winner < 0 else (1.0 if winner == me else -1.0)
        for d in range(depth):
            stats[path_node[d], path_act[d], 0] += 1.0
            stats[path_node[d], path_act[d], 1] += value
        if stop_early and (it + 1) % CHECK_EVERY == 0:
            root = _node(ROOT_HASH, keys, index, n_nodes)
            if _decided(stats[root, :, 0], root_acts, iters - it - 1):
                break
    out = np.zeros(N_ACTIONS, dtype=np.float64)
    root = _node(ROOT_HASH, keys, index, n_nodes)
    for a in range(N_ACTIONS):
        out[a] = stats[root, a, 0]
    return out

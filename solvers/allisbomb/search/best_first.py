"""Best-first search for a win, one of the searches that take turns on card files with the
extended vocabulary (search/floors.py).

A depth-first search meets a win only as soon as its move order leads it there: on card
sets that put cards back, once a line has gone wrong it proves every position under the
wrong turn lost before it changes that turn. A best-first search keeps every position it
has stored open and expands next the one nearest the win conditions (`progress`), so a
line that goes wrong is left as soon as another looks better. Measured on the rich
benchmark sets (results/PERFORMANCE.md, "The best-first search beside the floors"): on sets
written like printed cards it meets most wins in a few hundred positions, where each DECK
floor's depth-first search needs thousands; on random card files the floors' searches
often win sooner. So `floors.floor_portfolio` runs it first in each of its rounds, with the same
doubling turns as the floors.

`reference_best_first` is the specification in plain Python (rules.State); `BestFirst`
runs the compiled twin (kernel/best_first.py) in turns, which stores the same positions in
the same order and answers the same line.
"""

from __future__ import annotations

import heapq
import time

import numpy as np

from bombsolve.solvers.allisbomb.kernel import best_first as KB
from bombsolve.solvers.allisbomb.kernel import kernel as K
from bombsolve.solvers.allisbomb.kernel.copies import groups_of, search_key
from bombsolve.solvers.allisbomb.kernel.program import compiled_program, pruning_enabled
from bombsolve.solvers.allisbomb.kernel.prune import dead_reason
from bombsolve.solvers.allisbomb.rules.rules import (
    DECK,
    DISCARD,
    EQUIP0,
    EQUIP1,
    OUT,
    Ending,
    Outcome,
    State,
)
from bombsolve.solvers.allisbomb.search.search import MAX_DEPTH, SearchResult, _next_move


def progress(state: State) -> int:
    """How far `state` is from the win conditions it can read (0: every one met), the
    first part of a position's priority (lower is expanded first):

    - no PROPHECY yet (rulebook E.1): 2, and 1 more while no PROPHET is ignited outside
      the DISCARD PILE and out of play (E.1: the PROPHECY is an ignited PROPHET played);
    - the DESIRED DISH not ignited, and not in the DECK (E.2: the PRINCESS EQUIPS it from
      the DECK): 1 each; with WAKING UP (G) instead: not in the DISCARD PILE, 1;
    - the PRINCESS (and with WAKING UP the THRONE, G) not ignited: 1; in the DISCARD PILE
      or out of play: 2 more; the PRINCESS not EQUIPPED (E.3: she wins when played): 1;
    - each MOSQUITO not in the DISCARD PILE (G, when the expansion is in play): 1.

    The other expansions' conditions count nothing: the order only decides which
    position is looked at next, never a verdict."""
    info = compiled_program(state.config).info
    v = 0
    d = state.desired
    waking = info[0] != 0
    if d < 0:
        prophets = state.cards.ids_named("PROPHET")
        v += 2 + (not any(_in_play_ignited(state, c) for c in prophets))
    elif waking:
        v += state.zone[d] != DISCARD
    else:
        v += (not state.ignited[d]) + (state.zone[d] != DECK)
    for w in (1, 2):
        c = int(info[w])
        if c < 0 or (w == 2 and not waking):
            continue
        v += not state.ignited[c]
        if state.zone[c] in (DISCARD, OUT):
            v += 2
        if w == 1 and state.zone[c] not in (EQUIP0, EQUIP1):
            v += 1
    if info[3] >= 0:
        mask = int(info[3]) | (int(info[4]) << 31)
        v += sum(1 for c in range(state.cards.n) if mask >> c & 1 and state.zone[c] != DISCARD)
    return min(v, KB.MAX_PROGRESS - 1)


def _in_play_ignited(state: State, c: int) -> bool:
    return state.ignited[c] and state.zone[c] not in (DISCARD, OUT)


def priority(state: State, depth: int, number: int) -> int:
    """The open list's key (lower first): `progress`, then a DECK of fewer than SHORT_DECK
    cards after the others of its progress (the PRINCESS's winning turn draws from the
    DECK, D.2), then the deeper line, last the position stored first (`number`)."""
    short = len(state.deck) < KB.SHORT_DECK
    p = (progress(state) * 2 + short) * KB.DEPTH_SPAN + KB.DEPTH_SPAN - 1 - depth
    return (p << 32) | number


def reference_best_first(root: State, node_limit: int = 1_000_000) -> SearchResult:
    """Best-first search from `root` (module docstring), positions in `priority` order;
    `nodes` counts the positions stored, the root included, and the search stops undecided
    before it would store one past `node_limit`.

    A position's children are built in lexicographic order of moves (`State.iter_children`,
    cut past `rules.MAX_MOVES` as `reference_search` cuts them); a child that wins ends the
    search with its line; a lost one, a dead one (prune.py) or one already stored (the
    copy-symmetric key, copies.py) is not stored; a move into a position MAX_DEPTH turns
    below the root is cut. The end without a win is a loss only if nothing was cut."""
    t0 = time.perf_counter()
    if root.outcome is Outcome.WIN:
        return SearchResult("win", 0, time.perf_counter() - t0)
    if root.outcome is Outcome.LOSS:
        return SearchResult("loss", 0, time.perf_counter() - t0, [], int(root.ending))
    groups = groups_of(compiled_program(root.config).info)
    prune_on = pruning_enabled(root.config)
    seen = {search_key(root, groups)}
    pool: list[tuple[State, int, int, tuple[int, ...]]] = [(root, -1, 0, ())]
    heap = [priority(root, 0, 0)]
    reasons = 0

    def line(x: int) -> list[tuple[int, ...]]:
        out = []
        while x > 0:
            _, up, _, move = pool[x]
            out.append(move)
            x = up
        return out[::-1]

    while heap:
        x = heapq.heappop(heap) & 0xFFFFFFFF
        state, _, depth, _ = pool[x]
        moves = state.iter_children()
        while True:
            nxt, cut = _next_move(moves)
            if cut:
                reasons |= int(Ending.TOO_MANY_MOVES)
            if nxt is None:
                break
            move, child = nxt
            if child.outcome is Outcome.WIN:
                return SearchResult(
                    "win", len(pool), time.perf_counter() - t0, line(x) + [move], reasons
                )
            if child.outcome is Outcome.LOSS:
                reasons |= int(child.ending)
                continue
            if prune_on and dead_reason(child) is not None:
                reasons |= int(Ending.NO_WIN_REACHABLE)
                continue
            key = search_key(child, groups)
            if key in seen:
                continue
            if len(pool) >= node_limit:
                return SearchResult("undecided", len(pool), time.perf_counter() - t0, [], reasons)
            if depth + 1 >= MAX_DEPTH:
                reasons |= int(Ending.DEPTH_CUT)
                continue
            seen.add(key)
            heapq.heappush(heap, priority(child, depth + 1, len(pool)))
            pool.append((child, x, depth + 1, move))
    cut = reasons & int(Ending.DEPTH_CUT | Ending.TOO_MANY_MOVES)
    outcome = "undecided" if cut else "loss"
    return SearchResult(outcome, len(pool), time.perf_counter() - t0, [], reasons)


class BestFirst:
    """One compiled best-first search (kernel/best_first.py) of positions of n cards, at
    most `cap` stored, run in turns: `start` a root, then `run` until it answers. Its
    arrays are allocated once and reused from root to root."""

    def __init__(self, n: int, cap: int) -> None:
        self.n, self.cap = n, max(1, int(cap))
        L = K.state_len(n)
        slots = 1 << K.bits_to_store(self.cap)
        self.index = np.zeros(slots, np.uint64)
        self.entries = np.zeros((K.entry_rows(slots), int(K.tt_entry_words(n))), np.uint64)
        self.pool = np.zeros((self.cap, L), np.uint64)
        self.links = [np.zeros(self.cap, np.int64) for _ in range(4)]  # parent .. heap
        frames = K._frames(1, L)
        self.frames = frames[:5]  # states, fch, fk, fplen, fstarted
        self.sol = np.zeros((MAX_DEPTH, K.MAXC), np.int32)
        self.sol_len = np.zeros(MAX_DEPTH, np.int32)
        self.scratch = (
            np.zeros(2 * n + 8, np.int64),
            np.zeros(2 * n + 8, np.int64),
            np.zeros(4, np.int64),
        )
        self.ctl = np.zeros(5, np.int64)
        self.gen = 0
        self.root: np.ndarray | None = None
        self.nodes = 0

    def start(self, root: np.ndarray) -> None:
        """Begin a new search from `root` (a kernel row): an empty table, nothing stored."""
        self.gen += 1
        if self.gen >= 2**32 - 1:
            self.index[:] = 0
            self.gen = 1
        self.root = root
        self.ctl[:] = 0
        self.nodes = 0

    def run(self, c, positions: int, built: int) -> tuple[int, int, int]:
        """Search on for at most `positions` more positions stored and `built` moves built
        (`c`: the card set's compiled program, solver.compiled). Returns (code, reasons,
        turns): K.CODE_PAUSED while it has more to do, else its answer; `nodes` counts its
        positions so far, and a win's line is in `sol`/`sol_len`."""
        code, nodes, reasons, turns = KB.best_first(
            self.root,
            self.n,
            *c.rule_args,
            self.index,
            self.entries,
            np.uint32(self.gen),
            self.cap,
            self.nodes + max(1, int(positions)),
            max(1, int(built)),
            self.pool,
            *self.links,
            *self.frames,
            self.sol,
            self.sol_len,
            *self.scratch,
            self.ctl,
            sum(1 << i for i in c.cards.ids_named("PROPHET")),
        )
        self.nodes = int(nodes)
        return int(code), int(reasons), int(turns)


def kernel_best_first(c, root: np.ndarray, node_limit: int) -> tuple:
    """The compiled search of `root` to its answer in one run (tests, the reference's
    twin): (code, nodes, reasons, turns, sol, sol_len)."""
    bf = BestFirst(c.prog.n, node_limit)
    bf.start(root)
    code, reasons, turns = bf.run(c, node_limit + 1, 1 << 62)
    return code, bf.nodes, reasons, turns, bf.sol, bf.sol_len

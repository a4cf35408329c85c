"""DECK floors: searches of the part of the game whose DECK stays large, side by side.

On card sets that put cards back (moves from `anywhere`, exchanges with the DISCARD PILE,
retrievals by class), a depth-first search spends most of its positions in lines that
have drawn the DECK down to a few cards: the PRINCESS's winning turn draws her NUMBER
from the DECK (rulebook D.2, E), and a DECK of a few cards can grow back only by the
cards' actions, so these lines are mostly lost, each subtree proved lost position by
position. A search with a *floor* (kernel.CTL_FLOOR) enters only positions whose DECK
holds at least that many cards: a move below it is cut, as a line at the depth limit is.
It is exhaustive within the floor, so a win it finds is a win of the deal (replayed like
any other), and it never proves a loss unless it cut nothing (then it was the whole
search).

Which floor meets a win soon is a deal's own affair: a high floor skips the most but
misses wins whose line passes under it. Which card order meets it soon is too, and far
more so: searches of one floor that try the EQUIPPED CARDS in different orders differ
tenfold and more in the positions they enter before a win, deal by deal, with no order
better on the whole. So several floors (fractions of the DECK at the start, FLOOR_SHARES)
each run in several card orders (the order by card id, and FLOOR_TABLES fixed priority
tables of the card sides drawn at random, `arm_infos`), each in both move orders (kernel
orders 2 and 3, as the portfolio's): these searches take turns with budgets doubling from
FLOOR_FIRST positions, each with a table and a stack of its own, until one decides the
deal or every one is spent (`floor_portfolio`). A turn also ends once it built FLOOR_BUILT
moves a position of its budget (every move counted, those of the positions still on its
stack included: kernel.CTL_PAUSE_BUILT), and is charged its whole budget: a position near
the floor builds every move and enters few, so turns are shared by the work they do.

A best-first search (search/best_first.py: the stored position nearest the win
conditions expanded next) takes the first turn of every round, with the same budgets, as
one more search of the card set's own share: on card sets written like printed cards it
meets most wins in a few hundred positions, where the floors' searches take turns for
thousands; on random card files it seldom wins first, and costs the floors' wins a turn.

Measured in results/PERFORMANCE.md:
"DECK floors: the part of the game where the DECK stays large, searched first", "The
floors in four card orders" and "The best-first search beside the floors".
"""

from __future__ import annotations

import time

import numpy as np

from bombsolve.solvers.allisbomb.kernel import kernel as K
from bombsolve.solvers.allisbomb.kernel import layout
from bombsolve.solvers.allisbomb.kernel.ordering import INFO_ORDER
from bombsolve.solvers.allisbomb.search.best_first import BestFirst
from bombsolve.solvers.common import stopping

#: The floors, as shares of the DECK the search starts from (a DECK of 15: 3, 6 and 10).
FLOOR_SHARES = (0.2, 0.4, 0.67)
#: Positions each floor and order searches in its first turn (then doubling).
FLOOR_FIRST = 250
#: Most positions one floor and order may search (each has a table that stores them).
FLOOR_CAP = 500_000
#: Moves a turn may build per position of its budget (kernel.CTL_PAUSE_BUILT).
FLOOR_BUILT = 8
#: Card orders drawn at random that each floor searches in, besides the order by card id.
FLOOR_TABLES = 3
#: The share of a budget the drawn orders' searches may take together (the rest is the
#: order by id's): their wins come early (a share of 0.1, 0.25 or 0.75 gave the same
#: medians and means on the rich sets), while a win deep in one floor's search needs the
#: positions the order by id keeps (9/10 of what it had alone).
FLOOR_DRAWN_SHARE = 0.1

#: Whether the best-first search (search/best_first.py) takes turns with the floors, first
#: in every round.
BEST_FIRST = True
#: Most positions a best-first search may store (each is kept whole, with its line).
BEST_FIRST_CAP = 200_000

_GEN = [0]  # the arms' tables' generation stamp, one a search
_ARMS: dict[tuple[int, int, int], list] = {}  # (cards, table bits, arms): buffers
_BEST: dict[tuple[int, int], BestFirst] = {}  # (cards, cap): the best-first search


def floors_for(deck: int) -> list[int]:
    """The floors of a search from a DECK of `deck` cards: distinct, at least 1."""
    return sorted({max(1, round(share * deck)) for share in FLOOR_SHARES})


_INFOS: dict[int, tuple] = {}  # id(program info): (that info, its arms' infos)


def arm_infos(info: np.ndarray, n: int) -> list[np.ndarray]:
    """The card program's `info` (kernel.dfs's argument) of each card order the floors
    search in: `info` itself (the card set's own order, by card id unless the ordering is
    switched on) and FLOOR_TABLES copies whose priority table (kernel/ordering.py) is on and
    holds a permutation of the 2n card sides drawn by numpy's default generator seeded 1,
    2, ...: fixed, so a search's counts are the same on every run."""
    key = id(info)
    if key in _INFOS and _INFOS[key][0] is info:
        return _INFOS[key][1]
    t = abs(int(info[INFO_ORDER]))
    out = [info]
    if t > 0:  # a program without a table has no other order
        for k in range(1, FLOOR_TABLES + 1):
            copy = info.copy()
            copy[INFO_ORDER] = t
            copy[t : t + 2 * n] = np.random.default_rng(k).permutation(2 * n)
            out.append(copy)
    _INFOS.clear()  # one card set at a time, as a sweep asks
    _INFOS[key] = (info, out)
    return out


def _buffers(n: int, bits: list[int], words: int, L: int, max_depth: int) -> list:
    """Each arm's table (index, entries) of 2**bits[a] slots, stack and control words,
    allocated once."""
    key = (n, tuple(bits))
    if key not in _ARMS:
        _ARMS.clear()  # one size at a time: a sweep's passes each ask for one
        _ARMS[key] = [
            (
                np.zeros(1 << b, np.uint64),
                np.zeros((K.entry_rows(1 << b), words), np.uint64),
                *K._frames(max_depth, L)[:8],
                np.zeros(K.CTL_FLOOR + 1, np.int64),
            )
            for b in bits
        ]
    return _ARMS[key]


def floor_portfolio(
    c, root: np.ndarray, budget: int, max_depth: int, words: int, deadline: float | None = None
) -> tuple:
    """Search `root` (a kernel row) with the best-first search (BEST_FIRST) and every floor
    of `floors_for` its DECK in every card order of `arm_infos` and both move orders, side
    by side (module docstring), with at most `budget` positions in all: the drawn card
    orders at most FLOOR_DRAWN_SHARE of it.
    `c` is the card set's compiled program (solver.compiled), `words` its table entry's
    width; `deadline` (a time.perf_counter() time) ends it undecided once passed, looked at
    between turns. Returns (code, nodes, reasons, turns, sol, sol_len): a win (its line in
    sol/sol_len), a loss (only from a search that cut nothing) or undecided."""
    n = c.prog.n
    deck = int(root.view(np.int8)[8 * layout.key_words(n) + layout.H_DECK])
    args = list(c.rule_args)
    infos = arm_infos(args[5], n)
    floors = floors_for(deck)
    own = 2 * len(floors) + BEST_FIRST  # the card set's own order's searches
    drawn = 2 * len(floors) * (len(infos) - 1)  # the rest are drawn
    share = FLOOR_DRAWN_SHARE if drawn else 0.0
    parts = (int(budget * (1 - share)) // own, int(budget * share) // drawn if drawn else 0)
    best = [_best_first(n, min(BEST_FIRST_CAP, parts[0]))] if BEST_FIRST and parts[0] else []
    # (floor, card order, move order, the most positions it may search)
    arms = [
        (f, k, order, min(FLOOR_CAP, parts[k > 0]))
        for f in floors
        for k in range(len(infos))
        for order in (2, 3)
    ]
    arms = [arm for arm in arms if arm[3] >= 1]
    if not arms and not best:
        return K.CODE_UNDECIDED, 0, 0, 0, None, None
    bits = [K.bits_to_store(arm[3]) for arm in arms]
    bufs = _buffers(n, bits, words, K.state_len(n), max_depth)
    _GEN[0] += 1
    if _GEN[0] >= 2**32 - 1:
        for buf in bufs:
            buf[0][:] = 0
        _GEN[0] = 1
    gen = np.uint32(_GEN[0])
    scratch = (np.zeros(2 * n + 8, np.int64), np.zeros(2 * n + 8, np.int64), np.zeros(4, np.int64))
    objective = np.zeros(n, np.int64)
    for buf in bufs:
        buf[-1][:] = 0  # no search to resume
    for bf in best:
        bf.start(root)
    nodes = [0] * len(arms)
    spent = [0] * len(arms)  # positions a turn could have searched, over its turns
    best_spent = [0] * len(best)
    # each round's turns: the best-first search, then the floors' searches
    alive = [("best", i) for i in range(len(best))] + [("floor", a) for a in range(len(arms))]
    target = FLOOR_FIRST
    while alive:
        for kind, a in list(alive):
            if kind == "best":
                bf = best[a]
                turn = min(target, bf.cap) - best_spent[a]
                code, r, turns = bf.run(c, turn, FLOOR_BUILT * turn)
                best_spent[a] += turn
                if code == K.CODE_WIN or code == K.CODE_LOSS:
                    return code, sum(nodes) + _best_nodes(best), r, turns, bf.sol, bf.sol_len
                if code == K.CODE_UNDECIDED or best_spent[a] >= bf.cap:
                    alive.remove((kind, a))
            else:
                floor, k, order, cap = arms[a]
                index, entries, *frames, ctl = bufs[a]
                ctl[K.CTL_FLOOR] = floor
                turn = min(target, cap) - spent[a]
                ctl[K.CTL_PAUSE_BUILT] = FLOOR_BUILT * turn
                args[5] = infos[k]
                code, nodes[a], r, turns = K.dfs(
                    root,
                    n,
                    *args,
                    index,
                    entries,
                    gen,
                    cap,
                    *frames,
                    *scratch,
                    objective,
                    0,
                    ctl,
                    nodes[a] + turn,
                    order,
                )
                spent[a] += turn
                if code == K.CODE_WIN or code == K.CODE_LOSS:
                    total = sum(nodes) + _best_nodes(best)
                    return code, total, int(r), int(turns), frames[6], frames[7]
                if code == K.CODE_UNDECIDED or spent[a] >= cap:
                    alive.remove((kind, a))
            stopping.check()  # a stop a finalizer swallowed (stopping's docstring)
            if deadline is not None and time.perf_counter() > deadline:
                alive.clear()
                break
        target *= 2
    # a floor's cuts are not the game's (the search that follows has its own reasons)
    return K.CODE_UNDECIDED, sum(nodes) + _best_nodes(best), 0, 0, None, None


def _best_first(n: int, cap: int) -> BestFirst:
    """The best-first search for n cards and `cap` positions, made once."""
    key = (n, cap)
    if key not in _BEST:
        if len(_BEST) >= 2:
            _BEST.clear()  # a size or two at a time, as a sweep's passes ask
        _BEST[key] = BestFirst(n, cap)
    return _BEST[key]


def _best_nodes(best: list[BestFirst]) -> int:
    return sum(bf.nodes for bf in best)

"""The plain-Python reference search: exhaustive depth-first search over `rules.State`.

It is the specification the Numba kernel is tested against (same move order, same
transposition rule, same node count). Single-player (or two-player as one team) with no
chance after the shuffle: a position is winnable iff some line of moves reaches a win.
A depth-first search that never re-enters a position already seen is therefore exact:
a position seen before is either fully explored (it cannot win) or on the current line
(going back to it is a cycle, recorded in `loss_reason`, and its other lines are being
explored anyway).
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

from bombsolve.solvers.allisbomb.kernel.copies import groups_of, search_key
from bombsolve.solvers.allisbomb.kernel.ordering import priority_table
from bombsolve.solvers.allisbomb.kernel.program import compiled_program, pruning_enabled
from bombsolve.solvers.allisbomb.kernel.prune import can_win_now, dead_reason, objective_bound
from bombsolve.solvers.allisbomb.rules.rules import (
    MAX_MOVES,
    Ending,
    NeedChoice,
    Outcome,
    State,
    TooManyMoves,
    _OtherOrder,
    _replay_chooser,
)

ON_PATH, DONE = 1, 2
#: Deepest line (in turns) either search follows: a move that would go deeper is cut
#: (not searched, `Ending.DEPTH_CUT` recorded) and the search goes on with the other
#: moves, so a win elsewhere is still a WIN; a search with no win and a cut is undecided
#: (CARDS.md, "Limits").
MAX_DEPTH = 1000
#: Most choices in one turn the kernel can hold (kernel.MAXC); a turn needing more is
#: answered 'undecided' by both searches.
MAX_CHOICES = 64
#: The reference search looks at the clock every TIME_CHECK moves it builds.
TIME_CHECK = 256


@dataclass
class SearchResult:
    """What a search found: outcome 'win' | 'loss' | 'undecided' and counters."""

    outcome: str
    nodes: int
    seconds: float
    solution: list[tuple[int, ...]] = field(default_factory=list)
    loss_reason: int = 0


def stars_lost(state: State) -> int:
    """Star cards in the DISCARD PILE: what Campaign Mode removes after a game (rulebook H)."""
    return sum(state.cards.cards[c].campaign == "star" for c in state.discard)


def _next_move(moves) -> tuple[tuple | None, bool]:
    """The next (move, child) of a position's move iterator, or None when it has no more;
    with True when the rest are cut at the move cap (a position's moves past
    `rules.MAX_MOVES`, or from a move of more than MAX_CHOICES choices on: the kernel's
    TOO_MANY and NEED, at the same move)."""
    try:
        nxt = next(moves, None)
    except TooManyMoves:
        return None, True
    if nxt is not None and len(nxt[0]) > MAX_CHOICES:
        return None, True
    return nxt, False


def reference_search(
    root: State,
    node_limit: int = 1_000_000,
    keep_most: bool = False,
    bound: bool = True,
    time_limit: float | None = None,
    order: int = 0,
    floor: int = 0,
) -> SearchResult:
    """Decide `root` by exhaustive DFS; `nodes` counts the positions entered (root included).

    order=2 tries the playable cards of each position in the priority order of
    ordering.py (the kernel's order 2, `ordered_children`); 0 in id order
    (`State.iter_children`). Exhaustive either way: the order changes the positions
    entered, never the verdict.

    `loss_reason` ORs the `Ending` bits of every losing end the search met (meaningful
    for a 'loss': the ways every line failed). keep_most=True: search on after a win and
    return the win with the fewest star cards in the discard pile (`stars_lost`).
    bound=True (with keep_most): branch and bound on `prune.objective_bound`, as the
    kernel's best_mode 2: a new position whose bound is >= the best win's score is not
    entered (and is remembered as done: the best only decreases, so it would be cut
    again), and the search stops once the best equals the root's bound.

    Moves are generated one at a time (`State.iter_children`): a position's moves past the
    first `rules.MAX_MOVES`, or from a move of more than MAX_CHOICES choices on, are cut
    (TOO_MANY_MOVES recorded, the position finished, the search goes on; as the depth
    cut below); `time_limit` (seconds) is looked at every TIME_CHECK moves built, so it
    holds however many moves one position has.

    A move into a position MAX_DEPTH turns below the root is cut: not entered, not stored,
    `Ending.DEPTH_CUT` recorded, and the search goes on. A win found anywhere is a WIN
    (its line is a proof whatever was cut); the end of the search without a win is a
    LOSS only if nothing was cut (no line, no position's moves), else undecided. A
    position finished after a cut in its subtree stays DONE for the rest of this search
    (not entered twice, so the search stays finite), which can only miss a win, never
    claim a wrong one: the verdict that relies on DONE meaning "no win" (LOSS) is refused
    once anything was cut. With keep_most, a best win found after a cut carries NOT_BEST
    (the cut line might keep more).

    floor > 0 (the DECK floor, the kernel's ctl[CTL_FLOOR]): a move into a position whose
    DECK holds fewer cards is cut the same way (DEPTH_CUT recorded, the search goes on),
    so the search decides the part of the game whose DECK holds at least `floor` cards: a
    win found is a WIN (rulebook E's wins do not depend on the cut), and its end without
    one undecided.
    """
    t0 = time.perf_counter()
    if root.outcome is Outcome.WIN:
        return SearchResult("win", 0, time.perf_counter() - t0)
    if root.outcome is Outcome.LOSS:
        return SearchResult("loss", 0, time.perf_counter() - t0, [], int(root.ending))
    # the table's key: copy-symmetric (copies.py) unless keeping the most (as the kernel)
    groups = [] if keep_most else groups_of(compiled_program(root.config).info)
    seen = {search_key(root, groups): ON_PATH}
    nodes = 1
    reasons = 0
    prune_on = pruning_enabled(root.config)
    prio = priority_table(compiled_program(root.config).info, root.cards.n) if order == 2 else None

    def kids(state: State):
        return state.iter_children() if prio is None else ordered_children(state, prio)

    stack = [(root, kids(root))]
    built = 0
    line: list[tuple[int, ...]] = []
    best: tuple[int, list[tuple[int, ...]]] | None = None
    # no win from the root can lose fewer stars (0 without the bound: the plain early stop)
    root_lb = objective_bound(root) if keep_most and bound else 0

    def stop(nodes: int, reasons: int) -> SearchResult:
        if best is not None:
            secs = time.perf_counter() - t0
            return SearchResult("win", nodes, secs, best[1], reasons | int(Ending.NOT_BEST))
        return SearchResult("undecided", nodes, time.perf_counter() - t0, [], reasons)

    while stack:
        state, it = stack[-1]
        nxt, cut = _next_move(it)
        if cut:  # its other moves are cut: the position is finished
            reasons |= int(Ending.TOO_MANY_MOVES)
        built += 1
        if time_limit is not None and built % TIME_CHECK == 0:
            if time.perf_counter() - t0 > time_limit:
                return stop(nodes, reasons)
        if nxt is None:
            seen[search_key(state, groups)] = DONE
            stack.pop()
            if line:
                line.pop()
            continue
        move, child = nxt
        if child.outcome is Outcome.WIN:
            if not keep_most:
                return SearchResult("win", nodes, time.perf_counter() - t0, line + [move], reasons)
            score = stars_lost(child)
            if best is not None and score >= best[0]:
                continue
            if score <= root_lb:
                return SearchResult("win", nodes, time.perf_counter() - t0, line + [move], reasons)
            best = (score, line + [move])
            continue
        if child.outcome is Outcome.LOSS:
            reasons |= int(child.ending)
            continue
        if len(child.deck) < floor:  # as the kernel: before its table and dead checks
            reasons |= int(Ending.DEPTH_CUT)
            continue
        if prune_on and dead_reason(child) is not None:  # the kernel prunes the same
            reasons |= int(Ending.NO_WIN_REACHABLE)
            continue
        key = search_key(child, groups)
        mark = seen.get(key)
        if mark == ON_PATH:
            reasons |= int(Ending.CYCLE)
            continue
        if mark == DONE:
            continue
        if keep_most and bound and best is not None and objective_bound(child) >= best[0]:
            seen[key] = DONE
            continue
        if nodes >= node_limit:
            return stop(nodes, reasons)
        if len(stack) >= MAX_DEPTH:  # as the kernel: the node limit first, then the cut
            reasons |= int(Ending.DEPTH_CUT)
            continue
        nodes += 1
        seen[key] = ON_PATH
        stack.append((child, kids(child)))
        line.append(move)
    cut = reasons & int(Ending.DEPTH_CUT | Ending.TOO_MANY_MOVES)
    if best is not None:
        if cut:
            reasons |= int(Ending.NOT_BEST)
        return SearchResult("win", nodes, time.perf_counter() - t0, best[1], reasons)
    if cut:
        return SearchResult("undecided", nodes, time.perf_counter() - t0, [], reasons)
    return SearchResult("loss", nodes, time.perf_counter() - t0, [], reasons)


def ordered_children(state: State, prio):
    """`State.iter_children` with the card choice (D.1, the turn's first choice when more
    than one card is playable) tried in the order of the priority table `prio` ([n, 2],
    ordering.py: the priority of the side that is up, lowest first, ties by id); the other
    choices in their order. Moves are written as `State.iter_children` writes them."""
    if state.is_over():
        return
    built = 0
    todo: list[tuple[int, ...]] = [()]
    while todo:
        prefix = todo.pop()
        child = state.copy()
        try:
            child._run_turn(_replay_chooser(prefix, strict=False))
        except NeedChoice as need:
            nxt = list(range(need.k))
            cards = state.playable() if not prefix else []
            if len(cards) > 1:  # the card choice: the first thing a turn asks, if asked
                nxt.sort(key=lambda i: (int(prio[cards[i], int(state.ignited[cards[i]])]), i))
            todo.extend(prefix + (i,) for i in reversed(nxt))
            continue
        except _OtherOrder:
            continue
        if built >= MAX_MOVES:
            raise TooManyMoves(f"more than {MAX_MOVES:,} moves in one position")
        built += 1
        yield prefix, child


def reference_shortest(root: State, node_limit: int = 1_000_000) -> SearchResult:
    """Breadth-first search: a win with the fewest turns, or a loss / undecided. A
    position's moves past the move cap are cut as `reference_search` cuts them: a win
    found after a cut is not proven the fewest, and no win after one is 'undecided'."""
    t0 = time.perf_counter()
    if root.is_over():
        out = "win" if root.outcome is Outcome.WIN else "loss"
        return SearchResult(out, 0, time.perf_counter() - t0, [], int(root.ending))
    parent: dict[tuple, tuple[tuple | None, tuple[int, ...] | None]] = {root.key(): (None, None)}
    queue = deque([root])
    nodes = 1
    reasons = 0
    while queue:
        state = queue.popleft()
        skey = state.key()
        moves, it = [], state.iter_children()
        nxt, cut = _next_move(it)
        while nxt is not None:
            moves.append(nxt)
            nxt, cut = _next_move(it)
        if cut:  # its other moves are cut (as the depth-first searches)
            reasons |= int(Ending.TOO_MANY_MOVES)
        for move, child in moves:
            if child.outcome is Outcome.WIN:
                line = [move]
                k = skey
                while parent[k][0] is not None:
                    pk, pm = parent[k]
                    line.append(pm)
                    k = pk
                return SearchResult("win", nodes, time.perf_counter() - t0, line[::-1], reasons)
            if child.outcome is Outcome.LOSS:
                reasons |= int(child.ending)
                continue
            key = child.key()
            if key in parent:
                continue
            if nodes >= node_limit:
                return SearchResult("undecided", nodes, time.perf_counter() - t0, [], reasons)
            nodes += 1
            parent[key] = (skey, move)
            queue.append(child)
    if reasons & int(Ending.TOO_MANY_MOVES):
        return SearchResult("undecided", nodes, time.perf_counter() - t0, [], reasons)
    return SearchResult("loss", nodes, time.perf_counter() - t0, [], reasons)


def reference_deepening(
    root: State,
    max_turns: int,
    node_limit: int = 1_000_000,
    time_limit: float | None = None,
    first_depth: int = 1,
) -> SearchResult:
    """A win with the fewest turns by iterative deepening: the kernel's `kernel.shortest`
    in plain Python, position for position (same move order, same pruning, same table
    rule, same node count), so the same shortest line.

    `max_turns` is the length of a win already known (e.g. `reference_search`'s), which
    ends the deepening: depth limits D = 1, 2, ..., max_turns, each with a fresh table
    that records the smallest depth at which a position was entered; a position is
    entered again only when reached at a smaller depth. The first win found has the
    fewest turns (the proof is in `kernel.shortest`'s docstring); among the shortest wins
    it is the first in move order (`State.iter_children`, lexicographic) under that
    table rule. `nodes` counts the positions entered over all limits, the root once per
    limit. The node limit or `time_limit` (seconds, looked at every TIME_CHECK moves
    built) answer 'undecided' (no win within max_turns turns does too: max_turns was not
    a win's length). A position's moves past `rules.MAX_MOVES`, or from a move of more
    than MAX_CHOICES choices on, are cut as `reference_search` cuts them (TOO_MANY_MOVES
    recorded): a win found after a cut has at most the limit's turns, not proven the
    fewest. A turn is one move (rulebook D); a line ends at the first win (the end of the
    game, rulebook E). A position of a limit's last level builds no moves when none can
    win now (`_moves_at`).

    first_depth > 1 starts at that limit (the kernel's ctl[CTL_FIRST_DEPTH]); with
    max_turns the same, it is one search to that bound, whose win has at most that many
    turns, not necessarily the fewest (`solver.deepen_search`'s searches).
    """
    t0 = time.perf_counter()
    if root.outcome is Outcome.WIN:
        return SearchResult("win", 0, time.perf_counter() - t0)
    if root.outcome is Outcome.LOSS:
        return SearchResult("loss", 0, time.perf_counter() - t0, [], int(root.ending))
    prune_on = pruning_enabled(root.config)
    nodes = 0
    reasons = 0
    built = 0

    def undecided(why: int = 0) -> SearchResult:
        return SearchResult("undecided", nodes, time.perf_counter() - t0, [], reasons | why)

    for limit in range(max(1, first_depth), max_turns + 1):
        depth = {root.key(): 0}
        nodes += 1
        stack = [_moves_at(root, 0, limit)]
        line: list[tuple[int, ...]] = []
        while stack:
            d = len(stack) - 1
            nxt, cut = _next_move(stack[-1])
            if cut:  # its other moves are cut, as `reference_search` cuts them
                reasons |= int(Ending.TOO_MANY_MOVES)
            built += 1
            if time_limit is not None and built % TIME_CHECK == 0:
                if time.perf_counter() - t0 > time_limit:
                    return undecided()
            if nxt is None:
                stack.pop()
                if line:
                    line.pop()
                continue
            move, child = nxt
            if child.outcome is Outcome.WIN:
                return SearchResult("win", nodes, time.perf_counter() - t0, line + [move], reasons)
            if child.outcome is Outcome.LOSS:
                reasons |= int(child.ending)
                continue
            if prune_on and dead_reason(child) is not None:  # no shortest line through it
                reasons |= int(Ending.NO_WIN_REACHABLE)
                continue
            if d + 1 >= limit:
                continue  # its children are tried by the next limit
            key = child.key()
            if depth.get(key, d + 2) <= d + 1:
                continue
            if nodes >= node_limit:
                return undecided()
            nodes += 1
            depth[key] = d + 1
            stack.append(_moves_at(child, d + 1, limit))
            line.append(move)
    return undecided()


def _moves_at(state: State, d: int, limit: int):
    """The moves of a position entered at depth d under a depth limit: none at the limit's
    last level (its children are not entered) when no move can win now
    (`prune.can_win_now`), as `kernel.shortest` skips them."""
    if d + 1 >= limit and not can_win_now(state):
        return iter(())
    return state.iter_children()

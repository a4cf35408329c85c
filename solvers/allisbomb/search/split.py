"""Deciding a deal whose positions outgrow one transposition table: the turn's children
one by one, each with a search and a table of its own.

The verdict search (`kernel.dfs`) is exhaustive, but it tries a position's moves in one
order and finishes each before the next: when the first moves lead into a loss of more
positions than its table holds, it revisits what it could not store and the node limit
stops it before it ever tries the later moves, where a win may lie a few hundred
thousand positions away. Splitting asks the same question another way. The game is
played by one team with every card in view (rulebook F: the two players "win or lose
together"), so a position is won exactly when one of its children is: the positions after
each move of its turn (rulebook D, every choice of the turn, Clean-Up's gift included).
So the children are decided one by one, each by a search from that child with the whole
node limit and a table of its own, all of them before any is split further; a child that
search leaves undecided is split in turn, up to `depth` turns below the root. On a card
file with the extended vocabulary a child's search begins with the DECK floors (floors.py,
a sixth of its node limit), as a deal's first search does.

Sound both ways. A child's verdict is the kernel's exact verdict from that position. A
win is a line: the moves down to the child, then the child's winning line, replayed in the
reference engine before it is reported. A loss needs every child a loss: a child that is
already on the line being split (the game can come back to a position) is passed over,
because a winning line through it would win from its first visit too, which the split
of that visit decides; any child left undecided leaves its parent undecided, and so the
root, whatever else was proved. A position's moves past the move cap (`rules.MAX_MOVES`,
CARDS.md "Limits") are cut: those listed before it are decided, a win among them is a WIN,
and the position is otherwise undecided.

A time limit bounds the whole split: each child's search gets what is left of it, and
when it runs out the split stops, undecided (`SplitResult.stopped` says so), keeping no
verdict of the child it stopped. A bound on the positions of all the children's searches
together (`total_limit`) does the same with positions instead of seconds: each child's
search gets at most what is left, and once it is spent the split stops, undecided; a
verdict within it is the same on every run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bombsolve.solvers.allisbomb.kernel.kernel import TT_ENTRY_BITS, bits_to_store
from bombsolve.solvers.allisbomb.rules.rules import Ending, State, TooManyMoves
from bombsolve.solvers.allisbomb.search.solver import (
    SolveResult,
    solve_state,
    verify_solution,
)
from bombsolve.solvers.common.errors import BadInput

#: Positions each child's search may enter, by default.
SPLIT_LIMIT = 25_000_000
#: Turns below the root a split may reach, by default.
SPLIT_DEPTH = 4


@dataclass
class SplitResult:
    """The verdict of a split search, and what it cost."""

    outcome: str  # "win" | "loss" | "undecided"
    nodes: int  # positions entered, over every child's search
    seconds: float
    solution: list[tuple[int, ...]] = field(default_factory=list)  # the winning line
    loss_reason: int = 0  # OR of the losing children's reasons
    searches: int = 0  # children searched by the kernel
    depth: int = 0  # deepest level split
    stopped: str = ""  # "time" or "positions" when that limit stopped the split before its end


class _Stopped(Exception):
    """The split's time limit passed ("time") or its positions (`total_limit`) are spent
    ("positions"): no child's verdict after it is known."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def table_bits_for(node_limit: int) -> int:
    """A table that stores every position a child's search may enter (entries are stored
    up to 3/4 of the slots), at most the kernel's largest (`kernel.TT_ENTRY_BITS`)."""
    return int(min(TT_ENTRY_BITS, max(16, bits_to_store(node_limit))))


def solve_split(
    state: State,
    depth: int = SPLIT_DEPTH,
    node_limit: int = SPLIT_LIMIT,
    table_bits: int | None = None,
    report: Callable[[str], None] | None = None,
    time_limit: float | None = None,
    total_limit: int | None = None,
) -> SplitResult:
    """Decide `state` by splitting it into its children (module docstring), to `depth`
    turns below it, each child searched with `node_limit` positions. `report`, if given,
    hears one line per child searched. `time_limit` (seconds, for the whole split; zero
    or less searches nothing) stops it undecided, `stopped` "time", overrun by at most
    what a child's search overruns its own (`solver.solve_state`). `total_limit` (positions
    of all the children's searches together) stops it undecided, `stopped` "positions",
    each child's search given at most what is left of it."""
    if depth < 1:
        raise BadInput(f"split depth {depth} is not positive; expected 1 or more")
    if node_limit < 1:
        raise BadInput(f"split node limit {node_limit} is not positive; expected 1 or more")
    if total_limit is not None and total_limit < 1:
        raise BadInput(f"split total limit {total_limit} is not positive; expected 1 or more")
    bits = table_bits or table_bits_for(node_limit)
    t0 = time.perf_counter()
    out = SplitResult("undecided", 0, 0.0)
    known: dict[tuple, SolveResult] = {}
    on_line: set[tuple] = set()
    deadline = None if time_limit is None else t0 + time_limit

    def search(child: State, key: tuple, name: str) -> SolveResult:
        if key not in known:
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                raise _Stopped("time")
            limit = node_limit
            if total_limit is not None:
                if out.nodes >= total_limit:
                    raise _Stopped("positions")
                limit = min(node_limit, total_limit - out.nodes)
            res = solve_state(
                child,
                node_limit=limit,
                table_bits=bits,
                check=False,
                time_limit=left,
                floors=True,
            )
            out.nodes += res.nodes
            out.searches += 1
            if deadline is not None and res.outcome == "undecided":
                if time.perf_counter() >= deadline:
                    # the clock stopped it, not its node limit: no time is left to split it
                    raise _Stopped("time")
            if res.outcome == "undecided" and limit < node_limit:
                raise _Stopped("positions")  # cut short by the total: not the child's verdict
            known[key] = res
            if report is not None:
                report(f"{name}: {res.outcome}, {res.nodes:,} positions")
        return known[key]

    def split(s: State, level: int, name: str) -> tuple[str, list[tuple[int, ...]], int]:
        """(outcome, winning line from s, loss reasons) of a position searched undecided."""
        if level > depth:
            return "undecided", [], 0
        out.depth = max(out.depth, level)
        here = s.key()
        on_line.add(here)
        try:
            kids = []
            cut = False  # moves past the move cap (CARDS.md, "Limits"): never searched
            try:
                for i, (move, child) in enumerate(s.iter_children(), 1):
                    if child.is_over():
                        if child.result() == "win":
                            return "win", [move], 0
                        kids.append((i, move, child, "loss", int(child.ending)))
                        continue
                    key = child.key()
                    if key in on_line:
                        continue
                    res = search(child, key, f"{name}.{i}")
                    if res.outcome == "win":
                        return "win", [move, *res.solution], 0
                    kids.append((i, move, child, res.outcome, res.loss_reason))
            except TooManyMoves:  # the moves listed before it are still searched
                cut = True
            reasons = int(Ending.TOO_MANY_MOVES) if cut else 0
            open_ = cut
            for i, move, child, outcome, why in kids:
                if outcome == "undecided":
                    outcome, line, why = split(child, level + 1, f"{name}.{i}")
                    if outcome == "win":
                        return "win", [move, *line], 0
                open_ |= outcome == "undecided"
                reasons |= why
            return ("undecided" if open_ else "loss"), [], reasons
        finally:
            on_line.discard(here)

    if state.is_over():
        out.outcome = state.result()
    else:
        try:
            outcome, line, reasons = split(state, 1, "root")
        except _Stopped as stop:
            outcome, line, reasons, out.stopped = "undecided", [], 0, stop.why
        if outcome == "win":
            verify_solution(state, line)  # raises unless the line wins
            out.solution = line
        out.outcome, out.loss_reason = outcome, reasons
    out.seconds = time.perf_counter() - t0
    return out

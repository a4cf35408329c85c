"""The rest of a deal's node budget spread over its first turn's moves (iterative widening).

The sweep's search (`kernel.portfolio`) tries a position's moves in one order and finishes
each before the next, in two move orders side by side. On card sets that use the extended
vocabulary (CARDS.md; turn_over, `anywhere`, exchanges, reorders of the DISCARD PILE...)
almost every card can come back, so a first move may lead into a lost subtree of
millions of positions in both orders, and the node limit stops the search before it
reaches a later first move that wins within a few hundred thousand positions.

Widening asks the same question another way: a position is won exactly when one of its
children is (the game is played by one team with every card in view, rulebook F; a
child is the position after one move of the turn, rulebook D, every choice included).
Each child is searched with a small budget of its own, all of them in turn; those left
open are searched again with twice the budget, until one is a WIN, all are LOSSes, or the
budget is spent. With two levels (`levels`, default WIDEN_LEVELS) the rounds alternate: a
child is searched by the kernel in one round and widened in the next, over its own first
turn's moves (one level down, where every round is a kernel search); the kernel's
searches alternate the two move orders. A restarted search starts from an empty table (a
new generation): a search stopped by its limit leaves entries that prove nothing.

A position with a single move (its other moves, if any, end the game lost) is not widened:
widening is the plain search of that one child, so the move is played and widening starts
at the first position with several moves, the forced moves heading the WIN line.

Why two levels: a deal one level left open can have first moves that are each a position
whose own first moves lead into large lost subtrees in both move orders; such a child's
winning move is reached once the child is widened too (results/PERFORMANCE.md,
"Two levels of widening"). At small budgets (a few thousand positions, where a grandchild's
share is a few positions) one level decides more deals than two: the kernel's search of
the child, every other round, is what two levels keep of it.

Sound both ways: a WIN is the forced moves, the move to the child and the child's winning
line, replayed in the reference engine (`solver._result`); a LOSS needs every child proven
lost (and every other move of a forced position lost at once); any child left open leaves
the deal UNDECIDED.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bombsolve.solvers.allisbomb.kernel.kernel import CODE_LOSS, CODE_UNDECIDED, CODE_WIN, E_CUT
from bombsolve.solvers.allisbomb.rules.rules import State, TooManyMoves
from bombsolve.solvers.allisbomb.search.search import MAX_DEPTH

#: A child's search: (child, node limit, move order) -> an object with the kernel's
#: verdict (`solver.SolveResult`: outcome, nodes, solution, loss_reason).
ChildSearch = Callable[[State, int, int], Any]

#: Positions each child's first search may enter (then doubling each round).
WIDEN_FIRST = 2_000
#: The move orders of the children's searches, round by round (kernel.dfs's orders 2 and 3,
#: as in the portfolio): a child lost in a huge subtree in one order may win early in the other.
#: With the card order off (the default, kernel/ordering.py) they are orders 0 and 1, so
#: adding order 0 only searches in order 2's order twice as often: measured, it decided no
#: more deals and entered more positions (results/PERFORMANCE.md, "Two levels of widening").
ORDERS = (2, 3)
#: Levels of widening: the root's moves, then each child's own moves (module docstring).
#: 1, 2 and 3 were tried on the deals of rich_relay and random set 1 that one level left
#: open: 2 decided all 12, 3 cost over 25 CPU-s a deal (results/PERFORMANCE.md,
#: "Two levels of widening").
WIDEN_LEVELS = 2
#: Whether a position with a single move (the others, if any, end the game lost) is
#: passed through to the first position with several before it is widened: widening a
#: single move is the plain search of its child, a level spent for nothing
#: (results/PERFORMANCE.md, "Two levels of widening").
SKIP_FORCED = True
#: The kernel's outcome words as widening's codes.
CODES = {"win": CODE_WIN, "loss": CODE_LOSS, "undecided": CODE_UNDECIDED}


@dataclass
class Widened:
    """What widening decided: code 1 win, 0 loss, 2 undecided (the kernel's codes)."""

    code: int
    nodes: int
    turns: int = 0
    reason: int = 0
    line: tuple = ()


def widen(
    root: State,
    budget: int,
    search: ChildSearch,
    first: int = WIDEN_FIRST,
    levels: int = WIDEN_LEVELS,
) -> Widened:
    """Decide `root` by searching its children with doubling budgets (module docstring),
    entering at most `budget` positions in all; `search` is the kernel's single search
    (`solver.widen_search` passes it: this module stays below the solver). With
    `levels` > 1 a child is searched by the kernel and widened `levels - 1` levels deep,
    in alternate rounds."""
    forced: tuple[tuple[int, ...], ...] = ()  # the moves of positions with one move
    reason = 0
    while True:
        kids: list[tuple[tuple[int, ...], State]] = []
        try:
            for move, child in root.iter_children():
                if child.is_over():
                    if child.result() == "win":
                        line = (*forced, move)
                        return Widened(CODE_WIN, 0, len(line), 0, line)
                    reason |= int(child.ending)
                    continue
                kids.append((move, child))
        except TooManyMoves:  # the kernel answers such a position undecided too
            return Widened(CODE_UNDECIDED, 0)
        if len(kids) != 1 or not SKIP_FORCED:
            break
        if len(forced) >= MAX_DEPTH:  # a line past the depth limit proves nothing
            return Widened(CODE_UNDECIDED, 0, 0, E_CUT)
        forced += (kids[0][0],)
        root = kids[0][1]
    open_ = kids
    spent = 0
    stuck = False  # a child stopped short of its limit (a cut line or a move cap)
    why_open = 0  # what stopped such children (kernel.E_CUT...)
    # three rounds at least (1 + 2 + 4 shares a child) fit the budget of a small limit
    share = max(1, min(first, budget // (8 * max(1, len(open_)))))
    rnd = 0
    step = 2 if levels > 1 else 1  # rounds per kernel search when they alternate with widening
    while open_:
        left = []
        for move, child in open_:
            lim = min(share, budget - spent)
            if lim <= 0:
                return Widened(CODE_UNDECIDED, spent)
            if levels > 1 and rnd % 2 == 1:
                sub = widen(child, lim, search, first, levels - 1)
                code, nodes, sol, why = sub.code, sub.nodes, sub.line, sub.reason
            else:
                res = search(child, lim, ORDERS[(rnd // step) % len(ORDERS)])
                code, nodes = CODES.get(res.outcome, CODE_UNDECIDED), res.nodes
                sol, why = res.solution, res.loss_reason
            spent += nodes
            if code == CODE_WIN:
                line = (*forced, move, *sol)
                if len(line) > MAX_DEPTH:  # past the depth limit from the root
                    stuck = True
                    why_open |= E_CUT
                    continue
                return Widened(CODE_WIN, spent, len(line), 0, line)
            if code == CODE_LOSS:
                reason |= why
            elif nodes < lim:
                stuck = True  # more positions would not decide it (a sub-widening too)
                why_open |= why
            else:
                left.append((move, child))
        open_ = left
        share *= 2
        rnd += 1
    return (
        Widened(CODE_UNDECIDED, spent, 0, why_open)
        if stuck
        else Widened(CODE_LOSS, spent, 0, reason)
    )

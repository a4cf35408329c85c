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

A position's moves are generated as its rounds need them (the reference engine's children,
the costliest step of widening when a position has thousands of moves) and kept for its
later rounds, the last level's as the kernel's rows, up to about CACHE_MOVES in all. No
share is smaller than MIN_SHARE positions (a share of a position or two decides nothing and
costs a kernel call): a child is widened in its round only when it has at most one move per
MIN_SHARE positions of the round's budget, and is searched whole by the kernel otherwise,
so generating its moves never costs much more than the search it replaces; a root with more
moves than its budget gives MIN_SHARE each searches the first ones and is left open when
the budget runs out.

Why two levels: a deal one level left open can have first moves that are each a position
whose own first moves lead into large lost subtrees in both move orders; such a child's
winning move is reached once the child is widened too (results/PERFORMANCE.md,
"Two levels of widening"). At small budgets (a few thousand positions, where a grandchild's
share is a few positions) one level decides more deals than two: the kernel's search of
the child, every other round, is what two levels keep of it.

Sound both ways: a WIN is the forced moves, the move to the child and the child's winning
line, replayed in the reference engine (`solver._result`); a LOSS needs every child proven
lost (and every other move of a forced position lost at once); any child left open leaves
the deal UNDECIDED, and so do a position's moves cut past the move cap (`rules.MAX_MOVES`,
CARDS.md "Limits"): its first moves are searched, a win among them is a WIN.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from bombsolve.solvers.allisbomb.kernel.kernel import (
    CODE_LOSS,
    CODE_UNDECIDED,
    CODE_WIN,
    E_CUT,
    E_MOVES,
)
from bombsolve.solvers.allisbomb.rules.rules import MAX_MOVES, State, TooManyMoves
from bombsolve.solvers.allisbomb.search.search import MAX_DEPTH

#: A child's search: (child in the search's own form, node limit, move order) -> an object
#: with the kernel's verdict (`solver.SolveResult`: outcome, nodes, solution, loss_reason).
ChildSearch = Callable[[Any, int, int], Any]
#: A position in the search's own form (`solver.to_kernel_state`: the kernel's row).
Convert = Callable[[State], Any]

#: Positions each child's first search may enter (then doubling each round).
WIDEN_FIRST = 2_000
#: The fewest positions a child's search is given (module docstring): random set 1's deals
#: 293 and 905 have positions of thousands of moves, whose children were searched with
#: shares of a position or two, about half a million kernel calls
#: (results/PERFORMANCE.md, "Moves generated as widening needs them").
MIN_SHARE = 16
#: The most moves kept generated for later rounds across one widening (module docstring):
#: a kernel row is 96 bytes, so at most some 20 MB of rows.
CACHE_MOVES = 200_000
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


@dataclass
class _Child:
    """A move of a widened position: the child in the search's form (`pos`), the child
    itself where it is widened in turn (`state`), and its own moves once generated."""

    move: tuple[int, ...]
    pos: Any
    state: State | None = None
    moves: _Moves | Widened | None = None


@dataclass
class _Moves:
    """A position's forced moves, the children of its other moves generated so far (the
    rest `pending`), why its moves that end the game at once lose (`Ending` bits), and
    whether its moves past the move cap were cut (`cut`: the rest are never searched)."""

    forced: tuple[tuple[int, ...], ...]
    pending: Iterator[tuple[tuple[int, ...], State]] | None
    keep: bool  # the children are widened in turn: kept as positions too
    kids: list[_Child] = field(default_factory=list)
    reason: int = 0
    last: State | None = None  # the last child generated (a forced move's position)
    cut: bool = False

    def grow(self, upto: int, convert: Convert) -> Widened | None:
        """Generate moves until more than `upto` children or all are; a Widened when that
        decides the position (a move that wins at once). Moves past `rules.MAX_MOVES` are
        cut as the kernel cuts them (CARDS.md, "Limits"): the children generated so far are
        searched, the position can no longer be a LOSS."""
        if self.pending is None:
            return None
        try:
            for move, child in self.pending:
                if child.is_over():
                    if child.result() == "win":
                        line = (*self.forced, move)
                        return Widened(CODE_WIN, 0, len(line), 0, line)
                    self.reason |= int(child.ending)
                    continue
                self.kids.append(_Child(move, convert(child), child if self.keep else None))
                self.last = child
                if len(self.kids) > upto:
                    return None
        except TooManyMoves:
            self.cut = True
        self.pending = None
        return None


@dataclass
class _Cache:
    """How one widening puts positions in the search's form, and the room left for moves
    kept generated (CACHE_MOVES)."""

    convert: Convert
    room: int = CACHE_MOVES


def _start(root: State, levels: int, convert: Convert) -> _Moves | Widened:
    """`root`'s forced moves played (SKIP_FORCED), its next moves' generation begun: a
    Widened when that decides it (a move that wins at once, a forced line past the depth
    limit)."""
    forced: tuple[tuple[int, ...], ...] = ()  # the moves of positions with one move
    reason = 0
    while True:
        moves = _Moves(forced, root.iter_children(), levels > 1, reason=reason)
        decided = moves.grow(1, convert)  # two children tell a forced move from a choice
        if decided is not None:
            return decided
        if moves.pending is not None or len(moves.kids) != 1 or moves.cut or not SKIP_FORCED:
            return moves  # (moves cut at the cap: the one child is not the only move)
        if len(forced) >= MAX_DEPTH:  # a line past the depth limit proves nothing
            return Widened(CODE_UNDECIDED, 0, 0, E_CUT)
        assert moves.last is not None
        forced += (moves.kids[0].move,)
        root, reason = moves.last, moves.reason


def widen(
    root: State,
    budget: int,
    search: ChildSearch,
    first: int = WIDEN_FIRST,
    levels: int = WIDEN_LEVELS,
    convert: Convert | None = None,
) -> Widened:
    """Decide `root` by searching its children with doubling budgets (module docstring),
    entering at most `budget` positions in all; `search` is the kernel's single search
    (`solver.widen_search` passes it: this module stays below the solver), given each
    position as `convert` makes it (the position itself by default). With `levels` > 1 a
    child is searched by the kernel and widened `levels - 1` levels deep, in alternate
    rounds."""
    cache = _Cache(convert or (lambda s: s))
    moves = _start(root, levels, cache.convert)
    if isinstance(moves, Widened):
        return moves
    decided = moves.grow(MAX_MOVES, cache.convert)
    return decided or _widen(moves, budget, search, first, levels, cache)


def _widen(
    moves: _Moves, budget: int, search: ChildSearch, first: int, levels: int, cache: _Cache
) -> Widened:
    """`widen` of a position whose moves are generated."""
    forced, reason = moves.forced, moves.reason
    open_ = moves.kids
    spent = 0
    # a child stopped short of its limit (a cut line or a move cap), or moves cut here
    stuck = moves.cut
    why_open = E_MOVES if moves.cut else 0  # what stopped them (kernel.E_CUT...)
    # three rounds at least (1 + 2 + 4 shares a child) fit the budget of a small limit
    share = max(MIN_SHARE, min(first, budget // (8 * max(1, len(open_)))))
    rnd = 0
    step = 2 if levels > 1 else 1  # rounds per kernel search when they alternate with widening
    while open_:
        left = []
        for kid in open_:
            lim = min(share, budget - spent)
            if lim <= 0:
                return Widened(CODE_UNDECIDED, spent)
            sub = None
            if levels > 1 and rnd % 2 == 1:
                sub = _sub_widen(kid, lim, search, first, levels - 1, cache)
            if sub is not None:
                code, nodes, sol, why = sub.code, sub.nodes, sub.line, sub.reason
            else:
                # a child too wide for this round's widening is searched whole instead,
                # in the order the round before did not use
                order = rnd // step + (rnd % 2 if levels > 1 else 0)
                res = search(kid.pos, lim, ORDERS[order % len(ORDERS)])
                code, nodes = CODES.get(res.outcome, CODE_UNDECIDED), res.nodes
                sol, why = res.solution, res.loss_reason
            spent += nodes
            if code == CODE_WIN:
                line = (*forced, kid.move, *sol)
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
                left.append(kid)
        open_ = left
        share *= 2
        rnd += 1
    return (
        Widened(CODE_UNDECIDED, spent, 0, why_open)
        if stuck
        else Widened(CODE_LOSS, spent, 0, reason)
    )


def _sub_widen(
    kid: _Child, budget: int, search: ChildSearch, first: int, levels: int, cache: _Cache
) -> Widened | None:
    """`kid` widened `levels` deep with `budget` positions; None when it has more moves
    than one per MIN_SHARE positions of the budget (module docstring). Its moves are
    generated as far as that needs, and kept while the cache has room."""
    moves, had = kid.moves, 0
    if moves is None:
        assert kid.state is not None  # a child widened in turn keeps its position
        moves = _start(kid.state, levels, cache.convert)
    elif isinstance(moves, _Moves):
        had = len(moves.kids)
    if isinstance(moves, _Moves):
        moves = moves.grow(budget // MIN_SHARE, cache.convert) or moves
    if kid.moves is not None or cache.room > 0:  # kept, charged for the moves it grew by
        if isinstance(moves, _Moves):
            cache.room -= len(moves.kids) - had
        kid.moves = moves
    if isinstance(moves, Widened):
        return moves
    if moves.pending is not None:
        return None
    return _widen(moves, budget, search, first, levels, cache)

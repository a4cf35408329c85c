"""Move ordering of the verdict search: which EQUIPPED CARD a position tries playing first.

The search is exhaustive, so the order it tries moves in never changes a verdict (a win is
found if one is reachable, and a loss is only answered once every move is tried): it only
changes how many positions are entered before the answer. A winnable deal is answered at
its first win, so trying the moves that lead to wins first is what makes it cheap.

The order is a static table of priorities, one per side of each card (rulebook C.F: the
PASSIVE and IGNITED sides): the D.1 choice "play an EQUIPPED CARD" tries the playable cards
by the priority of the side that is up, lowest first, ties by card id (the unordered
search's order). Every other choice of the turn keeps its order. The table is made from
what the card file says the cards are and do (`card_priorities`), so it holds for any
`--cards` file; it lives in the kernel's `info` array at the offset info[INFO_ORDER]
(0 or negative: off, the search tries cards by id; off by default, `ON_BY_DEFAULT`).

Kernel orders (`kernel.dfs`'s `order`): 0 by id, 1 last-first (every choice reversed), 2
the table's order, 3 the table's order with ties and every other choice last-first. The
portfolio search runs 2 and 3 (`kernel.portfolio`); with the table off they are 0 and 1.
`search.reference_search(order=2)` is order 2 in plain Python.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from bombsolve.solvers.allisbomb.cards.cards import CardSet

#: info[INFO_ORDER]: where the priority table starts in `info`, negated while the ordering
#: is switched off (0: no table). Entry 15 of `program.win_info`, which had no use.
INFO_ORDER = 15
#: Whether the ordering is on by default. Off: measured, the shipped table (IGNITED sides
#: first) entered 1-2% more positions than the order by id on every sampled configuration
#: (commit a91c379, and `git show 76ed889:results/allisbomb/POWER.md`, "Move ordering"), so
#: the default search stays the order by id; `program.move_order` switches it on.
ON_BY_DEFAULT = False
#: Priorities (lower is tried earlier).
FIRST, NORMAL, LAST = 0, 1, 2


def card_priorities(cs: CardSet) -> np.ndarray:
    """The priority of each card's sides, int32 [n, 2] (0 PASSIVE, 1 IGNITED); see
    the module docstring and `_priority`."""
    out = np.full((cs.n, 2), NORMAL, np.int32)
    for c in range(cs.n):
        for side in (0, 1):
            out[c, side] = _priority(cs, c, side)
    return out


def _priority(cs: CardSet, c: int, side: int) -> int:
    """IGNITED sides first: every win condition of the base game is met by playing ignited
    cards (rulebook E: an ignited PROPHET played, the ignited PRINCESS played), and an
    ignited card played is discarded (D.4), which is how a line moves on rather than
    cycling the DECK. Measured (commit a91c379): fewer positions on the expansions' hard
    deals than trying cards by id, about the same on the base game."""
    return FIRST if side == 1 else NORMAL


def extend_order(cs: CardSet, info: np.ndarray) -> np.ndarray:
    """Return `info` with the priority table appended and info[INFO_ORDER] pointing at it."""
    table = card_priorities(cs).reshape(-1)
    out = np.zeros(len(info) + len(table), np.int32)
    out[: len(info)] = info
    out[len(info) :] = table
    out[INFO_ORDER] = len(info) if ON_BY_DEFAULT else -len(info)
    return out


def priority_table(info: np.ndarray, n: int) -> np.ndarray | None:
    """The table of `info` (n cards) as [n, 2] priorities, or None when the ordering is off."""
    t = int(info[INFO_ORDER])
    if t <= 0:
        return None
    return info[t : t + 2 * n].reshape(n, 2)

"""The ways a line of play ends, in words: the rulebook's losing ends (E, "Losing the
Game") and the searches' own.

Apart from the search's explanations (`search.explain`) so that a report names a sweep's
loss reasons without importing the kernel.
"""

from __future__ import annotations

from bombsolve.solvers.allisbomb.rules.rules import Ending

#: The rulebook's losing ends (E, "Losing the Game") and the searches' own, in words.
ENDING_WORDS = {
    Ending.DREW_TOO_MANY: "would draw more cards than there are in the DECK",
    Ending.NO_CARD_TO_PLAY: "no card to play in the Play A Card phase",
    Ending.CONDITIONS_UNMET: "the game ended without every win condition met",
    Ending.CYCLE: "the line came back to a position already on it",
    Ending.NO_WIN_REACHABLE: "proved no win reachable",
    Ending.TOO_MANY_MOVES: "a position with more moves than the search generates (rules.MAX_MOVES)",
    Ending.DEPTH_CUT: "a line cut at the deepest the search follows (search.MAX_DEPTH turns)",
}


__all__ = ["ENDING_WORDS"]

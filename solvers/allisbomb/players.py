"""Heuristic players for the skill gap (issue 3 part 3): what a person might manage.

Both play through the reference engine (`rules.State`) and see what a player at the table
sees: All Is Bomb is open information (rulebook B: "You can examine the DECK anytime").

- ``random``: a uniformly random legal move each turn (whole turns, `State.legal_moves`).
- ``greedy``: a one-turn lookahead. It plays a winning move when there is one, never a
  move that loses at once when another exists, and otherwise takes the move whose
  resulting position scores best on `greedy_score` (fewer unmet win conditions, the
  prophecy made, the DESIRED DISH and the PRINCESS ignited and not discarded, a longer
  DECK), avoiding positions it has already been in this game. Ties go to the first move.

A game that reaches `TURN_CAP` turns is counted as lost (it cycles).
"""

from __future__ import annotations

import numpy as np

from solvers.allisbomb.rules import DISCARD, OUT, Outcome, State

#: Turns after which a heuristic game counts as lost (a deal is decided far sooner by
#: perfect play: see the solution lengths in the sweep).
TURN_CAP = 200
PLAYERS = ("greedy", "random")


def greedy_score(s: State) -> float:
    """Score a position for the greedy player (higher is better)."""
    if s.outcome is Outcome.WIN:
        return 1e9
    if s.outcome is Outcome.LOSS:
        return -1e9
    names = s.cards.names
    princess = [c for c in range(len(names)) if names[c] == "PRINCESS" and s.zone[c] != OUT]
    score = float(len(s.deck))
    # Running out of EQUIPPED CARDS loses at once (rulebook E), so hand size matters most.
    hand = sum(len(s.equipped(p)) for p in range(s.config.players))
    score += 60.0 * min(hand, 4)
    key_names = ("PRINCESS", "KING") if s.desired >= 0 else ("PRINCESS", "KING", "PROPHET")
    for c in s.discard:
        if names[c] in key_names or c == s.desired or "BREAKFAST" in s.cards.cards[c].classes:
            score -= 30.0
    if princess:
        p = princess[0]
        score -= 100.0 * len(s.unmet_conditions(p, True))
        score += 25.0 if s.ignited[p] else 0.0
        score -= 80.0 if s.zone[p] == DISCARD else 0.0
    else:
        score -= 500.0
    if s.desired >= 0:
        score += 40.0
        if s.ignited[s.desired] and not s.config.waking_up:
            score += 20.0
    return score


def play_greedy(state: State, turn_cap: int = TURN_CAP) -> bool:
    """Play `state` to its end with the greedy policy; return True for a win."""
    seen = {state.key()}
    s = state
    while not s.is_over() and s.turn < turn_cap:
        best, best_score = None, -np.inf
        for _move, child in s.children():
            score = greedy_score(child) - (1e6 if child.key() in seen else 0.0)
            if score > best_score:
                best, best_score = child, score
        s = best
        seen.add(s.key())
    return s.outcome is Outcome.WIN


def play_random(state: State, rng: np.random.Generator, turn_cap: int = TURN_CAP) -> bool:
    """Play `state` to its end with uniformly random legal moves; return True for a win."""
    s = state
    while not s.is_over() and s.turn < turn_cap:
        children = s.children()
        s = children[int(rng.integers(len(children)))][1]
    return s.outcome is Outcome.WIN

"""Hand-laid positions for the Catch the Bomber tests.

A line is written as text: 'CIT [BMR] SQD' lists cards leftmost first, brackets mark a
face-down card, and '@2' after a card names its owner (default player 0).
"""

from __future__ import annotations

from bombsolve.solvers.bomber.rules import (
    CARD_SHORT,
    N_CARDS,
    N_LOCATIONS,
    Card,
    Options,
    Slot,
    State,
)

SHORT_TO_CARD = {v: k for k, v in CARD_SHORT.items()}


def parse_line(text: str) -> list[Slot]:
    """Parse 'CIT [BMR]@1 SQD' into slots."""
    slots = []
    for tok in text.split():
        owner = 0
        if "@" in tok:
            tok, o = tok.split("@")
            owner = int(o)
        up = not tok.startswith("[")
        slots.append(Slot(SHORT_TO_CARD[tok.strip("[]")], up, owner))
    return slots


def position(
    lines: dict[int, str] | None = None,
    hands: dict[int, dict[Card, int]] | None = None,
    characters: list[Card] | None = None,
    rules: Options | None = None,
    current: int = 0,
) -> State:
    """Build a state from lines {location: text} and hands {player: {card: count}}."""
    characters = characters or [Card.BOMBER, Card.POLICE, Card.POLICE]
    n = len(characters)
    hand_rows = [[0] * N_CARDS for _ in range(n)]
    for p, h in (hands or {}).items():
        for c, k in h.items():
            hand_rows[p][c] = k
    board = [[] for _ in range(N_LOCATIONS)]
    for loc, text in (lines or {}).items():
        board[loc] = parse_line(text)
    return State(
        players=n,
        rules=rules or Options(),
        characters=list(characters),
        hands=hand_rows,
        lines=board,
        sheltered=[0] * n,
        out=[False] * n,
        current=current,
    )

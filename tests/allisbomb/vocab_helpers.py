"""A small custom card set for the fixed-position tests of the effect vocabulary (CARDS.md).

`game(steps)` writes a card file whose TESTER card carries `steps` on its passive side
(NUMBER 0, so no Draw & Equip gets in the way), and `play(...)` plays the TESTER from a
position built by label: it returns every (move, resulting position) of the reference
engine, after checking that the kernel's turn writes the same row for each move and asks
for the same choices (options counted from the reference's moves).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel import kernel as K
from bombsolve.solvers.allisbomb.kernel.layout import key_words
from bombsolve.solvers.allisbomb.rules.rules import State
from bombsolve.solvers.allisbomb.search.solver import compiled, to_kernel_state
from tests.allisbomb.helpers import position

CARDS = """[set]
name = "base"
provenance = "custom"

[[card]]
name = "PRINCESS"
class = ["COURT"]
[card.passive]
number = 1
keyword = "ROYAL"
[card.ignited]
number = 1
steps = [{op = "equip_win", target = "desired", zone = "drawn"}]

[[card]]
name = "PROPHET"
[card.passive]
number = 1
[card.ignited]
number = 1
steps = [{op = "prophecy", dish = "EGGS"}]

[[card]]
name = "EGGS"
class = ["BREAKFAST"]
[card.passive]
number = 1
[card.ignited]
number = 1

[[card]]
name = "KING"
class = ["COURT"]
[card.passive]
number = 1
[card.ignited]
number = 1

[[card]]
name = "JOKER"
copies = 2
class = ["COURT"]
[card.passive]
number = 1
[card.ignited]
number = 1

[[card]]
name = "MENDER"
[card.passive]
number = 1
[card.ignited]
number = 1

[[card]]
name = "TESTER"
[card.passive]
number = 0
steps = [{steps}]
[card.ignited]
number = 0
"""


def game(folder: Path, steps: str, players: int = 1) -> Options:
    """The test game with TESTER's passive steps `steps` (TOML inline tables, comma-separated)."""
    path = folder / f"vocab{abs(hash(steps)) % 10**8}.toml"
    path.write_text(CARDS.replace("{steps}", steps))
    return Options(cards_file=path, allow_nonstandard=True, players=players)


def _option_counts(moves: list[tuple[int, ...]]) -> dict[tuple[int, ...], int]:
    """For each prefix of a move, how many options the next choice has (from the move list)."""
    nxt: dict[tuple[int, ...], set[int]] = {}
    for m in moves:
        for p in range(len(m)):
            nxt.setdefault(m[:p], set()).add(m[p])
    return {p: max(v) + 1 for p, v in nxt.items()}


def kernel_matches(state: State, kids: list[tuple[tuple[int, ...], State]]) -> None:
    """Every reference child is what the kernel's turn writes, with the same choices asked."""
    c = compiled(state.config)
    n = c.prog.n
    kw = int(key_words(n))
    row = to_kernel_state(state)
    counts = _option_counts([m for m, _ in kids])
    for move, child in kids:
        out = row.copy()
        ch = np.zeros(K.MAXC, np.int32)
        chk = np.zeros(K.MAXC, np.int32)
        ch[: len(move)] = move
        cs = np.array([0, len(move), 0, 0], np.int64)
        buf = np.zeros(2 * n + 8, np.int64)
        tmp = np.zeros(2 * n + 8, np.int64)
        status = K.run_turn(row, out, n, *c.rule_args, ch, chk, cs, buf, tmp)
        assert status == 0 and cs[0] == len(move), (move, status, cs)
        for p in range(len(move)):
            assert chk[p] == 0 or chk[p] == counts[move[:p]], (move, p, chk[p])
        want = to_kernel_state(child)
        assert out[:kw].tobytes() == want[:kw].tobytes(), move
        hb = 8 * kw
        assert out.view(np.int8)[hb + 2] == want.view(np.int8)[hb + 2], move


def play(
    config: Options,
    deck=(),
    equipped=(),
    discard=(),
    ignited=(),
    desired=None,
    partner=(),
) -> list[tuple[tuple[int, ...], State]]:
    """Every way to play the TESTER (EQUIPPED by player 1 with `equipped`), reference and
    kernel checked against each other; returns the reference's (move, position) list, the
    moves without the choice of the card to play."""
    hands = [["TESTER", *equipped]] + ([list(partner)] if config.players == 2 else [])
    s = position(config, deck, hands, discard, ignited, desired)
    tester = load_cards(config).labels.index("TESTER")
    kids = [(m, c) for m, c in s.children() if s.card_of(m) == tester]
    kernel_matches(s, [(m, c) for m, c in s.children()])
    if len(s.playable()) > 1:  # the first choice is which card to play: left out
        kids = [(m[1:], c) for m, c in kids]
    return kids


def zones(s: State) -> dict:
    """A position's zones by label (with '*' after an ignited card), for readable asserts."""

    def lab(c: int) -> str:
        return s.cards.labels[c] + ("*" if s.ignited[c] else "")

    return {
        "deck": [lab(c) for c in s.deck],
        "equipped": sorted(lab(c) for c in s.equipped(0)),
        "discard": [lab(c) for c in s.discard],
    }


def kernel_line(sol: np.ndarray, sol_len: np.ndarray, turns: int) -> list[tuple[int, ...]]:
    """A kernel search's line, read as `solver._result` reads it."""
    return [tuple(sol[t, : sol_len[t]].tolist()) for t in range(turns)]

"""`exchange` when the played card and the card it takes lie in one zone (CARDS.md,
`exchange`: "each goes exactly where the other was"): the KING of data/exchange_twice.toml
first trades places with a card of the DISCARD PILE, which leaves the KING in the pile, then
with the PRINCESS on top of that pile. The kernel enters the positions the reference enters,
one by one."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import bombsolve.solvers.allisbomb.kernel.kernel as K
import bombsolve.solvers.allisbomb.search.solver as S
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel import program
from bombsolve.solvers.allisbomb.kernel.layout import key_words
from bombsolve.solvers.allisbomb.rules.rules import State
from bombsolve.solvers.allisbomb.search.search import reference_search
from tests.allisbomb.helpers import position

CFG = Options(
    cards_file=Path(__file__).parent / "data" / "exchange_twice.toml", allow_nonstandard=True
)


def _start() -> State:
    return position(CFG, deck=["PANCAKES"], equipped=[["KING"]], discard=["EGGS", "PRINCESS"])


def test_the_second_exchange_trades_places_inside_the_discard_pile():
    (_, stay), (_, played) = list(_start().iter_children())
    assert stay.to_json()["discard"] == ["PRINCESS", "EGGS"]  # (top first) no exchange
    # EGGS taken to the EQUIPPED CARDS, the KING in its place; then the KING and the
    # PRINCESS on top trade places.
    assert played.to_json()["equipped"] == [["EGGS"]]
    assert played.to_json()["discard"] == ["KING", "PRINCESS"]


def _kernel_entered(state: State, monkeypatch) -> list[np.ndarray]:
    """The key of every position the kernel enters, in order (a pause after each)."""
    kw = key_words(state.cards.n)
    real, keys = K.dfs, []

    def dfs(*args):
        out = real(*args)
        states, ctl = args[15], args[-3]
        if out[0] == K.CODE_PAUSED:
            keys.append(states[int(ctl[1]), :kw].copy())
        return out

    monkeypatch.setattr(S, "PAUSE_STEP", 1)
    monkeypatch.setattr(K, "dfs", dfs)
    result = S.solve_state(state, node_limit=10_000, check=False)
    monkeypatch.undo()
    assert len(keys) == result.nodes
    return keys


def _reference_entered(state: State, monkeypatch) -> list[np.ndarray]:
    kw = key_words(state.cards.n)
    real, keys = State.iter_children, []

    def entered(self):
        keys.append(S.to_kernel_state(self)[:kw])
        return real(self)

    monkeypatch.setattr(State, "iter_children", entered)
    reference_search(state, node_limit=10_000)
    monkeypatch.undo()
    return keys


def test_the_kernel_enters_the_positions_the_reference_enters(monkeypatch):
    with program.pruning(CFG, False):
        kernel = _kernel_entered(_start(), monkeypatch)
        reference = _reference_entered(_start(), monkeypatch)
    assert len(kernel) == len(reference) > 2
    for i, (a, b) in enumerate(zip(kernel, reference, strict=True)):
        assert (a == b).all(), f"position {i} differs"

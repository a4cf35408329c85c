"""Random card files drawn from the whole effect vocabulary (odd_sets.random_card_file,
`next` steps included):
the kernel against the reference on 1,000 seeded deals (wins and losses both), and the
soundness of the dead-position pruning on random playouts of such files: a position that
`prune.dead` (and its plain-Python twin `dead_reason`) calls dead has no win under the
unpruned exhaustive search, kernel and reference.
"""

from __future__ import annotations

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel import program, prune
from bombsolve.solvers.allisbomb.kernel.program import compile_program
from bombsolve.solvers.allisbomb.rules.rules import new_game
from bombsolve.solvers.allisbomb.search.search import reference_search
from bombsolve.solvers.allisbomb.search.solver import solve_state, to_kernel_state
from tests.allisbomb.odd_sets import differential, random_card_file

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"


def test_kernel_matches_reference_on_1000_deals_of_random_files(tmp_path):
    outcomes: dict[str, int] = {}
    bad = differential(tmp_path, files=100, deals=10, limit=3000, seed0=5000, outcomes=outcomes)
    assert bad == []
    assert sum(outcomes.values()) == 1000
    assert outcomes.get("win", 0) >= 100 and outcomes.get("loss", 0) >= 100, outcomes


def _random_positions(cs, rng, deals: int, turns: int = 25):
    out = []
    for _ in range(deals):
        s = new_game(cs, list(rng.permutation(cs.n)))
        while not s.is_over() and s.turn < turns:
            try:
                moves = s.legal_moves()
            except Exception:  # noqa: BLE001 (TooManyMoves: this line ends here)
                break
            s = s.copy().apply(moves[rng.integers(len(moves))])
            if not s.is_over():
                out.append(s)
    return out


def test_pruning_is_sound_on_random_files(tmp_path):
    """No position that the pruning calls dead has a win (unpruned kernel and reference
    searches); the Numba `dead` agrees with `dead_reason` on every position met."""
    dead_met = decided = 0
    for i in range(40):
        rng = np.random.default_rng(9000 + i)
        players = 2 if i % 4 == 3 else 1
        n_cards = int(rng.integers(5 if players == 2 else 4, 8))
        path = random_card_file(rng, tmp_path / f"sound{i}.toml", n_cards, lasting=True)
        cfg = Options(cards_file=path, allow_nonstandard=True, players=players)
        cs = load_cards(cfg)
        info = compile_program(cs).info
        for s in _random_positions(cs, rng, 4):
            why = prune.dead_reason(s)
            assert bool(prune.dead(to_kernel_state(s), cs.n, info)) == (why is not None)
            if why is None:
                continue
            dead_met += 1
            with program.pruning(cfg, False):
                k = solve_state(s, node_limit=20_000, check=False)
                r = reference_search(s, node_limit=5_000)
            assert k.outcome != "win" and r.outcome != "win", (path.read_text(), s.to_json())
            decided += k.outcome == "loss"
    assert dead_met >= 30 and decided >= dead_met // 2, (dead_met, decided)

"""Random card files drawn from the whole effect vocabulary (odd_sets.random_card_file,
`next` steps included):
the kernel against the reference on 1,000 seeded deals (wins and losses both), and the
soundness of the dead-position pruning on random playouts of such files: a position that
`prune.dead` (and its plain-Python twin `dead_reason`) calls dead has no win under the
unpruned exhaustive search, kernel and reference.
"""

from __future__ import annotations

import pytest

from bombsolve.solvers.allisbomb.kernel import program, prune
from bombsolve.solvers.allisbomb.kernel.program import compile_program
from bombsolve.solvers.allisbomb.search.search import reference_search
from bombsolve.solvers.allisbomb.search.solver import solve_state, to_kernel_state
from tests.allisbomb.odd_sets import differential, random_game, random_positions

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"


def test_kernel_matches_reference_on_1000_deals_of_random_files(tmp_path):
    outcomes: dict[str, int] = {}
    bad = differential(tmp_path, files=100, deals=10, limit=3000, seed0=5000, outcomes=outcomes)
    assert bad == []
    assert sum(outcomes.values()) == 1000
    assert outcomes.get("win", 0) >= 100 and outcomes.get("loss", 0) >= 100, outcomes


def test_pruning_is_sound_on_random_files(tmp_path):
    """No position that the pruning calls dead has a win (unpruned kernel and reference
    searches); the Numba `dead` agrees with `dead_reason` on every position met."""
    dead_met = decided = 0
    for i in range(40):
        rng, cfg, cs = random_game(tmp_path, "sound", 9000, i, 8)
        info = compile_program(cs).info
        for s in random_positions(cs, rng, 4):
            why = prune.dead_reason(s)
            assert bool(prune.dead(to_kernel_state(s), cs.n, info)) == (why is not None)
            if why is None:
                continue
            dead_met += 1
            with program.pruning(cfg, False):
                k = solve_state(s, node_limit=20_000, check=False)
                r = reference_search(s, node_limit=5_000)
            assert k.outcome != "win" and r.outcome != "win", (
                cfg.cards_file.read_text(),
                s.to_json(),
            )
            decided += k.outcome == "loss"
    assert dead_met >= 30 and decided >= dead_met // 2, (dead_met, decided)

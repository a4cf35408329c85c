"""The shortest-win and keep-most solves answer with the reference search first
(`solver.solve_first(shortest=True)` / `keep_most=True`) and hand over to the kernel only
when the reference's position budget runs out: the same verdict, length and proven flag
as the kernel alone (and for a proven shortest or best win, the same line)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.rules.deals import deal_from_seed
from bombsolve.solvers.allisbomb.rules.rules import Ending, Outcome, new_game
from bombsolve.solvers.allisbomb.search.search import reference_deepening, reference_search
from bombsolve.solvers.allisbomb.search.solver import (
    solve_first,
    solve_shortest,
    solve_state,
    verify_solution,
)

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

NOT_BEST = int(Ending.NOT_BEST)
V1 = Options(cards_version="standin-v1")


def _state(cfg, seed):
    return new_game(cfg, deal_from_seed(cfg, seed))


def _hard_win():
    """Version 1's deal 10 (tests/allisbomb/test_allisbomb_speed_shortest.py): won in 13
    turns by the first search, the deepening needs ~130,000 positions."""
    return new_game(V1, np.random.default_rng(10).permutation(18).tolist())


def _proven(res) -> bool:
    return res.outcome == "win" and not res.loss_reason & NOT_BEST


@pytest.mark.parametrize(
    ("cfg", "seeds", "min_ref"),
    [
        (Options(), range(24), 16),
        (Options(blitz=True), range(24), 16),
        (Options(expansions=("mosquitos",)), range(10), 5),
    ],
    ids=lambda v: v.label() if isinstance(v, Options) else None,
)
def test_shortest_reference_first_equals_the_kernel_alone(cfg, seeds, min_ref):
    """Verdict, length and proven flag as `solve_shortest` alone; a proven shortest win
    answered by the reference is the kernel's very line."""
    answered = 0
    for seed in seeds:
        state = _state(cfg, seed)
        a = solve_first(state, node_limit=300_000, budget=20_000, shortest=True)
        b = solve_shortest(state, 300_000, None, check=True)
        assert (a.outcome, len(a.solution), _proven(a)) == (
            b.outcome,
            len(b.solution),
            _proven(b),
        ), (cfg.label(), seed)
        if a.engine == "reference":
            answered += 1
            if _proven(a):
                assert a.solution == b.solution, (cfg.label(), seed)
        if a.outcome == "win":
            assert verify_solution(state, a.solution).outcome is Outcome.WIN
    assert answered >= min_ref


def test_deepening_is_the_kernels_position_for_position():
    """`reference_deepening` against `kernel.shortest` (the second search of
    `solve_shortest`): same positions, loss reasons and line."""
    checked = 0
    for cfg, seeds in ((V1, range(10)), (Options(players=2), range(6))):
        for seed in seeds:
            state = _state(cfg, seed)
            won = reference_search(state, node_limit=20_000)
            if won.outcome != "win":
                continue
            deep = reference_deepening(state, len(won.solution), node_limit=50_000)
            if deep.outcome != "win":
                continue
            first = solve_state(state, 300_000, check=False, portfolio=True)
            kern = solve_shortest(state, 300_000, None, check=False)
            assert (deep.nodes, deep.loss_reason, deep.solution) == (
                kern.nodes - first.nodes,
                kern.loss_reason,
                kern.solution,
            ), (cfg.label(), seed)
            checked += 1
    assert checked >= 6


def test_a_spent_budget_hands_over_to_the_kernel():
    """Out of budget in the deepening (a won deal whose shortest proof needs ~130,000
    positions): not reported as 'not proven', the kernel searches with the full limit."""
    state = _hard_win()
    called = []
    res = solve_first(
        state, 3_000_000, budget=20_000, shortest=True, before_kernel=lambda: called.append(1)
    )
    kern = solve_shortest(state, 3_000_000, None, check=True)
    assert called and res.engine == "kernel"
    assert (res.outcome, res.solution, res.loss_reason) == (
        kern.outcome,
        kern.solution,
        kern.loss_reason,
    )
    assert _proven(res)
    # a budget too small to decide at all hands over as well
    called.clear()
    res = solve_first(
        state, 3_000_000, budget=5, shortest=True, before_kernel=lambda: called.append(1)
    )
    assert called and (res.outcome, len(res.solution)) == ("win", len(kern.solution))


def test_the_node_limit_below_the_budget_keeps_the_win_not_proven():
    """With node_limit <= budget the limit is the user's: the win found is answered, not
    proven the shortest (as `solve_shortest` at its limit), without the kernel."""
    state = _hard_win()
    res = solve_first(state, node_limit=15_000, shortest=True, before_kernel=lambda: 1 / 0)
    assert (res.outcome, res.engine) == ("win", "reference")
    assert res.loss_reason == NOT_BEST and res.nodes <= 15_001
    assert verify_solution(state, res.solution).outcome is Outcome.WIN


def test_the_time_limit_stops_the_reference_too():
    state = _hard_win()
    res = solve_first(state, 10**7, time_limit=1e-9, shortest=True, before_kernel=lambda: 1 / 0)
    assert res.engine == "reference" and res.outcome in ("win", "undecided")
    assert res.outcome == "undecided" or res.loss_reason & NOT_BEST


@pytest.mark.parametrize(
    ("cfg", "seeds"),
    [(Options(blitz=True), range(16)), (Options(expansions=("mosquitos",)), range(8))],
    ids=lambda v: v.label() if isinstance(v, Options) else None,
)
def test_keep_most_reference_first_equals_the_kernel_alone(cfg, seeds):
    """Campaign Mode (rulebook H): the bounded keep-most search in the reference is the
    kernel's node for node, so a reference answer is the kernel's (line included)."""
    answered = 0
    for seed in seeds:
        state = _state(cfg, seed)
        a = solve_first(state, node_limit=200_000, budget=20_000, keep_most=True)
        b = solve_state(state, node_limit=200_000, keep_most=True, portfolio=True)
        assert (a.outcome, len(a.solution), _proven(a)) == (
            b.outcome,
            len(b.solution),
            _proven(b),
        ), (cfg.label(), seed)
        if a.engine == "reference":
            answered += 1
            assert (a.nodes, a.loss_reason, a.solution) == (b.nodes, b.loss_reason, b.solution)
    assert answered >= len(seeds) // 2


_COLD = """
import json, sys
import numba
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.rules.deals import deal_from_seed
from bombsolve.solvers.allisbomb.rules.rules import new_game
from bombsolve.solvers.allisbomb.search.solver import solve_first
cfg = Options(cards_version="standin-v1")
out = []
for mode in ("shortest", "keep_most"):
    r = solve_first(new_game(cfg, deal_from_seed(cfg, 42)), **{mode: True})
    out.append([r.outcome, r.engine])
compiled = sorted(
    f"{name}.{k}"
    for name, mod in list(sys.modules.items())
    if name.startswith("bombsolve.solvers.")
    for k, v in vars(mod).items()
    if isinstance(v, numba.core.dispatcher.Dispatcher) and v.signatures
)
print(json.dumps({"results": out, "compiled": compiled}))
"""


def test_a_cold_process_compiles_no_kernel_when_the_reference_answers(tmp_path):
    """A fresh process with an empty Numba cache: both modes answer by the reference, and
    no kernel function has been compiled (or loaded from a cache)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    run = subprocess.run(
        [sys.executable, "-c", _COLD], env=env, capture_output=True, text=True, check=True
    )
    d = json.loads(run.stdout.strip().splitlines()[-1])
    assert d["results"] == [["win", "reference"], ["win", "reference"]], d
    # (prune.fast_start: a one-line index helper that building the card program calls from
    # Python, as the plain single-deal solve does; it compiles in a fraction of a second)
    assert [
        f for f in d["compiled"] if f != "bombsolve.solvers.allisbomb.kernel.prune.fast_start"
    ] == []
    assert not [p.name for p in tmp_path.rglob("kernel.*")]

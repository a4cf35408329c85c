"""The ISMCTS-heuristic search in one Numba call builds the reference walk's tree."""

import numpy as np
import pytest

from bombsolve.solvers.bombastic.agents import HeuristicISMCTSAgent, view_of
from bombsolve.solvers.bombastic.rules import Options, State
from bombsolve.solvers.bombastic.search_kernel import ROOT_HASH, _mix

OPTION_SETS = [
    Options(),
    Options(promos=True, shuffle="opponent", second_swap="any"),
    Options(alarms=False, deck_known=False),
]


def _views(options: Options, n: int):
    """Views of the player to move, 0..11 random decisions into seeded games."""
    out = []
    seed = 0
    while len(out) < n:
        st = State.new(seed, options)
        rng = np.random.default_rng(seed)
        for _ in range(seed % 12):
            legal = st.legal_actions()
            st.apply(legal[int(rng.integers(len(legal)))])
            if st.is_over():
                break
        if not st.is_over() and st.to_move >= 0 and len(st.legal_actions()) > 1:
            out.append(view_of(st, st.to_move))
        seed += 1
    return out


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("guard", [False, True])
def test_kernel_search_builds_the_reference_tree(options, guard):
    checked = 0
    for i, view in enumerate(_views(options, 10)):
        got, want = (
            HeuristicISMCTSAgent(60, guard=guard, walk=w, stop_early=False)
            for w in ("kernel", "python")
        )
        a = got.act(view, view.legal, np.random.default_rng(i))
        b = want.act(view, view.legal, np.random.default_rng(i))
        assert a == b
        if hasattr(want, "last_visits"):
            np.testing.assert_array_equal(got.last_visits, want.last_visits)
            assert want.last_visits.sum() == 60
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("options", OPTION_SETS)
def test_stopping_early_keeps_the_decision_and_the_reference_tree(options):
    """A search stopped once its most visited root decision cannot be overtaken decides as
    the whole search does, and the kernel and the Python walk stop at the same iteration."""
    stopped = 0
    for i, view in enumerate(_views(options, 12)):
        full = HeuristicISMCTSAgent(400, guard=True, stop_early=False)
        short = HeuristicISMCTSAgent(400, guard=True, stop_early=True)
        ref = HeuristicISMCTSAgent(400, guard=True, walk="python", stop_early=True)
        a = full.act(view, view.legal, np.random.default_rng(i))
        b = short.act(view, view.legal, np.random.default_rng(i))
        c = ref.act(view, view.legal, np.random.default_rng(i))
        assert a == b == c
        if not hasattr(full, "last_visits"):
            continue  # the guard left one decision: no search
        np.testing.assert_array_equal(short.last_visits, ref.last_visits)
        run = short.last_visits.sum()
        assert run % 16 == 0 or run == 400
        if run < 400:
            stopped += 1
            # The leader's margin exceeds what the iterations left could give another.
            top, second = sorted(short.last_visits, reverse=True)[:2]
            assert top - second > 400 - run
    assert stopped > 0  # the check is not dead code


def test_node_hash_tells_codes_apart():
    h = ROOT_HASH
    seen = {int(h)}
    for code in [-1, 0, 1, 64, 64 * 48 + 27, 1 << 40]:
        seen.add(int(_mix(h, code)))
    assert len(seen) == 7
    assert _mix(_mix(h, 1), 2) != _mix(_mix(h, 2), 1)

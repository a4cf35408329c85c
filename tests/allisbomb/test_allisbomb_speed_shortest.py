"""`--shortest` in the kernel (kernel.shortest) against the breadth-first reference."""

from __future__ import annotations

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.rules.rules import Outcome, new_game
from bombsolve.solvers.allisbomb.search.search import reference_shortest
from bombsolve.solvers.allisbomb.search.solver import compiled, solve, verify_solution


@pytest.mark.parametrize(
    ("cfg", "seeds", "ref_limit", "min_wins"),
    [
        (Options(blitz=True), range(16), 15_000, 12),
        (Options(), range(16), 15_000, 4),
        (Options(expansions=("mosquitos",)), range(6), 8_000, 1),
    ],
    ids=lambda v: v.label() if isinstance(v, Options) else None,
)
def test_shortest_matches_breadth_first_reference(cfg, seeds, ref_limit, min_wins):
    """Same verdict and the same number of turns wherever the reference decides; every
    shortest line replays to a win through the reference engine."""
    n = compiled(cfg).cards.n
    wins = 0
    for seed in seeds:
        deck = np.random.default_rng(seed).permutation(n)
        a = solve(cfg, deck, shortest=True, node_limit=400_000)  # check=True replays
        b = reference_shortest(new_game(cfg, deck.tolist()), ref_limit)
        if b.outcome == "undecided":
            continue
        assert (a.outcome, len(a.solution)) == (b.outcome, len(b.solution)), seed
        if a.outcome == "win":
            wins += 1
            assert verify_solution(new_game(cfg, deck.tolist()), a.solution).outcome is Outcome.WIN
    assert wins >= min_wins


def test_shortest_is_never_longer_than_the_first_win_and_a_limit_keeps_the_win():
    cfg = Options(cards_version="standin-v1")  # seed 10 below is version 1's
    for seed in range(8):
        deck = np.random.default_rng(seed).permutation(18)
        first = solve(cfg, deck)
        short = solve(cfg, deck, shortest=True)
        assert short.outcome == first.outcome
        if first.outcome == "win":
            assert len(short.solution) <= len(first.solution)
    # seed 10 is won (13 turns by the first search) but the deepening needs ~130,000
    # positions: a tight node limit must not pass the first win off as the shortest, and
    # still answers with the win it has, marked not proven (bit NOT_BEST)
    deck = np.random.default_rng(10).permutation(18)
    first = solve(cfg, deck)
    assert first.outcome == "win"
    tight = solve(cfg, deck, shortest=True, node_limit=20_000)
    assert tight.outcome == "win" and "NOT_BEST" in tight.reasons()
    assert tight.solution == first.solution
    assert "NOT_BEST" not in solve(cfg, deck, shortest=True).reasons()


def test_shortest_honours_the_time_limit_and_keeps_the_win():
    from bombsolve.solvers.allisbomb.search.solver import solve_shortest

    cfg = Options(cards_version="standin-v1")  # seed 10 is version 1's win
    state = new_game(cfg, np.random.default_rng(10).permutation(18).tolist())
    res = solve_shortest(state, 10**8, None, check=True, time_limit=1e-6)
    assert res.outcome == "win" and "NOT_BEST" in res.reasons()
    assert res.seconds < 5


def test_the_deepening_pauses_and_resumes_exactly(monkeypatch):
    """The deepening returns to Python every PAUSE_STEP positions (for the clock and for
    Ctrl-C); resumed, it finds the same line after the same positions."""
    import bombsolve.solvers.allisbomb.kernel.kernel as K
    import bombsolve.solvers.allisbomb.search.solver as S

    cfg = Options(cards_version="standin-v1")  # seed 10: the deepening needs ~130,000
    state = new_game(cfg, np.random.default_rng(10).permutation(18).tolist())
    whole = S.solve_shortest(state, 10**7, None, check=True)
    real, calls = K.shortest, []

    def shortest(*args):
        calls.append(int(args[-1]) - (int(args[-2][3]) if args[-2][0] == 1 else 0))
        return real(*args)

    monkeypatch.setattr(K, "shortest", shortest)
    monkeypatch.setattr(S, "PAUSE_STEP", 997)
    paused = S.solve_shortest(state, 10**7, None, check=True)
    assert (paused.outcome, paused.nodes, paused.solution, paused.loss_reason) == (
        whole.outcome,
        whole.nodes,
        whole.solution,
        whole.loss_reason,
    )
    assert "NOT_BEST" not in paused.reasons()
    assert len(calls) > 100 and max(calls) <= 997

    def pressed_on_the_third_call(*args):
        if len(calls) == 2:
            raise KeyboardInterrupt
        calls.append(0)
        return real(*args)

    calls.clear()
    monkeypatch.setattr(K, "shortest", pressed_on_the_third_call)
    with pytest.raises(KeyboardInterrupt):
        S.solve_shortest(state, 10**7, None, check=True)


def test_the_deepening_pauses_on_moves_built_and_resumes_exactly(monkeypatch):
    """The deepening also returns to Python once the positions it finished built PAUSE_BUILT
    moves: a depth limit's last level builds every move of its positions and enters none,
    so counting positions alone kept a stop waiting for minutes on card files with many
    moves a position. Resumed, it finds the same line after the same positions."""
    import bombsolve.solvers.allisbomb.kernel.kernel as K
    import bombsolve.solvers.allisbomb.search.solver as S

    cfg = Options(cards_version="standin-v1")
    state = new_game(cfg, np.random.default_rng(10).permutation(18).tolist())
    whole = S.solve_shortest(state, 10**7, None, check=True)
    real, calls = K.shortest, []

    def shortest(*args):
        out = real(*args)
        calls.append((int(out[0]), int(out[1])))
        return out

    monkeypatch.setattr(K, "shortest", shortest)
    monkeypatch.setattr(S, "PAUSE_BUILT", 50)
    paused = S.solve_shortest(state, 10**7, None, check=True)
    assert (paused.outcome, paused.nodes, paused.solution) == (
        whole.outcome,
        whole.nodes,
        whole.solution,
    )
    pauses = [n for code, n in calls if code == K.CODE_PAUSED]
    # far more pauses than PAUSE_STEP's positions alone would make
    assert len(pauses) > 10 * (whole.nodes // S.PAUSE_STEP + 1)


def test_a_stop_just_after_a_call_leaves_no_table_stamp_for_later_searches(monkeypatch):
    """Ctrl-C raised as `kernel.shortest` or `kernel.solve_many` returns (before Python
    hears the last generation stamp it used) must not leave entries whose stamps a later
    search in the same process (a play session's) takes for its own."""
    import bombsolve.solvers.allisbomb.kernel.kernel as K
    import bombsolve.solvers.allisbomb.search.solver as S

    cfg = Options(cards_version="standin-v1")
    state = new_game(cfg, np.random.default_rng(10).permutation(18).tolist())
    for name, run in (
        ("shortest", lambda: S.solve_shortest(state, 10**7, None, check=False)),
        ("solve_many", lambda: S.solve_batch(cfg, np.stack([np.arange(18)] * 3))),
    ):
        real, used = getattr(K, name), []

        def stopped_on_return(*args, real=real, used=used, name=name):
            out = real(*args)
            used.append(int(out[-1]) if name == "shortest" else int(out))
            raise KeyboardInterrupt

        monkeypatch.setattr(K, name, stopped_on_return)
        with pytest.raises(KeyboardInterrupt):
            run()
        assert used and min(S._TABLE.gen, S._TABLE_B.gen) >= used[-1], name

"""The Numba kernel against the plain-Python reference search, and the solve API."""

from __future__ import annotations

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS, Options
from bombsolve.solvers.allisbomb.rules.deals import shuffles
from bombsolve.solvers.allisbomb.rules.rules import Outcome, new_game
from bombsolve.solvers.allisbomb.search.search import reference_search, reference_shortest
from bombsolve.solvers.allisbomb.search.solver import (
    solve,
    solve_batch,
    solve_state,
    verify_solution,
)
from bombsolve.solvers.allisbomb.studies.campaign import (
    campaign_config,
    removals_after_game,
    score,
)

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"


def _agree(cfg, seeds, limit):
    n = load_cards(cfg).n
    outcomes = []
    for seed in seeds:
        deck = np.random.default_rng(seed).permutation(n)
        a = solve(cfg, deck, node_limit=limit, portfolio=False)
        b = reference_search(new_game(cfg, deck), node_limit=limit)
        assert (a.outcome, a.nodes, a.loss_reason) == (b.outcome, b.nodes, b.loss_reason), (
            cfg.label(),
            seed,
        )
        assert a.solution == b.solution
        if a.outcome == "win":
            assert verify_solution(new_game(cfg, deck), a.solution).outcome is Outcome.WIN
        outcomes.append(a.outcome)
    return outcomes


def test_kernel_matches_reference_on_200_base_deals():
    """Differential test (issue part 6): same verdict, node count, loss reason and line on
    200 random base deals; the sample holds decided wins and losses."""
    outcomes = _agree(Options(), range(200), limit=1200)
    assert outcomes.count("win") >= 20
    assert outcomes.count("loss") >= 3


@pytest.mark.parametrize(
    "cfg",
    [
        Options(players=2),
        Options(blitz=True),
        Options(hands=True),
        *[Options(expansions=(e,)) for e in EXPANSIONS],
        Options(expansions=EXPANSIONS, hands=True, players=2),
        Options(expansions=("gifts",), gifts_distinct=False, players=2, give_optional=True),
    ],
    ids=lambda c: c.label(),
)
def test_kernel_matches_reference_other_configs(cfg):
    _agree(cfg, range(12), limit=400)


def test_batch_matches_single_solves():
    cfg = Options()
    decks = shuffles(18, 40, np.random.default_rng(9))
    out = solve_batch(cfg, decks, node_limit=20_000, portfolio=False)
    for i in range(len(decks)):
        r = solve(cfg, decks[i], node_limit=20_000, portfolio=False)
        code = {"win": 1, "loss": 0, "undecided": 2}[r.outcome]
        assert (out["code"][i], out["nodes"][i], out["reason"][i]) == (code, r.nodes, r.loss_reason)
        assert out["turns"][i] == len(r.solution)


def test_solve_is_repeatable_and_small_table_still_exact():
    cfg = Options()
    deck = np.random.default_rng(42).permutation(18)
    a = solve(cfg, deck)
    b = solve(cfg, deck)
    c = solve(cfg, deck, table_bits=12)
    assert (a.outcome, a.nodes, a.solution) == (b.outcome, b.nodes, b.solution)
    assert c.outcome == a.outcome


def test_shortest_is_no_longer_than_dfs():
    cfg = Options(blitz=True)
    for seed in range(3):
        deck = np.random.default_rng(seed).permutation(13)
        a = solve(cfg, deck)
        s = solve(cfg, deck, shortest=True, node_limit=200_000)
        if a.outcome == "win" and s.outcome == "win":
            assert len(s.solution) <= len(a.solution)
    r = reference_shortest(new_game(cfg, list(range(13))), node_limit=50)
    assert r.outcome in ("win", "loss", "undecided")


def test_solve_state_mid_game():
    cfg = Options()
    s = new_game(cfg, np.random.default_rng(42).permutation(18).tolist())
    r = solve_state(s)
    if r.outcome == "win":
        s2 = s.copy().apply(r.solution[0])
        r2 = solve_state(s2)
        assert r2.outcome == "win"


def test_campaign_removals_and_score():
    """H: circle cards removed; star cards removed only from the discard pile; score."""
    cfg = campaign_config(0)
    assert cfg.expansions == ("mosquitos",) and cfg.hands
    cs = load_cards(cfg)
    s = new_game(cs, list(range(cs.n)))
    star = next(i for i, c in enumerate(cs.cards) if c.campaign == "star")
    s._discard(star)
    gone = removals_after_game(s)
    circles = [c.label for c in cs.cards if c.campaign == "circle"]
    assert sorted(gone) == sorted(circles + [cs.labels[star]])
    later = campaign_config(1, tuple(gone))
    assert load_cards(later).n == cs.n - len(gone) + 5
    assert campaign_config(5).waking_up and not campaign_config(3).waking_up
    assert score(10, [False] * 5 + [True]) == (13, "silver")
    assert score(2, [True, True, False, False, False, False]) == (4, "none")
    assert score(2, [True, True, True, False, False, False])[1] == "bronze"


def test_keep_most_matches_reference_and_never_loses_more_stars():
    """Campaign option: among wins, the one with the fewest star cards discarded."""
    from bombsolve.solvers.allisbomb.search.search import stars_lost

    cfg = Options(blitz=True)
    for seed in (0, 3, 4):
        deck = np.random.default_rng(seed).permutation(13)
        a = solve(cfg, deck, node_limit=15_000, keep_most=True, portfolio=False)
        b = reference_search(new_game(cfg, deck), node_limit=15_000, keep_most=True)
        assert (a.outcome, a.nodes, a.solution, a.loss_reason) == (
            b.outcome,
            b.nodes,
            b.solution,
            b.loss_reason,
        )
        assert a.outcome == "win" and not a.loss_reason & 16
    better = 0
    for seed in range(12):
        deck = np.random.default_rng(seed).permutation(13)
        a = solve(cfg, deck, node_limit=200_000, keep_most=True)
        first = solve(cfg, deck, node_limit=200_000)
        assert a.outcome == first.outcome
        if a.outcome == "win":
            best = stars_lost(verify_solution(new_game(cfg, deck), a.solution))
            some = stars_lost(verify_solution(new_game(cfg, deck), first.solution))
            assert best <= some
            better += best < some
    assert better >= 1


def _spans(monkeypatch):
    """Wrap `kernel.dfs` (as the solver calls it from Python): the positions each call was
    allowed to search before it paused, in a list."""
    import bombsolve.solvers.allisbomb.kernel.kernel as K

    real, spans = K.dfs, []

    def dfs(*args):
        ctl, pause_at = args[-3], args[-2]
        spans.append(int(pause_at) - (int(ctl[2]) if ctl[0] == 1 else 0))
        return real(*args)

    monkeypatch.setattr(K, "dfs", dfs)
    return spans


def test_searches_pause_and_resume_exactly(monkeypatch):
    """Every single solve pauses every PAUSE_STEP positions (to look at the clock, and for
    Ctrl-C); resumed, it gives what the compiled batch, which never pauses, gives."""
    import bombsolve.solvers.allisbomb.search.solver as S

    cfg = Options()
    decks = shuffles(18, 6, np.random.default_rng(5))
    # (the batches first: compiled while `kernel.dfs` is wrapped, Numba would find a
    # Python function where the kernel calls it)
    batches = {p: solve_batch(cfg, decks, node_limit=50_000, portfolio=p) for p in (False, True)}
    monkeypatch.setattr(S, "PAUSE_STEP", 37)
    spans = _spans(monkeypatch)
    for portfolio, batch in batches.items():
        for i, deck in enumerate(decks):
            # (a time limit runs the plain search: the portfolio's schedule is in positions)
            for time_limit in (None,) if portfolio else (None, 1e9):
                r = solve(cfg, deck, node_limit=50_000, portfolio=portfolio, time_limit=time_limit)
                got = ({"win": 1, "loss": 0, "undecided": 2}[r.outcome], r.nodes, r.loss_reason)
                assert got == (batch["code"][i], batch["nodes"][i], batch["reason"][i])
                assert len(r.solution) == batch["turns"][i]
    assert spans and max(spans) <= 37
    assert sum(spans) > 37 * 20  # the decks searched far more than one step
    hard = Options(expansions=("all",))
    deck = np.random.default_rng(0).permutation(19)
    r = solve(hard, deck, node_limit=10_000_000, time_limit=1e-6)
    assert r.outcome == "undecided" and r.nodes < 10_000_000


def test_a_search_pauses_on_every_move_it_builds(monkeypatch):
    """With PAUSE_BUILT moves a call, a search returns to Python after building that many,
    the moves of positions still on its stack included: with one move a call it enters at
    most one position a call (counted only as their positions were done, a line entered
    position after position built nothing counted). Resumed, it answers as without pauses."""
    import bombsolve.solvers.allisbomb.kernel.kernel as K
    import bombsolve.solvers.allisbomb.search.solver as S

    cfg = Options()
    deck = shuffles(18, 1, np.random.default_rng(5))[0]
    whole = solve(cfg, deck, node_limit=50_000, time_limit=1e9)
    real, entered = K.dfs, []

    def dfs(*args):
        ctl = args[-3]
        before = int(ctl[2]) if ctl[0] == 1 else 0
        out = real(*args)
        entered.append(int(out[1]) - before)
        return out

    monkeypatch.setattr(K, "dfs", dfs)
    monkeypatch.setattr(S, "PAUSE_BUILT", 1)
    paused = solve(cfg, deck, node_limit=50_000, time_limit=1e9)
    assert (paused.outcome, paused.nodes, paused.solution) == (
        whole.outcome,
        whole.nodes,
        whole.solution,
    )
    assert len(entered) > whole.nodes  # a call a move: more calls than positions
    assert max(entered[1:]) <= 1  # (the first call enters the root)


@pytest.mark.parametrize("portfolio", [False, True])
def test_ctrl_c_during_a_long_search_is_raised_at_the_next_pause(monkeypatch, portfolio):
    """Compiled code does not see Ctrl-C; the pauses are where Python raises it."""
    import bombsolve.solvers.allisbomb.kernel.kernel as K
    import bombsolve.solvers.allisbomb.search.solver as S

    monkeypatch.setattr(S, "PAUSE_STEP", 50)
    spans = _spans(monkeypatch)
    counted = K.dfs

    def pressed_on_the_third_call(*args):
        if len(spans) == 2:
            raise KeyboardInterrupt
        return counted(*args)

    monkeypatch.setattr(K, "dfs", pressed_on_the_third_call)
    deck = np.random.default_rng(0).permutation(19)
    with pytest.raises(KeyboardInterrupt):
        solve(Options(expansions=("all",)), deck, node_limit=10**9, portfolio=portfolio)
    assert len(spans) == 2 and max(spans) <= 50


@pytest.mark.parametrize("portfolio", [False, True])
def test_a_stop_a_finalizer_swallowed_is_raised_at_the_next_pause(monkeypatch, portfolio):
    """A stop signal recorded (`stopping`) but whose exception was lost is raised again at
    the search's next pause, with its signal."""
    import signal

    import bombsolve.solvers.allisbomb.kernel.kernel as K
    import bombsolve.solvers.allisbomb.search.solver as S
    from bombsolve.solvers.common import stopping

    monkeypatch.setattr(S, "PAUSE_STEP", 50)
    spans = _spans(monkeypatch)
    counted = K.dfs

    def stopped_during_the_second_call(*args):
        if len(spans) == 1:
            stopping.request(signal.SIGTERM)
        return counted(*args)

    monkeypatch.setattr(K, "dfs", stopped_during_the_second_call)
    deck = np.random.default_rng(0).permutation(19)
    try:
        with pytest.raises(stopping.Stopped) as caught:
            solve(Options(expansions=("all",)), deck, node_limit=10**9, portfolio=portfolio)
    finally:
        stopping.clear()
    assert caught.value.signum == signal.SIGTERM and len(spans) == 2


def test_a_stop_during_a_batch_of_an_extended_file_is_raised_in_its_orders(monkeypatch):
    """On a card file with the extended vocabulary one deal's two move orders can search
    for minutes: the batch (a sweep's) runs them from Python with pauses, so a stop is
    raised at their next pause, before any later search, never in one compiled call."""
    import signal
    from pathlib import Path

    import bombsolve.solvers.allisbomb.kernel.kernel as K
    import bombsolve.solvers.allisbomb.search.solver as S
    from bombsolve.solvers.common import stopping

    bench = Path(__file__).resolve().parents[2] / "scripts" / "bench" / "cardsets"
    cfg = Options(cards_file=bench / "rich_relay.toml", allow_nonstandard=True)
    decks = shuffles(load_cards(cfg).n, 20, np.random.default_rng(2))
    monkeypatch.setattr(K, "solve_many", None)  # (not called on such a file)
    whole = solve_batch(cfg, decks, node_limit=12_000)
    assert (whole["code"] == 1).sum() >= 5
    real = S.run_portfolio

    def stop_first(*args):
        stopping.request(signal.SIGTERM)
        return real(*args)

    def not_reached(*args, **kwargs):
        raise AssertionError("a search after the orders ran")

    monkeypatch.setattr(S, "run_portfolio", stop_first)
    monkeypatch.setattr(S, "widen_search", not_reached)
    monkeypatch.setattr(S, "PAUSE_STEP", 20)
    try:
        with pytest.raises(stopping.Stopped):
            solve_batch(cfg, decks, node_limit=12_000)
    finally:
        stopping.clear()


@pytest.mark.parametrize(
    "cfg",
    [Options(), Options(players=2), Options(expansions=("gifts",))],
    ids=lambda c: c.label(),
)
def test_portfolio_same_verdicts_and_batch_matches_single(cfg):
    """Two move orders side by side: the same verdict as the plain search (both exact),
    wins replay through the reference engine, and batch = single solves."""
    n = load_cards(cfg).n
    decks = shuffles(n, 40, np.random.default_rng(11))
    plain = solve_batch(cfg, decks, node_limit=400_000, portfolio=False)
    fast = solve_batch(cfg, decks, node_limit=800_000, portfolio=True)
    decided = (plain["code"] != 2) & (fast["code"] != 2)
    assert decided.sum() >= 30
    assert (plain["code"][decided] == fast["code"][decided]).all()
    for i in range(0, 40, 4):
        r = solve(cfg, decks[i], node_limit=800_000, portfolio=True)  # check=True replays
        assert {"win": 1, "loss": 0, "undecided": 2}[r.outcome] == fast["code"][i]
        assert r.nodes == fast["nodes"][i]
        # (the single solve runs the schedule from Python, solver.run_portfolio; the batch
        # compiled, kernel.portfolio: the same calls of dfs)
        assert r.loss_reason == fast["reason"][i]
        assert len(r.solution) == fast["turns"][i]

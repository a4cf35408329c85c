"""The single-deal solve answers with the reference search first (`solver.solve_first`),
and the kernel only when the reference's position budget runs out."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.rules.deals import deal_from_seed
from bombsolve.solvers.allisbomb.rules.rules import Outcome, new_game
from bombsolve.solvers.allisbomb.search.solver import solve_first, solve_state, verify_solution

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"


def _deals(cfg, seeds):
    return [(seed, new_game(cfg, deal_from_seed(cfg, seed))) for seed in seeds]


def test_reference_first_gives_the_kernels_verdict_and_line():
    """Differential test of the path the command line takes: on 60 base deals and 10 of
    each other config, `solve_first` under its budget answers with the plain kernel
    search's verdict, loss reason, node count and winning line."""
    cases = _deals(Options(cards_version="standin-v1"), range(60))
    for cfg in (Options(players=2), Options(expansions=("mosquitos", "all"))):
        cases += _deals(cfg, range(10))
    answered = 0
    for seed, state in cases:
        a = solve_first(state, node_limit=20_000, budget=20_000)
        b = solve_state(state, node_limit=20_000, portfolio=False)
        assert (a.outcome, a.loss_reason, a.solution) == (b.outcome, b.loss_reason, b.solution), (
            state.config.label(),
            seed,
        )
        if a.engine == "reference":
            answered += 1
            assert a.nodes == b.nodes
    assert answered >= 55  # the budget decides most deals without the kernel


def test_fallback_to_the_kernel_when_the_budget_runs_out():
    """With a budget too small to decide, the kernel decides, after `before_kernel`."""
    called = []
    for _seed, state in _deals(Options(cards_version="standin-v1"), range(20)):
        full = solve_state(state, node_limit=100_000, portfolio=True)
        res = solve_first(state, 100_000, budget=5, before_kernel=lambda: called.append(1))
        assert res.outcome == full.outcome
        if res.engine == "kernel":
            assert res.solution == full.solution
        else:
            assert res.nodes < 5  # decided within the budget
        if res.outcome == "win":
            assert verify_solution(state, res.solution).outcome is Outcome.WIN
    assert called


def test_node_limit_below_the_budget_answers_undecided_without_the_kernel():
    state = new_game(
        Options(cards_version="standin-v1"),
        deal_from_seed(Options(cards_version="standin-v1"), 8),
    )  # ~10k positions
    res = solve_first(state, node_limit=50, before_kernel=lambda: 1 / 0)
    assert (res.outcome, res.engine, res.nodes) == ("undecided", "reference", 50)


def test_cli_seed_42_answers_by_the_reference_search():
    r = CliRunner().invoke(cli, ["allisbomb", "--cards", "standin-v1", "--seed", "42", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["outcome"] == "win" and d["engine"] == "reference"
    assert d["compile_seconds"] == 0
    text = CliRunner().invoke(cli, ["allisbomb", "--cards", "standin-v1", "--seed", "42"]).output
    assert "by the reference search" in text


def test_reference_time_limit_stops_the_search():
    """The time limit holds in the reference search too: no kernel after it."""
    state = new_game(
        Options(cards_version="standin-v1"),
        deal_from_seed(Options(cards_version="standin-v1"), 8),
    )  # ~10k positions
    res = solve_first(state, node_limit=10**7, time_limit=1e-9, before_kernel=lambda: 1 / 0)
    assert (res.outcome, res.engine) == ("undecided", "reference") and res.nodes < 5000

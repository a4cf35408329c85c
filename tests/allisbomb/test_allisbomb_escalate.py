"""The sweep escalation policy (escalate.py): passes at doubling node limits up to a ceiling."""

from __future__ import annotations

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel.kernel import CODE_UNDECIDED
from bombsolve.solvers.allisbomb.rules.deals import shuffles
from bombsolve.solvers.allisbomb.search.escalate import (
    Escalation,
    escalation_line,
    solve_escalating,
    table_bits_for,
)
from bombsolve.solvers.allisbomb.search.solver import MAX_TABLE_BITS, solve_batch
from bombsolve.solvers.common.errors import BadInput
from tests.allisbomb.helpers import escalated_sweep_args

BASE = Options()


def _deals(config: Options, count: int, seed: int) -> np.ndarray:
    n = 13 if config.blitz else 18
    return shuffles(n, count, np.random.default_rng(seed))


def test_limits_double_up_to_the_ceiling():
    assert Escalation(1000, 5000).limits() == [1000, 2000, 4000, 5000]
    assert Escalation(1000, 4000).limits() == [1000, 2000, 4000]
    assert Escalation(7, 7).limits() == [7]
    with pytest.raises(BadInput, match="below its first limit"):
        Escalation(1000, 999)
    with pytest.raises(BadInput, match="not positive"):
        Escalation(0, 10)


def test_table_grows_only_past_the_solvers_largest():
    assert table_bits_for(200_000) is None
    assert table_bits_for(2 * 3 * 2**20) is None  # each order's half still fits 2**22 slots
    assert table_bits_for(8_000_000) == MAX_TABLE_BITS + 1  # 4 M per order, 5.3 M slots
    assert table_bits_for(10**12) == 24


def test_escalation_never_changes_a_decided_verdict():
    decks = _deals(BASE, 120, 5)
    policy = Escalation(200, 10_000)
    esc = solve_escalating(BASE, decks, policy)
    first = solve_batch(BASE, decks, node_limit=policy.first)
    ceiling = solve_batch(BASE, decks, node_limit=policy.ceiling)
    for single in (first, ceiling):
        decided = single["code"] != CODE_UNDECIDED
        assert decided.any()
        assert (esc["code"][decided] == single["code"][decided]).all()
    # the deciding pass is the plain single pass at that pass's limit, position for position
    for limit in policy.limits():
        at = np.flatnonzero(esc["limit"] == limit)
        if at.size:
            alone = solve_batch(BASE, decks[at], node_limit=limit)
            assert (alone["code"] == esc["code"][at]).all()
            assert (alone["turns"] == esc["turns"][at]).all()
            assert (alone["reason"] == esc["reason"][at]).all()
    assert (esc["passes"] == [policy.limits().index(x) + 1 for x in esc["limit"]]).all()


def test_escalation_decides_what_one_pass_leaves_undecided():
    decks = _deals(BASE, 120, 5)
    policy = Escalation(200, 10_000)
    first = solve_batch(BASE, decks, node_limit=policy.first)
    esc = solve_escalating(BASE, decks, policy)
    left = first["code"] == CODE_UNDECIDED
    rescued = left & (esc["code"] != CODE_UNDECIDED)
    assert rescued.sum() >= 10  # (seeded deals: a fixed count, well above the bound)
    assert (esc["limit"][rescued] > policy.first).all()
    assert (esc["nodes"][rescued] > first["nodes"][rescued]).all()
    # a deal decided in the first pass costs what the single pass costs
    kept = ~left
    assert (esc["nodes"][kept] == first["nodes"][kept]).all()


def test_escalation_line_is_the_escalated_verdict_of_one_deal():
    decks = _deals(BASE, 120, 5)
    policy = Escalation(200, 10_000)
    esc = solve_escalating(BASE, decks, policy)
    rescued = int(np.flatnonzero(esc["limit"] > policy.first)[0])
    line = escalation_line(BASE, decks[rescued : rescued + 1], policy, deal=rescued, config="base")
    assert list(line)[:2] == ["deal", "config"]
    assert line["code"] == esc["code"][rescued] and line["nodes"] == esc["nodes"][rescued]
    assert line["limit"] == esc["limit"][rescued] and line["undecided"] is False
    assert line["cpu_s"] >= 0
    stuck = escalation_line(BASE, decks[rescued : rescued + 1], Escalation(10, 20))
    assert stuck["undecided"] is True and stuck["limit"] == 20


def test_sweep_escalate_rows_say_which_pass_decided(tmp_path):
    from click.testing import CliRunner

    from bombsolve.cli.main import cli
    from bombsolve.solvers.allisbomb.studies.study import caption
    from bombsolve.solvers.common.runner import load_manifest, load_study

    out = tmp_path / "esc"
    args = escalated_sweep_args(out, 40, 200, 10_000, 20)
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    df = load_study(out)
    assert set(df["decided_at"]) <= set(Escalation(200, 10_000).limits())
    assert (df["decided_at"] > 200).any() and (df["outcome"] != "undecided").all()
    # the same deals by one pass at the first limit: every verdict it reached is kept
    one = solve_batch(
        BASE,
        np.stack([np.random.default_rng(int(s)).permutation(18) for s in df["seed"]]),
        node_limit=200,
    )
    decided = one["code"] != CODE_UNDECIDED
    names = np.array(["loss", "win", "undecided"])[one["code"]]
    assert (df["outcome"].to_numpy()[decided] == names[decided]).all()
    assert "doubling from 200 up to 10,000" in caption(load_manifest(out))
    bad = CliRunner().invoke(cli, [*args[:6], "--first-limit", "5", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "add --escalate" in bad.output


def test_the_sweep_help_spells_the_escalation_limits():
    """The sweep's help names the escalation's limits as numbers (it is built before the
    solver is imported): each must be the limit the sweep uses."""
    from bombsolve.cli.allisbomb_study import sweep
    from bombsolve.solvers.allisbomb.search import escalate as E

    helps = {p.name: p.help for p in sweep.params if getattr(p, "help", None)}
    for option, value in (
        ("node_limit", E.CEILING),
        ("escalate", E.RICH_CEILING),
        ("escalate", E.RICH_SPLIT_TOTAL),
        ("first_limit", E.FIRST_LIMIT),
    ):
        assert f"{value:,}" in " ".join(helps[option].split()), (option, value)

"""Splitting (split.py): a position is won exactly when one of its children is, so deciding
the children one by one, each with a search of its own, gives the verdict of the whole
search. Checked against the plain search on seeded deals, with node limits small enough
that the split has work to do."""

from __future__ import annotations

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel.kernel import CODE_UNDECIDED
from bombsolve.solvers.allisbomb.rules.deals import shuffles
from bombsolve.solvers.allisbomb.rules.rules import new_game
from bombsolve.solvers.allisbomb.search.escalate import Escalation, solve_escalating
from bombsolve.solvers.allisbomb.search.solver import (
    compiled,
    solve_batch,
    solve_state,
    verify_solution,
)
from bombsolve.solvers.allisbomb.search.split import solve_split, table_bits_for
from bombsolve.solvers.common.errors import BadInput
from tests.allisbomb.helpers import escalated_sweep_args

BASE = Options()
DUO = Options(players=2)
NAMES = np.array(["loss", "win", "undecided"])


def _states(config: Options, count: int, seed: int):
    cs = compiled(config).cards
    decks = shuffles(cs.n, count, np.random.default_rng(seed))
    return [new_game(cs, d.tolist()) for d in decks]


@pytest.mark.parametrize(
    "config,seed,limit,seen",
    [
        (BASE, 11, 300, {"win"}),
        (Options(blitz=True), 13, 30, {"win", "loss"}),
        (DUO, 12, 300, {"win"}),
    ],
)
def test_split_verdict_is_the_whole_searchs_verdict(config, seed, limit, seen):
    states = _states(config, 40, seed)
    decided_by_split = 0
    verdicts = set()
    for st in states:
        whole = solve_state(st, node_limit=3_000_000)
        small = solve_state(st, node_limit=limit)
        split = solve_split(st, depth=3, node_limit=limit)
        if split.outcome != "undecided":
            assert split.outcome == whole.outcome, st.deck
            if small.outcome == "undecided":
                decided_by_split += 1
                verdicts.add(split.outcome)
        if split.outcome == "win":
            verify_solution(st, split.solution)
            assert split.loss_reason == 0
        if whole.outcome == "undecided":
            continue
        # what the small search decides alone, the split decides too (its children's
        # searches meet the same positions, each with the whole limit)
        if small.outcome == "loss":
            assert split.outcome == "loss"
    # the split decides what the small search alone cannot: wins, and in Blitz losses
    # (seeded deals, so fixed counts: 10, 18 and 23 of the 40, with these verdicts)
    assert decided_by_split >= 8
    assert verdicts == seen


def test_split_counts_its_searches_and_depth():
    st = next(
        s for s in _states(BASE, 40, 11) if solve_state(s, node_limit=300).outcome == "undecided"
    )
    res = solve_split(st, depth=2, node_limit=300)
    assert res.searches >= 1 and 1 <= res.depth <= 2 and res.nodes > 0
    one = solve_split(st, depth=1, node_limit=300)
    assert one.depth == 1
    # a position decided at depth 1 is decided the same way by a deeper split
    if one.outcome != "undecided":
        assert res.outcome == one.outcome


def test_split_a_finished_game_is_its_result():
    st = _states(BASE, 1, 3)[0]
    res = solve_state(st, node_limit=3_000_000)
    assert res.outcome == "win"
    end = st.copy()
    for move in res.solution:
        end.apply(move)
    assert solve_split(end).outcome == "win" and solve_split(end).searches == 0


def test_split_refuses_a_bad_depth_or_limit():
    st = _states(BASE, 1, 3)[0]
    with pytest.raises(BadInput, match="split depth 0"):
        solve_split(st, depth=0)
    with pytest.raises(BadInput, match="split node limit 0"):
        solve_split(st, node_limit=0)


def test_split_table_holds_the_limit():
    assert table_bits_for(1) == 16
    assert 3 * 2 ** table_bits_for(25_000_000) // 4 >= 25_000_000
    assert 3 * 2 ** (table_bits_for(25_000_000) - 1) // 4 < 25_000_000
    assert table_bits_for(10**12) == 27


def test_escalation_splits_only_what_its_ceiling_leaves():
    cs = compiled(BASE).cards
    decks = shuffles(cs.n, 60, np.random.default_rng(11)).astype(np.int64)
    plain = Escalation(100, 400)
    split = Escalation(100, 400, split=3, split_limit=400)
    assert plain.to_dict() == {"first": 100, "ceiling": 400}
    assert split.to_dict() == {"first": 100, "ceiling": 400, "split": 3, "split_limit": 400}
    a = solve_escalating(BASE, decks, plain)
    b = solve_escalating(BASE, decks, split)
    kept = a["code"] != CODE_UNDECIDED
    for k in ("code", "nodes", "turns", "reason", "limit", "passes"):
        assert (a[k][kept] == b[k][kept]).all()
    assert (b["split"][kept] == 0).all()
    went = ~kept
    assert went.any() and (b["split"][went] > 0).all()
    assert (b["nodes"][went] > a["nodes"][went]).all()
    whole = solve_batch(BASE, decks[went], node_limit=3_000_000)
    done = b["code"][went] != CODE_UNDECIDED
    assert done.sum() >= 3
    assert (b["code"][went][done] == whole["code"][done]).all()
    with pytest.raises(BadInput, match="split depth -1"):
        Escalation(100, 400, split=-1)


def test_sweep_split_grows_an_escalated_study_in_place(tmp_path):
    import json

    from click.testing import CliRunner

    from bombsolve.cli.main import cli
    from bombsolve.solvers.common.runner import load_study

    out = tmp_path / "s"
    args = escalated_sweep_args(out, 40, 50, 100, 20)
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    before = load_study(out)
    assert (before["outcome"] == "undecided").any()
    assert "split_searches" not in before
    res = CliRunner().invoke(cli, [*args, "--split-depth", "3", "--split-limit", "100"])
    assert res.exit_code == 0, res.output
    after = load_study(out)
    assert (after["outcome"] == "undecided").sum() < (before["outcome"] == "undecided").sum()
    decided = before["outcome"] != "undecided"
    assert (after["outcome"][decided] == before["outcome"][decided]).all()
    assert (after["split_searches"].fillna(0)[decided] == 0).all()
    assert (after["split_searches"].fillna(0) > 0).any()
    # re-solving the split deals from the study: the same verdicts, split as the study did
    # where the single solve's own search leaves them undecided
    split_again = 0
    for case in after.loc[after["split_searches"].fillna(0) > 0, "case"].tolist():
        cmd = ["allisbomb", "--study", str(out), "--case", str(case), "--json"]
        again = CliRunner().invoke(cli, cmd)
        assert again.exit_code == 0, again.output
        r = json.loads(again.output)
        assert r["study_case"]["split"] == {"depth": 3, "limit": 100}
        assert r["outcome"] == after.loc[after["case"] == case, "outcome"].iloc[0]
        if "split" in r:
            assert r["split"]["depth"] == 3 and r["split"]["limit"] == 100
            split_again += 1
    assert split_again >= 1
    # a split study keeps its split: another depth is refused, not mixed in
    res = CliRunner().invoke(cli, [*args, "--split-depth", "2", "--split-limit", "100"])
    assert res.exit_code == 2 and "split with --split-depth 3" in res.output


@pytest.mark.parametrize(
    "extra,words",
    [
        (["--split-depth", "2"], "add --escalate"),
        (["--escalate", "--split-limit", "100"], "add --split-depth"),
        (["--escalate", "--split-depth", "0"], "--split-depth"),
    ],
)
def test_sweep_split_options_refused(tmp_path, extra, words):
    from click.testing import CliRunner

    from bombsolve.cli.main import cli

    args = ["allisbomb", "sweep", "--deals", "2", "--out", str(tmp_path / "x"), *extra]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 2 and words in res.output, res.output
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("seed,verdict", [(0, "win"), (9, "loss")])
def test_solve_split_depth_decides_what_the_node_limit_leaves(tmp_path, seed, verdict):
    import json

    from click.testing import CliRunner

    from bombsolve.cli.main import cli

    base = ["allisbomb", "--blitz", "--seed", str(seed), "--node-limit", "30"]
    plain = CliRunner().invoke(cli, [*base, "--json"])
    assert plain.exit_code == 0 and json.loads(plain.output)["outcome"] == "undecided"
    saved = tmp_path / "r.json"
    args = [*base, "--split-depth", "3", "--split-limit", "30", "--save", str(saved)]
    text = CliRunner().invoke(cli, args)
    assert text.exit_code == 0, text.output
    assert f"verdict: {verdict.upper()}" in text.output
    assert "then the deal split" in text.output and "children searched" in text.output
    r = json.loads(saved.read_text())
    assert r["outcome"] == verdict and r["engine"] == "split"
    assert r["split"]["depth"] == 3 and r["split"]["limit"] == 30 and r["split"]["searches"] > 0
    whole = CliRunner().invoke(cli, ["allisbomb", "--blitz", "--seed", str(seed), "--json"])
    assert json.loads(whole.output)["outcome"] == verdict
    again = CliRunner().invoke(cli, ["allisbomb", "replay", str(saved)])
    assert again.exit_code == 0 and again.output == text.output


@pytest.mark.parametrize(
    "extra,words",
    [
        (["--split-limit", "30"], "add --split-depth"),
        (["--split-depth", "2", "--shortest"], "does not go with --shortest"),
        (["--split-depth", "0"], "--split-depth"),
    ],
)
def test_solve_split_options_refused(extra, words):
    from click.testing import CliRunner

    from bombsolve.cli.main import cli

    res = CliRunner().invoke(cli, ["allisbomb", "--blitz", "--seed", "0", *extra])
    assert res.exit_code == 2 and words in res.output, res.output


def test_sweep_caption_names_the_split():
    from bombsolve.solvers.allisbomb.studies.study import caption

    manifest = {
        "identity": {
            "n_cases": 10,
            "seed": 1,
            "chunk_size": 5,
            "params": {
                "labels": ["base"],
                "configs": [{}],
                "node_limit": 400,
                "heuristic_deals": 0,
                "escalation": {"first": 100, "ceiling": 400, "split": 3, "split_limit": 400},
            },
        },
        "versions": {"bombsolve": "0"},
        "git_commit": "abc",
        "runs": [],
    }
    text = caption(manifest)
    assert "doubling from 100 up to 400" in text
    assert "then the deals still undecided split 3 turns deep" in text
    assert "up to 400 positions" in text
    assert "in all" not in text
    manifest["identity"]["params"]["escalation"]["split_total"] = 5000
    assert "a deal's children with up to 5,000 in all" in caption(manifest)


def test_undecided_solve_points_to_the_split():
    from click.testing import CliRunner

    from bombsolve.cli.main import cli

    res = CliRunner().invoke(cli, ["allisbomb", "--blitz", "--seed", "0", "--node-limit", "30"])
    assert res.exit_code == 0
    assert "raise it to search further, or split the deal (--split-depth 4)" in res.output


def test_sweep_warm_up_runs_only_the_first_pass(monkeypatch):
    import bombsolve.solvers.allisbomb.studies.study as study

    def never(*args, **kwargs):
        raise AssertionError("the warm-up decided the whole escalation")

    monkeypatch.setattr(study, "solve_escalating", never)
    monkeypatch.setattr(study, "_WARM", set())
    deck = shuffles(18, 1, np.random.default_rng(4)).astype(np.int64)
    study._warm(BASE, deck, 400, Escalation(100, 400, split=3, split_limit=400))


class _Clock:
    """A clock each child search moves on by one second, so a split's time limit is met
    at a known child, whatever the machine."""

    def __init__(self, monkeypatch):
        import types

        from bombsolve.solvers.allisbomb.search import split

        self.now, self.limits = 0.0, []
        real = split.solve_state

        def child(*args, time_limit=None, **kw):
            self.limits.append(time_limit)
            res = real(*args, **kw)
            self.now += 1.0
            return res

        monkeypatch.setattr(split, "solve_state", child)
        monkeypatch.setattr(split, "time", types.SimpleNamespace(perf_counter=lambda: self.now))


def _long_split_deal() -> list[int]:
    """A deal whose split (depth 3, 300 positions a child) searches at least four
    children and finds no win among the first three."""
    cs = compiled(BASE).cards
    for deal in shuffles(cs.n, 40, np.random.default_rng(11)):
        st = new_game(cs, deal.tolist())
        if solve_state(st, node_limit=300).outcome != "undecided":
            continue
        first = []
        res = solve_split(st, depth=3, node_limit=300, report=first.append)
        if res.searches >= 4 and not any(": win" in line for line in first[:3]):
            return deal.tolist()
    raise AssertionError("no seeded deal has a long enough split")


def _long_split_state():
    return new_game(compiled(BASE).cards, _long_split_deal())


def test_split_stops_at_its_time_limit(monkeypatch):
    st = _long_split_state()
    clock = _Clock(monkeypatch)
    res = solve_split(st, depth=3, node_limit=300, time_limit=2.5)
    # each child gets what is left; the third ends past the limit and is the last
    assert clock.limits == [2.5, 1.5, 0.5]
    assert res.outcome == "undecided" and res.stopped == "time" and res.searches == 3
    assert res.solution == [] and res.loss_reason == 0


def test_split_with_no_time_left_searches_nothing(monkeypatch):
    st = _long_split_state()
    clock = _Clock(monkeypatch)
    res = solve_split(st, depth=3, node_limit=300, time_limit=0.0)
    assert clock.limits == [] and res.searches == 0 and res.stopped == "time"
    assert res.outcome == "undecided"


def test_solve_split_depth_keeps_the_time_limit(monkeypatch):
    import json

    from click.testing import CliRunner

    from bombsolve.cli.main import cli
    from bombsolve.solvers.allisbomb.rules import deals

    rank = str(deals.rank(_long_split_deal()))
    base = ["allisbomb", "--rank", rank, "--node-limit", "300", "--split-depth", "3"]
    base += ["--split-limit", "300", "--time-limit", "2.5"]
    clock = _Clock(monkeypatch)  # the first search's real fraction of a second, then 1 s a child
    res = CliRunner().invoke(cli, [*base, "--json"])
    assert res.exit_code == 0, res.output
    r = json.loads(res.output)
    assert r["outcome"] == "undecided" and r["split"]["stopped"] == "time"
    assert r["stopped_by"].startswith("the time limit of 2.5 s (--time-limit), during the split")
    assert 1 <= len(clock.limits) == r["split"]["searches"] <= 3
    assert 2 < clock.limits[0] < 2.5
    text = CliRunner().invoke(cli, base)
    assert "--time-limit 25 --split-depth 3 --split-limit 300" in text.output


def test_split_stops_at_its_total_positions():
    """A bound on the children's positions together: each child's search gets at most what
    is left of it, the split stops undecided ("positions") once it is spent, and a split
    that ends within it is the unbounded split, position for position."""
    st = _long_split_state()
    free = solve_split(st, depth=3, node_limit=300)
    assert free.searches >= 4 and free.nodes > 700
    res = solve_split(st, depth=3, node_limit=300, total_limit=700)
    assert res.outcome == "undecided" and res.stopped == "positions"
    assert res.nodes <= 700 and res.searches >= 3
    assert res.solution == [] and res.loss_reason == 0
    same = solve_split(st, depth=3, node_limit=300, total_limit=free.nodes)
    assert (same.outcome, same.nodes, same.searches, same.solution) == (
        free.outcome,
        free.nodes,
        free.searches,
        free.solution,
    )
    assert same.stopped == ""
    with pytest.raises(BadInput, match="split total limit 0"):
        solve_split(st, total_limit=0)


def test_escalation_bounds_its_split():
    cs = compiled(BASE).cards
    decks = shuffles(cs.n, 60, np.random.default_rng(11)).astype(np.int64)
    bounded = Escalation(100, 400, split=3, split_limit=400, split_total=500)
    assert bounded.to_dict()["split_total"] == 500
    free = solve_escalating(BASE, decks, Escalation(100, 400, split=3, split_limit=400))
    res = solve_escalating(BASE, decks, bounded)
    went = res["split"] > 0
    assert went.any()
    # a deal's split positions: what the passes spent (up to the ceiling) plus at most 500
    passes = solve_escalating(BASE, decks, Escalation(100, 400))
    assert (res["nodes"][went] - passes["nodes"][went] <= 500).all()
    done = res["code"] != CODE_UNDECIDED
    assert (res["code"][done] == free["code"][done]).all()
    assert (free["code"] != CODE_UNDECIDED).sum() > done.sum()  # the bound left some open
    with pytest.raises(BadInput, match="split total limit -1"):
        Escalation(100, 400, split=3, split_total=-1)


def test_rich_escalation_is_a_bounded_split():
    from bombsolve.solvers.allisbomb.search.escalate import (
        RICH_CEILING,
        RICH_ESCALATION,
        RICH_SPLIT_TOTAL,
    )

    assert RICH_ESCALATION.ceiling == RICH_CEILING and RICH_ESCALATION.split > 0
    assert RICH_ESCALATION.split_total == RICH_SPLIT_TOTAL > RICH_ESCALATION.split_limit
    assert RICH_ESCALATION.to_dict()["split_total"] == RICH_SPLIT_TOTAL

"""The conventions of every command, on `allisbomb exhaust`, `sensitivity` and `campaign`: a
command that compiles says so on stderr before its work starts (`bombsolve.cli.warmup`), `--rule
NAME=VALUE` as on a solve or a sweep (refused in one line where the command cannot play the
value), and every `--json` carries n, rate, lo, hi, seed, the rules, the cards and the
version."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
from click.testing import CliRunner

import bombsolve.cli.warmup as warmup
import bombsolve.solvers.common.runner as runner
from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.cards.config import RULE_OPTIONS
from bombsolve.solvers.allisbomb.search import exhaust as E
from bombsolve.solvers.allisbomb.search.solver import solve_batch
from bombsolve.solvers.common.runner import load_manifest

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def exhaust(out, *extra):
    return invoke("allisbomb", "exhaust", "--blitz", *extra, "--workers", 1, "--out", out)


def sensitivity(out, *extra):
    edit = ("--edit", "GUARDIAN/passive/number+1")
    return invoke("allisbomb", "sensitivity", "--deals", 2, "--blitz", *edit, *extra, "--out", out)


@pytest.fixture
def order(monkeypatch):
    """What a command does, in order: each `ensure_compiled` (game, part), then "run" for
    each study it starts."""
    seen: list = []
    monkeypatch.setattr(
        warmup, "ensure_compiled", lambda game, part=None, **_: seen.append(part) or 0.0
    )
    real = runner.run_study

    def run_study(*args, **kwargs):
        seen.append("run")
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "run_study", run_study)
    return seen


# --- the compile said before the work -------------------------------------------------------


def test_exhaust_compiles_its_kernels_before_the_count(order, tmp_path):
    # the whole count and --groups search with the shared table, every deal left undecided
    # goes on to the sweep's kernel; --ranks and --sample decide with the sweep's kernel;
    # the solver's part first, which the sweep's builds on (bombsolve.cli.warmup.ensure_sweep)
    assert exhaust(tmp_path / "g", "--groups", "0:1").exit_code == 0
    assert order == ["solve", "sweep", "exhaust", "run"]
    order.clear()
    assert exhaust(tmp_path / "r", "--ranks", "0:4").exit_code == 0
    assert order == ["solve", "sweep", "run"]


def test_exhaust_says_so_when_it_must_compile_and_nothing_when_cached(monkeypatch, tmp_path):
    # as on a fresh install (the warm-up then runs: compiled already, or compiled now)
    monkeypatch.setattr(warmup, "all_cached", lambda entries: False)
    r = exhaust(tmp_path / "cold", "--groups", "0:1")
    assert r.exit_code == 0, r.output
    assert "compiling the All Is Bomb sweep solver once, about" in r.stderr
    assert "compiling the All Is Bomb exhaust search once, about" in r.stderr
    assert "later runs start in about a second" in r.stderr
    monkeypatch.setattr(warmup, "all_cached", lambda entries: True)
    r = exhaust(tmp_path / "warm", "--groups", "0:1")
    assert r.exit_code == 0, r.output
    assert "compil" not in r.stderr


def test_the_exhaust_estimate_counts_the_sweep_kernel_it_builds_on(monkeypatch):
    (k,) = warmup.kernels_of("allisbomb", "exhaust")
    assert k.after == "sweep" and k.estimate < k.estimate_alone
    monkeypatch.setattr(warmup, "all_cached", lambda entries: False)
    assert warmup.estimate_now(k) == k.estimate_alone
    monkeypatch.setattr(warmup, "all_cached", lambda entries: True)
    assert warmup.estimate_now(k) == k.estimate


def test_sensitivity_compiles_the_sweep_kernel_before_the_study(order, tmp_path):
    assert sensitivity(tmp_path / "p", "--no-report").exit_code == 0
    assert order == ["solve", "sweep", "run"]
    order.clear()
    # the greedy player plays the reference engine: nothing to compile
    assert sensitivity(tmp_path / "g", "--player", "greedy", "--no-report").exit_code == 0
    assert order == ["run"]


def test_a_sweep_compiles_the_solver_then_its_own_part(order, tmp_path):
    """The solver's part first: its `dfs` and helpers then serve a later single solve too,
    and the sweep's own part is only its loop (bombsolve.cli.warmup.ensure_sweep)."""
    out = tmp_path / "s"
    r = invoke("allisbomb", "sweep", "--blitz", "--deals", 3, "--workers", 1, "--out", out)
    assert r.exit_code == 0, r.output
    assert order == ["solve", "sweep", "run"]


def test_sensitivity_says_so_when_it_must_compile_and_nothing_when_cached(monkeypatch, tmp_path):
    monkeypatch.setattr(warmup, "all_cached", lambda entries: False)
    r = sensitivity(tmp_path / "cold", "--no-report")
    assert r.exit_code == 0, r.output
    assert "compiling the All Is Bomb solver once, about" in r.stderr
    assert "compiling the All Is Bomb sweep solver once, about" in r.stderr
    monkeypatch.setattr(warmup, "all_cached", lambda entries: True)
    r = sensitivity(tmp_path / "warm", "--no-report")
    assert r.exit_code == 0, r.output
    assert "compil" not in r.stderr


# --- --rule ---------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["exhaust", "campaign"])
def test_an_unknown_rule_option_is_one_line_exit_2(command, tmp_path):
    args = ["--blitz", "--ranks", "0:4"] if command == "exhaust" else ["--campaigns", 1]
    out = tmp_path / "o"
    r = invoke("allisbomb", command, *args, "--rule", "gifts_distinc=false", "--out", out)
    assert r.exit_code == 2
    assert "unknown rule option 'gifts_distinc' (did you mean gifts_distinct?)" in r.output
    assert "Traceback" not in r.output and not out.exists()
    r = invoke("allisbomb", command, *args, "--rule", "give_optional=maybe", "--out", out)
    assert r.exit_code == 2 and "expected true or false" in r.output


def test_the_options_exhaust_passes_over_play_blitz_alike():
    """A solo game of base cards meets no GIFTS or ALL win condition and no Clean-Up gift
    (rulebook F, G): the kernel decides its deals alike under either value of those."""
    decks = np.stack([np.random.default_rng(s).permutation(13) for s in range(300)])
    other = replace(E.BLITZ, gifts_distinct=False, give_optional=True, all_any_player=False)
    a = solve_batch(E.BLITZ, decks, node_limit=100_000)
    b = solve_batch(other, decks, node_limit=100_000)
    assert (a["code"] == b["code"]).all() and (a["nodes"] == b["nodes"]).all()


def test_exhaust_refuses_a_rule_value_it_cannot_play(tmp_path):
    out = tmp_path / "o"
    r = exhaust(out, "--ranks", "0:4", "--rule", "waking_up_rules=true")
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1
    assert "waking_up_rules=true: exhaust plays waking_up_rules=false only" in r.output
    assert not out.exists()


def test_an_exhaust_rule_value_is_a_study_of_its_own(tmp_path):
    plain = exhaust(tmp_path / "plain", "--ranks", "0:4", "--json")
    assert plain.exit_code == 0, plain.output
    other = exhaust(tmp_path / "other", "--ranks", "0:4", "--rule", "give_optional=true", "--json")
    assert other.exit_code == 0, other.output
    a, b = json.loads(plain.stdout), json.loads(other.stdout)
    assert a["rules"]["give_optional"] is False and b["rules"]["give_optional"] is True
    assert (a["config"], b["config"]) == ("blitz", "blitz/give-optional")
    assert (a["wins"], a["losses"]) == (b["wins"], b["losses"])  # the same count
    params = load_manifest(tmp_path / "other")["identity"]["params"]
    assert params["config"] == "blitz/give-optional"
    assert load_manifest(tmp_path / "plain")["identity"]["params"]["config"] == "blitz"
    # another value into the same folder is another study: refused
    again = exhaust(tmp_path / "plain", "--ranks", "0:4", "--rule", "give_optional=true")
    assert again.exit_code == 2 and "holds a different study" in again.output
    # the value Blitz plays anyway is the same study: it resumes
    same = exhaust(tmp_path / "plain", "--ranks", "0:4", "--rule", "waking_up_rules=false")
    assert same.exit_code == 0, same.output
    assert load_manifest(tmp_path / "plain")["runs"][-1]["chunks_computed"] == 0


@pytest.mark.parametrize(
    ("rule", "players", "message"),
    [
        ("waking_up_rules=true", 1, "the campaign sets it game by game (rulebook H)"),
        ("waking_up_rules=false", 1, "the campaign sets it game by game (rulebook H)"),
        ("gifts_distinct=false", 1, "the campaign plays gifts_distinct=true only"),
        ("give_optional=true", 2, "the campaign plays give_optional=false only"),
        ("all_any_player=false", 2, "the campaign plays all_any_player=true only"),
    ],
)
def test_campaign_refuses_a_rule_value_it_cannot_play(rule, players, message, tmp_path):
    out = tmp_path / "o"
    args = ["--campaigns", 1, "--players", players, "--rule", rule, "--out", out]
    r = invoke("allisbomb", "campaign", *args)
    assert r.exit_code == 2 and message in r.output
    assert len(r.output.strip().splitlines()) == 1 and not out.exists()


class _Stop(Exception):
    pass


def test_a_campaign_rule_value_is_a_study_of_its_own(monkeypatch, tmp_path):
    studies = []

    def run_study(study, *args, **kwargs):
        studies.append(study)
        raise _Stop  # the study as built is what is checked; nothing is played

    monkeypatch.setattr(warmup, "ensure_compiled", lambda *a, **k: 0.0)
    monkeypatch.setattr(runner, "run_study", run_study)
    base = ["allisbomb", "campaign", "--campaigns", 1, "--out", tmp_path / "o"]
    for extra in ([], ["--rule", "gifts_distinct=true"], ["--rule", "give_optional=true"]):
        r = invoke(*base, *extra)
        assert isinstance(r.exception, _Stop), r.output
    plain, default, other = studies
    assert plain.identity() == default.identity()  # the value the games play anyway
    assert "rules" not in plain.params
    assert other.params["rules"] == {"give_optional": True}
    assert other.identity_hash() != plain.identity_hash()


# --- --json -------------------------------------------------------------------------------


def test_exhaust_json_of_a_count_carries_the_common_keys(tmp_path):
    r = exhaust(tmp_path / "o", "--ranks", "0:40", "--json")
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    assert s["n"] == s["deals"] == 40 and s["seed"] is None
    assert s["lo"] == s["hi"] == s["rate"] == s["wins"] / 40  # a count is exact
    assert set(s["rules"]) == set(RULE_OPTIONS) and s["rules"]["waking_up_rules"] is False
    assert s["cards"] == "standin-v2" and s["provenance"] == "base: STAND-IN"
    assert s["version"] and s["commit"]
    written = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert written == s
    text = exhaust(tmp_path / "o", "--ranks", "0:40")
    assert "winnable" in text.stdout and "uniform sample" not in text.stdout


def test_exhaust_json_of_a_sample_carries_its_seed_and_interval(tmp_path):
    r = exhaust(tmp_path / "o", "--sample", 30, "--seed", 3, "--json")
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    assert s["n"] == 30 and s["seed"] == 3
    assert s["lo"] <= s["rate"] <= s["hi"] and s["lo"] < s["hi"]
    for key in ("rules", "cards", "version", "commit"):
        assert key in s
    text = exhaust(tmp_path / "o", "--sample", 30, "--seed", 3)
    assert "uniform sample: win" in text.stdout


def test_a_count_with_undecided_deals_spans_them():
    from bombsolve.cli.allisbomb_exhaust import _json_keys

    s = {"deals": 10, "wins": 6, "undecided": 2, "cards": "standin-v2"}
    keys = _json_keys(s, None, {})
    assert (keys["n"], keys["rate"], keys["lo"], keys["hi"]) == (10, 0.6, 0.6, 0.8)

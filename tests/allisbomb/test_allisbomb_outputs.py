"""The solve's outputs say what they mean: a win has no loss fields, a loss explains
itself in words, an undecided answer names the limit that stopped it, `replay` prints
exactly what the solve printed."""

from __future__ import annotations

import json

from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel.prune import RULES
from bombsolve.solvers.allisbomb.rules.deals import deal_from_seed
from bombsolve.solvers.allisbomb.rules.rules import Ending, new_game
from bombsolve.solvers.allisbomb.search.explain import DEAD_WORDS, ENDING_WORDS, explain_loss


def run(*args):
    # the seeds below are wins, losses and limits of the stand-in set version 1, by name
    return CliRunner().invoke(cli, ["allisbomb", "--cards", "standin-v1", *args])


def solve_json(*args) -> dict:
    r = run(*args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_a_win_carries_no_loss_fields_and_no_stars_without_keep_most():
    d = solve_json("--seed", "42")
    assert d["outcome"] == "win"
    for key in ("loss_reason", "loss_reasons", "losing_ends", "stars_lost", "stopped_by"):
        assert key not in d
    keep = solve_json("--seed", "1", "--blitz", "--keep-most")
    assert keep["outcome"] == "win" and "stars_lost" in keep and keep["best_proven"] is True


def test_a_loss_explains_itself_in_words():
    d = solve_json("--seed", "0")  # a base deal every line of which loses
    assert d["outcome"] == "loss"
    ends = set(ENDING_WORDS.values()) - {ENDING_WORDS[Ending.NO_WIN_REACHABLE]}
    proofs = {f"{ENDING_WORDS[Ending.NO_WIN_REACHABLE]}: {w}" for w in DEAD_WORDS.values()}
    assert d["losing_ends"] and set(d["losing_ends"]) <= ends
    assert d["proved"] and set(d["proved"]) <= proofs  # the pruning, apart from the ends
    assert "NO_WIN_REACHABLE" not in " ".join(d["losing_ends"] + d["loss_reasons"])
    ll = d["longest_line"]
    assert ll["turns"] == len(ll["solution"]) == len(ll["steps"]) > 0
    assert ll["ending"] in d["losing_ends"] + d["proved"] and ll["complete"]
    text = run("--seed", "0").output
    assert "every line of play loses; the lines end (counted by the moves that end them):" in text
    assert f"the longest line, {ll['turns']} turns, ends: {ll['ending']}" in text


def test_every_dead_rule_has_words():
    assert set(DEAD_WORDS) == {r for r in RULES}


def test_explain_counts_the_ends_of_a_lost_deal():
    cfg = Options(cards_version="standin-v1")
    why = explain_loss(new_game(cfg, deal_from_seed(cfg, 0)))
    assert why.complete and sum(why.ends.values()) >= len(why.ends) >= 2
    assert 0 < why.positions <= 403  # the reference search enters 403 positions


def test_undecided_names_the_limit_and_prints_no_none():
    r = run("--seed", "8", "--node-limit", "1000")
    assert r.exit_code == 0
    assert "stopped by the node limit of 1,000 positions (--node-limit)" in r.output
    assert "None" not in r.output
    d = solve_json("--seed", "8", "--node-limit", "1000")
    assert d["outcome"] == "undecided" and "loss_reasons" not in d


def test_shortest_reports_the_win_it_has_when_not_proven():
    r = run("--seed", "10", "--shortest", "--node-limit", "20000")
    assert r.exit_code == 0
    assert "shortest not proven within the limits" in r.output
    d = solve_json("--seed", "10", "--shortest")
    assert d["outcome"] == "win" and d["shortest_proven"] is True


def test_replay_prints_exactly_what_the_solve_printed(tmp_path):
    path = tmp_path / "s.json"
    solved = run("--seed", "42", "--save", str(path)).stdout
    # the saved file names its cards: replay takes no --cards (before it, one is refused)
    replayed = CliRunner().invoke(cli, ["allisbomb", "replay", str(path)]).stdout
    assert "verdict: WIN" in solved and replayed == solved

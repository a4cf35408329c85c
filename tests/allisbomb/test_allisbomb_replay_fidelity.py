"""`replay` prints a saved solve exactly as the solve printed it, for each verdict; a loss
keeps the rulebook's losing ends (E, "Losing the Game") apart from the pruning's proofs;
a bad game option is refused even when no deal is given."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.search.explain import is_proof

#: The seeds below are a win, a loss and a loss every line of which the pruning cuts, with
#: stand-in set version 2's cards, named so a change of the default set leaves them as is.
CARDS = ("--cards", "standin-v2")
WIN, LOSS, ALL_PROVED = "1", "42", "43"
LOSS_FIELDS = (
    "loss_reason",
    "loss_reasons",
    "losing_ends",
    "losing_end_lines",
    "proved",
    "proved_lines",
    "longest_line",
)


def run(*args):
    return CliRunner().invoke(cli, ["allisbomb", *args])


def solve_and_replay(tmp_path, *args) -> tuple[str, str, dict]:
    """(the solve's stdout, the replay's stdout, the saved result) of one deal."""
    path = tmp_path / "saved.json"
    solved = run(*CARDS, *args, "--save", str(path))
    assert solved.exit_code == 0, solved.output
    replayed = run("replay", str(path))
    assert replayed.exit_code == 0, replayed.output
    return solved.stdout, replayed.stdout, json.loads(path.read_text())


@pytest.mark.parametrize(
    ("args", "outcome"),
    [
        (("--seed", WIN), "win"),
        (("--seed", LOSS), "loss"),
        (("--seed", ALL_PROVED), "loss"),
        (("--seed", "8", "--node-limit", "5"), "undecided"),
    ],
    ids=["win", "loss", "loss-all-proved", "undecided"],
)
def test_replay_prints_what_the_solve_printed(tmp_path, args, outcome):
    solved, replayed, saved = solve_and_replay(tmp_path, *args)
    assert saved["outcome"] == outcome
    assert f"verdict: {outcome.upper()}" in solved
    assert replayed == solved


def test_replay_shows_the_saved_search_figures(tmp_path):
    # the verdict line's positions and seconds are the solve's, as saved, not a new search
    _, _, saved = solve_and_replay(tmp_path, "--seed", WIN)
    saved["seconds"] = 12.3456
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(saved))
    r = run("replay", str(path))
    assert r.exit_code == 0 and f"{saved['nodes']:,} positions searched in 12.346 s" in r.stdout


def test_a_win_carries_no_loss_fields():
    d = json.loads(run(*CARDS, "--seed", WIN, "--json").stdout)
    assert d["outcome"] == "win"
    assert not [k for k in LOSS_FIELDS if k in d]


def test_a_loss_keeps_the_pruning_out_of_its_causes():
    d = json.loads(run(*CARDS, "--seed", LOSS, "--json").stdout)
    assert d["outcome"] == "loss"
    assert d["losing_ends"] and d["loss_reasons"]
    assert "NO_WIN_REACHABLE" not in d["loss_reasons"]
    assert not [w for w in d["losing_ends"] if is_proof(w)]
    assert not [w for w in d["losing_end_lines"] if is_proof(w)]
    # the pruning is there, shown as the proof it is
    assert d["proved"] and all(w.startswith("proved no win reachable: ") for w in d["proved"])
    assert set(d["proved_lines"]) == set(d["proved"])
    text = run(*CARDS, "--seed", LOSS).stdout.splitlines()
    ends = text.index(
        "every line of play loses; the lines end (counted by the moves that end them):"
    )
    proofs = text.index("the search cut the other lines short, each with a proof:")
    assert ends < proofs
    assert not [ln for ln in text[ends + 1 : proofs] if "proved" in ln]


def test_a_loss_cut_short_everywhere_names_no_losing_end():
    d = json.loads(run(*CARDS, "--seed", ALL_PROVED, "--json").stdout)
    assert d["outcome"] == "loss"
    assert d["loss_reasons"] == d["losing_ends"] == [] and d["proved"]
    text = run(*CARDS, "--seed", ALL_PROVED).stdout
    assert "every line of play loses; the search cut every line short with a proof:" in text
    assert "the lines end:" not in text


def test_replay_refuses_a_line_that_does_not_win(tmp_path):
    _, _, saved = solve_and_replay(tmp_path, "--seed", WIN)
    saved["solution"] = saved["solution"][:-1]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(saved))
    r = run("replay", str(path))
    assert r.exit_code == 2 and r.stdout == ""
    turns = len(saved["solution"])
    assert r.stderr.strip() == (
        f"bombsolve: {path}: the saved solution does not win: the game goes on after its "
        f"last turn, {turns}, with no win"
    )


@pytest.mark.parametrize(
    "text",
    ["{nope", "[1, 2]", '{"outcome": "win", "position": {}, "solution": []}'],
    ids=["not-json", "a-list", "no-report-fields"],
)
def test_replay_refuses_a_file_that_is_no_solve_result(tmp_path, text):
    path = tmp_path / "bad.json"
    path.write_text(text)
    r = run("replay", str(path))
    assert r.exit_code == 2 and r.stdout == "" and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_a_bad_option_value_is_refused_without_a_deal():
    r = run("--expansions", "al")
    assert r.exit_code == 2 and r.stdout == ""
    [line] = r.stderr.strip().splitlines()
    assert "'al'" in line and "did you mean all?" in line
    ok = run("--expansions", "all")
    assert ok.exit_code == 0 and ok.stdout.startswith("Usage:")

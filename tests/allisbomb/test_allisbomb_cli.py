"""`bombsolve allisbomb`: solve, cards, replay, bad input."""

from __future__ import annotations

import json

from click.testing import CliRunner

from bombsolve.cli.main import cli


def run(*args):
    return CliRunner().invoke(cli, ["allisbomb", *args])


def test_seed_42_solves_and_prints_the_line():
    r = run("--seed", "42", "--cards", "standin-v1")  # a win with version 1's cards
    assert r.exit_code == 0, r.output
    assert "STAND-IN" in r.output
    assert "verdict: WIN" in r.output and "rank" in r.output
    assert "turn 1: play" in r.output and "    DECK (top first): " in r.output
    assert "    EQUIPPED CARDS: " in r.output and "    DISCARD PILE (top first): " in r.output


def test_json_keys_and_rank_rerun_and_deck_rerun():
    r = run("--seed", "42", "--json")
    assert r.exit_code == 0
    d = json.loads(r.stdout)
    for key in ("outcome", "nodes", "seconds", "rank", "deck", "solution"):
        assert key in d
    assert d["stand_in"] is True
    r2 = json.loads(run("--rank", d["rank"], "--json").stdout)
    assert r2["deck"] == d["deck"] and r2["outcome"] == d["outcome"]
    r3 = json.loads(run("--deck", d["deck_string"], "--json").stdout)
    assert r3["solution"] == d["solution"]


def test_save_and_replay(tmp_path):
    path = tmp_path / "s.json"
    assert run("--seed", "42", "--cards", "standin-v1", "--save", str(path)).exit_code == 0
    r = run("replay", str(path))
    assert r.exit_code == 0 and "verdict: WIN" in r.output


def test_replay_of_moves_past_the_end_names_the_turn(tmp_path):
    path = tmp_path / "s.json"
    assert run("--seed", "42", "--cards", "standin-v1", "--save", str(path)).exit_code == 0
    data = json.loads(path.read_text())
    won = len(data["solution"])
    data["solution"].append(data["solution"][-1])  # one move after the game was won
    path.write_text(json.dumps(data))
    r = run("replay", str(path))
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.strip() == f"bombsolve: {path}: the game is over before turn {won + 1}"


def test_state_file(tmp_path):
    d = json.loads(run("--seed", "42", "--json").stdout)
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(d["position"]))
    r = run("--state", str(path), "--json")
    assert r.exit_code == 0
    assert json.loads(r.stdout)["outcome"] == d["outcome"]


def test_cards_listing_shows_provenance():
    r = run("cards", "--expansions", "mosquitos,hands")
    assert r.exit_code == 0
    assert "stand-in" in r.output and "SKOOT" in r.output and "LEFT HAND" in r.output


def test_two_players_and_expansions_run():
    r = run(
        "--seed",
        "3",
        "--players",
        "2",
        "--expansions",
        "mosquitos",
        "--node-limit",
        "20000",
        "--json",
    )
    assert r.exit_code == 0
    assert json.loads(r.stdout)["outcome"] in ("win", "loss", "undecided")


def test_bad_input_is_one_line_exit_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[set]\nname='base'\n[[card]]\nname='KING'\n[card.passive]\nnumber='x'\n")
    cases = [
        ("--deck", "PRINCES,KING"),
        ("--deck", "PRINCESS,KING"),
        ("--seed", "1", "--expansions", "mosquitoes"),
        ("--seed", "1", "--blitz", "--expansions", "all"),
        ("--seed", "1", "--rank", "5"),
        ("--rank", "-1"),
        ("--seed", "1", "--cards", str(bad)),
        ("replay", str(bad)),
    ]
    for args in cases:
        r = run(*args)
        assert r.exit_code == 2, (args, r.output)
        assert "Traceback" not in r.output
        assert len(r.output.strip().splitlines()) == 1, r.output


def test_shortest_and_keep_most_flags():
    v1 = ("--seed", "1", "--blitz", "--cards", "standin-v1")  # a win with version 1's cards
    short = json.loads(run(*v1, "--shortest", "--json").stdout)
    plain = json.loads(run(*v1, "--json").stdout)
    keep = json.loads(run(*v1, "--keep-most", "--json").stdout)
    assert short["outcome"] == plain["outcome"] == keep["outcome"] == "win"
    assert len(short["solution"]) <= len(plain["solution"])
    from bombsolve.solvers.allisbomb.rules.rules import state_from_json
    from bombsolve.solvers.allisbomb.search.search import stars_lost
    from bombsolve.solvers.allisbomb.search.solver import verify_solution

    won = verify_solution(state_from_json(plain["position"]), plain["solution"])
    assert keep["stars_lost"] <= stars_lost(won)
    assert run("--seed", "1", "--shortest", "--keep-most").exit_code == 2


def test_user_card_file_is_used_by_solve_state_and_replay(tmp_path):
    from bombsolve.solvers.allisbomb.cards.cards import DATA_DIR

    text = (DATA_DIR / "base.toml").read_text().replace('"stand-in"', '"printed"')
    text = text.replace('number = 3\nkeyword = "ROYAL"', 'number = 2\nkeyword = "ROYAL"')
    mine = tmp_path / "mine.toml"
    mine.write_text(text)
    out = tmp_path / "s.json"
    r = run("--seed", "5", "--cards", str(mine), "--save", str(out))
    assert r.exit_code == 0 and "STAND-IN" not in r.output
    d = json.loads(out.read_text())
    assert d["stand_in"] is False and d["config"]["cards_file"] == str(mine)
    if d["outcome"] == "win":
        rr = run("replay", str(out))
        assert rr.exit_code == 0 and rr.stdout == r.stdout
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(d["position"]))
    again = json.loads(run("--state", str(pos), "--json").stdout)
    assert again["outcome"] == d["outcome"] and again["stand_in"] is False


def test_a_solve_option_before_a_subcommand_is_refused_not_ignored():
    from click.testing import CliRunner

    from bombsolve.cli.main import cli

    for opts in (["--expansions", "mosquitos"], ["--seed", "3"], ["--node-limit", "5"]):
        r = CliRunner().invoke(cli, ["allisbomb", *opts, "cards"])
        assert r.exit_code == 2, r.output
        assert f"{opts[0]} goes after the subcommand" in r.output
        assert "Traceback" not in r.output
    ok = CliRunner().invoke(cli, ["allisbomb", "cards", "--expansions", "mosquitos"])
    assert ok.exit_code == 0 and "base+mosquitos" in ok.output

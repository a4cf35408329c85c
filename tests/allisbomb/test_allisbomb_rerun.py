"""Every command printed to re-run a deal carries its whole configuration (DESIGN.md,
"Positions and re-runs"): run as printed, it reaches the same deck of the same game."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.rules.commands import game_flags, rerun_command

ROOT = Path(__file__).resolve().parents[2]
#: A node limit of 1 stops every search at once: the deal, not its verdict, is checked.
QUICK = ("--node-limit", "1")


def solve(*args: str) -> dict:
    r = CliRunner().invoke(cli, ["allisbomb", *args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def run_printed(command: str, *more: str) -> dict:
    words = shlex.split(command)
    assert words[:2] == ["bombsolve", "allisbomb"], command
    return solve(*words[2:], *more)


def same_game_and_deal(a: dict, b: dict) -> None:
    assert b["config"] == a["config"]
    assert b["deck"] == a["deck"] and b["rank"] == a["rank"]
    assert b["position"] == a["position"]


@pytest.mark.parametrize(
    "flags",
    [
        (),
        ("--blitz",),
        ("--expansions", "mosquitos,gifts", "--hands"),
        ("--players", "2"),
        ("--players", "2", "--expansions", "all", "--rule", "all_any_player=false"),
        ("--cards", "standin-v1", "--rule", "gifts_distinct=false"),
    ],
    ids=["base", "blitz", "expansions", "2p", "2p-rule", "set-v1"],
)
def test_the_printed_rerun_reaches_the_same_deal(flags):
    first = solve("--seed", "1", *flags, *QUICK)
    again = run_printed(first["rerun"], *QUICK)
    same_game_and_deal(first, again)
    assert again["rerun"] == first["rerun"]
    # the text prints the same command
    text = CliRunner().invoke(cli, ["allisbomb", "--seed", "1", *flags, *QUICK]).stdout
    assert f"rank {first['rank']} (re-run: {first['rerun']})" in text


def test_the_blitz_rank_alone_was_another_deal():
    # what the hint printed before it carried the configuration: an 18-card base deal
    blitz = solve("--seed", "1", "--blitz", *QUICK)
    alone = solve("--rank", blitz["rank"], *QUICK)
    assert len(alone["deck"]) == 18 != len(blitz["deck"])
    assert "--blitz" in shlex.split(blitz["rerun"])


def test_a_card_file_is_named_and_quoted(tmp_path):
    mine = tmp_path / "my cards" / "mine.toml"
    mine.parent.mkdir()
    shutil.copyfile(ROOT / "solvers" / "allisbomb" / "data" / "standin-v2.toml", mine)
    first = solve("--seed", "2", "--cards", str(mine), *QUICK)
    assert shlex.split(first["rerun"])[-2:] == ["--cards", str(mine)]
    same_game_and_deal(first, run_printed(first["rerun"], *QUICK))


def test_search_further_raises_the_limit_that_stopped_it():
    args = ("--seed", "3", "--players", "2", "--expansions", "gifts", "--node-limit", "7")
    r = CliRunner().invoke(cli, ["allisbomb", *args])
    assert r.exit_code == 0 and "verdict: UNDECIDED" in r.stdout
    [line] = [x for x in r.stdout.splitlines() if x.startswith("to search further: ")]
    command = line.removeprefix("to search further: ")
    words = shlex.split(command)
    assert words[words.index("--node-limit") + 1] == "70"
    first = solve(*args)
    again = run_printed(command)
    same_game_and_deal(first, again)
    assert again["node_limit"] == 70


def test_replay_makes_the_rerun_anew_and_checks_the_rank(tmp_path):
    path = tmp_path / "saved.json"
    r = CliRunner().invoke(
        cli, ["allisbomb", "--seed", "5", "--blitz", *QUICK, "--save", str(path)]
    )
    assert r.exit_code == 0, r.output
    saved = json.loads(path.read_text())
    saved["rerun"] = "bombsolve allisbomb --rank 1"  # what the file says is not what is printed
    path.write_text(json.dumps(saved))
    replayed = CliRunner().invoke(cli, ["allisbomb", "replay", str(path)])
    assert replayed.exit_code == 0 and replayed.stdout == r.stdout
    saved["rank"] = str(int(saved["rank"]) + 1)
    path.write_text(json.dumps(saved))
    bad = CliRunner().invoke(cli, ["allisbomb", "replay", str(path)])
    assert bad.exit_code == 2 and bad.stdout == ""
    assert "is not the deal of its deck" in bad.stderr


def test_a_position_has_no_rank_and_no_rerun(tmp_path):
    first = solve("--seed", "1", *QUICK)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(first["position"]))
    assert solve("--state", str(path), *QUICK)["rerun"] is None


def test_flags_of_every_option_the_command_takes():
    config = Options(
        expansions=("gifts", "waking_up"),
        hands=True,
        players=2,
        give_optional=True,
        waking_up_rules=False,
        allow_nonstandard=True,
        cards_version="standin-v1",
    )
    assert game_flags(config) == [
        "--expansions", "gifts,waking_up", "--hands", "--players", "2", "--allow-nonstandard",
        "--rule", "give_optional=true", "--rule", "waking_up_rules=false",
        "--cards", "standin-v1",
    ]  # fmt: skip
    assert game_flags(Options(), cards="") == []


def test_no_command_for_a_game_no_command_line_plays(tmp_path):
    mine = tmp_path / "mine.toml"
    campaign = Options(extra_sets=("mosquitos",))
    assert game_flags(campaign) is None and rerun_command(campaign, 3) is None
    assert game_flags(Options(removed=("KING",))) is None
    # --cards takes a set version or a file, not both
    both = Options(cards_file=mine, cards_version="standin-v1")
    assert game_flags(both) is None
    assert game_flags(both, cards="cards/whole.toml")[-2:] == ["--cards", "cards/whole.toml"]


def test_the_exhaust_rank_reruns_as_the_deal_it_numbers():
    from bombsolve.cli.allisbomb_exhaust import _text
    from bombsolve.solvers.allisbomb.cards.cards import load_cards
    from bombsolve.solvers.allisbomb.rules.blitz_ranks import N_DEALS, deal_of_rank
    from bombsolve.solvers.allisbomb.search.exhaust import rerun_of_rank

    blitz = Options(blitz=True)
    labels = load_cards(blitz).labels
    for r in (0, 123_456_789, N_DEALS - 1):
        command = rerun_of_rank(blitz, r)
        assert "--blitz" in shlex.split(command)
        out = run_printed(command, *QUICK)
        assert out["deck"] == [labels[c] for c in deal_of_rank(r)]
    rules = Options(blitz=True, give_optional=True)
    assert "give_optional=true" in shlex.split(rerun_of_rank(rules, 5))
    summary = {
        "deals": 2, "provenance": "base: STAND-IN", "cards": "standin-v2", "us_per_deal": 1,
        "positions": 9, "seed": None, "wins": 1, "losses": 1, "undecided": 0,
        "hardest": {"rank": 7, "positions": 5, "rerun": rerun_of_rank(blitz, 7)},
    }  # fmt: skip
    text = _text(summary)
    assert "rank 7 of the count's deals (5 positions in the count's search" in text
    assert text.endswith(f"alone, as a shuffle of its own rank: {rerun_of_rank(blitz, 7)})")

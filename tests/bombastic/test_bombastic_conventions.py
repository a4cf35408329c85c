"""The `bombsolve bombastic` commands keep the convention of every game: each --json
carries the seed, every rule option (defaults included), the cards and the code version;
the headline rate is `rate`, `lo`, `hi` over `n`; games are numbered from 1; `--rule` on
every command that plays games; `--workers` with or without `--out`."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.bombastic.rules import Options
from bombsolve.solvers.bombastic.study import card_variants, match_game_seed, match_study

#: Every field of `rules.Options`: the `rules` of a --json lists them all.
ALL_OPTIONS = set(Options.__dataclass_fields__)
COMMON = ("seed", "rules", "cards", "version", "commit")


def run(*args):
    return CliRunner().invoke(cli, ["bombastic", *args])


def doc_of(*args) -> dict:
    r = run(*args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _common(doc: dict, seed) -> None:
    for key in COMMON:
        assert key in doc, key
    assert doc["seed"] == seed
    assert set(doc["rules"]) == ALL_OPTIONS
    assert doc["version"] and doc["commit"]


def test_play_json_headline_is_xs_rate_and_rules_list_the_defaults():
    doc = doc_of("play", "--x", "random", "--o", "heuristic", "--games", "6", "--seed", "5")
    _common(doc, 5)
    assert doc["rules"]["shuffle"] == "chance"  # a default is listed too
    assert doc["rules"] == {**asdict(Options()), "removed": []}
    # rate/lo/hi are X's wins; the old keys that repeated them are gone, O's stay
    assert doc["n"] == 6 and doc["rate"] == doc["x_wins"] / 6
    assert doc["lo"] <= doc["rate"] <= doc["hi"]
    assert not {"x_rate", "x_ci", "options"} & set(doc)
    assert doc["o_rate"] == doc["o_wins"] / 6 and len(doc["o_ci"]) == 2
    assert "`rate`, `lo` and `hi` are X's" in " ".join(run("play", "--help").output.split())


def test_play_json_rules_follow_rule_and_flags():
    doc = doc_of("play", "--x", "random", "--o", "random", "--games", "2",
                 "--rule", "shuffle=opponent", "--without", "peek-many")  # fmt: skip
    assert doc["rules"]["shuffle"] == "opponent" and len(doc["rules"]["removed"]) == 1


def test_tournament_json_pairings_carry_rate_without_the_old_keys():
    doc = doc_of("tournament", "--agents", "random,heuristic", "--games", "2", "--seed", "3")
    _common(doc, 3)
    for row in doc["pairings"]:
        assert not {"x_rate", "x_lo", "x_hi"} & set(row)
        assert row["n"] == row["games"] == 2 and row["rate"] == row["x_wins"] / 2
        assert row["lo"] <= row["rate"] <= row["hi"]
    assert "`rate`, `lo` and `hi` are X's" in " ".join(run("tournament", "--help").output.split())


def test_replay_json_carries_version_cards_and_rules():
    doc = doc_of("replay", "--seed", "4", "--x", "random", "--o", "random",
                 "--rule", "second_swap=any")  # fmt: skip
    _common(doc, 4)
    assert doc["rules"]["second_swap"] == "any" and doc["rules"]["shuffle"] == "chance"
    assert doc["game"] is None and doc["game_seed"] == 4 and doc["turns"]


def test_infostates_json_carries_version_and_rules_but_no_statistics():
    doc = doc_of("infostates", "--depth", "0", "--player", "O", "--engine", "python",
                 "--rule", "shuffle=opponent")  # fmt: skip
    _common(doc, None)  # an exact count: no seed, no sample
    assert doc["rules"]["shuffle"] == "opponent"
    assert len(doc["players"]["O"]["by_depth"]) == 1  # after 0 turns
    assert not {"n", "rate", "lo", "hi"} & set(doc)


def test_odds_json_carries_version_and_records_rule_options():
    plain = doc_of("odds", "--as", "O", "--events", "peek 4=O")
    _common(plain, None)  # exact odds: no seed, no sample
    assert not {"n", "rate", "lo", "hi"} & set(plain)
    ruled = doc_of("odds", "--as", "O", "--events", "peek 4=O", "--rule", "shuffle=opponent")
    assert ruled["rules"]["shuffle"] == "opponent"
    # no rule option changes the odds (the help says so)
    assert ruled["lines"] == plain["lines"] and ruled["tiles"] == plain["tiles"]
    assert "no rule option changes them" in " ".join(run("odds", "--help").output.split())
    bad = run("odds", "--rule", "shufle=opponent")
    assert bad.exit_code == 2 and "did you mean shuffle?" in bad.output


def test_study_takes_rule_and_refuses_a_bad_one_before_any_work(tmp_path):
    assert "--rule NAME=VALUE" in run("study", "--help").output
    r = run("study", "--out", str(tmp_path / "s"), "--rule", "turn_cap=0")
    assert r.exit_code == 2 and "turn cap 0 must be at least 1" in r.output
    assert not (tmp_path / "s" / "manifest.json").exists()


def test_study_plays_under_the_rule_options(tmp_path, monkeypatch):
    """The rule options reach every part of the study and its manifest (the parts
    themselves are tested in test_bombastic_study.py; here they only record options)."""
    import bombsolve.solvers.bombastic as S  # the CLI takes reference_study from the front door

    seen = {}

    def fake_reference_study(out_dir, **kw):
        seen.update(kw)
        return {"headline": {"ratings": []}, "ratings_intervals": "bootstrap 95% intervals"}

    monkeypatch.setattr(S, "reference_study", fake_reference_study)
    monkeypatch.setattr("bombsolve.cli.warmup.ensure_compiled", lambda *a, **k: None)
    r = run("study", "--out", str(tmp_path / "s"), "--rule", "shuffle=opponent",
            "--rule", "turn_cap=9")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert seen["options"] == Options(shuffle="opponent", turn_cap=9)


def test_card_variants_start_from_the_rules_given():
    base = Options(shuffle="opponent", removed=(0,))
    variants = dict(card_variants(base))
    assert variants["base deck"] == base
    assert all(o.shuffle == "opponent" and 0 in o.removed for o in variants.values())
    assert card_variants() == card_variants(Options())


@pytest.mark.parametrize("command", ["play", "tournament"])
def test_workers_is_accepted_without_out_and_changes_nothing(command, tmp_path):
    args = (
        ["play", "--x", "random", "--o", "heuristic", "--games", "4", "--seed", "2"]
        if command == "play"
        else ["tournament", "--agents", "random,heuristic", "--games", "2", "--seed", "2"]
    )
    base = doc_of(*args)
    assert doc_of(*args, "--workers", "2") == base
    assert doc_of(*args, "--workers", "1", "--out", str(tmp_path / "o")) == base
    assert "Without --out the games still run" in " ".join(run(command, "--help").output.split())


def test_play_numbers_games_from_1_and_replay_takes_that_number():
    r = run("play", "--x", "random", "--o", "random", "--games", "5", "--seed", "3")
    assert r.exit_code == 0, r.output
    hint = [ln for ln in r.output.splitlines() if "replay game" in ln][0]
    number = int(hint.split("replay game ")[1].split()[0])
    assert 1 <= number <= 5
    args = hint.split("bombsolve bombastic ")[1].split()
    assert args[args.index("--game") + 1] == str(number) and "--seed" in args
    again = doc_of(*args)
    games = match_study("random", "random", 5, 3, Options()).chunks()[0].case_seeds()
    assert again["game"] == number and again["game_seed"] == int(games[number - 1])
    assert again["seed"] == 3
    text = run(*args).output
    assert text.startswith(f"Game {number} of `bombastic play --seed 3`")


def test_game_seed_matches_the_match_in_every_chunk():
    study = match_study("random", "random", 120, 9, Options())
    seeds = [int(s) for c in study.chunks() for s in c.case_seeds()]
    for game in (1, 50, 51, 100, 101, 120):
        assert match_game_seed(9, game) == seeds[game - 1]
    bad = run("replay", "--seed", "9", "--game", "0")
    assert bad.exit_code == 2


@pytest.mark.parametrize("command", ["play", "tournament", "study"])
def test_n_is_short_for_games_as_in_dragon_and_bomber(command):
    """`-n` is `--games` on every command that plays games, as `dragon play` and
    `bomber play` have it."""
    for game in ("dragon", "bomber"):
        other = CliRunner().invoke(cli, [game, "play", "--help"]).output
        assert "-n, --games" in other, game
    assert "-n, --games" in run(command, "--help").output


def test_play_takes_n_for_the_number_of_games():
    short = doc_of("play", "--x", "random", "--o", "random", "-n", "2", "--seed", "3")
    long = doc_of("play", "--x", "random", "--o", "random", "--games", "2", "--seed", "3")
    assert short["n"] == 2 and short["x_wins"] + short["o_wins"] <= 2
    assert {k: v for k, v in short.items() if k != "commit"} == {
        k: v for k, v in long.items() if k != "commit"
    }

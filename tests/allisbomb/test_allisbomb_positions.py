"""The position notation (results/allisbomb/README.md, "Positions"; DESIGN.md, "Positions and
re-runs"): piles top first, the card set named, every field read as documented, and a
printed position read back as the same position with the same verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import DEFAULT_CARDS, EXPANSIONS, Options
from bombsolve.solvers.allisbomb.rules import deals
from bombsolve.solvers.allisbomb.rules.rules import new_game, state_from_json
from bombsolve.solvers.allisbomb.search.search import reference_search
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.jsonfile import parse_json

OLD = Path(__file__).parent / "data" / "before_format2"


def run(*args: str):
    return CliRunner().invoke(cli, ["allisbomb", *args])


def refused(*args: str) -> str:
    """The one line a refused command prints (exit code 2, no traceback)."""
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1, r.output
    return lines[0]


def mid_game(config: Options, seed: int, turns: int):
    """The deal of `seed` after `turns` turns of the line the reference search wins with,
    and that line."""
    cs = load_cards(config)
    s = new_game(cs, deals.deal_from_seed(config, seed))
    won = reference_search(s, node_limit=30_000)
    assert won.outcome == "win"
    for move in won.solution[:turns]:
        s.apply(move)
    return s, won.solution


def labels(s) -> dict:
    """Each zone of a position by label and side, piles top first (copies not told apart)."""
    return {
        "deck": [s.label(c) for c in s.deck],
        "discard": [s.label(c) for c in reversed(s.discard)],
        "equipped": [sorted(s.label(c) for c in s.equipped(p)) for p in range(s.config.players)],
        "out": sorted(s.label(c) for c, z in enumerate(s.zone) if z == 4),
    }


# --- the round trip --------------------------------------------------------------------------

#: (configuration, a seed the reference search wins quickly): one and two players, every
#: expansion, HANDS and Blitz
GAMES = [
    (Options(), 1),
    (Options(players=2), 1),
    (Options(blitz=True), 2),
    (Options(hands=True), 1),
    (Options(cards_version="standin-v1"), 1),
    (Options(expansions=EXPANSIONS, hands=True, players=2), 1),
] + [
    (Options(expansions=(e,), players=p), seed)
    for e, seeds in {
        "mosquitos": (2, 1),
        "dream_guide": (1, 0),
        "gifts": (0, 1),
        "the_juice": (0, 1),
        "waking_up": (1, 1),
        "all": (3, 0),
    }.items()
    for p, seed in ((1, seeds[0]), (2, seeds[1]))
]


@pytest.mark.parametrize("config,seed", GAMES, ids=[f"{c.label()}-{s}" for c, s in GAMES])
def test_every_printed_position_reads_back_the_same(config, seed):
    s, line = mid_game(config, seed, 0)
    seen = {"discard": 0, "player 2": 0, "played": 0}
    for move in [None, *line[:-1]]:  # every position a turn starts from (the last wins)
        if move is not None:
            s.apply(move)
        text = json.dumps(s.to_json())
        back = state_from_json(json.loads(text))
        assert back.key() == s.key() and back.turn == s.turn
        assert back.outcome == s.outcome and back.to_json() == s.to_json()
        seen["discard"] += len(s.discard) > 1
        seen["player 2"] += s.active == 1
        seen["played"] += any(s.played)
    # the positions met exercise what the notation must carry
    assert seen["discard"] and seen["played"]
    assert seen["player 2"] or config.players == 1


@pytest.mark.parametrize("config,seed", GAMES[:3], ids=["base", "2p", "blitz"])
def test_a_read_back_position_has_the_same_verdict(config, seed):
    s, line = mid_game(config, seed, 3)
    back = state_from_json(json.dumps(s.to_json()))
    a, b = reference_search(s, node_limit=30_000), reference_search(back, node_limit=30_000)
    assert (a.outcome, a.nodes, a.solution) == (b.outcome, b.nodes, b.solution)
    assert a.outcome == "win"


@pytest.mark.parametrize("config,seed,turns", [(Options(), 0, 5), (Options(players=2), 1, 5)])
def test_cli_round_trip_print_save_read(tmp_path, config, seed, turns):
    """--json prints the position it solved; that position, saved and given to --state,
    is solved again the same (one player, and two with player 2 to move)."""
    s, _ = mid_game(config, seed, turns)
    assert len(s.discard) > 1 and (config.players == 1 or s.active == 1)
    first = tmp_path / "first.json"
    first.write_text(json.dumps(s.to_json()))
    r1 = run("--state", str(first), "--json")
    assert r1.exit_code == 0, r1.output
    printed = json.loads(r1.output)
    assert printed["position"]["format"] == 2
    assert printed["position"]["discard"] == [s.cards.labels[c] for c in reversed(s.discard)]
    saved = tmp_path / "printed.json"
    saved.write_text(json.dumps(printed["position"]))
    r2 = run("--state", str(saved), "--json")
    assert r2.exit_code == 0, r2.output
    again = json.loads(r2.output)
    assert again["position"] == printed["position"]
    for key in ("outcome", "nodes", "solution"):
        assert again[key] == printed[key]
    assert printed["outcome"] == "win"
    # the whole --save file is a position too
    (tmp_path / "result.json").write_text(r1.output)
    r3 = run("--state", str(tmp_path / "result.json"), "--json")
    assert json.loads(r3.output)["solution"] == printed["solution"]


def test_a_transcript_copied_into_a_position_is_that_position(tmp_path):
    """The zones a transcript prints after a turn, pasted as they are (sides included,
    the DISCARD PILE top first), are the position the solve reached."""
    r = run("--seed", "0")
    assert r.exit_code == 0, r.output
    text = r.output.split("turn 6:")[0].split("turn 5:")[1]
    zones = {}
    for line in text.splitlines():
        name, sep, cards = line.strip().partition(": ")
        if sep and name in ("DECK (top first)", "EQUIPPED CARDS", "DISCARD PILE (top first)"):
            zones[name] = cards.split(", ")
    pos = {
        "format": 2,
        "config": {"cards_version": DEFAULT_CARDS},
        "deck": zones["DECK (top first)"],
        "equipped": [zones["EQUIPPED CARDS"]],
        "discard": zones["DISCARD PILE (top first)"],
    }
    assert len(pos["discard"]) == 7
    read = state_from_json(pos)
    played, _ = mid_game(Options(), 0, 5)
    assert labels(read) == labels(played)
    f = tmp_path / "pasted.json"
    f.write_text(json.dumps(pos))
    r = run("--state", str(f))
    assert r.exit_code == 0, r.output
    assert "verdict: WIN" in r.output and "winning line, 7 turns" in r.output


# --- the card set ------------------------------------------------------------------------------

#: After turn 3 of `bombsolve allisbomb --seed 0`, written by hand from the README: no
#: format (one card in the DISCARD PILE, so its order cannot matter) and no cards_version.
AFTER_TURN_3 = {
    "config": {"expansions": [], "players": 1},
    "deck": [
        "PROPHET OF EGGS (ignited)",
        *("PROPHET OF PANCAKES", "GUARDIAN", "RASCAL", "LIBRARIAN", "PANCAKES", "LIBRARIAN"),
        *("KING", "CROISSANT", "PROPHET OF CROISSANT", "JOKER (ignited)", "RASCAL"),
        *("PRINCESS (ignited)", "MENDER", "MENDER (ignited)"),
    ],
    "equipped": [["GUARDIAN", "EGGS"]],
    "discard": ["JOKER"],
}


def test_a_position_without_a_card_set_is_read_with_the_default_and_says_so(tmp_path):
    f = tmp_path / "after3.json"
    f.write_text(json.dumps(AFTER_TURN_3))
    r = run("--state", str(f))
    assert r.exit_code == 0, r.output
    banner = r.output.splitlines()[0]
    assert f"stand-in set {DEFAULT_CARDS} (the default: the position names no cards_version)" in (
        banner
    )
    assert "verdict: WIN" in r.output and "winning line, 9 turns" in r.output
    saved = tmp_path / "saved.json"
    r = run("--state", str(f), "--save", str(saved))
    assert json.loads(saved.read_text())["cards_version_note"].startswith("the default")
    assert run("replay", str(saved)).output.splitlines()[0] == banner
    # a bare line (a position and its solution) says so too
    bare = tmp_path / "bare.json"
    line = json.loads(saved.read_text())["solution"]
    bare.write_text(json.dumps({"position": AFTER_TURN_3, "solution": line}))
    r = run("replay", str(bare))
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == banner and "result: WIN" in r.output
    # named, the set is used and the banner has no note
    f.write_text(json.dumps({**AFTER_TURN_3, "config": {"cards_version": "standin-v1"}}))
    r = run("--state", str(f))
    assert r.output.splitlines()[0].endswith("stand-in set standin-v1]")
    assert "verdict: LOSS" in r.output


@pytest.mark.parametrize(
    "args,key",
    [
        (("--cards", "standin-v2"), '"cards_version": "standin-v2"'),
        (("--players", "2"), '"players": 2'),
        (("--expansions", "gifts,hands"), '"expansions": ["gifts"], "hands": true'),
        (("--rule", "give_optional=true"), '"give_optional": true'),
    ],
)
def test_game_options_with_state_name_the_key_to_write(tmp_path, args, key):
    f = tmp_path / "after3.json"
    f.write_text(json.dumps(AFTER_TURN_3))
    line = refused("--state", str(f), *args)
    assert key in line and '"config"' in line


# --- files written before format 2 -------------------------------------------------------------


def test_a_save_written_before_format_2_replays_and_solves_the_same():
    old = OLD / "base_seed0_turn5_save.json"
    data = json.loads(old.read_text())
    assert "format" not in data["position"]
    s = state_from_json(data["position"])
    # its DISCARD PILE is bottom first: the first JOKER discarded is at the bottom
    assert [s.cards.labels[c] for c in s.discard] == data["position"]["discard"]
    assert s.cards.labels[s.discard[0]] == "JOKER"
    r = run("replay", str(old))
    assert r.exit_code == 0, r.output
    assert "winning line, 7 turns" in r.output
    r = run("--state", str(old), "--json")
    assert json.loads(r.output)["solution"] == data["solution"]
    assert json.loads(r.output)["position"]["discard"] == data["position"]["discard"][::-1]


def test_a_two_player_position_before_format_2():
    data = json.loads((OLD / "two_players_seed1_turn5.json").read_text())
    s = state_from_json(data)
    assert s.active == 1 and s.config.players == 2
    assert s.cards.labels[s.discard[-1]] == data["discard"][-1]  # the last listed is the top
    new = s.to_json()
    assert new["discard"] == data["discard"][::-1] and new["active"] == 1
    assert state_from_json(new).key() == s.key()


def test_a_position_written_before_set_versions_is_version_1(tmp_path):
    old = OLD / "standin_v1_unversioned_seed1_turn3.json"
    assert "cards_version" not in json.loads(old.read_text())["config"]
    assert state_from_json(json.loads(old.read_text())).config.cards_version == "standin-v1"
    r = run("--state", str(old))
    assert r.exit_code == 0, r.output
    assert (
        "stand-in set standin-v1 (the position names no cards_version and was written "
        in (r.output.splitlines()[0])
    )
    assert "verdict: WIN" in r.output


def test_format_1_reads_a_hand_written_pile_bottom_first():
    pos = {**AFTER_TURN_3, "deck": AFTER_TURN_3["deck"][:-1], "discard": ["JOKER", "MENDER"]}
    bottom_first = state_from_json({**pos, "format": 1})
    top_first = state_from_json({**pos, "format": 2})
    assert [bottom_first.cards.labels[c] for c in bottom_first.discard] == ["JOKER", "MENDER"]
    assert [top_first.cards.labels[c] for c in top_first.discard] == ["MENDER", "JOKER"]


# --- names wherever ids are read; the transcript's notation ----------------------------------

GIFTS = Options(expansions=("gifts",))


def test_played_takes_names_and_ids_alike():
    s, line = mid_game(GIFTS, 0, 0)
    for move in line:
        s.apply(move)
        if sum(s.played) >= 2:
            break
    data = s.to_json()
    assert all(isinstance(x, str) for x in data["played"])  # written by name
    by_id = {**data, "played": [c for c in range(s.cards.n) if s.played[c]]}
    assert state_from_json(data).played == state_from_json(by_id).played == s.played
    # a GIFT given by name counts toward the three GIFT cards
    cs = load_cards(GIFTS)
    one = {**AFTER_TURN_3, "config": {"expansions": ["gifts"]}, "played": ["JEWEL", "JOKER#2"]}
    one["out"] = ["MUSIC BOX", "PERFUME", "JEWEL", "PORTRAIT"]
    got = state_from_json(one)
    assert [cs.labels[c] for c in range(cs.n) if got.played[c]] == ["JOKER", "JEWEL"]
    assert got.played[3] and not got.played[2]  # JOKER#2 is the second JOKER's id


def test_sides_and_copies_as_transcripts_print_them():
    s = state_from_json(AFTER_TURN_3)
    top = s.deck[0]
    assert s.label(top) == "PROPHET OF EGGS (ignited)"
    jokers = [c for c in range(s.cards.n) if s.cards.labels[c] == "JOKER"]
    # "JOKER (ignited)" in the DECK took the first JOKER; the discarded one is passive
    assert s.ignited[jokers[0]] and not s.ignited[jokers[1]]
    pos = {**AFTER_TURN_3, "deck": [*AFTER_TURN_3["deck"]]}
    pos["deck"][10] = "JOKER#2 (ignited)"
    s = state_from_json(pos)
    assert s.ignited[jokers[1]] and s.zone[jokers[1]] == 0 and s.discard == [jokers[0]]
    # the same sides given by the ignited list instead
    plain = {**AFTER_TURN_3, "deck": [x.split(" (")[0] for x in AFTER_TURN_3["deck"]]}
    named = state_from_json(
        {**plain, "ignited": ["PROPHET OF EGGS", "JOKER#1", "PRINCESS", "MENDER#2"]}
    )
    assert named.key() == state_from_json(AFTER_TURN_3).key()


# --- a wrong field is named ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "change,words",
    [
        ({"format": 3}, ["format", "3", "expected 2"]),
        ({"format": True}, ["format", "true/false", "expected 2"]),
        ({"discard": ["JOKER", "MENDER"]}, ["discard", "format", "top first"]),
        ({"played": ["JOKR"]}, ["played", "JOKR", "JOKER"]),
        ({"desired": "EGG"}, ["desired", "EGG", "EGGS"]),
        ({"equipped": [["GUARDIAN", "EGS"]]}, ["equipped[0]", "EGS", "EGGS"]),
        ({"config": {"expansions": ["gift"]}}, ["config", "gift", "gifts"]),
        ({"played": [99]}, ["played[0]", "99"]),
        ({"played": ["JOKER"]}, ["played", "JOKER has 2 copies", "JOKER#1"]),
        ({"played": [True]}, ["played[0]", "true/false"]),
        ({"active": 1}, ["active", "1", "0..0"]),
        ({"turn": "3"}, ["turn", "'3'"]),
        ({"gift_plays": 300}, ["gift_plays", "300"]),
        ({"next_card": {"effect": "burn"}}, ["next_card", "burn", "no_action"]),
        ({"ignited": ["JOKER (passive)"]}, ["ignited[0]", "JOKER (passive)"]),
        ({"ignited": ["EGGS"]}, ["deck", "PROPHET OF EGGS (ignited)", "ignited", "passive"]),
        ({"config": {"cards_version": "standin-v3"}}, ["card set", "standin-v3"]),
        ({"config": {"players": 2}, "active": 2}, ["active", "2", "0..1"]),
    ],
)
def test_a_wrong_field_is_named(tmp_path, change, words):
    pos = {**AFTER_TURN_3, **change}
    if "discard" in change:
        pos["deck"] = pos["deck"][:-1]
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(pos))
    line = refused("--state", str(f))
    for w in words:
        assert w in line, (w, line)


def test_a_number_too_large_names_its_field(tmp_path):
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(AFTER_TURN_3)[:-1] + ', "turn": 1e400}')
    line = refused("--state", str(f))
    assert "turn is 1e400" in line and "finite" in line
    with pytest.raises(BadInput, match=r"position: config\.players is 1e999, too large"):
        parse_json('{"config": {"players": 1e999}}', "position")
    with pytest.raises(BadInput, match=r"position: deck\[1\] is NaN"):
        parse_json('{"deck": ["KING", NaN]}', "position")


# --- cards try prints both piles in the one order, labelled -------------------------------------


def test_cards_try_prints_the_piles_top_first(tmp_path):
    from bombsolve.solvers.allisbomb.cards.cards import DATA_DIR

    pos = {
        "format": 2,
        "deck": [
            *("PROPHET OF EGGS", "PROPHET OF PANCAKES", "RASCAL", "LIBRARIAN", "PANCAKES"),
            *("LIBRARIAN", "CROISSANT", "PROPHET OF CROISSANT", "JOKER", "RASCAL", "PRINCESS"),
            *("GUARDIAN", "EGGS"),
        ],
        "equipped": [["GUARDIAN", "KING"]],
        "discard": ["MENDER", "JOKER"],
        "out": ["MENDER"],
    }
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(pos))
    args = ("cards", "try", str(DATA_DIR / "base.toml"), "--card", "GUARDIAN", "--side")
    r = run(*args, "passive", "--state", str(f))
    assert r.exit_code == 0, r.output
    assert "bottom first" not in r.output
    assert "    DISCARD PILE (top first): MENDER (passive), JOKER (passive)" in r.output
    # the passive GUARDIAN puts an EQUIPPED CARD on top of the DISCARD PILE: listed first
    after = [ln for ln in r.output.splitlines() if ln.startswith("    DISCARD PILE")][1:]
    tops = sorted(ln.split(": ")[1].split(", ")[0] for ln in after)
    assert tops == ["KING (passive)", "RASCAL (passive)"]
    assert all(ln.endswith(", MENDER (passive), JOKER (passive)") for ln in after)
    assert r.output.count("    DECK (top first): ") == len(after) + 1
    d = json.loads(run(*args, "passive", "--state", str(f), "--json").output)
    assert d["position"]["discard"] == ["MENDER", "JOKER"]
    assert sorted(x["discard"][0] for x in d["results"]) == tops
    assert all(x["discard"][1:] == ["MENDER (passive)", "JOKER (passive)"] for x in d["results"])


def test_the_readme_example_is_the_position_after_turn_3():
    readme = Path(__file__).parents[2] / "results" / "allisbomb" / "README.md"
    section = readme.read_text().split("\n## Positions\n")[1]
    example = json.loads(section.split("```json\n")[1].split("```")[0])
    assert example["format"] == 2 and example["config"]["cards_version"] == DEFAULT_CARDS
    played, _ = mid_game(Options(), 0, 3)
    read = state_from_json(example)
    assert labels(read) == labels(played)
    assert read.key() == state_from_json(AFTER_TURN_3).key()


def test_a_side_given_beside_the_card_ids_must_agree_with_them():
    s = state_from_json(AFTER_TURN_3)
    printed = s.to_json()  # with ignited_ids, deck_ids, ...
    deck = [s.label(c) for c in s.deck]
    assert state_from_json({**printed, "deck": deck}).key() == s.key()
    wrong = [deck[0].replace("(ignited)", "(passive)"), *deck[1:]]
    with pytest.raises(BadInput, match=r"deck gives PROPHET OF EGGS \(passive\) but ignited_ids"):
        state_from_json({**printed, "deck": wrong})
    equipped = [["GUARDIAN (passive)", "EGGS (ignited)"]]
    with pytest.raises(BadInput, match=r"equipped\[0\] gives EGGS \(ignited\) but ignited_ids"):
        state_from_json({**printed, "equipped": equipped})
    ok = [["GUARDIAN (passive)", "EGGS (passive)"]]
    assert state_from_json({**printed, "equipped": ok}).key() == s.key()


def test_a_two_player_position_written_by_hand_with_player_2_to_move(tmp_path):
    """Written from the README's fields alone: names with their sides, piles top first,
    player 2's EQUIPPED CARDS second, `active` 1; it is the printed position's game."""
    s = state_from_json(json.loads((OLD / "two_players_seed1_turn5.json").read_text()))
    zones = labels(s)
    by_hand = {
        "format": 2,
        "config": {"players": 2, "cards_version": s.config.cards_version},
        "deck": zones["deck"],
        "discard": zones["discard"],
        "equipped": zones["equipped"],
        "out": zones["out"],
        "played": [s.copy_label(c) for c in range(s.cards.n) if s.played[c]],
        "active": 1,
        "turn": s.turn,
    }
    if s.desired >= 0:
        by_hand["desired"] = s.cards.labels[s.desired]
    read = state_from_json(by_hand)
    assert labels(read) == zones and read.active == 1 and read.desired == s.desired
    f = tmp_path / "two.json"
    f.write_text(json.dumps(by_hand))
    r = run("--state", str(f), "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["outcome"] == reference_search(s, node_limit=30_000).outcome

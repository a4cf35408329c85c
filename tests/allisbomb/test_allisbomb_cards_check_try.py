"""`cards check` and `cards try` on every shipped file and on user files; patch mode and
provenance per set (CARDS.md, "Checking your transcription", "Patch mode", "Provenance")."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.cards.cards import DATA_DIR, SET_FILES, load_cards, provenance_text
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.rules.transcribe import step_words

BASE = (DATA_DIR / "base.toml").read_text()


def run(*args):
    return CliRunner().invoke(cli, ["allisbomb", *args])


@pytest.mark.parametrize("name", list(SET_FILES))
def test_check_every_shipped_file_is_clean(name):
    r = run("cards", "check", str(DATA_DIR / SET_FILES[name]))
    assert r.exit_code == 0, r.output
    assert r.output.rstrip().endswith("no flags")
    assert "step 1: " in r.output and "text:" in r.output


def test_check_words_come_from_the_steps_not_the_text(tmp_path):
    text = BASE.replace(
        'text = "IGNITE the top 2 cards of the DECK, one by one from the top down."',
        'text = "Something else entirely."',
    )
    mine = tmp_path / "mine.toml"
    mine.write_text(text)
    r = run("cards", "check", str(mine), "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    rascal = next(s for s in d["sides"] if s["label"] == "RASCAL" and s["side"] == "passive")
    assert rascal["text"] == "Something else entirely."
    assert rascal["steps"] == [
        "IGNITE the top 2 cards of the DECK (passive turns ignited; "
        "ignited goes to the DISCARD PILE), from the top down, one by one"
    ]
    assert rascal["flags"] == ["step 1 (ignite) is not mentioned by the text"]


def test_check_flags_keyword_unused_name_and_unmentioned_step(tmp_path):
    text = BASE.replace(
        'number = 2\nkeyword = "URGENT"\ntext = "URGENT. Put one of your EQUIPPED CARDS into',
        'number = 2\ntext = "URGENT. Put one of your EQUIPPED CARDS into',
        1,
    ).replace(
        'steps = [{op = "move", zone = "discard", pick = "name", name = "PRINCESS", '
        'to = "deck_top", may = true}]',
        'steps = [{op = "move", zone = "discard", pick = "any", to = "deck_top", may = true}, '
        '{op = "reorder", n = 2}]',
    )
    mine = tmp_path / "mine.toml"
    mine.write_text(text)
    r = run("cards", "check", str(mine))
    assert r.exit_code == 0, r.output
    assert "flag: the text says URGENT but the side has keyword none" in r.output
    assert "flag: the text names the card PRINCESS, which no step uses" in r.output
    assert "flag: step 2 (reorder) is not mentioned by the text" in r.output
    assert "3 flag(s) to look at" in r.output


def test_check_refuses_a_bad_file_with_exit_2(tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text(BASE.replace('name = "JOKER"\ncopies = 2', 'name = "JOKER"\ncopies = 1'))
    r = run("cards", "check", str(mine))
    assert r.exit_code == 2 and "1 JOKER card" in r.output
    r = run("cards", "check", str(mine), "--allow-nonstandard")
    assert r.exit_code == 0 and "warning: " in r.output


def test_step_words_for_each_op():
    from bombsolve.solvers.allisbomb.cards.cards import Step

    assert step_words(Step("swap", may=True)) == (
        "You may exchange one of your EQUIPPED CARDS with the top card of the DECK"
    )
    assert "DESIRED DISH" in step_words(Step("equip_win", target="desired", zone="drawn"))
    assert step_words(Step("move", zone="deck", pick="nth", n=2, to="out")) == (
        "Put the 2nd card from the top of the DECK out of play"
    )
    assert "from the top 3 of the DECK" in step_words(
        Step("ignite", zone="deck", pick="class", cls="BREAKFAST", within=3)
    )


@pytest.mark.parametrize("name", list(SET_FILES))
def test_try_every_shipped_file_plays_its_first_card(name):
    from bombsolve.solvers.allisbomb.cards.cards import parse_card_file

    path = DATA_DIR / SET_FILES[name]
    first = parse_card_file(path.read_text(), str(path))[0].label
    for side in ("passive", "ignited"):
        r = run("cards", "try", str(path), "--card", first, "--side", side, "--json")
        assert r.exit_code == 0, r.output
        d = json.loads(r.output)
        assert d["card"] == first and d["results"]
        for res in d["results"]:
            assert res["turn"][0].startswith(f"play {first} ({side})")


def test_try_rascal_ignites_from_the_top_down(tmp_path):
    r = run("cards", "try", str(DATA_DIR / "base.toml"), "--card", "RASCAL", "--side", "passive")
    assert r.exit_code == 0, r.output
    assert "1 way(s) to play it" in r.output
    d = json.loads(
        run(
            "cards",
            "try",
            str(DATA_DIR / "base.toml"),
            "--card",
            "RASCAL",
            "--side",
            "passive",
            "--json",
        ).output
    )
    before = d["position"]["deck"]
    turn = d["results"][0]["turn"]
    # draws 2 (RASCAL's NUMBER), then ignites the new top two in order
    assert [x.strip() for x in turn[2:4]] == [
        f"ignite {before[2]} (passive)",
        f"ignite {before[3]} (passive)",
    ]


def test_try_lists_every_choice_and_marks_equal_results():
    r = run(
        "cards",
        "try",
        str(DATA_DIR / "base.toml"),
        "--card",
        "JOKER",
        "--side",
        "passive",
        "--json",
    )
    d = json.loads(r.output)
    # the JOKER puts one of the EQUIPPED CARDS into the DISCARD PILE: one result per card
    equipped = d["position"]["equipped"][0]
    assert len(d["results"]) == d["total"] == len(equipped)
    assert len({tuple(x["discard"]) for x in d["results"]}) == len(equipped)


def test_try_from_a_state_naming_copies(tmp_path):
    pos = {
        "deck": ["PRINCESS", "KING", "MENDER", "MENDER", "CROISSANT"],
        "equipped": [["GUARDIAN", "GUARDIAN"]],
        "discard": ["EGGS"],
        "out": [
            x
            for x in load_cards(Options()).labels
            if x not in ("PRINCESS", "KING", "MENDER", "CROISSANT", "GUARDIAN", "EGGS")
        ],
        "ignited": ["GUARDIAN#2"],
    }
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(pos))
    r = run(
        "cards",
        "try",
        str(DATA_DIR / "base.toml"),
        "--card",
        "GUARDIAN",
        "--side",
        "ignited",
        "--state",
        str(path),
        "--json",
    )
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert all(x["turn"][0].startswith("play GUARDIAN (ignited)") for x in d["results"])


def test_try_refuses_unknown_card_and_unplayable_card(tmp_path):
    r = run("cards", "try", str(DATA_DIR / "base.toml"), "--card", "KNIG", "--side", "passive")
    assert r.exit_code == 2 and "did you mean KING?" in r.output


def test_patch_mode_replaces_one_card_and_keeps_provenance(tmp_path):
    patch = """[set]
name = "base"
mode = "patch"
provenance = "printed"

[[card]]
name = "KING"
class = ["COURT"]
[card.passive]
number = 1
text = "You may put the PRINCESS from the DISCARD PILE on top of the DECK."
steps = [{op = "move", zone = "discard", pick = "name", name = "PRINCESS", to = "deck_top", may = true}]
[card.ignited]
number = 2
text = "IGNITE the top card of the DECK."
steps = [{op = "ignite", zone = "deck", pick = "top"}]
"""
    mine = tmp_path / "king.toml"
    mine.write_text(patch)
    cfg = Options(cards_file=mine, expansions=("mosquitos",))
    cs = load_cards(cfg)
    std = load_cards(Options(expansions=("mosquitos",)))
    assert cs.labels == std.labels  # the KING keeps his place: same card ids
    king = cs.labels.index("KING")
    assert cs.cards[king].provenance == "printed" and cs.cards[king].passive.number == 1
    assert {c.provenance for i, c in enumerate(cs.cards) if i != king} == {"stand-in"}
    assert provenance_text(cs) == "base: PRINTED 1 + STAND-IN 17, mosquitos: STAND-IN"
    r = run("cards", "--cards", str(mine), "--expansions", "mosquitos")
    assert "base: PRINTED 1 + STAND-IN 17, mosquitos: STAND-IN" in r.output.splitlines()[0]
    r = run("--seed", "3", "--cards", str(mine), "--json")
    d = json.loads(r.output)
    assert d["provenance"] == {"base": {"printed": 1, "stand-in": 17}}


def test_patch_mode_adds_a_card(tmp_path):
    text = """[set]
name = "base"
mode = "patch"
provenance = "custom"
[[card]]
name = "JESTER"
[card.passive]
number = 1
[card.ignited]
number = 1
"""
    mine = tmp_path / "jester.toml"
    mine.write_text(text)
    r = run("cards", "--cards", str(mine))
    assert r.exit_code == 2 and "JESTER is not a base card" in r.output
    cs = load_cards(Options(cards_file=mine, allow_nonstandard=True))
    assert cs.n == 19 and cs.cards[-1].name == "JESTER" and cs.cards[-1].provenance == "custom"


def test_printed_sweep_is_not_labelled_stand_in(tmp_path):
    from bombsolve.solvers.allisbomb.studies.study import caption, sweep_study

    mine = tmp_path / "printed.toml"
    mine.write_text(BASE.replace('"stand-in"', '"printed"'))
    study = sweep_study([Options(cards_file=mine)], deals=2, seed=1)
    manifest = {
        "identity": {"params": study.params, "n_cases": 2, "seed": 1, "chunk_size": 2000},
        "versions": {"bombsolve": "x"},
        "git_commit": "abc",
    }
    text = caption(manifest)
    assert "STAND-IN" not in text and "base: PRINTED" in text
    from bombsolve.solvers.allisbomb.studies.charts import cards_tag

    assert cards_tag(text) == "PRINTED cards"
    std = sweep_study([Options()], deals=2, seed=1)
    assert "provenance" not in std.params  # stand-in studies keep their identity


def test_cards_md_documents_every_field_range_and_provenance():
    from bombsolve.solvers.allisbomb.cards import cards as C

    doc = (DATA_DIR / "CARDS.md").read_text()
    assert "[set]" in doc and "[[card]]" in doc
    for key in (*C.SET_KEYS, *C.CARD_KEYS, *C.SIDE_KEYS, *C.STEP_KEYS):
        assert f"`{key}`" in doc or f"{key} = " in doc or f"[card.{key}]" in doc, key
    for value in (*C.PROVENANCES, *C.MODES, *C.OPS, *C.PICKS, *C.DESTS):
        assert f"`{value}`" in doc or f'"{value}"' in doc, value
    for key, (lo, hi) in C.RANGES.items():
        assert f"{lo}..{hi}" in doc, key
    assert f"2..{C.MAX_REORDER}" in doc
    assert "the step does nothing and the game goes on" in doc  # equip_win, other dish
    assert "A choice with a single option is not asked and not written" in doc
    assert "## Checking your transcription" in doc and "LABEL#k" in doc

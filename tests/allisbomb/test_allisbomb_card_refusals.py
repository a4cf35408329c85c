"""Bad card files: each mistake gets one line naming file, card (from 1), field and what was
expected, exit code 2, no traceback and nothing written (CARDS.md; DESIGN.md, "Command line")."""

from __future__ import annotations

import os
import re

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.cards.cards import DATA_DIR, load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.common.errors import BadInput

BASE = (DATA_DIR / "base.toml").read_text()


def _base(old: str, new: str, count: int = 1) -> str:
    assert old in BASE, old
    return BASE.replace(old, new, count)


def _drop_card(text: str, name: str) -> str:
    """The text without the [[card]] entry of that name."""
    parts = re.split(r"(?m)^(?=\[\[card\]\])", text)
    return "".join(p for p in parts if not p.startswith(f'[[card]]\nname = "{name}"'))


MINI = """[set]
name = "base"
provenance = "custom"
[[card]]
name = "A"
[card.passive]
number = 0
[card.ignited]
number = 0
"""

# (id, file text, extra CLI args, needles the one line must hold)
CASES = [
    (
        "misspelt card key",
        _base(
            'class = ["COURT"]\ncampaign = ""\nprovenance = "stand-in"\nrulebook = ["name", '
            '"copies", "class", "keyword"',
            'clas = ["COURT"]\ncampaign = ""\nprovenance = '
            '"stand-in"\nrulebook = ["name", "copies", "class", "keyword"',
        ),
        (),
        ["card 1 (PRINCESS)[clas]", "unknown field 'clas'", "did you mean class?"],
    ),
    (
        "misspelt side key",
        _base(
            'number = 2\nkeyword = "URGENT"\ntext = "URGENT. Put one',
            'number = 2\nkeywrod = "URGENT"\ntext = "URGENT. Put one',
        ),
        (),
        ["card 3 (JOKER)[passive][keywrod]", "did you mean keyword?"],
    ),
    (
        "step for steps",
        _base(
            'steps = [{op = "move", zone = "deck", pick = "top", to = "deck_bottom"}]',
            'step = [{op = "move", zone = "deck", pick = "top", to = "deck_bottom"}]',
        ),
        (),
        ["card 1 (PRINCESS)[passive][step]", "did you mean steps?"],
    ),
    (
        "unknown step key",
        _base('to = "deck_bottom"}]', 'to = "deck_bottom", mya = true}]'),
        (),
        ["card 1 (PRINCESS)[passive][step 1][mya]", "did you mean may?"],
    ),
    (
        "step class that no card has",
        _base(
            'pick = "any", to = "discard"}]', 'pick = "class", class = "BREAKFST", to = "discard"}]'
        ),
        (),
        [
            "card 3 (JOKER)[passive][step 1][class]",
            "no card of class 'BREAKFST'",
            "did you mean BREAKFAST?",
        ],
    ),
    (
        "card named PRINCES",
        _base('name = "PRINCESS"\ncopies = 1', 'name = "PRINCES"\ncopies = 1'),
        (),
        [
            "card 2 (KING)[passive][step 1][name]",
            "no card named 'PRINCESS'",
            "did you mean PRINCES?",
        ],
    ),
    (
        "prophecy naming WAFFLES",
        _base('dish = "EGGS"', 'dish = "WAFFLES"'),
        (),
        ["[ignited][step 1][dish]", "no card named 'WAFFLES'"],
    ),
    (
        "JOKER with one copy",
        _base('name = "JOKER"\ncopies = 2', 'name = "JOKER"\ncopies = 1'),
        (),
        ["set base", "1 JOKER card", "the rulebook has 2", "--allow-nonstandard"],
    ),
    (
        "within on pick top",
        _base(
            'pick = "top", to = "deck_bottom"}]', 'pick = "top", within = 3, to = "deck_bottom"}]'
        ),
        (),
        ["card 1 (PRINCESS)[passive][step 1][within]", "not with pick 'top'"],
    ),
    (
        "base set without a PRINCESS",
        _drop_card(BASE, "PRINCESS"),
        (),
        ["(KING)[passive][step 1][name]", "no card named 'PRINCESS'"],
    ),
    (
        "target desird",
        _base('target = "desired"', 'target = "desird"'),
        (),
        ["card 1 (PRINCESS)[ignited][step 1][target]", "'desird'", "did you mean desired?"],
    ),
    (
        "provenance homebrew",
        _base('provenance = "stand-in"\nnote', 'provenance = "homebrew"\nnote'),
        (),
        ["[set][provenance]", "'homebrew'", "printed, stand-in, custom"],
    ),
    (
        "set name is a list",
        _base('name = "base"', 'name = ["base"]'),
        (),
        ["[set][name]", "must be a string, not a list"],
    ),
    (
        "card expansion is a list",
        _base('name = "KING"\n', 'name = "KING"\nexpansion = ["base"]\n'),
        (),
        ["card 2 (KING)[expansion]", "must be a string, not a list"],
    ),
    (
        "3,000-deep nested array",
        BASE + '\n[[card]]\nname = "X"\nnote = ' + "[" * 3000 + "]" * 3000 + "\n",
        (),
        ["nested too deeply"],
    ),
    (
        "[[cards]] typo",
        _base('[[card]]\nname = "KING"', '[[cards]]\nname = "KING"'),
        (),
        ["line ", "unknown table '[[cards]]'", "did you mean [[card]]?"],
    ),
    (
        "zone drawn on a move",
        _base(
            'zone = "deck", pick = "top", to = "deck_bottom"}]',
            'zone = "drawn", pick = "top", to = "deck_bottom"}]',
        ),
        (),
        [
            "card 1 (PRINCESS)[passive][step 1][zone]",
            "'drawn'",
            "expected one of: deck, equipped, discard, play",
        ],
    ),
    (
        "number a word",
        _base("number = 3\n", 'number = "three"\n'),
        (),
        ["[number]", "must be an integer, not 'three'"],
    ),
    (
        "number out of range",
        _base("number = 3\n", "number = 12\n"),
        (),
        ["[number]", "must be in 0..9, not 12"],
    ),
    (
        "count out of range",
        _base('pick = "top", count = 2', 'pick = "top", count = 9')
        if 'pick = "top", count = 2' in BASE
        else _base('pick = "top", count = 3', 'pick = "top", count = 9'),
        (),
        ["[count]", "must be in 1..8, not 9"],
    ),
    (
        "steps not a list",
        _base(
            'steps = [{op = "equip_win", target = "desired", zone = "drawn"}]',
            'steps = "equip_win"',
        ),
        (),
        ["card 1 (PRINCESS)[ignited][steps]", "must be a list"],
    ),
    (
        "a step that is a number",
        _base('steps = [{op = "equip_win", target = "desired", zone = "drawn"}]', "steps = [1]"),
        (),
        ["card 1 (PRINCESS)[ignited][step 1]", "a step must be a table, not 1"],
    ),
    (
        "may as a string",
        _base("may = true", 'may = "yes"'),
        (),
        ["[may]", "must be true or false, not 'yes'"],
    ),
    (
        "n as a decimal",
        _base('op = "reorder", n = 3', 'op = "reorder", n = 2.5')
        if 'op = "reorder", n = 3' in BASE
        else _base('op = "reorder", n = 2', 'op = "reorder", n = 2.5'),
        (),
        ["[n]", "must be an integer, not the decimal number 2.5"],
    ),
    (
        "a field the op does not take",
        _base(
            'op = "equip_win", target = "desired", zone = "drawn"',
            'op = "equip_win", target = "desired", zone = "drawn", count = 2',
        ),
        (),
        ["card 1 (PRINCESS)[ignited][step 1][count]", "op 'equip_win' takes no field 'count'"],
    ),
    (
        "name on pick any",
        _base('pick = "any", to = "discard"}]', 'pick = "any", name = "KING", to = "discard"}]'),
        (),
        ["card 3 (JOKER)[passive][step 1][name]", "goes with pick 'name'"],
    ),
    (
        "unknown op",
        _base(
            'op = "ignite", zone = "deck", pick = "top"}]',
            'op = "ignight", zone = "deck", pick = "top"}]',
        ),
        (),
        ["[step 1][op]", "unknown op 'ignight'", "did you mean ignite?"],
    ),
    (
        "keyword misspelt",
        _base('keyword = "ROYAL"', 'keyword = "ROYALE"'),
        (),
        ["card 1 (PRINCESS)[passive][keyword]", "did you mean ROYAL?"],
    ),
    (
        "unknown top-level table",
        BASE + "\n[extra]\nx = 1\n",
        (),
        ["[extra]", "unknown field 'extra'"],
    ),
    (
        "[card] instead of [[card]]",
        MINI.replace("[[card]]", "[card]"),
        (),
        ["write [[card]], not [card]"],
    ),
    (
        "a GUARDIAN without NUMBER 3",
        _base('number = 3\ntext = "Put one', 'number = 2\ntext = "Put one').replace(
            'number = 3\nkeyword = "URGENT"\ntext = "URGENT. Put one',
            'number = 2\nkeyword = "URGENT"\ntext = "URGENT. Put one',
        ),
        (),
        ["GUARDIAN", "no NUMBER 3"],
    ),
    (
        "a second ROYAL card",
        _base('name = "KING"', 'name = "KING"', 1).replace(
            'number = 2\nkeyword = "URGENT"\ntext = "URGENT. IGNITE the top card of the DECK."',
            'number = 2\nkeyword = "ROYAL"\ntext = "URGENT. IGNITE the top card of the DECK."',
            1,
        ),
        (),
        ["KING is ROYAL", "the only ROYAL base card"],
    ),
    (
        "a PRINCESS that cannot win",
        _base('steps = [{op = "equip_win", target = "desired", zone = "drawn"}]', "steps = []"),
        (),
        ["card 1 (PRINCESS)'s ignited side has no equip_win step"],
    ),
    (
        "a two-card base game",
        MINI + MINI[MINI.index("[[card]]") :].replace('"A"', '"B"'),
        ("--allow-nonstandard",),
        ["2 card(s); too few for the setup, which EQUIPS 3"],
    ),
    (
        "a NUMBER bigger than any deck",
        MINI
        + "".join(MINI[MINI.index("[[card]]") :].replace('"A"', f'"{x}"') for x in "BCD").replace(
            "number = 0\n[card.ignited]", "number = 7\n[card.ignited]", 1
        ),
        ("--allow-nonstandard",),
        ["card 2 (B)[passive][number]", "NUMBER 7", "at most 3"],
    ),
    (
        "two PRINCESS cards, even nonstandard",
        _base('name = "PRINCESS"\ncopies = 1', 'name = "PRINCESS"\ncopies = 2'),
        ("--allow-nonstandard",),
        ["card 1 (PRINCESS)", "2 copies of PRINCESS", "rulebook E", "copies = 1"],
    ),
    (
        "two copies of a DESIRED DISH, even nonstandard",
        _base('name = "EGGS"\ncopies = 1', 'name = "EGGS"\ncopies = 2'),
        ("--allow-nonstandard",),
        ["(EGGS)", "2 copies of EGGS", "the DESIRED DISH"],
    ),
    (
        "per-card expansion naming no set",
        MINI.replace('name = "base"\n', "").replace(
            'name = "A"\n', 'name = "A"\nexpansion = "bas"\n'
        ),
        (),
        ["card 1 (A)[expansion]", "unknown set 'bas'", "did you mean base?"],
    ),
    (
        "a card of no set",
        MINI.replace('name = "base"\n', ""),
        (),
        ["card 1 (A)[expansion]", "give [set] name or the card's expansion"],
    ),
]


def _run(tmp_path, text: str, *args: str):
    mine = tmp_path / "mine.toml"
    mine.write_text(text)
    before = set(tmp_path.iterdir())
    r = CliRunner().invoke(cli, ["allisbomb", "cards", "--cards", str(mine), *args])
    assert set(tmp_path.iterdir()) == before, "files left behind"
    return r


@pytest.mark.parametrize("name,text,args,needles", CASES, ids=[c[0] for c in CASES])
def test_bad_card_file_gets_one_clear_line(name, text, args, needles, tmp_path):
    r = _run(tmp_path, text, *args)
    assert r.exit_code == 2, (name, r.output)
    assert "Traceback" not in r.output
    lines = [x for x in r.output.splitlines() if x.startswith("bombsolve: ")]
    assert len(lines) == 1, r.output
    line = lines[0]
    assert "mine.toml" in line or "card(s)" in line, line
    for needle in needles:
        assert needle in line, (needle, line)


def test_cases_change_the_file(tmp_path):
    """Every mutation above really changed the shipped text (a no-op would pass for nothing)."""
    for name, text, _, _ in CASES:
        assert text != BASE, name


def test_the_shipped_base_file_is_clean(tmp_path):
    r = _run(tmp_path, BASE)
    assert r.exit_code == 0, r.output
    assert "warning" not in r.output


def test_allow_nonstandard_turns_a_breach_into_one_warning(tmp_path):
    text = _base('name = "JOKER"\ncopies = 2', 'name = "JOKER"\ncopies = 1')
    r = _run(tmp_path, text, "--allow-nonstandard")
    assert r.exit_code == 0, r.output
    warnings = [x for x in r.output.splitlines() if x.startswith("warning: ")]
    assert len(warnings) == 1 and "1 JOKER card" in warnings[0]
    assert "17 cards" in r.output


def test_every_breach_gets_its_own_line(tmp_path):
    text = _base('name = "JOKER"\ncopies = 2', 'name = "JOKER"\ncopies = 1')
    text = text.replace('number = 3\ntext = "Put one', 'number = 2\ntext = "Put one').replace(
        'number = 3\nkeyword = "URGENT"\ntext = "URGENT. Put one',
        'number = 2\nkeyword = "URGENT"\ntext = "URGENT. Put one',
    )
    mine = tmp_path / "mine.toml"
    mine.write_text(text)
    with pytest.raises(BadInput) as exc:
        load_cards(Options(cards_file=mine))
    lines = str(exc.value).splitlines()
    assert len(lines) == 2 and "JOKER" in lines[0] and "NUMBER 3" in lines[1]


def test_per_card_expansion_without_set_name(tmp_path):
    """CARDS.md: a file may give each card its set with `expansion`."""
    mos = (DATA_DIR / "mosquitos.toml").read_text().replace('name = "mosquitos"\n', "")
    mos = mos.replace(
        '[[card]]\nname = "MOSQUITO"', '[[card]]\nexpansion = "mosquitos"\nname = "MOSQUITO"'
    )
    mos = mos.replace('provenance = "stand-in"', 'provenance = "printed"')
    mine = tmp_path / "mine.toml"
    mine.write_text(mos)
    cs = load_cards(Options(expansions=("mosquitos",), cards_file=mine))
    assert {c.provenance for c in cs.cards if c.expansion == "mosquitos"} == {"printed"}
    assert cs.n == 20


@pytest.mark.parametrize("extra", [(), ("--allow-nonstandard",)])
def test_a_sweep_of_a_bad_file_stops_before_writing_anything(extra, tmp_path):
    """The deck too short for the setup (1-2 cards crashed the kernel before): no study folder."""
    mine = tmp_path / "two.toml"
    mine.write_text(MINI + MINI[MINI.index("[[card]]") :].replace('"A"', '"B"'))
    out = tmp_path / "study"
    r = CliRunner().invoke(
        cli,
        ["allisbomb", "sweep", "--cards", str(mine), "--deals", "5", "--out", str(out), *extra],
    )
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert not out.exists()


def test_an_edit_with_the_old_modification_time_is_read_as_written(tmp_path):
    """The card file's parse is cached by its text: an edit that keeps the file's
    modification time (saved within the same second, or copied with it) is not missed."""
    from bombsolve.solvers.allisbomb import load_card_file

    path = tmp_path / "cards.toml"
    path.write_text(MINI)
    stamp = path.stat().st_mtime_ns
    assert load_card_file(path).cards[0].name == "A"
    path.write_text(MINI.replace('name = "A"', 'name = "B"'))
    os.utime(path, ns=(stamp, stamp))
    assert load_card_file(path).cards[0].name == "B"


def test_a_sweep_of_several_configurations_warns_once_and_honours_allow_nonstandard(tmp_path):
    """--configs builds its games from the card file as the one-game commands do: a breach
    under --allow-nonstandard is one warning line, printed once for all configurations,
    and without the flag the sweep is refused."""
    mine = tmp_path / "mine.toml"
    mine.write_text(_base('name = "JOKER"\ncopies = 2', 'name = "JOKER"\ncopies = 1'))
    args = ["allisbomb", "sweep", "--configs", "base,base/2p", "--deals", "2", "--cards"]
    refused = CliRunner().invoke(cli, [*args, str(mine), "--out", str(tmp_path / "no")])
    assert refused.exit_code == 2 and "1 JOKER card" in refused.output, refused.output
    assert not (tmp_path / "no").exists()
    r = CliRunner().invoke(
        cli,
        [*args, str(mine), "--allow-nonstandard", "--no-report", "--out", str(tmp_path / "s")],
    )
    assert r.exit_code == 0, r.output
    warnings = [x for x in r.output.splitlines() if x.startswith("warning: ")]
    assert len(warnings) == len(set(warnings)) >= 1, warnings
    assert all("1 JOKER card" in w for w in warnings), warnings


@pytest.mark.parametrize(
    "args",
    [
        ["allisbomb", "cards", "check", "-"],
        ["allisbomb", "--cards", "-", "--seed", "1"],
        ["allisbomb", "sweep", "--cards", "-", "--deals", "2", "--out", "never"],
    ],
)
def test_a_card_file_from_standard_input_is_refused_in_one_line(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, args, input=BASE)
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert lines == [
        "bombsolve: card file '-': card files are read from their path, not standard input; "
        "expected a file's path (save the cards to a file first)"
    ]
    assert not any(tmp_path.iterdir())

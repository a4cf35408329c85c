"""Card files: the stand-in set respects the data note; the loader refuses bad files clearly."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bombsolve.solvers.allisbomb.cards.cards import (
    DATA_DIR,
    SET_FILES,
    load_cards,
    parse_card_file,
)
from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS, Options, parse_expansions
from bombsolve.solvers.allisbomb.kernel.program import compile_program
from bombsolve.solvers.common.errors import BadInput

ALL = Options(expansions=EXPANSIONS, hands=True)


def test_card_counts_per_set():
    """Issue part 2: base 18, HANDS 2, MOSQUITOS 2, DREAM GUIDE 5, GIFTS 4, THE JUICE 3,
    WAKING UP 6, ALL 1: 41 cards."""
    sizes = {}
    for name, file in SET_FILES.items():
        text = (DATA_DIR / file).read_text()
        sizes[name] = sum(c.copies for c in parse_card_file(text, file))
    assert sizes == {
        "base": 18,
        "hands": 2,
        "mosquitos": 2,
        "dream_guide": 5,
        "gifts": 4,
        "the_juice": 3,
        "waking_up": 6,
        "all": 1,
    }
    assert load_cards(Options()).n == 18


def test_stand_in_respects_the_data_note():
    cs = load_cards(
        ALL.__class__(expansions=tuple(e for e in EXPANSIONS if e != "waking_up"), hands=True)
    )
    by = {c.label: c for c in cs.cards}
    princess, king = by["PRINCESS"], by["KING"]
    assert princess.passive.keyword == "ROYAL" and "COURT" in princess.classes
    assert [
        c.label
        for c in cs.cards
        if "ROYAL" in (c.passive.keyword, c.ignited.keyword) and c.expansion == "base"
    ] == ["PRINCESS"]
    assert "COURT" in king.classes
    assert any(
        s.op == "move" and s.zone == "discard" and s.name == "PRINCESS"
        for s in king.passive.steps + king.ignited.steps
    )
    assert by["GUARDIAN"].passive.number == 3
    assert sum(c.name == "JOKER" and "COURT" in c.classes for c in cs.cards) == 2
    rascal = by["RASCAL"]
    assert any(
        s.op == "ignite" and s.zone == "deck" and s.pick == "top" and s.count >= 2
        for s in rascal.passive.steps + rascal.ignited.steps
    )
    dishes = {
        s.dish
        for c in cs.cards
        if c.name == "PROPHET" and c.expansion == "base"
        for s in c.ignited.steps
        if s.op == "prophecy"
    }
    assert dishes == {"CROISSANT", "EGGS", "PANCAKES"}
    for dish in dishes:
        assert by[dish].classes == ("BREAKFAST",)
    assert any(s.name == "PANCAKES" for s in by["CROISSANT"].ignited.steps)
    assert any(
        "URGENT" in (c.passive.keyword, c.ignited.keyword)
        for c in cs.cards
        if c.expansion == "base"
    )
    for name in ("QUEEN", "PRINCE"):
        assert "COURT" in by[name].classes
    assert sum("GIFT" in c.classes for c in cs.cards) == 4
    assert all(c.provenance == "stand-in" for c in cs.cards)


def test_every_set_loads_and_compiles():
    for exp in EXPANSIONS:
        for hands in (False, True):
            cs = load_cards(Options(expansions=(exp,), hands=hands))
            compile_program(cs)
    assert load_cards(ALL).n == 41 - 2


def test_unknown_and_contradictory_options():
    with pytest.raises(BadInput, match="mosquitos"):
        parse_expansions("mosquitoes")
    with pytest.raises(BadInput, match="Blitz"):
        Options(blitz=True, expansions=("all",)).validate()
    with pytest.raises(BadInput):
        Options(players=3).validate()
    assert parse_expansions("hands, Dream-Guide,juice") == ("hands", "dream_guide", "the_juice")
    assert Options(expansions=("mosquitos",), hands=True).label() == "base+mosquitos+hands"
    assert Options(blitz=True).label() == "blitz"


def _base_text():
    return (DATA_DIR / "base.toml").read_text()


@pytest.mark.parametrize(
    "old,new,needle",
    [
        ("number = 3\n", 'number = "three"\n', "[number]: must be an integer"),
        ('op = "reorder"', 'op = "shuffle"', "unknown op 'shuffle'"),
        ('keyword = "ROYAL"', 'keyword = "LOYAL"', "[keyword]"),
        ("copies = 2", "copies = 0", "[copies]"),
        ('to = "deck_bottom"', 'to = "hand"', "[to]"),
    ],
)
def test_malformed_file_names_file_card_and_field(old, new, needle, tmp_path):
    text = _base_text().replace(old, new, 1)
    path = tmp_path / "mine.toml"
    path.write_text(text)
    with pytest.raises(BadInput) as exc:
        load_cards(Options(cards_file=path))
    msg = str(exc.value)
    assert "mine.toml" in msg and "card " in msg and needle in msg


def test_user_file_replaces_only_its_sets(tmp_path):
    text = _base_text().replace('provenance = "stand-in"', 'provenance = "printed"')
    path = tmp_path / "printed.toml"
    path.write_text(text)
    cs = load_cards(Options(expansions=("mosquitos",), cards_file=path))
    provs = {c.expansion: c.provenance for c in cs.cards}
    assert provs == {"base": "printed", "mosquitos": "stand-in"}


def test_not_toml():
    with pytest.raises(BadInput, match="not valid TOML"):
        parse_card_file("[[card]\nname=", "x.toml")


_values = st.one_of(
    st.integers(-3, 12), st.text(max_size=6), st.booleans(), st.lists(st.integers(0, 3), max_size=2)
)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_random_card_files_never_crash_the_loader(data):
    """Hypothesis: a mutated card file either loads or raises BadInput, nothing else."""
    raw = tomllib.loads(_base_text())
    card = data.draw(st.sampled_from(raw["card"]))
    where = data.draw(st.sampled_from(["card", "passive", "ignited", "step"]))
    key = data.draw(
        st.sampled_from(
            [
                "name",
                "copies",
                "class",
                "number",
                "keyword",
                "op",
                "zone",
                "pick",
                "to",
                "n",
                "count",
                "may",
                "steps",
                "label",
                "campaign",
                "within",
                "dish",
                "target",
            ]
        )
    )
    value = data.draw(_values)
    if where == "card":
        card[key] = value
    elif where in ("passive", "ignited"):
        card[where][key] = value
    elif card["passive"]["steps"]:
        card["passive"]["steps"][0][key] = value
    text = _dump(raw)
    try:
        parse_card_file(text, "fuzz.toml")
    except BadInput:
        pass


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_random_text_never_crashes_the_loader(text):
    try:
        parse_card_file(text, "fuzz.toml")
    except BadInput:
        pass


def _dump(obj) -> str:
    """A tiny TOML writer for the fuzz test (tables, arrays of tables, inline step tables)."""
    out = []

    def val(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{k} = {val(x)}" for k, x in v.items()) + "}"
        raise TypeError(v)

    out.append("[set]")
    for k, v in obj["set"].items():
        out.append(f"{k} = {val(v)}")
    for card in obj["card"]:
        out.append("[[card]]")
        for k, v in card.items():
            if not isinstance(v, dict):
                out.append(f"{k} = {val(v)}")
        for side in ("passive", "ignited"):
            if isinstance(card.get(side), dict):
                out.append(f"[card.{side}]")
                for k, v in card[side].items():
                    out.append(f"{k} = {val(v)}")
    return "\n".join(out) + "\n"


def test_an_edited_card_file_is_read_again_in_the_same_process(tmp_path):
    """A process that outlives an edit (a play session, a cluster's workers) must not answer
    with the cards it cached before: the options carry the file's digest, so the cards and the
    compiled program are looked up anew, even when the edit keeps the file's time."""
    import os

    from bombsolve.solvers.allisbomb.search.solver import compiled

    path = tmp_path / "mine.toml"
    first = _base_text().replace('provenance = "stand-in"', 'provenance = "printed"')
    path.write_text(first)
    before = os.stat(path)
    old = Options(cards_file=path)
    assert {c.provenance for c in load_cards(old).cards} == {"printed"}
    assert {c.provenance for c in compiled(old).cards.cards} == {"printed"}

    path.write_text(first.replace('provenance = "printed"', 'provenance = "custom"'))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    new = Options(cards_file=path)
    assert new != old and new.label() == old.label()
    assert new.to_dict() == old.to_dict()
    assert {c.provenance for c in load_cards(new).cards} == {"custom"}
    assert {c.provenance for c in compiled(new).cards.cards} == {"custom"}

"""The stand-in set version 2 draft keeps every fact the rulebook fixes; the targets' statistics."""

from __future__ import annotations

from pathlib import Path

import pytest

from solvers.allisbomb.cards import DATA_DIR, load_cards
from solvers.allisbomb.config import EXPANSIONS, GameConfig
from solvers.allisbomb.targets import TARGETS, Measure, judge, median_interval

V2 = DATA_DIR / "standin-v2.toml"
EVERY = dict(expansions=tuple(e for e in EXPANSIONS if e != "waking_up"), hands=True)


def _kinds(cs):
    return list(dict.fromkeys(cs.cards))


def test_v2_keeps_names_copies_classes_and_is_labelled_stand_in():
    v1 = _kinds(load_cards(GameConfig(**EVERY)))
    v2 = _kinds(load_cards(GameConfig(**EVERY, cards_file=V2)))
    assert [(c.label, c.copies, c.classes, c.expansion) for c in v2] == [
        (c.label, c.copies, c.classes, c.expansion) for c in v1
    ]
    assert all(c.provenance == "stand-in" for c in v2)
    assert "STAND-IN" in V2.read_text().splitlines()[0]


def test_v2_keeps_the_actions_and_numbers_the_rulebook_fixes():
    cs = load_cards(GameConfig(**EVERY, cards_file=V2))
    v1 = {c.label: c for c in _kinds(load_cards(GameConfig(**EVERY)))}
    by = {c.label: c for c in _kinds(cs)}
    p = by["PRINCESS"]
    assert p.passive.keyword == p.ignited.keyword == "ROYAL"  # rulebook D.1: the only ROYAL
    assert [c.label for c in by.values() if "ROYAL" in (c.passive.keyword, c.ignited.keyword)] == [
        "PRINCESS"
    ]
    assert by["GUARDIAN"].passive.number == by["GUARDIAN"].ignited.number == 3  # rulebook D.2
    # Rulebook-fixed actions stay version 1's: RASCAL ignites from the top down (FAQ), the KING
    # recalls the PRINCESS (FAQ), the ignited CROISSANT names PANCAKES (F), prophecies (E.1),
    # the ignited PRINCESS equips the desired dish (E.3).
    for label, side in [
        ("RASCAL", "passive"),
        ("KING", "passive"),
        ("CROISSANT", "ignited"),
        ("PRINCESS", "ignited"),
        ("PROPHET OF CROISSANT", "ignited"),
        ("PROPHET OF EGGS", "ignited"),
        ("PROPHET OF PANCAKES", "ignited"),
    ]:
        assert getattr(by[label], side).steps == getattr(v1[label], side).steps, label
    assert any("URGENT" in (c.passive.keyword, c.ignited.keyword) for c in by.values())


def test_v2_plays_with_waking_up_from_version_1():
    cs = load_cards(GameConfig(expansions=("waking_up",), cards_file=V2))
    assert "THRONE" in cs.labels and cs.labels.count("PRINCESS") == 1


def test_median_interval_brackets_the_median():
    med, lo, hi = median_interval(list(range(1, 102)))  # 1..101, median 51
    assert med == 51 and lo < 51 < hi
    assert 40 < lo and hi < 62


def test_a_comparison_is_met_only_without_overlap():
    t = TARGETS[0]
    hard = Measure(1000, 500, 0, 10, 9, 11)
    easy = Measure(1000, 600, 0, 10, 9, 11)
    close = Measure(1000, 520, 0, 10, 9, 11)
    assert judge(t, hard, easy) and not judge(t, close, hard)
    # Undecided deals widen the harder game's interval upwards: no longer met.
    assert not judge(t, Measure(1000, 500, 80, 10, 9, 11), easy)
    longer = [x for x in TARGETS if x.measure == "turns"][0]
    assert judge(longer, Measure(100, 90, 0, 26, 24, 28), Measure(100, 90, 0, 18, 17, 19))
    assert not judge(longer, Measure(100, 90, 0, 26, 18, 28), Measure(100, 90, 0, 18, 17, 19))


@pytest.mark.parametrize("t", TARGETS, ids=lambda t: t.statement)
def test_every_target_names_configurations_that_exist(t):
    from solvers.allisbomb.targets import CONFIGS

    assert t.harder in CONFIGS and t.easier in CONFIGS
    assert Path(V2).is_file()

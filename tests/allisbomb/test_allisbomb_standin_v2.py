"""The stand-in set version 2 draft keeps every fact the rulebook fixes; the targets' statistics."""

from __future__ import annotations

from pathlib import Path

import pytest

from bombsolve.solvers.allisbomb.cards.cards import DATA_DIR, load_cards
from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS, Options
from bombsolve.solvers.allisbomb.studies.targets import TARGETS, Measure, judge, median_interval

V2 = DATA_DIR / "standin-v2.toml"
EVERY = dict(expansions=tuple(e for e in EXPANSIONS if e != "waking_up"), hands=True)


def _kinds(cs):
    return list(dict.fromkeys(cs.cards))


def test_v2_keeps_names_copies_classes_and_is_labelled_stand_in():
    v1 = _kinds(load_cards(Options(**EVERY)))
    v2 = _kinds(load_cards(Options(**EVERY, cards_file=V2)))
    assert [(c.label, c.copies, c.classes, c.expansion) for c in v2] == [
        (c.label, c.copies, c.classes, c.expansion) for c in v1
    ]
    assert all(c.provenance == "stand-in" for c in v2)
    assert "STAND-IN" in V2.read_text().splitlines()[0]


def test_v2_keeps_the_actions_and_numbers_the_rulebook_fixes():
    cs = load_cards(Options(**EVERY, cards_file=V2))
    v1 = {c.label: c for c in _kinds(load_cards(Options(**EVERY)))}
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
    cs = load_cards(Options(expansions=("waking_up",), cards_file=V2))
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
    from bombsolve.solvers.allisbomb.studies.targets import CONFIGS

    assert t.harder in CONFIGS and t.easier in CONFIGS
    assert Path(V2).is_file()


def test_lookahead_campaign_scores_by_the_rulebook():
    import numpy as np

    from bombsolve.solvers.allisbomb.studies.campaign import score
    from bombsolve.solvers.allisbomb.studies.campaign_players import play_campaign_lookahead

    r = play_campaign_lookahead(np.random.default_rng(3), V2)
    assert len(r.wins) == len(EXPANSIONS)
    assert (r.points, r.medal) == score(r.kept_cards, list(r.wins))
    # v2 marks LIBRARIAN and QUEEN with the circle: never kept into the last game.
    assert r.kept_cards < load_cards(Options(expansions=EXPANSIONS, hands=True)).n


def test_campaign_target_needs_rare_gold_and_more_than_one_medal():
    from bombsolve.solvers.allisbomb.studies.targets import CampaignMeasure

    assert CampaignMeasure(100, {"gold": 10, "silver": 70, "bronze": 20, "none": 0}, 11).met()
    assert not CampaignMeasure(100, {"gold": 100, "silver": 0, "bronze": 0, "none": 0}, 30).met()
    assert not CampaignMeasure(100, {"gold": 0, "silver": 100, "bronze": 0, "none": 0}, 12).met()
    assert not CampaignMeasure(100, {"gold": 25, "silver": 75, "bronze": 0, "none": 0}, 13).met()


def _labels(name, seed, deals):
    from dataclasses import replace

    from bombsolve.solvers.allisbomb.studies.targets import CONFIGS, decks

    cs = load_cards(replace(CONFIGS[name], cards_file=V2))
    return [[cs.labels[c] for c in d] for d in decks(name, V2, seed, deals)]


@pytest.mark.parametrize(
    ("child", "parent"), [("blitz", "base"), ("base+hands", "base"), ("gifts+hands", "gifts")]
)
def test_the_games_of_a_statement_are_played_on_paired_deals(child, parent):
    for kid, mum in zip(_labels(child, 5, 30), _labels(parent, 5, 30), strict=True):
        shared = [x for x in mum if x in kid]
        # cards both games hold keep their order (copies are matched in order, so the order
        # of labels is what is kept)
        kept = [x for x in kid if x in mum]
        if child == "blitz":
            assert len(kid) == 13 and all(x in mum for x in kid)
            assert [x for x in dict.fromkeys(kid)] == [x for x in dict.fromkeys(shared)]
        else:
            assert kept == shared and len(kid) == len(mum) + 2


def test_paired_deals_stay_uniform():
    # the position of an inserted HANDS card is uniform over the 20 places (not always last)
    import numpy as np

    pos = [d.index("LEFT HAND") for d in _labels("base+hands", 11, 2000)]
    counts = np.bincount(pos, minlength=20)
    assert len(counts) == 20 and counts.min() > 60 and counts.max() < 150  # 100 expected


def test_paired_difference_of_two_measures():
    from bombsolve.solvers.allisbomb.studies.targets import paired

    hard = Measure(6, 2, 0, 0, 0, 0, codes=(1, 1, 0, 0, 0, 0))
    easy = Measure(6, 5, 0, 0, 0, 0, codes=(1, 1, 1, 1, 1, 0))
    d = paired(hard, easy)
    assert (d.diff, d.lost_to_won, d.won_to_lost) == (0.5, 3, 0)
    assert d.lo < 0.5 < d.hi
    with pytest.raises(ValueError):
        paired(Measure(6, 2, 0, 0, 0, 0), easy)


def test_measure_keeps_every_deal():
    from bombsolve.solvers.allisbomb.studies.targets import measure

    m = measure("blitz", V2, "perfect", 12, 3, 200_000)
    assert len(m.codes) == len(m.turns) == 12 and m.wins == sum(c == 1 for c in m.codes)
    again = measure("blitz", V2, "perfect", 12, 3, 200_000)
    assert again.codes == m.codes  # the same seed, the same deals


def test_a_grown_sample_plays_only_the_deals_after_its_prefix():
    from dataclasses import replace

    from bombsolve.solvers.allisbomb.studies.targets import measure

    whole = measure("blitz", V2, "perfect", 12, 3, 200_000)
    first = measure("blitz", V2, "perfect", 5, 3, 200_000)
    grown = measure("blitz", V2, "perfect", 12, 3, 200_000, prefix=first)
    assert grown == whole
    # the prefix's outcomes are kept, not played again: a prefix that says otherwise shows
    flipped = tuple(1 - c for c in first.codes)
    fake = replace(first, codes=flipped, wins=sum(c == 1 for c in flipped))
    odd = measure("blitz", V2, "perfect", 12, 3, 200_000, prefix=fake)
    assert odd.codes == flipped + whole.codes[5:]
    assert odd.wins == sum(c == 1 for c in odd.codes)
    look = measure("blitz", V2, "lookahead", 4, 3, 0)
    two = Measure(
        2, sum(c == 1 for c in look.codes[:2]), 0, 0, 0, 0, look.codes[:2], look.turns[:2]
    )
    assert measure("blitz", V2, "lookahead", 4, 3, 0, prefix=two) == look
    with pytest.raises(ValueError, match="prefix"):
        measure("blitz", V2, "perfect", 4, 3, 200_000, prefix=first)  # 5 deals > 4


def test_the_script_grows_the_largest_smaller_cached_sample(tmp_path):
    import json
    from dataclasses import asdict

    from tests.common.scripts import load_script

    mod = load_script("allisbomb_standin_targets")

    def put(stem, n):
        m = Measure(n, n, 0, 1, 1, 1, codes=(1,) * n, turns=(1,) * n)
        (tmp_path / f"{stem}.json").write_text(json.dumps(asdict(m)))

    put("lookahead-base-100-7", 100)
    put("lookahead-base-200-7", 200)
    put("lookahead-base-300-7", 300)  # not smaller than asked
    put("lookahead-base-250-1007", 250)  # another seed
    put("lookahead-base+hands-250-7", 250)  # another game
    put("perfect-base-250-7", 250)  # another player
    got = mod.smaller_sample(tmp_path, "lookahead", "base", 300, 7)
    assert got is not None and got.n == 200
    assert mod.smaller_sample(tmp_path, "lookahead", "base", 100, 7) is None

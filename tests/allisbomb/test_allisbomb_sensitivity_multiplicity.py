"""The sensitivity study's many intervals: each edit's p-value, which survive Holm's and
Benjamini-Hochberg's corrections, and the table's changes in points with enough decimals."""

from __future__ import annotations

import pandas as pd

from bombsolve.solvers.allisbomb.studies.sensitivity import (
    correction_note,
    effects,
    effects_table,
    headline,
)


def _study(n: int, flips: dict[str, tuple[int, int]]):
    """Rows and params of a made-up study of `n` deals, the first 40 lost under the base
    cards and the others won; each edit, by its key, wins `to_win` of the lost deals and
    loses `to_loss` of the won ones."""
    recs = []
    edits = []
    for case in range(n):
        recs.append({"case": case, "edit": "base", "outcome": 1 if case >= 40 else 0})
    for key, (to_win, to_loss) in flips.items():
        edits.append(
            {
                "key": key,
                "what": f"{key} edited",
                "edit": {"kind": "copies", "label": key, "side": "passive"},
                "rulebook_fact": False,
            }
        )
        for case in range(n):
            base = 1 if case >= 40 else 0
            if case < to_win:
                out = 1  # a lost deal (cases 0..39) won under the edit
            elif 40 <= case < 40 + to_loss:
                out = 0
            else:
                out = base
            recs.append({"case": case, "edit": key, "outcome": out})
    return pd.DataFrame(recs), {"edits": edits}


def test_one_chance_finding_among_many_does_not_survive_holm():
    # 11 to win, 2 to loss of 300: p = 0.013 alone (the +3.00 pp that a 2,000-deal study
    # did not confirm), beside 82 edits that flip nothing
    flips = {"JOKER": (11, 2), **{f"E{i:02}": (0, 0) for i in range(82)}}
    rows, params = _study(300, flips)
    eff = effects(rows, params).set_index("edit")
    joker = eff.loc["JOKER"]
    assert round(joker["diff"] * 100, 2) == 3.00 and joker["lo"] > 0
    assert 0.01 < joker["p_value"] < 0.05
    assert not joker["holm"] and not joker["bh"]
    assert eff["p_value"].drop("JOKER").eq(1.0).all()
    note = correction_note(eff.reset_index())
    assert "83 edits tried at once" in note and "(1 do)" in note
    assert "0 of 83 effects survive Holm's correction (family-wise error 5%)" in note
    assert "false discovery rate 5%" in note
    assert "survives Holm" not in headline(eff.reset_index())


def test_a_large_effect_survives_both_corrections_and_is_marked():
    flips = {"BIG": (0, 40), **{f"E{i:02}": (0, 0) for i in range(20)}}
    eff = effects(*_study(300, flips)).set_index("edit")
    assert eff.loc["BIG", "holm"] and eff.loc["BIG", "bh"]
    table = effects_table(eff.reset_index())
    assert table.iloc[0]["edit"] == "BIG edited"
    assert table.iloc[0]["survives Holm (5%)"] == "yes"
    assert table.iloc[1]["survives Holm (5%)"] == ""
    assert "\u2713 survives Holm" in headline(eff.reset_index())


def test_a_change_of_one_deal_in_2000_prints_as_0_05_points_not_0_1_percent():
    eff = effects(*_study(2000, {"ONE": (1, 0)}))
    row = effects_table(eff).iloc[0]
    assert row["change, points [95% CI]"].startswith("+0.05 [")
    assert row["base win rate"] == "98.00%" and row["edited win rate"] == "98.05%"
    assert "e-" not in row["p"] and "e+" not in row["p"]


def test_one_comparison_needs_no_correction_and_says_none(tmp_path):
    from bombsolve.solvers.allisbomb.studies.sensitivity import tornado

    eff = effects(*_study(300, {"VARIANT": (11, 2)}))
    assert correction_note(eff) == ""
    assert "tried at once" not in headline(eff)
    tornado(eff, tmp_path, "STAND-IN cards; test", top=5)
    assert "Holm" not in (tmp_path / "tornado.svg").read_text()


def test_many_edits_tornado_names_the_correction(tmp_path):
    from bombsolve.solvers.allisbomb.studies.sensitivity import tornado

    eff = effects(*_study(300, {"BIG": (0, 40), "JOKER": (11, 2), "NONE": (0, 0)}))
    tornado(eff, tmp_path, "STAND-IN cards; test", top=5)
    assert "survives Holm's correction over all 3 edits" in (tmp_path / "tornado.svg").read_text()

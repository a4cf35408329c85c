"""The gamepark preset comparison's marks (solvers/dragon/preset_study.py,
`preset_tests`): each difference's p-value is the test its committed interval inverts,
Holm's correction runs over all 87 at once, and the README block and prose say what the
committed tables give."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from bombsolve.solvers.common.multiplicity import holm
from bombsolve.solvers.dragon.preset_study import (
    comparison_markdown,
    difference_p_value,
    preset_tests,
)

ROOT = Path(__file__).resolve().parents[2]
GAMEPARK = ROOT / "results" / "dragon" / "gamepark"
PAIRED = pd.read_csv(GAMEPARK / "paired.csv", keep_default_na=False)
LADDER = pd.read_csv(GAMEPARK / "ladder.csv", keep_default_na=False)
README = (ROOT / "results" / "dragon" / "README.md").read_text()


def test_each_p_value_agrees_with_its_interval() -> None:
    paired, ladder = preset_tests(PAIRED, LADDER)
    for t in (paired, ladder):
        for _, r in t.iterrows():
            excludes_zero = r["lo"] > 1e-9 or r["hi"] < -1e-9
            near_edge = min(abs(r["lo"]), abs(r["hi"])) < 1e-4
            if not near_edge:
                assert (r["p_value"] < 0.05) == excludes_zero, r.to_dict()


def test_a_share_p_value_is_mcnemars_on_the_changed_games() -> None:
    row = {"metric": "seat1_win", "games": 1000, "default": 0.5, "diff": 0.02, "games_changed": 100}
    # 60 games won only under the preset, 40 only under the defaults: z = 20 / 10 = 2
    assert difference_p_value(row) == pytest.approx(0.0455, abs=1e-4)
    mean = {"metric": "turns", "games": 1000, "diff": 0.2, "lo": 0.0, "hi": 0.4}
    assert difference_p_value(mean) == pytest.approx(0.05, abs=1e-3)


def test_the_marks_are_holms_over_all_87() -> None:
    paired, ladder = preset_tests(PAIRED, LADDER)
    assert len(paired) + len(ladder) == 87
    both = holm(list(paired["p_value"]) + list(ladder["p_value"]))
    assert list(paired["holm"]) + list(ladder["holm"]) == both
    kept = paired[paired["holm"]].groupby("metric").size().to_dict()
    assert kept.get("double_points") == 10 and "seat1_win" not in kept
    assert not ladder["holm"].any()
    flat = " ".join(README.split())
    assert (
        f"every Double change survives (10 of 10), and so do a few of the small ones: "
        f"{kept.get('turns', 0)} of the 10 turn changes, {kept.get('rounds', 0)} of the "
        f"rounds, {kept.get('winner_score', 0)} of the winner's score and "
        f"{kept.get('shared', 0)} of the shared victories"
    ) in flat


def test_the_readme_block_is_the_committed_tables() -> None:
    m = re.search(r"<!-- generated:dragon-preset sha=\w+ -->\n(.*?)<!-- /generated", README, re.S)
    assert m and m.group(1) == comparison_markdown(PAIRED, LADDER, "gamepark")
    paired, ladder = preset_tests(PAIRED, LADDER)
    kept = int(paired["holm"].sum() + ladder["holm"].sum())
    shown = kept - int(paired[paired["metric"] == "shared"]["holm"].sum())
    assert f": {kept} do" in m.group(1) and m.group(1).count("†") == shown + 1

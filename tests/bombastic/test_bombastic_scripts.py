"""scripts/bombastic_strength.py and bombastic_paired_decks.py: tiny runs, counted by hand."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from solvers.bombastic.agents import make_agent, play_game
from solvers.bombastic.rules import Options
from solvers.common.readme import render_block

ROOT = Path(__file__).resolve().parents[2]


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_strength_counts_both_seatings_on_the_same_deals(tmp_path):
    mod = load("bombastic_strength")
    mod.run("heuristic", "random", 6, 11, tmp_path, None)
    s = mod.summarize(tmp_path)
    assert s["deals_done_both_seatings"] == 6
    ax = mod.load_study(tmp_path / "a_x")
    ao = mod.load_study(tmp_path / "a_o")
    assert ax["seed"].tolist() == ao["seed"].tolist()  # the same deals
    # Replay every game by hand: A (heuristic) as X, then as O.
    wins_x = wins_o = 0
    for seed in ax["seed"]:
        wins_x += play_game(make_agent("heuristic"), make_agent("random"), int(seed)).winner == 0
        wins_o += play_game(make_agent("random"), make_agent("heuristic"), int(seed)).winner == 1
    t = s["table"].set_index("seating")
    assert t.loc["A as X (moves first)", "a_wins"] == wins_x
    assert t.loc["A as O", "a_wins"] == wins_o
    assert t.loc["both seatings", "a_wins"] == wins_x + wins_o
    assert t.loc["both seatings", "games"] == 12
    assert "| both seatings | 12 |" in mod.readme_block(s, None)


def test_paired_decks_difference_is_over_the_same_cases(tmp_path):
    mod = load("bombastic_paired_decks")
    decks = ["base deck", "without ALARM"]
    mod.run("heuristic", decks, 30, 5, tmp_path)
    table, meta = mod.summarize(tmp_path, decks)
    base = mod.load_study(tmp_path / "base_deck")
    other = mod.load_study(tmp_path / "without_ALARM")
    assert base["seed"].tolist() == other["seed"].tolist()
    diff = ((other["winner"] == 0).astype(float) - (base["winner"] == 0).astype(float)).mean()
    row = table.set_index("deck").loc["without ALARM"]
    assert row["paired_games"] == 30
    assert row["diff_vs_base"] == pytest.approx(diff)
    assert row["diff_lo"] <= diff <= row["diff_hi"]
    # The same tiles per case in both decks (the setup shuffles the tiles first).
    from solvers.bombastic.rules import State

    for seed in base["seed"][:5]:
        a = State.new(int(seed), Options()).tiles
        b = State.new(int(seed), Options(alarms=False)).tiles
        assert a == b


@pytest.mark.parametrize(
    "script, block, reader",
    [
        ("bombastic_strength", "bombastic-strength", "strength"),
        ("bombastic_paired_decks", "bombastic-paired-decks", "paired"),
    ],
)
def test_readme_blocks_are_the_scripts_output_on_the_committed_results(script, block, reader):
    mod = load(script)
    if reader == "strength":
        out = ROOT / "results" / "bombastic" / "strength"
        s = mod.summarize(out)
        timing = (out / "timing.json").read_text() if (out / "timing.json").exists() else None
        import json

        body = mod.readme_block(s, json.loads(timing) if timing else None)
    else:
        out = ROOT / "results" / "bombastic" / "paired"
        decks = sorted(
            (p.name.replace("_", " ") for p in out.iterdir() if p.is_dir()),
            key=lambda d: [n for n, _ in mod.card_variants()].index(d),
        )
        body = mod.readme_block(*mod.summarize(out, decks))
    readme = (ROOT / "README.md").read_text()
    m = re.search(
        rf"<!-- generated:{block} sha=\w+ -->\n.*?<!-- /generated:{block} -->", readme, re.S
    )
    assert m, f"README has no {block} block"
    assert m.group(0) == render_block(block, body)

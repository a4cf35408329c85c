"""Every Bombastic reference chart's caption against the study's manifests.

The expected words (rules and their options, agents, games per seating, seeds, the
kernel's and the card study's N, the deck agent) are read here from manifest.json and
the runner manifests under runs/, not from the code that writes the caption.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from tests.common.svg import svg_text

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

CHARTS = ("first_player", "card_values", "game_length", "ladder")


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("bombastic") / "ref"
    args = ["bombastic", "study", "--out", str(out), "--games", "3", "--card-games", "2",
            "--kernel-games", "300", "--agents", "random,greedy", "--seed", "7",
            "--workers", "1"]  # fmt: skip
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    return out


def _runs(out: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted((out / "runs").rglob("manifest.json"))]


def test_every_chart_names_the_rules_agents_seeds_and_n(study):
    m = json.loads((study / "manifest.json").read_text())
    opts = m["options"]
    for stem in CHARTS:
        text = svg_text(study / f"{stem}.svg")
        assert text.count("Bombastic, ") >= 1, stem
        text = text[text.index("Bombastic, ") :]
        # the rulebook, rules and options
        assert f"rules: {m['rulebook']};" in text, stem
        assert f"shuffle by {opts.get('shuffle', 'chance')}" in text, stem
        assert f"second swap '{opts['second_swap']}'" in text, stem
        assert f"turn cap {opts['turn_cap']}" in text, stem
        assert ("deck order remembered" in text) == opts["deck_known"], stem
        assert ("no promos" in text) == (not opts["promos"]), stem
        # agents, seeds and N of each part
        assert f"Agents: {', '.join(m['agents'])}." in text, stem
        assert f"{m['games_per_seating']} games per seating, seed {m['seed']}" in text, stem
        assert f"kernel: {m['kernel_games']} random games" in text, stem
        card = f"{m['card_agent']} vs {m['card_agent']}, {m['card_games_per_variant']} games"
        assert card in text and f"SeedSequence({m['seed']})" in text, stem
        # the commits that played the games, as the runner manifests record them
        played = {r["git_commit"][:12] for run in _runs(study) for r in run["runs"]
                  if r["chunks_computed"]}  # fmt: skip
        assert played and all(c in text for c in played), stem


def test_every_chart_writes_the_numbers_it_draws_beside_it(study):
    import pandas as pd

    for stem in CHARTS:
        data = pd.read_csv(study / f"{stem}.csv")
        assert len(data) > 0, stem
    # first_player.csv is both the study's table and the chart's data: one row a bar
    first = pd.read_csv(study / "first_player.csv")
    m = json.loads((study / "manifest.json").read_text())
    k = len(m["agents"])
    assert len(first) == k * (k + 1) // 2 + 1  # every unordered pairing, and the kernel
    ladder = pd.read_csv(study / "ladder.csv")
    assert list(ladder["agent"]) == list(pd.read_csv(study / "ratings.csv")["agent"])
    # game length: one small panel per agent against itself, its shares summing to 100
    lengths = pd.read_csv(study / "game_length.csv")
    panels = lengths[lengths["panel"] == "game length"]
    assert sorted(panels["agent"].unique()) == sorted(m["agents"])
    for _, g in panels.groupby("agent"):
        assert abs(g["share_pct"].sum() - 100) < 0.01  # written to 6 significant digits
        assert g["games"].nunique() == 1 and g["games"].iloc[0] == m["games_per_seating"]


def test_charts_redraw_from_the_tables_alone(study, tmp_path):
    """--charts-only: the same captions from the tables and manifests, no game replayed."""
    import shutil

    from bombsolve.solvers.bombastic.study import draw_reference_charts

    copy = tmp_path / "ref"
    shutil.copytree(study, copy)
    for stem in CHARTS:
        (copy / f"{stem}.svg").unlink()
    assert draw_reference_charts(copy) == list(CHARTS)
    for stem in CHARTS:
        before = svg_text(study / f"{stem}.svg")
        after = svg_text(copy / f"{stem}.svg")
        assert before[before.index("Bombastic, ") :] == after[after.index("Bombastic, ") :]


def test_every_part_is_rooted_at_the_seed_the_caption_names(study):
    from bombsolve.solvers.bombastic.study import card_variant_seed

    m = json.loads((study / "manifest.json").read_text())
    seed, agents = m["seed"], m["agents"]
    pairs = [json.loads(p.read_text())["identity"]
             for p in sorted((study / "runs" / "tournament").rglob("manifest.json"))]  # fmt: skip
    roots = {
        seed * 1000 + i * len(agents) + j for i in range(len(agents)) for j in range(len(agents))
    }
    assert len(pairs) == len(agents) ** 2
    assert {p["seed"] for p in pairs} == roots
    assert {p["n_cases"] for p in pairs} == {m["games_per_seating"]}
    kernel = json.loads((study / "runs" / "kernel_random" / "manifest.json").read_text())
    assert kernel["identity"]["seed"] == seed
    assert kernel["identity"]["n_cases"] == m["kernel_games"]
    decks = [json.loads(p.read_text())["identity"]
             for p in sorted((study / "runs" / "cards").rglob("manifest.json"))]  # fmt: skip
    assert {d["seed"] for d in decks} == {card_variant_seed(seed, i) for i in range(len(decks))}
    assert {d["n_cases"] for d in decks} == {m["card_games_per_variant"]}
    assert {(d["params"]["x"], d["params"]["o"]) for d in decks} == {(m["card_agent"],) * 2}
    # the ladder's dots carry bootstrap intervals and the caption says so
    assert "ratings with bootstrap 95% intervals" in svg_text(study / "ladder.svg")

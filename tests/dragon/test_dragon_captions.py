"""Every Bomb the Dragon chart's caption against the manifests of the studies it draws.

A caption must name the rules and options, the cards (file and hash), the strategies,
player counts, seeds and N that made the figure, and nothing it did not draw. The
expected words are read here from the runner manifests themselves, not from the code
that writes the captions.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.dragon import study as st
from tests.common.svg import svg_text

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"


def _manifests(folder: Path) -> list[dict]:
    paths = sorted(folder.rglob("manifest.json")) or sorted(folder.glob("*.json"))
    return [json.loads(p.read_text()) for p in paths]


def _segment(text: str, name: str, end: str) -> set[str]:
    """The comma-separated items of ``name: ...;`` in a caption."""
    m = re.search(rf"{name}: (.*?); {end}", text)
    assert m, f"no '{name}:' in {text!r}"
    return {w.strip() for w in m.group(1).split(",")}


def check_caption(svg: Path, manifests: list[dict]) -> str:
    """Assert that the chart's caption says what `manifests` record; return its text."""
    assert manifests, svg
    start = "Bomb the Dragon (Dragon Bomb), rules: shared/rules/bomb-the-dragon.txt"
    text = svg_text(svg)
    assert start in text, svg.name
    text = text[text.index(start) :]  # the caption, not the legends or titles above it
    idents = [m["identity"] for m in manifests]
    for ident in idents:
        assert (ident["params"]["options"] or "default rules") in text, svg.name
        for name, digest in ident["input_files"].items():
            assert f"{name} (sha256 {digest[:12]})" in text, svg.name
        assert f"{ident['n_cases']:,} games" in text, svg.name
    drawn = {s for i in idents for s in i["params"]["strategies"]}
    named = {w.split(" (")[0] for w in _segment(text, "strategies", "players")}
    assert named == drawn, (svg.name, named, drawn)
    players = {str(i["params"]["players"]) for i in idents}
    assert _segment(text, "players", "seed") == players, svg.name
    seeds = {i["seed"] for i in idents}
    assert len(seeds) == 1 and f"seed {seeds.pop()}" in text, svg.name
    cells = sum(int(n) for n in re.findall(r"in each of (\d+) cells?", text))
    assert cells == len(idents), (svg.name, cells, len(idents))
    for m in manifests:
        assert m["git_commit"][:12] in text or any(
            r.get("git_commit", "")[:12] in text for r in m["runs"]
        ), svg.name
    return text


def _select(manifests: list[dict], study: str, **params) -> list[dict]:
    return [
        m
        for m in manifests
        if m["identity"]["study"] == study
        and all(m["identity"]["params"][k] == v for k, v in params.items())
    ]


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("dragon-ref")
    sizes = {"seats_games": 40, "ladder_games": 30, "mc_games": 4, "readings_games": 20}
    st.build_reference(root / "out", root / "work", seed=3, sizes=sizes)
    return root / "out"


def test_every_reference_chart_names_the_studies_it_draws(reference):
    ms = _manifests(reference / "manifests")
    seats = _select(ms, "dragon.seats")
    expect = {
        "seats": seats,
        "lengths": seats,
        "scores": seats,
        "cards": seats,
        "specials": [m for m in seats if set(m["identity"]["params"]["strategies"]) == {"random"}],
        "ladder": _select(ms, "dragon.ladder"),
        "readings": _select(ms, "dragon.readings"),
    }
    for stem, drawn in expect.items():
        check_caption(reference / f"{stem}.svg", drawn)
    ladder = svg_text(reference / "ladder.svg")
    # montecarlo cells play fewer games, and the caption says which cells those are
    assert "30 games in each of" in ladder and "4 games in each of" in ladder
    assert "(those with montecarlo)" in ladder
    assert "greedy" not in _segment(svg_text(reference / "specials.svg"), "strategies", "players")


def test_the_reference_charts_redraw_from_the_committed_files_alone(reference, tmp_path):
    keep = tmp_path / "kept"
    shutil.copytree(reference, keep)
    before = {p.name: svg_text(p) for p in keep.glob("*.svg")}
    for p in keep.glob("*.svg"):
        p.unlink()
    st.draw_reference_charts(keep)
    assert {p.name: svg_text(p) for p in keep.glob("*.svg")} == before


def test_ladder_cells_show_rate_interval_and_n_and_grey_the_thin_ones(reference):
    text = svg_text(reference / "ladder.svg")
    import pandas as pd

    ladder = pd.read_csv(reference / "ladder.csv")
    thick = ladder[ladder["games"] >= 30].iloc[0]
    assert f"±{50 * (thick['hi'] - thick['lo']):.1f}" in text and "N=30" in text
    # the 4-game montecarlo cells are too few to colour: their N is printed, not a rate
    assert "N=4 (too few)" in text
    assert "grey: N < 30" in text


def run(*args: str):
    return CliRunner().invoke(cli, ["dragon", *args])


def test_study_command_captions_name_only_this_run(tmp_path):
    out = tmp_path / "seats"
    common = ["-s", "random,greedy", "-n", "40", "--seed", "9", "--out", str(out)]
    r = run("study", "seats", "-p", "3,4", *common, "--workers", "1")
    assert r.exit_code == 0, r.output
    r = run("study", "seats", "-p", "3", *common, "--workers", "1")
    assert r.exit_code == 0, r.output
    ms = [m for m in _manifests(out / "runs") if m["identity"]["params"]["players"] == 3]
    for stem in ("seats", "lengths", "scores", "cards"):
        text = check_caption(out / f"{stem}.svg", ms)
        assert _segment(text, "players", "seed") == {"3"}  # not the 4 of the earlier run
    check_caption(
        out / "specials.svg",
        [m for m in ms if m["identity"]["params"]["strategies"][0] == "random"],
    )
    lad = tmp_path / "ladder"
    r = run("study", "ladder", "-p", "2", "-s", "greedy,random", "-n", "30", "--seed", "9",
            "--rules", "double_when=under", "--out", str(lad), "--workers", "1")  # fmt: skip
    assert r.exit_code == 0, r.output
    text = check_caption(lad / "ladder.svg", _manifests(lad / "runs"))
    assert "double_when=under" in text and "default rules" not in text


def test_preset_charts_name_both_rules_and_redraw(tmp_path):
    from bombsolve.solvers.dragon.preset_study import build_preset_study, draw_preset_charts

    sizes = {"seats_games": 20, "ladder_games": 10, "mc_games": 2}
    build_preset_study(tmp_path / "out", tmp_path / "work", seed=4, sizes=sizes)
    ms = _select(_manifests(tmp_path / "out" / "manifests"), "dragon.seats")
    under = [m for m in ms if m["identity"]["params"]["options"]]
    assert under and len(under) < len(ms)
    seats = check_caption(tmp_path / "out" / "seats.svg", under)
    assert "default rules" not in seats and "preset gamepark" in seats
    paired = check_caption(tmp_path / "out" / "paired.svg", ms)
    assert "default rules" in paired
    before = svg_text(tmp_path / "out" / "paired.svg")
    (tmp_path / "out" / "paired.svg").unlink()
    draw_preset_charts(tmp_path / "out", "gamepark")
    assert svg_text(tmp_path / "out" / "paired.svg") == before


def test_cards_chart_draws_every_player_count_with_its_n_and_intervals(reference):
    text = svg_text(reference / "cards.svg")
    for p in (2, 3, 4, 5, 6):
        assert f"{p} players, N=40 games" in text
    assert "bars: 95% interval, games as observations" in text
    cards = pd.read_csv(reference / "cards.csv")
    assert (cards["ppp_lo"] <= cards["points_per_play"]).all()
    assert (cards["points_per_play"] <= cards["ppp_hi"]).all()
    assert (cards["ppp_hi"] > cards["ppp_lo"]).any()


def test_card_table_interval_is_the_mean_interval_when_each_game_has_one_play():
    import numpy as np

    pts = np.array([0, 3, 1, 4, 2, 0, 5, 1], dtype=float)
    df = pd.DataFrame(
        {
            **{f"plays_{k}": np.ones(len(pts), int) for k in st.KINDS},
            **{f"pts_{k}": pts.astype(int) for k in st.KINDS},
            **{f"takes_{k}": np.ones(len(pts), int) for k in st.KINDS},
        }
    )
    row = st.card_table(df).iloc[0]
    half = 1.96 * pts.std(ddof=1) / np.sqrt(len(pts))
    assert row["games"] == len(pts)
    assert row["points_per_play"] == pytest.approx(pts.mean())
    assert row["ppp_lo"] == pytest.approx(pts.mean() - half)
    assert row["ppp_hi"] == pytest.approx(pts.mean() + half)

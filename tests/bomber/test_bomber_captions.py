"""Every Catch the Bomber chart's caption against the manifests of the studies it draws.

The expected words (rulebook, rule readings of every row, agents, N, seeds, commits) are
read here from the runner manifests, not from the code that writes the captions.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from tests.common.svg import svg_text

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

ROOT = Path(__file__).resolve().parents[2]
CHARTS = ("outcomes", "achievements", "bomber_rate")


def _manifests(part_dir: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(part_dir.glob("*/manifest.json"))]


def check_caption(svg: Path, manifests: list[dict]) -> str:
    """Assert that the chart's caption says what `manifests` record; return its text."""
    text = svg_text(svg)
    start = "Catch the Bomber, rules: shared/rules/catch-the-bomber.txt"
    assert start in text, svg.name
    text = text[text.index(start) :]
    for m in manifests:
        ident = m["identity"]
        conds = ident["params"]["conditions"]
        assert f"--part {ident['params']['part']}, {len(conds)} rows" in text, svg.name
        assert (
            f"agents {ident['params']['agents']}" in text
            and f"N={ident['n_cases']:,} games over {len(conds)} rows, seed {ident['seed']}" in text
        ), svg.name
        for c in conds:
            for key, value in c["rules"].items():
                assert f"{key}={value}" in text, (svg.name, key)
        computed = [
            r.get("git_commit", m["git_commit"])[:12] for r in m["runs"] if r.get("chunks_computed")
        ]
        assert any(c in text for c in computed or [m["git_commit"][:12]]), svg.name
    return text


def _study(out: Path, part: str, agents: str, games: int, seed: int):
    r = CliRunner().invoke(
        cli,
        ["bomber", "study", "--part", part, "--agents", agents, "--games", str(games),
         "--seed", str(seed), "--out", str(out), "--workers", "1"],
    )  # fmt: skip
    assert r.exit_code == 0, r.output


def test_study_charts_name_every_agent_set_they_draw(tmp_path):
    out = tmp_path / "players"
    _study(out, "players", "random", 400, 3)
    for stem in CHARTS:
        text = check_caption(out / f"{stem}.svg", _manifests(out))
        assert "heuristic" not in text
    _study(out, "players", "heuristic", 16, 4)  # joins the folder's charts
    ms = _manifests(out)
    assert len(ms) == 2
    for stem in CHARTS:
        text = check_caption(out / f"{stem}.svg", ms)
        assert "seed 3" in text and "seed 4" in text


def test_readings_captions_name_the_reading_of_every_row(tmp_path):
    out = tmp_path / "readings"
    _study(out, "readings", "random", 500, 2)
    (m,) = _manifests(out)
    flipped = {c["label"] for c in m["identity"]["params"]["conditions"]} - {"default"}
    for stem in CHARTS:
        text = check_caption(out / f"{stem}.svg", [m])
        for label in flipped:
            assert f"{label}: {label.replace('false', 'False')}" in text, label


def test_redraw_rewrites_charts_from_the_committed_chunks_alone(tmp_path):
    out = tmp_path / "bomber"
    for part in ("players", "extras", "readings"):
        shutil.copytree(ROOT / "results" / "bomber" / part, out / part)
    for svg in out.glob("*/*.svg"):
        svg.unlink()
    tables = {p.relative_to(out): p.read_bytes() for p in out.glob("*/*.csv")}
    script = ROOT / "scripts" / "results" / "bomber_results.py"
    r = subprocess.run(
        [sys.executable, str(script), "--redraw", "--out", str(out), "--readme", ""],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    # the same tables, and every chart again, captioned from the committed manifests
    assert {p.relative_to(out): p.read_bytes() for p in out.glob("*/*.csv")} == tables
    for part in ("players", "extras", "readings"):
        for stem in CHARTS:
            check_caption(out / part / f"{stem}.svg", _manifests(out / part))

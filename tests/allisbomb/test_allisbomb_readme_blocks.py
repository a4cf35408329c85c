"""The README's All Is Bomb results blocks are the scripts' output on the committed results."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from solvers.common.readme import render_block

ROOT = Path(__file__).resolve().parents[2]
V2 = ROOT / "results" / "allisbomb" / "standin-v2"


def _script(name: str):
    path = ROOT / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_readme_players_block_is_the_default_sets_committed_table():
    mod = _script("allisbomb_players")
    summary = json.loads((V2 / "players.json").read_text())
    assert summary["cards_version"] == "standin-v2"
    body = mod.readme_body(summary)
    assert (V2 / "players.md").read_text() == body
    assert render_block("allisbomb-players", body) in (ROOT / "README.md").read_text()

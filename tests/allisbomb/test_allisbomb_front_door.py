"""solvers/allisbomb/__init__.py is the game's front door (DESIGN.md, "Shape"): every name of
`__all__` resolves, importing the package loads no room, and the command line and scripts
import All Is Bomb through the door only (the tests under tests/allisbomb/, the game's
white-box tests, may open the rooms)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import bombsolve.solvers.allisbomb as door

ROOT = Path(__file__).resolve().parents[2]
ROOMS = ("cards", "rules", "kernel", "search", "studies")


def test_every_public_name_resolves():
    for name in door.__all__:
        assert getattr(door, name) is not None, name
    assert not set(door.__all__) & set(ROOMS), "a public name would hide a room"


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'solve_everything'"):
        door.solve_everything  # noqa: B018


def test_importing_the_door_loads_no_room():
    code = (
        "import sys, bombsolve.solvers.allisbomb as a\n"
        "print(sorted(m for m in sys.modules if m.startswith('bombsolve.solvers.allisbomb.')))\n"
        "a.new_game\n"
        "print('bombsolve.solvers.allisbomb.rules.rules' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out == ["[]", "True"]


def _outside_files() -> list[Path]:
    files = [*ROOT.glob("cli/*.py"), *ROOT.glob("scripts/*.py"), *ROOT.glob("tests/**/*.py")]
    return [
        f
        for f in files
        if "tests/allisbomb" not in f.as_posix()
        # the kernels' warm-up list is to move into the game (solvers/allisbomb/warmup.py)
        and f != ROOT / "cli" / "warmup.py"
    ]


def test_the_command_line_and_scripts_use_the_door_only():
    wrong = []
    for f in _outside_files():
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "bombsolve.solvers.allisbomb"
            ):
                if node.module != "bombsolve.solvers.allisbomb":
                    wrong.append(f"{f.relative_to(ROOT)}:{node.lineno} {node.module}")
                else:
                    wrong += [
                        f"{f.relative_to(ROOT)}:{node.lineno} {a.name} is not in __all__"
                        for a in node.names
                        if a.name not in door.__all__
                    ]
            elif isinstance(node, ast.Import):
                wrong += [
                    f"{f.relative_to(ROOT)}:{node.lineno} import {a.name}"
                    for a in node.names
                    if a.name.startswith("bombsolve.solvers.allisbomb.")
                ]
    assert not wrong, "past the front door: " + "; ".join(wrong)


def test_the_door_shows_what_the_room_holds_now(monkeypatch):
    from bombsolve.solvers.allisbomb.studies import study

    monkeypatch.setattr(study, "sweep_chunk", "patched")
    assert door.sweep_chunk == "patched"

"""What `pip install` ships: every package folder under solvers/ and cli/ is listed in
pyproject.toml under its installed name, bombsolve.<folder> (a folder left out would be
missing from an installed bombsolve, though a checkout's tests would still find it)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_folder_is_installed_under_bombsolve():
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setup["package-dir"] == {"bombsolve.solvers": "solvers", "bombsolve.cli": "cli"}
    folders = {
        "bombsolve." + ".".join(p.parent.relative_to(ROOT).parts)
        for top in ("solvers", "cli")
        for p in (ROOT / top).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix in (".py", ".toml", ".md")
    }
    assert folders <= set(setup["packages"]), sorted(folders - set(setup["packages"]))
    assert "solvers" not in setup["packages"] and "cli" not in setup["packages"]


def test_the_console_script_is_the_installed_cli():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["scripts"] == {"bombsolve": "bombsolve.cli.main:cli"}

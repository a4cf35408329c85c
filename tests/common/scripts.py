"""Load a file of `scripts/` as a module (the scripts are not a package), for their tests.

The scripts live in two rooms: `scripts/results/` (the commands that regenerate what
results/ holds) and `scripts/bench/` (the benchmarks and kernel measurements people rerun).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
ROOMS = ("results", "bench")


def script_path(name: str) -> Path:
    """The file of script NAME, in whichever room holds it."""
    for room in ROOMS:
        path = ROOT / "scripts" / room / f"{name}.py"
        if path.is_file():
            return path
    raise FileNotFoundError(f"no script {name}.py in scripts/{{{','.join(ROOMS)}}}/")


def load_script(name: str) -> ModuleType:
    """`scripts/ROOM/NAME.py`, imported afresh (with its room importable while it loads, for
    a script that imports another)."""
    path = script_path(name)
    folder = str(path.parent)
    sys.path.insert(0, folder)
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(folder)
    return mod

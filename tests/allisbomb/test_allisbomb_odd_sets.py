"""The kernel against the reference on small and odd card sets (3 to 7 cards, random steps),
in this process and in a subprocess with NUMBA_BOUNDSCHECK=1, where any read or write outside
the kernel's arrays raises IndexError instead of going unseen (rulebook B: the setup EQUIPS 3
cards, so 3 is the smallest game; odd_sets.py builds the files)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.allisbomb.odd_sets import differential

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

ROOT = Path(__file__).resolve().parents[2]


def test_kernel_matches_reference_on_small_odd_sets(tmp_path):
    assert differential(tmp_path) == []
    assert len(list(tmp_path.glob("odd*.toml"))) == 12


def test_kernel_stays_inside_its_arrays_under_boundscheck(tmp_path):
    """A fresh Numba cache, so every kernel function is compiled with bounds checks."""
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    out = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "allisbomb" / "odd_sets.py"), str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "ok 12", out.stdout

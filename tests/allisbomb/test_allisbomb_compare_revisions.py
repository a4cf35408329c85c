"""scripts/bench/compare_allisbomb_kernels.py loads an old revision's kernel with the tables its
own code builds: the copy-keys table for a revision that has copy keys (b0f6bf9, the main
branch before the `next` step), none for one from before them (5da6b90). Nothing is
compiled here (the modules are imported, their plain-Python table builders run); the
script itself times the kernels."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.search.solver import compiled
from tests.common.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "bench" / "compare_allisbomb_kernels.py"


def _have(rev: str) -> bool:
    got = subprocess.run(["git", "cat-file", "-e", f"{rev}^{{commit}}"], cwd=ROOT)
    return got.returncode == 0


@pytest.mark.parametrize("rev, copies", [("b0f6bf9", True), ("5da6b90", False)])
def test_an_old_revision_gets_the_tables_its_kernel_reads(rev, copies):
    if not _have(rev):
        pytest.skip(f"revision {rev} is not in this clone")  # (a shallow clone)
    script = load_script("compare_allisbomb_kernels")
    mods = script.load_revision(rev)
    assert ("copies" in mods) == copies
    cfg = Options()
    prog = compiled(cfg).prog
    width = mods["step_width"]
    steps = np.ascontiguousarray(prog.steps[:, :width])
    info = script.revision_info(mods, load_cards(cfg), steps)
    if copies:
        # the copy-keys table its kernel reads (at info[-1]) is this tree's, at its own place
        assert info[-1] != 0
        assert np.array_equal(info[info[-1] : -1], prog.info[prog.info[-1] : -1])
    else:
        assert width == 13 and len(info) < len(prog.info)
    assert "solve_many" in vars(mods["kernel"])

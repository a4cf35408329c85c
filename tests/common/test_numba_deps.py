"""bombsolve.solvers.common.numba_deps: every cached Numba module's digest of its dependencies."""

from __future__ import annotations

from pathlib import Path

import pytest

from bombsolve.solvers.common import numba_deps as nd


def test_every_kernel_digest_is_current():
    """A dependency changed without its kernel's digest: Numba's cache of that kernel would
    keep the old code. Fix: python -m bombsolve.solvers.common.numba_deps"""
    files = nd.kernel_files()
    assert len(files) >= 7
    stale = [str(p.relative_to(nd.ROOT)) for p in files if nd.declared(p) != nd.digest(p)]
    assert not stale, (
        f"out-of-date NUMBA_DEPENDS_ON in {stale}: run python -m bombsolve.solvers.common.numba_deps"
    )


def test_dependencies_are_followed_transitively():
    root = nd.ROOT / "solvers"
    kernel = root / "allisbomb" / "kernel" / "kernel.py"
    room = root / "allisbomb" / "kernel"
    assert {room / "prune.py", room / "layout.py"} <= set(nd.dependencies(kernel))
    # bombastic's kernel does not import the RNG module itself; its rules do
    bk = root / "bombastic" / "kernel.py"
    rng = root / "common" / "rng.py"
    assert rng not in nd._imports(bk)
    assert rng in nd.dependencies(bk)


def _package(tmp: Path) -> tuple[Path, Path]:
    pkg = tmp / "solvers" / "pkg"
    pkg.mkdir(parents=True)
    (tmp / "solvers" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    dep = pkg / "consts.py"
    dep.write_text("from typing import TYPE_CHECKING\nLIMIT = 3\n")
    kern = pkg / "kern.py"
    kern.write_text(
        "from numba import njit\n"
        "from bombsolve.solvers.pkg.consts import LIMIT\n"
        'NUMBA_DEPENDS_ON = ""\n'
        "@njit(cache=True)\n"
        "def f():\n"
        "    return LIMIT\n"
    )
    return kern, dep


def test_a_changed_constant_changes_the_digest_and_refresh_writes_it(tmp_path, monkeypatch):
    monkeypatch.setattr(nd, "ROOT", tmp_path)
    kern, dep = _package(tmp_path)
    assert nd.kernel_files() == [kern]
    assert nd.dependencies(kern) == [dep]
    first = nd.digest(kern)
    assert nd.refresh() == [kern]
    assert nd.declared(kern) == first
    assert nd.refresh() == []  # up to date: nothing rewritten
    dep.write_text(dep.read_text().replace("LIMIT = 3", "LIMIT = 4"))
    assert nd.digest(kern) != first
    assert nd.refresh() == [kern]
    assert nd.declared(kern) == nd.digest(kern)


def test_a_dependency_own_digest_line_does_not_count(tmp_path, monkeypatch):
    monkeypatch.setattr(nd, "ROOT", tmp_path)
    kern, dep = _package(tmp_path)
    before = nd.digest(kern)
    dep.write_text(dep.read_text() + 'NUMBA_DEPENDS_ON = "0123456789abcdef"\n')
    assert nd.digest(kern) == before


def test_refresh_needs_the_line(tmp_path, monkeypatch):
    monkeypatch.setattr(nd, "ROOT", tmp_path)
    kern, _ = _package(tmp_path)
    kern.write_text(kern.read_text().replace('NUMBA_DEPENDS_ON = ""\n', ""))
    with pytest.raises(SystemExit, match="no NUMBA_DEPENDS_ON line"):
        nd.refresh()

"""Keep Numba's on-disk caches honest about the project files a kernel depends on.

Numba's cache (`@njit(cache=True)`) is invalidated only when the file that defines a
jitted function changes. A compiled function also holds what it took from other files
when it was compiled: the jitted functions it calls (compiled into it) and module-level
constants (frozen into its code). Change one of those files and the cache would go on
running the old copy, silently: after an edit to `allisbomb/kernel/prune.py`, `kernel.dfs` kept
the `dead` it was compiled with.

So every module that compiles with `cache=True` carries the line

    NUMBA_DEPENDS_ON = "<digest>"

a digest of the project files it imports at module level, followed transitively (the
files whose functions and constants its compiled code can hold). A test
(`tests/common/test_numba_deps.py`) fails when a digest is out of date, so a change to a
dependency is also a change to the kernel's own file, which rebuilds its cache. After
editing a dependency, refresh the digests with

    python -m bombsolve.solvers.common.numba_deps
"""

from __future__ import annotations

import ast
import hashlib
import re
import sys
from pathlib import Path

#: The project's root (the folder holding `solvers/`).
ROOT = Path(__file__).resolve().parents[2]
STAMP = re.compile(r'^NUMBA_DEPENDS_ON = "([0-9a-f]*)"$', re.M)
#: The same line with its line break, as `digest` leaves it out.
STAMP_LINE = re.compile(r'^NUMBA_DEPENDS_ON = "[0-9a-f]*"\n?', re.M)


def kernel_files() -> list[Path]:
    """The project modules that compile with Numba's on-disk cache."""
    return sorted(
        p
        for p in (ROOT / "solvers").rglob("*.py")
        if "__pycache__" not in p.parts
        and p != Path(__file__).resolve()
        and "cache=True" in p.read_text()
    )


def _module_file(name: str) -> Path | None:
    """The project file of module `name` (None outside the project)."""
    package, _, rest = name.partition(".")
    if package != "bombsolve" or rest.split(".")[0] != "solvers":
        return None
    base = ROOT.joinpath(*rest.split("."))
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.is_file():
            return p
    return None


def _imports(path: Path) -> set[Path]:
    """Project files imported by the module body of `path` (imports under
    `if TYPE_CHECKING:` and inside functions never run when it is compiled)."""
    out: set[Path] = set()
    for node in ast.parse(path.read_text()).body:
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            f = _module_file(name)
            if f is not None and f != path:
                out.add(f)
    return out


def dependencies(path: Path) -> list[Path]:
    """The project files `path` imports at module level, transitively, without itself."""
    seen: set[Path] = set()
    todo = [path]
    while todo:
        for f in _imports(todo.pop()):
            if f not in seen and f != path:
                seen.add(f)
                todo.append(f)
    return sorted(seen)


def digest(path: Path) -> str:
    """The digest of `path`'s dependencies (their paths and contents; each file's own
    NUMBA_DEPENDS_ON line left out, so that the digests do not depend on one another)."""
    h = hashlib.sha256()
    for f in dependencies(path):
        h.update(f.relative_to(ROOT).as_posix().encode() + b"\0")
        h.update(STAMP_LINE.sub("", f.read_text()).encode() + b"\0")
    return h.hexdigest()[:16]


def declared(path: Path) -> str | None:
    """The digest written in `path` (None if it has no NUMBA_DEPENDS_ON line)."""
    m = STAMP.search(path.read_text())
    return m.group(1) if m else None


def refresh() -> list[Path]:
    """Rewrite every out-of-date NUMBA_DEPENDS_ON line; return the files changed."""
    changed = []
    for path in kernel_files():
        want = digest(path)
        text = path.read_text()
        if STAMP.search(text) is None:
            raise SystemExit(f"{path.relative_to(ROOT)}: no NUMBA_DEPENDS_ON line to refresh")
        new = STAMP.sub(f'NUMBA_DEPENDS_ON = "{want}"', text)
        if new != text:
            path.write_text(new)
            changed.append(path)
    return changed


if __name__ == "__main__":
    for p in refresh():
        print(f"refreshed {p.relative_to(ROOT)}", file=sys.stderr)

"""The import graph of one game package, and the circles in it (STYLE.md: imports run one
way). Every import counts, also one inside a function; imports under `if TYPE_CHECKING:`
(for type hints only) do not."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

SOLVERS = Path(__file__).resolve().parents[2] / "solvers"


def _nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node under `tree`, leaving out the body of `if TYPE_CHECKING:` blocks."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            yield from (n for b in node.orelse for n in [b, *_nodes(b)])
            continue
        yield node
        yield from _nodes(node)


def _imported(source: str, package: str) -> set[str]:
    """Every dotted name under `bombsolve.solvers.<package>` that `source` imports, the package's own
    prefix left off: `from bombsolve.solvers.<package>.a.b import c` gives a.b and a.b.c (c may be a
    module or a name in a.b), `from bombsolve.solvers.<package> import x` gives x, and
    `import bombsolve.solvers.<package>.a.b` gives a.b."""
    full = f"bombsolve.solvers.{package}"
    names: set[str] = set()
    for node in _nodes(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == full:
                names |= {a.name for a in node.names}
            elif node.module.startswith(full + "."):
                rest = node.module[len(full) + 1 :]
                names |= {rest} | {f"{rest}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            names |= {a.name[len(full) + 1 :] for a in node.names if a.name.startswith(full + ".")}
    return names


def module_imports(source: str, package: str) -> set[str]:
    """Name the modules of `bombsolve.solvers.<package>` that `source` imports (by their short names;
    in a package of sub-packages, the sub-package).

    `from bombsolve.solvers.<package> import x` counts x (a module or a name re-exported by the
    package's `__init__`; the caller keeps only modules), `from bombsolve.solvers.<package>.x import y`
    and `import bombsolve.solvers.<package>.x` count x.
    """
    return {name.split(".")[0] for name in _imported(source, package)}


def _module_name(path: Path, root: Path) -> str:
    """The dotted name of `path` under `root` (a sub-package by its folder's name)."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if len(parts) > 1 and parts[-1] == "__init__" else parts)


def import_graph(package: str) -> dict[str, set[str]]:
    """Map each module of `solvers/<package>/` to the package's modules it imports.

    A module in a sub-package (a room) goes by its dotted name under the package
    (`rules.positions`), the sub-package's `__init__` by the room's name (`rules`)."""
    root = SOLVERS / package
    files = sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)
    if not files:
        raise FileNotFoundError(f"no modules in {root}")
    names = {_module_name(p, root) for p in files}
    graph = {}
    for p in files:
        me = _module_name(p, root)
        graph[me] = (_imported(p.read_text(), package) & names) - {me}
    return graph


def find_circle(graph: Mapping[str, set[str]]) -> list[str] | None:
    """Return one import circle as a path that starts and ends at the same module, or None.

    Depth-first search in sorted order, so the circle reported is the same on every run.
    """
    state: dict[str, int] = {}  # 1 = on the current path, 2 = finished without a circle

    def visit(m: str, line: list[str]) -> list[str] | None:
        if state.get(m) == 1:
            return [*line[line.index(m) :], m]
        if state.get(m) == 2 or m not in graph:
            return None
        state[m] = 1
        for d in sorted(graph[m]):
            found = visit(d, [*line, m])
            if found:
                return found
        state[m] = 2
        return None

    for m in sorted(graph):
        found = visit(m, [])
        if found:
            return found
    return None


def assert_no_circle(package: str) -> None:
    """Raise AssertionError naming the circle if `solvers/<package>` has an import circle."""
    circle = find_circle(import_graph(package))
    assert circle is None, f"import circle in solvers/{package}: " + " -> ".join(circle or [])

"""Imports in solvers/allisbomb run one way (STYLE.md): the card model at the bottom, then the
static analysis and compiled program, the reference engine and the kernel, the searches, the
solver, the studies. Every import counts, also one inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "solvers" / "allisbomb"


def _nodes(tree: ast.AST):
    """Every node, leaving out `if TYPE_CHECKING:` blocks (imports for type hints only)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            yield from (n for b in node.orelse for n in [b, *_nodes(b)])
            continue
        yield node
        yield from _nodes(node)


def _graph() -> dict[str, set[str]]:
    out = {}
    for path in PKG.glob("*.py"):
        deps = set()
        for node in _nodes(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                mod = node.module
                if mod == "solvers.allisbomb":
                    deps |= {a.name for a in node.names}
                elif mod.startswith("solvers.allisbomb."):
                    deps.add(mod.split(".")[2])
        out[path.stem] = deps - {path.stem}
    return out


def test_no_import_circle():
    graph = _graph()
    state: dict[str, int] = {}

    def visit(m: str, line: list[str]) -> None:
        if state.get(m) == 1:
            raise AssertionError("import circle: " + " -> ".join([*line, m]))
        if state.get(m) == 2 or m not in graph:
            return
        state[m] = 1
        for d in sorted(graph[m]):
            visit(d, [*line, m])
        state[m] = 2

    for m in sorted(graph):
        visit(m, [])


def test_the_card_model_imports_no_engine():
    graph = _graph()
    engine = {"prune", "program", "rules", "search", "kernel", "solver", "study", "campaign"}
    assert not graph["cards"] & engine
    assert not graph["standard"] & (engine | {"cards"})
    assert not graph["prune"] & {"program", "rules", "search", "kernel", "solver", "study"}
    assert not graph["rules"] & {"search", "kernel", "solver", "study", "prune", "program"}

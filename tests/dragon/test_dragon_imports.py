"""Imports in solvers/dragon run one way (STYLE.md): the cards and readings at the bottom,
then the rules, the kernel and the agents, the charts, the studies on top. Every import
counts, also one inside a function."""

from __future__ import annotations

from tests.common.imports import assert_no_circle, import_graph


def test_no_import_circle():
    assert_no_circle("dragon")


def test_the_rules_import_no_agents_or_study():
    graph = import_graph("dragon")
    assert not graph["rules"] & {"agents", "kernel", "study", "preset_study", "charts"}
    assert not graph["cards"]
    assert not graph["charts"]


def test_the_cli_and_the_scripts_come_in_by_the_front_door():
    """cli/, scripts/ and tests outside tests/dragon import Bomb the Dragon only as
    ``from bombsolve.solvers.dragon import NAME``, each NAME one the front door exports."""
    import ast
    from pathlib import Path

    import bombsolve.solvers.dragon as door

    root = Path(__file__).resolve().parents[2]
    files = [*root.glob("cli/*.py"), *root.rglob("scripts/**/*.py")]
    files += [p for p in root.glob("tests/**/*.py") if "dragon" not in p.parts]
    seen = 0
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "bombsolve.solvers.dragon"
            ):
                assert node.module == "bombsolve.solvers.dragon", (
                    f"{path}: from {node.module} import"
                )
                names = [a.name for a in node.names]
                assert set(names) <= set(door.__all__), f"{path}: {names}"
                seen += 1
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("bombsolve.solvers.dragon") for a in node.names), (
                    path
                )
    assert seen >= 10

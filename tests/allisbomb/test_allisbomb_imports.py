"""Imports in solvers/allisbomb run one way (STYLE.md): the card model at the bottom, then the
static analysis and compiled program, the reference engine and the kernel, the searches, the
solver, the studies. Every import counts, also one inside a function."""

from __future__ import annotations

from tests.common.imports import assert_no_circle, import_graph


def test_no_import_circle():
    assert_no_circle("allisbomb")


def test_the_card_model_imports_no_engine():
    graph = import_graph("allisbomb")
    engine = {"prune", "program", "rules", "search", "kernel", "solver", "study", "campaign"}
    assert not graph["cards"] & engine
    assert not graph["standard"] & (engine | {"cards"})
    assert not graph["prune"] & {"program", "rules", "search", "kernel", "solver", "study"}
    assert not graph["rules"] & {"search", "kernel", "solver", "study", "prune", "program"}

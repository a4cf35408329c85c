"""The import-circle finder of tests/common/imports.py finds circles and only circles."""

from __future__ import annotations

from tests.common.imports import find_circle, module_imports


def test_finds_a_circle_and_names_it_from_its_start():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"b"}, "d": set()}
    assert find_circle(graph) == ["b", "c", "b"]


def test_a_graph_that_runs_one_way_has_no_circle():
    assert find_circle({"a": {"b", "c"}, "b": {"c"}, "c": set(), "x": {"outside"}}) is None


def test_every_import_form_counts_but_type_hints_only_do_not():
    source = """
from typing import TYPE_CHECKING
from bombsolve.solvers.pkg import rules
from bombsolve.solvers.pkg.kernel import run
import bombsolve.solvers.pkg.study
from bombsolve.solvers.other import agents
if TYPE_CHECKING:
    from bombsolve.solvers.pkg.charts import Figure
def later():
    from bombsolve.solvers.pkg.tiles import LINES
"""
    assert module_imports(source, "pkg") == {"rules", "kernel", "study", "tiles"}

"""Imports in solvers/bombastic run one way (STYLE.md): the tiles at the bottom, then the
rules and the beliefs, the kernels, the agents, the replay and the study on top. Every
import counts, also one inside a function."""

from __future__ import annotations

from tests.common.imports import assert_no_circle, import_graph


def test_no_import_circle():
    assert_no_circle("bombastic")


def test_the_rules_and_beliefs_import_no_agents_or_study():
    graph = import_graph("bombastic")
    assert not graph["tiles"]
    assert graph["rules"] <= {"tiles"}
    assert not graph["beliefs"] & {"agents", "kernel", "search_kernel", "study", "replay"}
    assert not graph["charts"]

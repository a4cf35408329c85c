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

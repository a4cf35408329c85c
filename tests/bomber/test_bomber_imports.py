"""Imports in solvers/bomber run one way (STYLE.md): the rules at the bottom, then the kernel
and the agents, the chart words and charts, the study on top. Every import counts, also one
inside a function."""

from __future__ import annotations

from tests.common.imports import assert_no_circle, import_graph


def test_no_import_circle():
    assert_no_circle("bomber")


def test_the_rules_import_no_other_room():
    graph = import_graph("bomber")
    assert not graph["rules"]
    assert not graph["charts"] & {"study", "agents", "kernel"}


def test_the_chart_words_are_the_rulebook_outcome_names():
    from bombsolve.solvers.bomber.charts import OUTCOME_KEYS, OUTCOME_LABELS
    from bombsolve.solvers.bomber.rules import OUTCOME_NAMES, Outcome

    assert [OUTCOME_LABELS[k] for k in OUTCOME_KEYS] == [OUTCOME_NAMES[o] for o in Outcome]

"""Imports in solvers/allisbomb run one way (STYLE.md; DESIGN.md, "Shape"): the rooms in the
order cards, rules, kernel, search, studies, each importing only the rooms before it; inside
them, the card model at the bottom, then the static analysis and compiled program, the
reference engine and the kernel, the searches, the solver, the studies. Every import counts,
also one inside a function."""

from __future__ import annotations

import ast

from tests.common.imports import SOLVERS, assert_no_circle, import_graph

ROOMS = ("cards", "rules", "kernel", "search", "studies")
#: The front door's own modules, beside its __init__: the contract every game keeps
#: (solvers/common/game.py) and the kernels' warm-up. They stand above the rooms and may
#: import any of them; no room imports them.
FRONT = ("__init__", "game", "warmup")


def test_no_import_circle():
    assert_no_circle("allisbomb")


def test_every_module_lives_in_a_room():
    graph = import_graph("allisbomb")
    loose = [m for m in graph if m not in FRONT and m.split(".")[0] not in ROOMS]
    assert not loose, f"modules outside the rooms {ROOMS}: {loose}"
    assert set(ROOMS) <= set(graph), "every room is a package with an __init__"


def test_a_room_imports_only_the_rooms_before_it():
    graph = import_graph("allisbomb")
    wrong = [
        f"{m} imports {d}"
        for m, deps in sorted(graph.items())
        if m not in FRONT
        for d in sorted(deps)
        if d in FRONT or ROOMS.index(d.split(".")[0]) > ROOMS.index(m.split(".")[0])
    ]
    assert not wrong, "imports against the room order: " + "; ".join(wrong)


def test_each_room_says_what_it_holds_and_what_it_may_import():
    for room in ROOMS:
        init = SOLVERS / "allisbomb" / room / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        assert "Imports:" in doc, f"{init}: no 'Imports:' line in its docstring"
        for module in (SOLVERS / "allisbomb" / room).glob("*.py"):
            if module.stem != "__init__":
                assert f"`{module.stem}`" in doc, f"{init}: its docstring omits {module.stem}"


def test_the_card_model_imports_no_engine():
    graph = import_graph("allisbomb")
    engine = {
        "kernel.prune",
        "kernel.program",
        "rules.rules",
        "search.search",
        "kernel.kernel",
        "search.solver",
        "studies.study",
        "studies.campaign",
    }
    assert not graph["cards.cards"] & engine
    assert not graph["cards.standard"] & (engine | {"cards.cards"})
    assert not graph["kernel.prune"] & (engine - {"kernel.prune"})
    assert not graph["rules.rules"] & (engine - {"rules.rules", "studies.campaign"})

"""The import graph of the whole tree (DESIGN.md, "Shape"; STYLE.md: imports run one way),
read with `ast` from every .py file of solvers/, cli/, scripts/ and tests/ (every import
counts, also one inside a function or under ``if TYPE_CHECKING:``):

(a) imports run one way, cli -> solvers.<game> -> solvers.common: solvers/ never imports
    cli, click or tqdm (solvers never print), and solvers.common never imports a game;
(b) no module of one game imports another game;
(c) cli/ and scripts/ import a game only through its front door: ``import solvers.<game>``
    or ``from solvers.<game> import NAME`` with NAME in the package's ``__all__``, never
    ``solvers.<game>.<module>`` (also as a literal ``importlib.import_module`` name);
(d) tests/ do the same, except that tests/<game>/ may import their own game's modules
    (white-box tests).

Every violation is listed as ``file:line: what``. These tests fail until every game has
its front door (``__all__`` in ``solvers/<game>/__init__.py``) and every caller uses it;
they are meant to fail loudly until then, not to be skipped.

``python3 tests/test_import_graph.py --structure`` prints, per package, its files, lines,
import levels (the depth of its internal import graph: a module that imports nothing of
its package is level 1; modules importing each other in a circle count as one) and
import arrows (module-to-module imports inside the package; type-hint-only imports under
``if TYPE_CHECKING:`` are not arrows).
"""

from __future__ import annotations

import ast
import functools
import importlib
import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOP = ("solvers", "cli", "scripts", "tests")
#: Modules solvers/ must never import: the command line and what draws on a terminal.
NOT_IN_SOLVERS = ("cli", "click", "tqdm")


def games() -> list[str]:
    """The game packages under solvers/ (every package but common)."""
    return _games_in(ROOT)


@functools.cache
def _games_in(root: Path) -> list[str]:
    return sorted(
        p.parent.name for p in (root / "solvers").glob("*/__init__.py") if p.parent.name != "common"
    )


def python_files(top: str) -> list[Path]:
    """Every .py file under `top` (a folder of the repository), recursively, sorted."""
    return sorted(p for p in (ROOT / top).rglob("*.py") if "__pycache__" not in p.parts)


def module_name(path: Path) -> str:
    """The dotted name of a file of the tree (``solvers/common/runner.py`` ->
    ``solvers.common.runner``; a package's ``__init__.py`` is the package)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@dataclass(frozen=True)
class Import:
    """One import in a file: the module named, the names taken from it (``from M import
    a, b``; empty for ``import M`` and for a module name given as a string) and its line."""

    module: str
    names: tuple[str, ...]
    line: int


def _literal_prefix(node: ast.AST) -> str | None:
    """The text a string expression surely starts with (a constant, or the constant head of
    an f-string or a ``+``), or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        return _literal_prefix(node.values[0])
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _literal_prefix(node.left)
    return None


def imports(path: Path, type_hints: bool = True) -> Iterator[Import]:
    """Every import of the file at `path`, relative ones made absolute, and the module
    names given to ``importlib.import_module`` or ``__import__`` as a literal text;
    without those under ``if TYPE_CHECKING:`` unless `type_hints`."""
    found = []
    tree = ast.parse(path.read_text(), filename=str(path))
    hints: set[int] = set()
    if not type_hints:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
                hints |= {id(n) for b in node.body for n in ast.walk(b)}
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in hints:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(alias.name, (), node.lineno))
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, module] if module else base)
            found.append(Import(module, tuple(a.name for a in node.names), node.lineno))
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("import_module", "__import__"):
                text = _literal_prefix(node.args[0])
                if text and _short(text).startswith("solvers."):
                    # Only the complete dotted words of the literal part are known.
                    known = (
                        text if isinstance(node.args[0], ast.Constant) else text.rpartition(".")[0]
                    )
                    if known:
                        found.append(Import(known, (), node.lineno))
    # ast.walk goes breadth first: in line order, the report reads like the file.
    yield from sorted((replace(i, module=_short(i.module)) for i in found), key=lambda i: i.line)


def _short(module: str) -> str:
    """The name of a project module by its folder: installed as ``bombsolve.solvers`` and
    ``bombsolve.cli``, the folders are still solvers/ and cli/ (so the rules read the same
    before and after that renaming)."""
    head, _, rest = module.partition(".")
    return rest if head == "bombsolve" and rest.split(".")[0] in ("solvers", "cli") else module


def front_door_names(game: str) -> set[str]:
    """The names in ``solvers/<game>``'s ``__all__``: read from the package itself (a front
    door loads its rooms on first use only, so this compiles nothing), or, for a package
    that is not importable here (the self-test's trees), from a literal ``__all__``."""
    init = ROOT / "solvers" / game / "__init__.py"
    if init.resolve().parent.parent == (Path(__file__).resolve().parents[1] / "solvers"):
        for name in (f"bombsolve.solvers.{game}", f"solvers.{game}"):
            try:
                return set(importlib.import_module(name).__all__)
            except ModuleNotFoundError:
                continue
            except AttributeError:
                return set()
    tree = ast.parse(init.read_text())
    for node in tree.body:
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign | ast.AugAssign)
            else []
        )
        if any(getattr(t, "id", None) == "__all__" for t in targets) and node.value is not None:
            try:
                return set(ast.literal_eval(node.value))
            except ValueError:
                return set()
    return set()


def _game_of(module: str) -> tuple[str | None, str]:
    """(game, rest) of a module name under solvers: ``solvers.dragon.rules`` -> ("dragon",
    "rules"); (None, "") when it names no game."""
    parts = module.split(".")
    if len(parts) >= 2 and parts[0] == "solvers" and parts[1] in games():
        return parts[1], ".".join(parts[2:])
    return None, ""


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def _front_door_problems(path: Path, imp: Import, doors: dict[str, set[str]]) -> list[str]:
    """What is wrong with `imp` for a file allowed only the games' front doors."""
    module, names = imp.module, imp.names
    if module == "solvers" and names:
        # `from solvers import dragon` is `import solvers.dragon`.
        return []
    game, rest = _game_of(module)
    if game is None:
        return []
    if rest:
        return [f"{_where(path, imp.line)}: imports {module} (not the front door solvers.{game})"]
    wrong = [n for n in names if n not in doors[game]]
    return [
        f"{_where(path, imp.line)}: imports {n} from solvers.{game}, which is not in "
        f"solvers.{game}.__all__"
        for n in wrong
    ]


def one_way_violations() -> list[str]:
    """Rules (a) and (b): what solvers/ imports that it must not."""
    found = []
    for path in python_files("solvers"):
        me = module_name(path)
        my_game, _ = _game_of(me)
        for imp in imports(path):
            top = imp.module.split(".")[0]
            if top in NOT_IN_SOLVERS:
                found.append(
                    f"{_where(path, imp.line)}: imports {imp.module} (solvers/ never does)"
                )
                continue
            targets = [imp.module]
            if imp.module == "solvers":
                targets = [f"solvers.{n}" for n in imp.names]
            for target in targets:
                game, _ = _game_of(target)
                if game is None or game == my_game:
                    continue
                if my_game is None:
                    found.append(
                        f"{_where(path, imp.line)}: imports {target} (solvers.common never "
                        "imports a game)"
                    )
                else:
                    found.append(
                        f"{_where(path, imp.line)}: imports {target} (one game never imports "
                        "another)"
                    )
    return found


def front_door_violations(tops: tuple[str, ...]) -> list[str]:
    """Rules (c) and (d): imports of a game's modules, not its front door, from the files
    under `tops` (tests/<game>/ may import their own game's modules)."""
    doors = {g: front_door_names(g) for g in games()}
    found = []
    for top in tops:
        for path in python_files(top):
            parts = path.relative_to(ROOT).parts
            own = parts[1] if top == "tests" and len(parts) > 2 and parts[1] in doors else None
            for imp in imports(path):
                if own is not None and _game_of(imp.module)[0] == own:
                    continue
                found += _front_door_problems(path, imp, doors)
    return found


def print_violations() -> list[str]:
    """``print(...)`` calls in solvers/ (solvers never print; a module's ``if __name__ ==
    "__main__":`` block, a maintenance command of its own, may)."""
    found = []
    for path in python_files("solvers"):
        tree = ast.parse(path.read_text())
        skip: set[int] = set()
        for node in tree.body:
            if (
                isinstance(node, ast.If)
                and isinstance(node.test, ast.Compare)
                and getattr(node.test.left, "id", "") == "__name__"
            ):
                skip |= {id(n) for n in ast.walk(node)}
        for node in ast.walk(tree):
            if (
                id(node) not in skip
                and isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == "print"
            ):
                found.append(f"{_where(path, node.lineno)}: print(...) (solvers never print)")
    return found


def _report(found: list[str], what: str) -> str:
    return f"{len(found)} {what}:\n" + "\n".join(found)


def test_imports_run_one_way():
    found = one_way_violations()
    assert not found, _report(found, "imports against cli -> solvers.<game> -> solvers.common")


def test_cli_and_scripts_use_only_the_games_front_doors():
    found = front_door_violations(("cli", "scripts"))
    assert not found, _report(found, "imports past a game's front door in cli/ and scripts/")


def test_tests_use_only_the_front_doors_of_other_games():
    found = front_door_violations(("tests",))
    assert not found, _report(found, "imports past a game's front door in tests/")


def test_solvers_never_print():
    found = print_violations()
    assert not found, _report(found, "prints in solvers/")


def test_the_rules_catch_what_they_are_about(tmp_path, monkeypatch):
    """Each rule finds a violation written for it, and the table counts a known package."""
    me = sys.modules[__name__]
    (tmp_path / "solvers" / "common").mkdir(parents=True)
    for game in ("alpha", "beta"):
        (tmp_path / "solvers" / game).mkdir()
        (tmp_path / "solvers" / game / "__init__.py").write_text('__all__ = ["Options"]\n')
    (tmp_path / "solvers" / "__init__.py").write_text("")
    (tmp_path / "solvers" / "common" / "__init__.py").write_text("")
    (tmp_path / "solvers" / "common" / "base.py").write_text("from solvers import alpha\n")
    (tmp_path / "solvers" / "alpha" / "rules.py").write_text("import click\nprint(1)\n")
    (tmp_path / "solvers" / "alpha" / "kernel.py").write_text(
        "from . import rules\nfrom solvers.beta.rules import x\n"
        'if __name__ == "__main__":\n    print(2)\n'
    )
    (tmp_path / "cli").mkdir()
    (tmp_path / "cli" / "a.py").write_text(
        "from solvers.alpha import Options, Secret\nimport solvers.beta\n"
        "import importlib\nimportlib.import_module('solvers.alpha.kernel')\n"
        "from bombsolve.solvers.alpha.rules import q\n"
    )
    (tmp_path / "scripts").mkdir()
    (tmp_path / "tests" / "alpha").mkdir(parents=True)
    (tmp_path / "tests" / "alpha" / "test_a.py").write_text(
        "from solvers.alpha.rules import y\nfrom solvers.beta.rules import z\n"
    )
    monkeypatch.setattr(me, "ROOT", tmp_path)
    assert me.one_way_violations() == [
        "solvers/alpha/kernel.py:2: imports solvers.beta.rules (one game never imports another)",
        "solvers/alpha/rules.py:1: imports click (solvers/ never does)",
        "solvers/common/base.py:1: imports solvers.alpha (solvers.common never imports a game)",
    ]
    assert me.front_door_violations(("cli", "scripts")) == [
        "cli/a.py:1: imports Secret from solvers.alpha, which is not in solvers.alpha.__all__",
        "cli/a.py:4: imports solvers.alpha.kernel (not the front door solvers.alpha)",
        "cli/a.py:5: imports solvers.alpha.rules (not the front door solvers.alpha)",
    ]
    assert me.front_door_violations(("tests",)) == [
        "tests/alpha/test_a.py:2: imports solvers.beta.rules (not the front door solvers.beta)"
    ]
    assert me.print_violations() == ["solvers/alpha/rules.py:2: print(...) (solvers never print)"]
    alpha = me.structure(("solvers/alpha",))["solvers/alpha"]
    assert (alpha.files, alpha.lines, alpha.levels, alpha.arrows) == (3, 7, 2, 1)


# ---- the structure table ------------------------------------------------------------------

#: The packages of the table: each game, the shared code, the CLI, the scripts, the tests.
PACKAGES = (
    "solvers/allisbomb",
    "solvers/bombastic",
    "solvers/dragon",
    "solvers/bomber",
    "solvers/common",
    "cli",
    "scripts",
    "tests",
)


@dataclass(frozen=True)
class Package:
    """Size and shape of one package: .py files, their lines, the depth of its internal
    import graph (circles count as one level; `circles` says how many there are), and its
    module-to-module import arrows."""

    files: int
    lines: int
    levels: int
    arrows: int
    circles: int


def _internal_graph(folder: str) -> dict[str, set[str]]:
    """Each module under `folder` -> the modules under `folder` it imports."""
    paths = python_files(folder)
    names = {module_name(p) for p in paths}
    bare = {p.stem: module_name(p) for p in paths} if folder == "scripts" else {}
    graph = {}
    for path in paths:
        me = module_name(path)
        deps = set()
        for imp in imports(path, type_hints=False):
            candidates = [f"{imp.module}.{n}" for n in imp.names] + [imp.module]
            if imp.module in bare:  # a script imports a sibling by its bare name
                candidates.append(bare[imp.module])
            for c in candidates:
                if c in names:
                    deps.add(c)
                    break
        graph[me] = deps - {me}
    return graph


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of `graph` (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        m = stack.pop()
                        on.discard(m)
                        comp.append(m)
                        if m == node:
                            break
                    out.append(comp)
    return out


def _levels(graph: dict[str, set[str]]) -> tuple[int, int]:
    """(levels, circles) of `graph`: the longest chain of imports counted in modules, each
    circle of modules importing each other taken as one."""
    comps = _strongly_connected(graph)
    comp_of = {m: i for i, c in enumerate(comps) for m in c}
    level: dict[int, int] = {}
    # Tarjan gives the components imported before those importing them.
    for i, comp in enumerate(comps):
        below = {comp_of[d] for m in comp for d in graph[m]} - {i}
        level[i] = 1 + max((level[j] for j in below), default=0)
    return max(level.values(), default=0), sum(1 for c in comps if len(c) > 1)


def structure(packages: tuple[str, ...] = PACKAGES) -> dict[str, Package]:
    """The `Package` figures of each of `packages` (folders of the repository)."""
    table = {}
    for folder in packages:
        paths = python_files(folder)
        if not paths:
            continue
        graph = _internal_graph(folder)
        levels, circles = _levels(graph)
        table[folder] = Package(
            files=len(paths),
            lines=sum(len(p.read_text().splitlines()) for p in paths),
            levels=levels,
            arrows=sum(len(d) for d in graph.values()),
            circles=circles,
        )
    return table


def structure_table() -> str:
    """The figures of `structure` as a plain-text table."""
    rows = [("package", "files", "lines", "levels", "arrows", "circles")]
    for name, p in structure().items():
        rows.append((name, *(f"{v:,}" for v in (p.files, p.lines, p.levels, p.arrows, p.circles))))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in rows
    )


if __name__ == "__main__":
    if sys.argv[1:] != ["--structure"]:
        sys.exit("usage: python3 tests/test_import_graph.py --structure")
    print(structure_table())

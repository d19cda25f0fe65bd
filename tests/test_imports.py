"""No import cycles between the modules of ``pacman`` and ``agents``.

The graph is built statically: each module's source is parsed with :mod:`ast` and every import
executed when the module is imported becomes an edge to the project module it names
(``from pacman.display import controls`` names the module ``pacman.display.controls``;
``from pacman.game import GameResult`` names ``pacman.game``).

Counted: imports at module level, including inside a module-level ``try`` or ``if``.
Allowed (not counted): imports inside a function or method, which run later, when the function
is called (the way to reach a heavy or optional dependency lazily), and imports under
``if TYPE_CHECKING:``, which never run. A parent package is not an edge of its submodules:
Python imports ``pacman/display/__init__.py`` before ``pacman/display/window.py``, but that is
not an import *by* ``window``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("pacman", "agents")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    """Every module of the project packages, by dotted name."""
    return {_module_name(path): path
            for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_time_statements(body: list[ast.stmt]):
    """The import statements that run when the module runs: not in functions or classes'
    methods, not under ``if TYPE_CHECKING``."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                yield from _import_time_statements(node.body)
            yield from _import_time_statements(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody,
                          *(handler.body for handler in node.handlers)):
                yield from _import_time_statements(block)
        elif isinstance(node, (ast.With, ast.ClassDef)):
            yield from _import_time_statements(node.body)


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
             modules: dict[str, Path]) -> set[str]:
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in modules}
    if node.level:  # relative: from the module's package, up ``level - 1`` more
        package = module.split(".") if is_package else module.split(".")[:-1]
        base = ".".join(package[:len(package) - (node.level - 1)])
        source = f"{base}.{node.module}" if node.module else base
    else:
        source = node.module or ""
    found = set()
    for alias in node.names:
        submodule = f"{source}.{alias.name}"
        if submodule in modules:
            found.add(submodule)
        elif source in modules:
            found.add(source)
    return found


def import_graph() -> dict[str, set[str]]:
    """``module -> project modules it imports at import time``."""
    modules = project_modules()
    graph = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        edges: set[str] = set()
        for node in _import_time_statements(tree.body):
            edges |= _targets(node, module, is_package, modules)
        edges.discard(module)
        graph[module] = edges
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def test_the_graph_sees_the_imports_it_should():
    graph = import_graph()
    assert "pacman.state" in graph["pacman.game"]  # from pacman.state import ...
    assert "pacman.errors" in graph["pacman.state"]
    assert all(not target.startswith("pacman") for target in graph["agents.search.core"])


@pytest.mark.parametrize("graph, expected", [
    ({"a": {"b"}, "b": {"a"}, "c": set()}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
])
def test_find_cycles_reports_exactly_the_cycles(graph, expected):
    assert find_cycles(graph) == expected


def test_import_time_statements_skip_functions_and_type_checking():
    tree = ast.parse("import a\nif TYPE_CHECKING:\n    import b\ndef f():\n    import c\n"
                     "try:\n    import d\nexcept ImportError:\n    import e\n")
    names = {alias.name for node in _import_time_statements(tree.body) for alias in node.names}
    assert names == {"a", "d", "e"}


def test_no_import_cycles_between_project_modules():
    cycles = find_cycles(import_graph())
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)

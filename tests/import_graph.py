"""The import graph of the modules of ``pacman`` (its ``agents`` included), read from their source.

Each module's source is parsed with :mod:`ast`; every import statement that can run becomes an
edge to the project module it names (``from pacman.display import controls`` names
``pacman.display.controls``; ``from pacman.engine.game import GameResult`` names ``pacman.engine.game``).
Imports inside functions and methods count as well as those at module level (including inside
a module-level ``try`` or ``if``): a late import still ties the two modules together, it only
changes when. Imports under ``if TYPE_CHECKING:`` count too: the types of one module are then
written in terms of the other. A parent package
is not an edge of its submodules: Python imports ``pacman/display/__init__.py`` before
``pacman/display/window.py``, but that is not an import *by* ``window``.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("pacman",)


@dataclass(frozen=True)
class Import:
    """One import of a project module by another: ``late`` when it sits in a function body."""

    source: str
    target: str
    line: int
    late: bool


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    """Every module of the project packages, by dotted name."""
    return {_module_name(path): path for package in PACKAGES for path in _sources(ROOT / package)}


def _sources(folder: Path) -> list[Path]:
    """The ``.py`` files under ``folder``, through the links ``pacman/agents`` and
    ``pacman/layouts`` to the folders of the source checkout."""
    return sorted(Path(where) / name for where, _, names in os.walk(folder, followlinks=True)
                  for name in names if name.endswith(".py"))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_statements(body: list[ast.stmt], late: bool = False
                      ) -> list[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement in ``body``, with whether it is inside a function; those under
    ``if TYPE_CHECKING:`` (and its ``else``) count as module-level ones."""
    found: list[tuple[ast.Import | ast.ImportFrom, bool]] = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append((node, late))
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            found += import_statements(node.body, late) + import_statements(node.orelse, late)
            continue
        inner = late or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                for item in block:
                    if isinstance(item, (ast.ExceptHandler, ast.match_case)):
                        found += import_statements(item.body, inner)
                if block and isinstance(block[0], ast.stmt):
                    found += import_statements(block, inner)
    return found


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


def project_imports() -> list[Import]:
    """Every import of a project module by another, module-level and late."""
    modules = project_modules()
    found = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node, late in import_statements(tree.body):
            for target in sorted(_targets(node, module, path.name == "__init__.py", modules)):
                if target != module:
                    found.append(Import(module, target, node.lineno, late))
    return found


def import_graph(imports: list[Import] | None = None,
                 leaving_out: frozenset[tuple[str, str]] = frozenset()) -> dict[str, set[str]]:
    """``module -> project modules it imports`` (at any time), without the edges in
    ``leaving_out``."""
    graph: dict[str, set[str]] = {module: set() for module in project_modules()}
    for found in project_imports() if imports is None else imports:
        if (found.source, found.target) not in leaving_out:
            graph.setdefault(found.source, set()).add(found.target)
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The modules of each strongly connected component of more than one module (Tarjan)."""
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


@dataclass(frozen=True)
class PrivateUse:
    """``source`` uses ``name``, a private name of the project module ``target``."""

    source: str
    target: str
    name: str
    line: int


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(module: str, tree: ast.Module, modules: set[str] | dict[str, Path],
                    is_package: bool = False) -> list[PrivateUse]:
    """The private names (one leading underscore) of other project modules that ``module``
    uses: imported by name (``from pacman.x import _y``) or read off an imported module
    (``import pacman.x as x`` or ``from pacman import x``, then ``x._y``)."""
    aliases: dict[str, str] = {}
    found: list[PrivateUse] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    aliases[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = module.split(".") if is_package else module.split(".")[:-1]
                base = ".".join(package[:len(package) - (node.level - 1)])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in modules:
                    aliases[alias.asname or alias.name] = submodule
                elif source in modules and source != module and _is_private(alias.name):
                    found.append(PrivateUse(module, source, alias.name, node.lineno))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in aliases and _is_private(node.attr)
                and aliases[node.value.id] != module):
            found.append(PrivateUse(module, aliases[node.value.id], node.attr, node.lineno))
    return sorted(found, key=lambda use: (use.line, use.name))

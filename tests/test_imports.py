"""The rules of ``docs/architecture.md`` about imports: the packages and the arrows allowed
between them, no import cycles, and no module importing another's private names.

Every import counts: at module level, inside a function, and under ``if TYPE_CHECKING:`` (see
:mod:`tests.import_graph`). A late import changes when a module loads, a type-only one whether
it loads at all; neither changes what depends on what.
"""

from __future__ import annotations

import ast
import re

import pytest

from tests.import_graph import (ROOT, Import, find_cycles, import_graph, import_statements,
                                private_imports, project_imports, project_modules)

#: The modules at pacman's top, besides its ``__init__``: what every package may use.
BASE_MODULES = frozenset({"pacman.errors", "pacman.registry", "pacman.version"})
#: Each package, with the packages its modules may import (its own and the base always).
#: docs/architecture.md draws the same table.
ARROWS: dict[str, frozenset[str]] = {
    "search": frozenset(),
    "engine": frozenset(),
    "layouts": frozenset(),
    "agents": frozenset({"search", "engine"}),
    "compat": frozenset({"search", "engine", "agents"}),
    "lineup": frozenset({"search", "engine", "agents", "compat", "contained", "cli"}),
    "contained": frozenset({"engine", "lineup"}),
    "display": frozenset({"search", "engine", "agents", "lineup", "contained"}),
    "batch": frozenset({"engine", "lineup", "contained"}),
    "envs": frozenset({"engine", "lineup", "display"}),
    "examples": frozenset({"envs", "batch"}),
    "experiments": frozenset({"search", "engine", "agents", "lineup", "display", "batch", "cli"}),
    "grading": frozenset({"search", "engine", "agents", "compat", "lineup", "contained"}),
    "tournament": frozenset({"engine", "lineup", "display", "batch", "grading"}),
    "cli": frozenset({"search", "engine", "agents", "lineup", "contained", "display", "batch",
                      "experiments", "grading", "tournament", "layouts"}),
    # pacman/__init__.py: tells IPython how the engine's objects show (pacman.display.notebook)
    "pacman": frozenset({"display"}),
}

#: Module cycles still to take apart: none. A new cycle fails the test.
KNOWN_CYCLES: list[list[str]] = []


def package(module: str) -> str:
    """The package ``module`` belongs to: a key of :data:`ARROWS`, or ``base``."""
    if module == "pacman":
        return "pacman"
    if module in BASE_MODULES:
        return "base"
    parts = module.split(".")
    if parts[1] == "agents" and len(parts) > 2 and parts[2] == "search":
        return "search"
    return parts[1]


#: The engine and the top modules: what every package may use.
CORE = frozenset(m for m in project_modules() if package(m) in ("engine", "base"))


@pytest.fixture(scope="module")
def imports() -> list[Import]:
    return project_imports()


# --- the graph reader ---------------------------------------------------------------------------
def test_the_graph_sees_the_imports_it_should():
    graph = import_graph()
    assert "pacman.engine.state" in graph["pacman.engine.game"]
    assert "pacman.errors" in graph["pacman.engine.state"]
    assert "pacman.engine.rules" in graph["pacman.engine.state"]
    assert all(target.startswith("pacman.agents.search")
               for target in graph["pacman.agents.search.core"])
    assert "pacman.agents.search.algorithms" in graph["pacman.agents.search_agents"]


@pytest.mark.parametrize("graph, expected", [
    ({"a": {"b"}, "b": {"a"}, "c": set()}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
])
def test_find_cycles_reports_exactly_the_cycles(graph, expected):
    assert find_cycles(graph) == expected


def test_import_statements_count_late_and_type_only_imports():
    tree = ast.parse("import a\nif TYPE_CHECKING:\n    import b\nelse:\n    import g\n"
                     "def f():\n    import c\n"
                     "try:\n    import d\nexcept ImportError:\n    import e\n"
                     "class K:\n    def m(self):\n        if x:\n            import h\n")
    found = {alias.name: late for node, late in import_statements(tree.body)
             for alias in node.names}
    assert found == {"a": False, "b": False, "g": False, "c": True, "d": False, "e": False,
                     "h": True}


def test_a_late_import_closing_a_cycle_is_a_cycle():
    late_cycle = [Import("a", "b", 1, False), Import("b", "a", 9, True)]
    assert find_cycles(import_graph(late_cycle)) == [["a", "b"]]


def test_a_private_name_of_another_module_is_found_imported_or_read():
    source = ("from pacman.engine.rules import _illegal, successor\n"
              "from pacman.engine import rules\n"
              "x = rules._checked_agent\n"
              "from . import _local\n"
              "from .rules import _own_package\n")
    found = private_imports("pacman.engine.example", ast.parse(source),
                            {"pacman.engine.rules", "pacman.engine", "pacman.engine.example"})
    assert [(f.target, f.name) for f in found] == [("pacman.engine.rules", "_illegal"),
                                                  ("pacman.engine.rules", "_checked_agent"),
                                                  ("pacman.engine", "_local"),
                                                  ("pacman.engine.rules", "_own_package")]


# --- the rules ----------------------------------------------------------------------------------
def test_no_import_cycles_but_the_known_ones(imports):
    cycles = find_cycles(import_graph(imports))
    assert cycles == KNOWN_CYCLES, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_every_module_belongs_to_a_package_of_the_map():
    unknown = sorted(m for m in project_modules() if package(m) not in (*ARROWS, "base"))
    assert not unknown, f"modules outside every package of docs/architecture.md: {unknown}"


def test_each_package_imports_only_along_its_arrows(imports):
    # ``import pacman`` (its folder, as a contained child's or a classic file's path) is the
    # package itself, whose __init__ loads nothing
    broken = [f for f in imports if package(f.target) not in (package(f.source), "base", "pacman")
              and package(f.target) not in ARROWS.get(package(f.source), frozenset())]
    assert not broken, "\n".join(
        f"{f.source}:{f.line} ({package(f.source)}) imports {f.target} ({package(f.target)})"
        for f in broken)


def test_the_engine_and_the_search_import_nothing_of_the_rest(imports):
    outside = sorted({(f.source, f.target) for f in imports
                      if package(f.source) in ("engine", "search")
                      and package(f.target) not in (package(f.source), "base")})
    assert not outside


def test_pacman_has_a_handful_of_modules_at_its_top():
    modules = project_modules()
    top = sorted(m for m in modules if m.count(".") == 1 and modules[m].name != "__init__.py")
    assert top == sorted(BASE_MODULES)


def test_no_module_uses_another_modules_private_names():
    modules = project_modules()
    found = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        found += private_imports(module, tree, modules, path.name == "__init__.py")
    assert not found, "\n".join(f"{f.source}:{f.line} uses {f.target}.{f.name}" for f in found)


def test_the_architecture_page_draws_the_arrows_of_this_test():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Packages", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `pacman\.([\w.]+)`[^|]*\|[^|]*\| ([^|]*) \|$", section, flags=re.M)
    drawn = {("search" if name == "agents.search" else name): frozenset(
        re.findall(r"`(\w+)`", arrows)) for name, arrows in rows}
    assert drawn == {name: arrows for name, arrows in ARROWS.items() if name != "pacman"}

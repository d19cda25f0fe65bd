"""The rules of ``docs/architecture.md`` about imports: the layers, no import cycles, and the few
late imports allowed to break them (each named, with its reason, here and in the document).

Every import counts, at module level or inside a function (see :mod:`tests.import_graph`).
"""

from __future__ import annotations

import ast
import re

import pytest

from tests.import_graph import (ROOT, Import, find_cycles, import_graph, import_statements,
                                project_imports, project_modules)

#: The engine core (layer 2): the modules agents may use, and what a game needs to run.
CORE = frozenset({
    "pacman.version", "pacman.errors", "pacman.engine.directions", "pacman.engine.distances", "pacman.engine.move_tables",
    "pacman.engine.maze_reader", "pacman.engine.layout", "pacman.engine.outcome", "pacman.engine.state", "pacman.engine.rules",
    "pacman.engine.game", "pacman.engine.game_loop", "pacman.engine.recording", "pacman.engine.json_lines", "pacman.engine.files",
    "pacman.engine.agent_stats",
    "pacman.engine.human", "pacman.registry", "pacman.lineup.options", "pacman.batch.stats",
})

LAYER_NAMES = {1: "search library", 2: "engine core", 3: "agents", 4: "applications"}

#: The late imports that go against a layer or close a cycle, and why each is the right design.
#: docs/architecture.md lists the same (a test checks it); any other such import fails.
ALLOWED_LATE = {
    ("pacman.batch.runner", "pacman.batch.cluster"):
        "the Dask backend is an optional extra, loaded for --backend dask only; it plays "
        "chunks with the runner's play_chunk",
    ("pacman.display.statusbar", "pacman.display.renderer"):
        "the status bar's colour scale uses the renderer's heat_colour, and the renderer "
        "draws the status bar",
    ("pacman.grading.grader", "pacman.grading.tree_grading"):
        "the grader dispatches each test by its kind to the module of that kind, which builds "
        "on the grader's session and result",
    ("pacman.grading.grader", "pacman.grading.position_grading"):
        "as above, for position tests",
    ("pacman.grading.grader", "pacman.grading.game_grading"):
        "as above, for game tests",
}


def layer(module: str) -> int:
    """The layer of ``module``: 1 the search library, 2 the engine core, 3 the agents, 4 the
    applications (commands, batches, experiments, grading, environments, displays, the
    line-up and the plug-in loader)."""
    if module == "pacman.agents.search" or module.startswith("pacman.agents.search."):
        return 1
    if module in CORE:
        return 2
    if module == "pacman.agents" or module.startswith("pacman.agents."):
        return 3
    return 4


@pytest.fixture(scope="module")
def imports() -> list[Import]:
    return project_imports()


def _broken_layers(imports: list[Import]) -> list[Import]:
    return [found for found in imports if layer(found.target) > layer(found.source)]


# --- the graph reader ---------------------------------------------------------------------------
def test_the_graph_sees_the_imports_it_should():
    graph = import_graph()
    assert "pacman.engine.state" in graph["pacman.engine.game"]  # from pacman.engine.state import ...
    assert "pacman.errors" in graph["pacman.engine.state"]
    assert "pacman.engine.rules" in graph["pacman.engine.state"]  # inside a method
    assert all(target.startswith("pacman.agents.search") for target in graph["pacman.agents.search.core"])
    assert "pacman.agents.search.algorithms" in graph["pacman.agents.search_agents"]


@pytest.mark.parametrize("graph, expected", [
    ({"a": {"b"}, "b": {"a"}, "c": set()}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
])
def test_find_cycles_reports_exactly_the_cycles(graph, expected):
    assert find_cycles(graph) == expected


def test_import_statements_count_late_imports_and_skip_type_checking():
    tree = ast.parse("import a\nif TYPE_CHECKING:\n    import b\nelse:\n    import g\n"
                     "def f():\n    import c\n"
                     "try:\n    import d\nexcept ImportError:\n    import e\n"
                     "class K:\n    def m(self):\n        if x:\n            import h\n")
    found = {alias.name: late for node, late in import_statements(tree.body)
             for alias in node.names}
    assert found == {"a": False, "g": False, "c": True, "d": False, "e": False, "h": True}


def test_a_late_import_closing_a_cycle_is_a_cycle():
    late_cycle = [Import("a", "b", 1, False), Import("b", "a", 9, True)]
    assert find_cycles(import_graph(late_cycle)) == [["a", "b"]]
    assert find_cycles(import_graph(late_cycle, frozenset({("b", "a")}))) == []


# --- the rules ----------------------------------------------------------------------------------
def test_no_import_cycles_counting_late_imports(imports):
    cycles = find_cycles(import_graph(imports, frozenset(ALLOWED_LATE)))
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_each_layer_imports_only_from_itself_and_the_layers_above(imports):
    broken = [found for found in _broken_layers(imports)
              if (found.source, found.target) not in ALLOWED_LATE]
    assert not broken, "\n".join(
        f"{f.source}:{f.line} ({LAYER_NAMES[layer(f.source)]}) imports {f.target} "
        f"({LAYER_NAMES[layer(f.target)]})" for f in broken)


def test_the_search_library_imports_only_itself(imports):
    outside = {(f.source, f.target) for f in imports
               if layer(f.source) == 1 and layer(f.target) != 1}
    assert not outside


def test_every_allowed_late_import_exists_and_is_late(imports):
    for edge in ALLOWED_LATE:
        found = [f for f in imports if (f.source, f.target) == edge]
        assert found, f"{edge} is allowed but no longer imported: take it off the list"
        assert all(f.late for f in found), f"{edge} is allowed only inside a function"


def test_every_allowed_late_import_is_needed(imports):
    """Each entry breaks a layer or a cycle; one that does neither is off the list."""
    for edge in ALLOWED_LATE:
        crosses_layers = layer(edge[1]) > layer(edge[0])
        others = frozenset(ALLOWED_LATE) - {edge}
        closes_cycle = any(edge[0] in c and edge[1] in c
                           for c in find_cycles(import_graph(imports, others)))
        assert crosses_layers or closes_cycle, f"{edge} needs no exception"


def test_the_architecture_page_lists_exactly_the_allowed_late_imports():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("### Late imports the rules allow", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `([\w.]+)` \| `([\w.]+)` \|", section, flags=re.M))
    assert listed == set(ALLOWED_LATE)


def test_every_core_module_exists():
    assert set(project_modules()) >= CORE

"""Named access, a rule of ``docs/architecture.md``: agents read a state's fields by name and an
engine object's data through its public names.

A number into a state (``state[8]``, ``itemgetter(6)``) reads another field, silently, as soon
as the state's tuple changes; a private attribute (``layout._ghost_moves``) or a private name of
another module may change or go without notice. Agents use the properties (``state.food``) or,
where the code runs at every node of a search, the index constants of :mod:`pacman.engine.state`
(``state[FOOD]``: as fast as the number), and the layout's public tables (``ghost_moves``).
The application modules of ``pacman`` (displays, environments, experiments, batches, grading,
commands) keep the same rule for states and for the private attributes of engine objects.

The scan reads the source with :mod:`ast`. A *state* is a name or attribute called as in
:data:`STATE_NAMES`, or a parameter or variable annotated with a state class; an integer
subscript of one (or of an element of ``states``), an integer slice of one and
``itemgetter(<int>)`` are numeric access.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.import_graph import ROOT, project_modules
from tests.test_imports import CORE

#: Names under which code holds one game state.
STATE_NAMES = frozenset({"state", "child", "after", "successor", "next_state", "parent"})
#: Names under which code holds a sequence of states (``states[0][7]`` indexes a state).
STATES_NAMES = frozenset({"states"})
#: Annotations that make a name a state.
STATE_CLASSES = frozenset({"GameState", "ClassicSpeedState"})
#: Private names of the standard library that are its documented interface.
STANDARD_PRIVATE = frozenset({("os", "_exit"), ("sys", "_getframe")})

#: Modules that may use numbers and private names on the measured per-node path, and why.
HOT_PATH_EXEMPT = {
    "pacman.agents.pacman_search":
        "the Pacman fast path of the alpha-beta loop (issue 32, item 2): every look-up of a "
        "node is measured by bench/bench_search_pacman.py against the generic loop; it reads "
        "state[0]._ghost_actions (public as Layout.ghost_actions) and state[1..8] by number",
}
#: Packages left out of the scan, and why.
EXEMPT_PACKAGES = {
    "pacman.agents.search":
        "the generic search library: its states are those of any Game (the lecture's trees are "
        "tuples of their own), never a GameState (it imports nothing from pacman)",
}
#: Application modules whose names only look like states, and what they hold.
NOT_GAME_STATES = {
    "pacman.compat.random_state": "the state of Python's random generator, a tuple of its own",
    "pacman.experiments.pruning": "nodes of a synthetic tree game, tuples of their own",
}


@dataclass(frozen=True)
class Finding:
    module: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.module}:{self.line}: {self.what}"


def _is_state_annotation(node: ast.expr | None) -> bool:
    """Whether ``node`` annotates one state (``GameState``, ``GameState | None``, or the same
    as a string); a container of states (``list[GameState]``) is not one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return False
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _is_state_annotation(node.left) or _is_state_annotation(node.right)
    if isinstance(node, ast.Subscript) and _name_of(node.value) == "Optional":
        return _is_state_annotation(node.slice)
    return node is not None and _name_of(node) in STATE_CLASSES


def _annotated_states(tree: ast.AST) -> set[str]:
    """Names annotated with a state class anywhere in the module (parameters, variables)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and _is_state_annotation(node.annotation):
            found.add(node.arg)
        elif (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
              and _is_state_annotation(node.annotation)):
            found.add(node.target.id)
    return found


def _name_of(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _is_number(node: ast.expr | None) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int


def _numeric_index(node: ast.Subscript) -> bool:
    index = node.slice
    if isinstance(index, ast.Slice):
        return any(_is_number(bound) for bound in (index.lower, index.upper))
    return _is_number(index)


def numeric_state_access(source: str, module: str) -> list[Finding]:
    """Every numeric subscript of a state and every ``itemgetter(<int>)`` in ``source``."""
    tree = ast.parse(source)
    states = STATE_NAMES | _annotated_states(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and _numeric_index(node):
            held = node.value
            if _name_of(held) in states or (
                    isinstance(held, ast.Subscript) and _is_number(held.slice)
                    and _name_of(held.value) in STATES_NAMES):
                found.append(Finding(module, node.lineno, f"{ast.unparse(node)}: read the "
                                     "field by name (state.food, or state[FOOD] on a hot path)"))
        elif (isinstance(node, ast.Call) and _name_of(node.func) == "itemgetter"
              and any(_is_number(arg) for arg in node.args)):
            found.append(Finding(module, node.lineno, f"{ast.unparse(node)}: a numeric getter"))
    return found


def private_access(source: str, module: str, private_names: frozenset[str] | None = None
                   ) -> list[Finding]:
    """Every private attribute read of another object than ``self``, ``cls`` or ``super()``, and every
    private name imported from another module, in ``source``; only the names of
    ``private_names`` when it is given."""
    def counts(name: str) -> bool:
        return (name.startswith("_") and not name.startswith("__")
                and (private_names is None or name in private_names))

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and counts(node.attr):
            owner = _name_of(node.value) if isinstance(node.value, ast.Name) else None
            if owner in ("self", "cls") or (owner, node.attr) in STANDARD_PRIVATE or (
                    isinstance(node.value, ast.Call) and _name_of(node.value.func) == "super"):
                continue
            found.append(Finding(module, node.lineno, f"{ast.unparse(node)}: a private "
                                 "attribute of another object; use or add a public name"))
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            for alias in node.names:
                if counts(alias.name) and not node.module.rsplit(".", 1)[-1].startswith("_"):
                    found.append(Finding(module, node.lineno, f"imports {alias.name} from "
                                         f"{node.module}: a private name of another module"))
    return found


def engine_private_names() -> frozenset[str]:
    """The private attributes of the engine core's objects: their ``__slots__`` entries and
    the attributes their methods set on ``self``."""
    names = set()
    for module, path in project_modules().items():
        if module not in CORE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and _name_of(node.targets[0]) == "__slots__"):
                names |= {c.value for c in ast.walk(node.value)
                          if isinstance(c, ast.Constant) and isinstance(c.value, str)}
            elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                  and node.value.id == "self" and isinstance(node.ctx, ast.Store)):
                names.add(node.attr)
    return frozenset(n for n in names if n.startswith("_") and not n.startswith("__"))


#: The package of the agents.
AGENTS = "pacman.agents"


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _scanned() -> dict[str, Path]:
    return {name: path for name, path in project_modules().items()
            if name not in HOT_PATH_EXEMPT
            and not any(_within(name, package) for package in EXEMPT_PACKAGES)}


def _agent_modules() -> dict[str, Path]:
    return {name: path for name, path in _scanned().items() if _within(name, AGENTS)}


def _application_modules() -> dict[str, Path]:
    """The modules of ``pacman`` that are neither the engine core nor agents."""
    return {name: path for name, path in _scanned().items()
            if _within(name, "pacman") and name not in CORE and not _within(name, AGENTS)}


def test_agents_read_no_state_field_by_number():
    found = [str(f) for name, path in sorted(_agent_modules().items())
             for f in numeric_state_access(path.read_text(encoding="utf-8"), name)]
    assert not found, "\n".join(found)


def test_agents_use_no_private_name_of_another_object_or_module():
    found = [str(f) for name, path in sorted(_agent_modules().items())
             for f in private_access(path.read_text(encoding="utf-8"), name)]
    assert not found, "\n".join(found)


def test_applications_read_no_state_field_by_number():
    found = [str(f) for name, path in sorted(_application_modules().items())
             if name not in NOT_GAME_STATES
             for f in numeric_state_access(path.read_text(encoding="utf-8"), name)]
    assert not found, "\n".join(found)


def test_applications_use_no_private_attribute_of_an_engine_object():
    private = engine_private_names()
    assert {"_ghost_moves", "_ghost_actions", "_pacman_moves"} <= private  # the scan sees them
    found = [str(f) for name, path in sorted(_application_modules().items())
             for f in private_access(path.read_text(encoding="utf-8"), name, private)]
    assert not found, "\n".join(found)


def test_every_exempt_module_exists_and_still_needs_its_exemption():
    modules = project_modules()
    for name in [*HOT_PATH_EXEMPT, *EXEMPT_PACKAGES, *NOT_GAME_STATES]:
        assert name in modules, f"{name} is gone: take it off the list"
    for name in HOT_PATH_EXEMPT:
        source = modules[name].read_text(encoding="utf-8")
        assert numeric_state_access(source, name) or private_access(source, name), (
            f"{name} reads states by name now: take it off HOT_PATH_EXEMPT")


# --- the scan itself: what it catches and what it lets pass ----------------------------------
@pytest.mark.parametrize("source", [
    "def f(state):\n    return state[8]\n",
    "def f(state):\n    return state[1][0]\n",
    "def f(state):\n    return state[-1]\n",
    "def f(state):\n    return state[1:]\n",
    "def f(s: GameState):\n    return s[6]\n",
    "def f(s: 'GameState | None'):\n    return s[6]\n",
    "def f(s: Optional[ClassicSpeedState]):\n    return s[6]\n",
    "def f(x):\n    child = x.successor('North')\n    return child[4]\n",
    "def f(self):\n    return self.state[7]\n",
    "def f(self):\n    return self.states[0][7]\n",
    "from operator import itemgetter\nscore = itemgetter(6)\n",
    "import operator\nscore = operator.itemgetter(6)\n",
])
def test_the_scan_finds_numeric_access_to_a_state(source):
    assert numeric_state_access(source, "m")


@pytest.mark.parametrize("source", [
    "from pacman.engine.state import FOOD\ndef f(state):\n    return state[FOOD]\n",
    "def f(state):\n    return state.positions[0]\n",
    "def f(positions):\n    return positions[0]\n",
    "def f(states):\n    return states[0].turn\n",
    "def f(states: list[GameState]):\n    return states[0], states[-1], states[1:]\n",
    "def f(best):\n    return best[0]\n",
    "from operator import itemgetter\nby_name = itemgetter('name')\n",
])
def test_the_scan_lets_named_access_pass(source):
    assert not numeric_state_access(source, "m")


@pytest.mark.parametrize("source", [
    "def f(layout):\n    return layout._ghost_moves\n",
    "def f(state):\n    return state[0]._ghost_actions\n",
    "from pacman.agents.maze_tables import _TABLES\n",
    "import pacman.agents.maze_tables as tables\ndef f():\n    return tables._TABLES\n",
])
def test_the_scan_finds_private_names_of_other_objects(source):
    assert private_access(source, "m")


@pytest.mark.parametrize("source", [
    "class A:\n    def f(self):\n        return self._cache\n",
    "class A:\n    @classmethod\n    def f(cls):\n        return cls._made\n",
    "import os\ndef f():\n    os._exit(1)\n",
    "from pacman.display._pygame import pygame\n",
    "def f(x):\n    return x.__class__\n",
    "class A(B):\n    def f(self):\n        return super()._fill_text()\n",
])
def test_the_scan_lets_own_and_documented_names_pass(source):
    assert not private_access(source, "m")


def test_the_engine_scan_is_limited_to_engine_names():
    source = "def f(layout, renderer):\n    return layout._ghost_moves, renderer._text_cache\n"
    found = private_access(source, "m", frozenset({"_ghost_moves"}))
    assert [f.what.split(":")[0] for f in found] == ["layout._ghost_moves"]


def test_the_architecture_page_names_each_module_the_scan_leaves_out():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text[text.index("## Named access"):]
    for name in [*HOT_PATH_EXEMPT, *EXEMPT_PACKAGES, *NOT_GAME_STATES]:
        # the page gives the repository's paths: pacman.agents.x lives in agents/x.py
        repository_name = name.removeprefix("pacman.") if _within(name, AGENTS) else name
        path = repository_name.replace(".", "/") + ("/" if name in EXEMPT_PACKAGES else ".py")
        assert f"`{path}`" in section, name

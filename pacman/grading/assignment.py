"""Assignments: the questions, tests, points, limits and visibility of a grading run, as TOML.

Layout of an assignment file (every key is checked; mistakes are one-line
:class:`~pacman.errors.ConfigurationError` messages naming the file and the key)::

    name = "Multi-agent search"
    strict_pruning = false          # alpha-beta prunes on v > beta only (true) or v >= beta
    ties = "any"                    # tree tests accept any best root action, or only the "first"

    [limits]                        # defaults of every test
    move_seconds = 2.0              # one decision (one game move, one tree search)
    test_seconds = 60.0             # wall time of a whole test; also its CPU time
    memory_mb = 1024
    output_chars = 1000000          # what the submission may print per test
    node_budget = 0                 # successors per decision; 0: none (game tests)

    [roles]                         # what the submission defines, by accepted names
    minimax = ["MinimaxAgent"]
    evaluation = ["better_evaluation", "betterEvaluationFunction"]

    [[questions]]
    id = "q2"
    title = "Minimax"

    [[questions.tests]]             # exact behaviour on given trees
    type = "tree"
    name = "lecture trees"
    agent = "minimax"               # a role; the algorithm defaults to the role's name
    algorithm = "minimax"           # minimax, alphabeta or expectimax
    depth = 2                       # rounds
    trees = ["builtin:recitation", "trees/mine.json", '{"id": "A", ...}']
    points = 2

    [[questions.tests]]             # the same on seeded random trees
    type = "random_trees"
    agent = "minimax"
    count = 20
    seed = 1
    agents = 3                      # Pacman and two ghosts
    depth = 2
    rounds = 2                      # height of the trees, in rounds (default: depth)
    points = 2
    visibility = "hidden"

    [[questions.tests]]             # seeded games with credit bands
    type = "game"
    agent = "reflex"                # or: search = "expectimax" and evaluation = "evaluation"
    options = { depth = 2 }
    layout = "tiny"
    ghosts = "random"
    games = 5
    seed = 1
    max_moves = 300
    credit = [{ metric = "failures", at_most = 0, points = 1 },
              { metric = "win_rate", at_least = 0.8, points = 1 }]
    leaderboard = "mean_score"      # report this metric on the leaderboard

Every test may set ``visibility`` (``visible``, ``hidden``, ``after_due_date``,
``after_published``), ``tags`` and the limit keys of ``[limits]``. Tree entries are
``builtin:NAME`` (see ``run.py tree``), a JSON file (relative to the assignment) or JSON text.
Game metrics: ``win_rate``, ``mean_score``, ``wins``, ``timeouts``, ``failures`` (crashes,
illegal moves and timeouts).
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from agents.search.lecture_games import BUILTIN_TREES
from pacman.errors import ConfigurationError
from pacman.grading.sandbox import Limits
from pacman.grading.tree_tests import TREE_ALGORITHMS, LayeredTree, random_tree_dict
from pacman.plugins import suggest

VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")
METRICS = ("win_rate", "mean_score", "wins", "timeouts", "failures")
DEFAULT_ASSIGNMENT = "default"
#: The shipped assignment of submissions written against the classic course's API.
CLASSIC_ASSIGNMENT = "classic"
#: Other names of shipped assignments: ``lecture`` is the default (seed 003's conventions).
ASSIGNMENT_ALIASES = {"lecture": "default"}


def assignment_for(submission: str | Path) -> str:
    """The shipped assignment a submission is graded on when none is named: ``classic`` for a
    file (or a folder holding one) written against the classic course's API, else ``default``."""
    from pacman.compat.loader import is_classic_source

    path = Path(submission)
    if path.is_dir():
        project = path / "multiAgents.py"
        files = [project] if project.is_file() else sorted(path.glob("*.py"))
    else:
        files = [path]
    return CLASSIC_ASSIGNMENT if any(is_classic_source(f) for f in files) else DEFAULT_ASSIGNMENT


@dataclass(frozen=True)
class TestLimits:
    """Limits of one test (see ``[limits]``)."""

    move_seconds: float = 2.0
    test_seconds: float = 60.0
    memory_mb: int = 1024
    output_chars: int = 1_000_000
    node_budget: int | None = None

    def worker_limits(self) -> Limits:
        return Limits(memory_mb=self.memory_mb, cpu_seconds=self.test_seconds,
                      wall_seconds=self.test_seconds, output_chars=self.output_chars,
                      node_budget=self.node_budget)


@dataclass(frozen=True)
class Band:
    """``points`` when ``metric`` is at least (or at most) ``threshold``."""

    metric: str
    threshold: float
    at_least: bool
    points: float
    required: bool = False

    def met(self, value: float) -> bool:
        return value >= self.threshold if self.at_least else value <= self.threshold

    def describe(self) -> str:
        need = " (required: otherwise the test scores 0)" if self.required else ""
        return f"{self.metric} {'>=' if self.at_least else '<='} {self.threshold:g}{need}"


@dataclass(frozen=True)
class TreeCase:
    """One tree of a tree test: a label for reports and the tree itself (validated)."""

    label: str
    tree: LayeredTree


@dataclass(frozen=True)
class Test:
    """One test. ``kind`` is ``tree`` (random trees included) or ``game``."""

    number: str
    name: str
    kind: str
    points: float
    visibility: str
    tags: tuple[str, ...]
    limits: TestLimits
    role: str | None = None
    # tree tests
    algorithm: str | None = None
    depth: int = 2
    cases: tuple[TreeCase, ...] = ()
    strict: bool = False
    ties: str = "any"
    compare_evaluated: bool = True
    # game tests (and position tests: layout, ghosts, ghost_count, seed, max_moves)
    search: str | None = None
    evaluation_role: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    layout: str = "tiny"
    ghosts: str = "random"
    ghost_count: int | None = None
    games: int = 1
    seed: int = 0
    max_moves: int = 500
    credit: tuple[Band, ...] = ()
    leaderboard: str | None = None
    rules: str = "default"          # game tests: the rules variant (pacman.state.RULES_VARIANTS)


@dataclass(frozen=True)
class Question:
    id: str
    title: str
    tests: tuple[Test, ...]
    all_or_nothing: bool = False

    @property
    def points(self) -> float:
        return sum(t.points for t in self.tests)


@dataclass(frozen=True)
class Assignment:
    name: str
    source: str
    roles: Mapping[str, tuple[str, ...]]
    questions: tuple[Question, ...]

    @property
    def points(self) -> float:
        return sum(q.points for q in self.questions)

    def tests(self) -> list[tuple[Question, Test]]:
        return [(q, t) for q in self.questions for t in q.tests]


def load_assignment(name_or_path: str | Path | None = None) -> Assignment:
    """The assignment in a TOML file, or a shipped one by name (default: ``default``)."""
    if name_or_path is None:
        name_or_path = DEFAULT_ASSIGNMENT
    name_or_path = ASSIGNMENT_ALIASES.get(str(name_or_path), name_or_path)
    path = Path(name_or_path)
    if path.is_file():
        text = _read(path)
        source, base = str(path), path.parent
    else:
        shipped = resources.files("pacman.grading") / "assignments" / f"{name_or_path}.toml"
        if not shipped.is_file():
            names = [p.name[:-5] for p in (resources.files("pacman.grading") / "assignments").iterdir()
                     if p.name.endswith(".toml")]
            raise ConfigurationError(f"no assignment file {str(name_or_path)!r}{suggest(str(name_or_path), names)}")
        text = shipped.read_text(encoding="utf-8")
        source, base = f"assignment {name_or_path}", None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigurationError(f"{source}: not valid TOML: {error}") from None
    return parse_assignment(data, source, base)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigurationError(f"{path}: cannot be read ({error})") from None


class _Table:
    """A TOML table with checked access: every key must be known; types are checked."""

    def __init__(self, data: Any, where: str, known: tuple[str, ...]) -> None:
        if not isinstance(data, dict):
            raise ConfigurationError(f"{where}: expected a table")
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise ConfigurationError(f"{where}: unknown key {unknown[0]!r}{suggest(unknown[0], list(known))}")
        self.data = data
        self.where = where

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = None, required: bool = False) -> Any:
        if key not in self.data:
            if required:
                raise ConfigurationError(f"{self.where}: missing key {key!r}")
            return default
        value = self.data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise ConfigurationError(f"{self.where}: {key!r} must be {names}, got {value!r}")
        return value

    def choice(self, key: str, choices: tuple[str, ...], default: str) -> str:
        value = self.get(key, str, default)
        if value not in choices:
            raise ConfigurationError(f"{self.where}: {key!r} must be one of {', '.join(choices)}, "
                                     f"got {value!r}{suggest(value, list(choices))}")
        return value

    def positive(self, key: str, kind: type, default: Any) -> Any:
        value = self.get(key, (int, float) if kind is float else kind, default)
        if value is not None and value <= 0:
            raise ConfigurationError(f"{self.where}: {key!r} must be positive, got {value!r}")
        return value


_LIMIT_KEYS = ("move_seconds", "test_seconds", "memory_mb", "output_chars", "node_budget")
_COMMON_TEST_KEYS = ("type", "name", "points", "visibility", "tags", "agent") + _LIMIT_KEYS
_TREE_KEYS = _COMMON_TEST_KEYS + ("algorithm", "depth", "trees", "agents", "strict_pruning", "ties",
                                  "compare_evaluated")
_RANDOM_KEYS = _COMMON_TEST_KEYS + ("algorithm", "depth", "count", "seed", "agents", "rounds",
                                    "branching", "values", "strict_pruning", "ties",
                                    "compare_evaluated")
_GAME_KEYS = _COMMON_TEST_KEYS + ("search", "evaluation", "options", "layout", "ghosts", "games",
                                  "seed", "max_moves", "credit", "leaderboard", "ghost_count",
                                  "rules")
_POSITION_KEYS = _COMMON_TEST_KEYS + ("algorithm", "depth", "layout", "ghosts", "ghost_count",
                                      "seed", "max_moves")


def _limits(table: _Table, base: TestLimits) -> TestLimits:
    budget = table.get("node_budget", int, None)
    if budget is not None and budget < 0:
        raise ConfigurationError(f"{table.where}: 'node_budget' must be 0 (none) or more")
    return TestLimits(
        move_seconds=float(table.positive("move_seconds", float, base.move_seconds)),
        test_seconds=float(table.positive("test_seconds", float, base.test_seconds)),
        memory_mb=table.positive("memory_mb", int, base.memory_mb),
        output_chars=table.positive("output_chars", int, base.output_chars),
        node_budget=base.node_budget if budget is None else (budget or None))


def parse_assignment(data: Mapping[str, Any], source: str, base: Path | None = None) -> Assignment:
    """Validate an assignment given as parsed TOML (see the module docstring)."""
    top = _Table(data, source, ("name", "strict_pruning", "ties", "limits", "roles", "questions"))
    name = top.get("name", str, "assignment")
    strict = top.get("strict_pruning", bool, False)
    ties = top.choice("ties", ("any", "first"), "any")
    limits = _limits(_Table(top.get("limits", dict, {}), f"{source}: [limits]", _LIMIT_KEYS), TestLimits())
    roles_data = top.get("roles", dict, required=True)
    roles: dict[str, tuple[str, ...]] = {}
    for role, names in roles_data.items():
        if isinstance(names, str):
            names = [names]
        if not isinstance(names, list) or not names or not all(isinstance(n, str) and n.isidentifier() for n in names):
            raise ConfigurationError(f"{source}: [roles] {role!r} must be a name or a list of Python names")
        roles[role] = tuple(names)
    questions_data = top.get("questions", list, required=True)
    questions = []
    seen_ids: set[str] = set()
    for qi, qdata in enumerate(questions_data, start=1):
        qt = _Table(qdata, f"{source}: question {qi}", ("id", "title", "tests", "all_or_nothing"))
        qid = qt.get("id", str, f"q{qi}")
        if qid in seen_ids:
            raise ConfigurationError(f"{source}: two questions have the id {qid!r}")
        seen_ids.add(qid)
        title = qt.get("title", str, qid)
        tests = []
        for ti, tdata in enumerate(qt.get("tests", list, required=True), start=1):
            where = f"{source}: question {qid!r} test {ti}"
            kind = tdata.get("type") if isinstance(tdata, dict) else None
            from pacman.grading.assignment_games import game_test, position_test

            parse = {"tree": _tree_test, "random_trees": _random_test, "game": game_test,
                     "positions": position_test}.get(kind)
            if parse is None:
                raise ConfigurationError(f"{where}: 'type' must be tree, random_trees, game or "
                                         f"positions, got {kind!r}")
            test = parse(tdata, where, f"{qi}.{ti}", limits, roles, strict, ties, base)
            tests.append(test)
        questions.append(Question(qid, title, tuple(tests), qt.get("all_or_nothing", bool, False)))
    if not questions:
        raise ConfigurationError(f"{source}: no questions")
    return Assignment(name, source, roles, tuple(questions))


def _common(t: _Table, number: str, limits: TestLimits, roles: Mapping[str, Any], kind: str,
            default_name: str) -> dict[str, Any]:
    role = t.get("agent", str, None)
    if role is not None and role not in roles:
        raise ConfigurationError(f"{t.where}: 'agent' {role!r} is not a role of [roles]{suggest(role, list(roles))}")
    tags = t.get("tags", list, [])
    if not all(isinstance(x, str) for x in tags):
        raise ConfigurationError(f"{t.where}: 'tags' must be a list of strings")
    points = t.get("points", (int, float), 1)
    if points < 0:
        raise ConfigurationError(f"{t.where}: 'points' must be 0 or more")
    return {"number": number, "name": t.get("name", str, default_name), "kind": kind,
            "points": float(points), "visibility": t.choice("visibility", VISIBILITIES, "visible"),
            "tags": tuple(tags), "limits": _limits(t, limits), "role": role}


def _search_keys(t: _Table, common: dict[str, Any], strict: bool, ties: str) -> dict[str, Any]:
    if common["role"] is None:
        raise ConfigurationError(f"{t.where}: missing key 'agent' (the role that searches)")
    default = common["role"] if common["role"] in TREE_ALGORITHMS else None
    algorithm = t.get("algorithm", str, default)
    if algorithm not in TREE_ALGORITHMS:
        raise ConfigurationError(f"{t.where}: 'algorithm' must be one of {', '.join(TREE_ALGORITHMS)}, got {algorithm!r}")
    depth = t.positive("depth", int, 2)
    return {"algorithm": algorithm, "depth": depth,
            "strict": t.get("strict_pruning", bool, strict),
            "ties": t.choice("ties", ("any", "first"), ties),
            "compare_evaluated": t.get("compare_evaluated", bool, True)}


def _check_tree(case: TreeCase, algorithm: str, where: str) -> TreeCase:
    tree = case.tree
    if algorithm != "expectimax" and tree.has_chance():
        raise ConfigurationError(f"{where}: tree {case.label} has chance nodes; {algorithm} trees may not")
    if tree.has_explicit_probabilities():
        raise ConfigurationError(f"{where}: tree {case.label} gives probabilities; graded ghost "
                                 "layers are uniform (agents cannot see them)")
    return case


def _tree_test(data: Any, where: str, number: str, limits: TestLimits, roles: Mapping[str, Any],
               strict: bool, ties: str, base: Path | None) -> Test:
    t = _Table(data, where, _TREE_KEYS)
    common = _common(t, number, limits, roles, "tree", "trees")
    keys = _search_keys(t, common, strict, ties)
    agents = t.positive("agents", int, None)
    entries = t.get("trees", list, required=True)
    if not entries:
        raise ConfigurationError(f"{where}: 'trees' is empty")
    cases = []
    for i, entry in enumerate(entries, start=1):
        if not isinstance(entry, str):
            raise ConfigurationError(f"{where}: tree {i} must be a string (builtin:NAME, a file or JSON)")
        label, tree_data = _tree_data(entry, f"{where}: tree {i}", base)
        cases.append(_check_tree(TreeCase(label, LayeredTree(tree_data, agents, source=f"{where}: {label}")),
                                 keys["algorithm"], where))
    return Test(cases=tuple(cases), **common, **keys)


def _tree_data(entry: str, where: str, base: Path | None) -> tuple[str, dict[str, Any]]:
    text = entry.strip()
    if text.startswith("builtin:"):
        name = text[len("builtin:"):]
        if name not in BUILTIN_TREES:
            raise ConfigurationError(f"{where}: no built-in tree {name!r}{suggest(name, list(BUILTIN_TREES))}")
        return name, BUILTIN_TREES[name]()
    if text.startswith("{"):
        label = "inline tree"
        raw = text
    else:
        path = Path(text) if base is None or Path(text).is_absolute() else base / text
        raw = _read(path)
        label = path.name
    try:
        tree = json.loads(raw)
    except json.JSONDecodeError as error:
        raise ConfigurationError(f"{where}: invalid JSON at line {error.lineno} column {error.colno}: {error.msg}") from None
    if label == "inline tree" and isinstance(tree, dict) and isinstance(tree.get("id"), str):
        label = f"tree {tree['id']}"
    return label, tree


def _pair(t: _Table, key: str, default: tuple[int, int], low: int) -> tuple[int, int]:
    value = t.get(key, list, list(default))
    if (len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            or value[0] > value[1] or value[0] < low):
        raise ConfigurationError(f"{t.where}: {key!r} must be [low, high] whole numbers with {low} <= low <= high")
    return value[0], value[1]


def _random_test(data: Any, where: str, number: str, limits: TestLimits, roles: Mapping[str, Any],
                 strict: bool, ties: str, base: Path | None) -> Test:
    t = _Table(data, where, _RANDOM_KEYS)
    common = _common(t, number, limits, roles, "tree", "random trees")
    keys = _search_keys(t, common, strict, ties)
    count = t.positive("count", int, 10)
    seed = t.get("seed", int, 0)
    agents = t.positive("agents", int, 2)
    rounds = t.positive("rounds", int, keys["depth"])
    branching = _pair(t, "branching", (1, 3), 1)
    values = _pair(t, "values", (-9, 9), -10**9)
    if branching[1] ** (agents * rounds) > 20000:
        raise ConfigurationError(f"{where}: trees of up to {branching[1]}^{agents * rounds} leaves are too big to grade quickly")
    ghost_kind = "chance" if keys["algorithm"] == "expectimax" else "min"
    cases = tuple(
        TreeCase(f"random tree #{k} (seed {seed + k})",
                 LayeredTree(random_tree_dict(seed + k, agents, rounds, branching, values, ghost_kind=ghost_kind),
                             agents, source=f"{where}: random tree {k}"))
        for k in range(count))
    return Test(cases=cases, **common, **keys)

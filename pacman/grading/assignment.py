"""Assignments: the questions, tests, points, limits and visibility of a grading run, as TOML.

Layout of an assignment file (every key is checked; mistakes are one-line
:class:`~pacman.errors.ConfigurationError` messages naming the file and the key)::

    name = "Multi-agent search"
    strict_pruning = false          # alpha-beta prunes on v > beta only (true) or v >= beta
    ties = "any"                    # tree tests accept any best root action, or only the "first"

    [limits]                        # defaults of every test
    move_seconds = 2.0              # one decision (one game move, one tree search)
    game_seconds = 120.0            # game tests: Pacman's total thinking time per game (optional)
    test_seconds = 60.0             # wall time of a whole test; also its CPU time
    memory_mb = 512                 # address space of the worker, in MB
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
``after_published``), ``tags``, ``classic_name`` (the classic autograder's name of the same
test, such as ``q2/8-pacman-game``: reports show it) and the limit keys of ``[limits]``. Tree entries are
``builtin:NAME`` (see ``run.py tree``), a JSON file (relative to the assignment) or JSON text.
Game metrics: ``win_rate``, ``mean_score``, ``wins``, ``timeouts``, ``failures`` (crashes,
illegal moves and timeouts).
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any
from collections.abc import Mapping

from pacman.errors import ConfigurationError
# The data of an assignment is used through this module (its parsers of each test type import
# the model and the checked tables directly).
from pacman.grading.assignment_model import (METRICS as METRICS, VISIBILITIES as VISIBILITIES,
                                             Assignment as Assignment, Band as Band,
                                             Question as Question, Test as Test,
                                             TestLimits as TestLimits, TreeCase as TreeCase)
from pacman.grading.assignment_tables import (GAME_KEYS as GAME_KEYS, LIMIT_KEYS,
                                              POSITION_KEYS as POSITION_KEYS,
                                              common_fields as common_fields, read_limits, read_file,
                                              search_fields as search_fields, Table as Table)
from pacman.grading.assignment_games import game_test, position_test
from pacman.grading.assignment_trees import random_test, tree_test
from pacman.lineup.plugins import suggest

DEFAULT_ASSIGNMENT = "default"
#: The shipped assignment of submissions written against the classic course's API.
CLASSIC_ASSIGNMENT = "classic"
#: Other names of shipped assignments: ``lecture`` is the default (the Pacman slides' conventions).
ASSIGNMENT_ALIASES = {"lecture": "default"}


def assignment_for(submission: str | Path) -> str:
    """The shipped assignment a submission is graded on when none is named: ``classic`` for a
    file (or a folder holding one) written against the classic course's API, Python 2 files of
    the classic course included, else ``default``."""
    from pacman.compat.loader import is_classic_source
    from pacman.grading.submissions import find_submission
    from pacman.grading.uploads import inspect_upload

    path = Path(submission)
    try:
        upload = inspect_upload(path)
    except OSError:
        return DEFAULT_ASSIGNMENT
    if path.is_dir():
        found = find_submission(path)
        files = [found] if found is not None and found.is_file() else sorted(path.glob("*.py"))
    else:
        files = [path]
    files = [f for f in files if upload.taken(Path(upload.root) / f.relative_to(path))]
    classic = any(is_classic_source(f) or _classic_python2(f) for f in files)
    return CLASSIC_ASSIGNMENT if classic else DEFAULT_ASSIGNMENT


def _classic_python2(path: Path) -> bool:
    """A Python 2 file of the classic course (its imports, in a file Python 3 cannot parse)."""
    from pacman.grading.submissions import python2_reason
    from pacman.grading.uploads import read_regular

    if python2_reason(path) is None:
        return False
    try:
        text = read_regular(path).decode("utf-8", errors="replace")
    except OSError:
        return False
    return re.search(r"^\s*(import\s+util|from\s+(game|util)\s+import)", text, re.M) is not None


def load_assignment(name_or_path: str | Path | None = None) -> Assignment:
    """The assignment in a TOML file, or a shipped one by name (default: ``default``)."""
    if name_or_path is None:
        name_or_path = DEFAULT_ASSIGNMENT
    name_or_path = ASSIGNMENT_ALIASES.get(str(name_or_path), name_or_path)
    path = Path(name_or_path)
    if path.is_file():
        text = read_file(path)
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


def parse_assignment(data: Mapping[str, Any], source: str, base: Path | None = None) -> Assignment:
    """Validate an assignment given as parsed TOML (see the module docstring)."""
    top = Table(data, source, ("name", "strict_pruning", "ties", "limits", "roles", "questions"))
    name = top.get("name", str, "assignment")
    strict = top.get("strict_pruning", bool, False)
    ties = top.choice("ties", ("any", "first"), "any")
    limits = read_limits(Table(top.get("limits", dict, {}), f"{source}: [limits]", LIMIT_KEYS), TestLimits())
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
        qt = Table(qdata, f"{source}: question {qi}", ("id", "title", "tests", "all_or_nothing"))
        qid = qt.get("id", str, f"q{qi}")
        if qid in seen_ids:
            raise ConfigurationError(f"{source}: two questions have the id {qid!r}")
        seen_ids.add(qid)
        title = qt.get("title", str, qid)
        tests = []
        for ti, tdata in enumerate(qt.get("tests", list, required=True), start=1):
            where = f"{source}: question {qid!r} test {ti}"
            kind = tdata.get("type") if isinstance(tdata, dict) else None
            parsers = {"tree": tree_test, "random_trees": random_test, "game": game_test,
                       "positions": position_test}
            parse = parsers.get(kind) if isinstance(kind, str) else None
            if parse is None:
                raise ConfigurationError(f"{where}: 'type' must be tree, random_trees, game or "
                                         f"positions, got {kind!r}")
            test = parse(tdata, where, f"{qi}.{ti}", limits, roles, strict, ties, base)
            tests.append(test)
        questions.append(Question(qid, title, tuple(tests), qt.get("all_or_nothing", bool, False)))
    if not questions:
        raise ConfigurationError(f"{source}: no questions")
    return Assignment(name, source, roles, tuple(questions))

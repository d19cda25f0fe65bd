"""The rules of ``docs/architecture.md`` besides the layers: agents receive objects (they import
no catalog, no plug-in loader, no line-up and no display), and every error a user can see
derives from one root, :class:`pacman.errors.PacmanError`."""

from __future__ import annotations

import ast
import importlib
import inspect

import pytest

from pacman.errors import PacmanError
from tests.import_graph import ROOT, project_imports, project_modules

#: What agents must not import: the catalogs of names and the machinery that turns names into
#: objects, and anything that shows a game.
NOT_FOR_AGENTS = ("pacman.agents.catalog", "pacman.lineup.plugins", "pacman.lineup.build", "pacman.lineup.recorded_agents",
                  "pacman.lineup.student_file", "pacman.display")

#: Exception classes that do not derive from PacmanError, and why no user sees them as errors.
#: docs/architecture.md says the same. Private classes (``_Stop``) are internal by their name.
OUTSIDE_THE_ROOT = {
    "pacman.agents.search.trees.TreeFormatError":
        "the search library imports nothing from pacman; a ValueError, which the tree command "
        "prints as one line with exit code 2",
    "pacman.agents.search.nodes.ChanceNodeError":
        "the search library imports nothing from pacman; a ValueError for a program's mistake",
    "pacman.agents.search.nodes.SearchTimeout": "control flow: ends a timed search, which keeps its best",
    "pacman.agents.chase_survival.OutOfBudget": "control flow: ends a bounded search inside the agent",
    "pacman.engine.outcome.AgentFailure": "an agent's failure, recorded as the game's outcome",
    "pacman.engine.game.GameInterrupted": "control flow: a display ends a game early (quit, restart)",
    "pacman.engine.game.AgentTimeout": "a BaseException an agent cannot swallow; recorded as the outcome",
    "pacman.errors.NodeBudgetExceeded": "a BaseException a graded agent cannot swallow",
    "pacman.grading.worker.OutputLimitExceeded": "a BaseException raised in a submission's print",
    "pacman.grading.state_server.CallRefused": "answered to the worker as a refused call",
    "pacman.grading.session.Stop":
        "control flow: ends a test early; its message becomes the test's output",
    "pacman.grading.session.LoadFailed":
        "control flow: the submission does not load; every later test is marked not run",
    "pacman.batch.scan.InvalidRecord":
        "a store line that is not a game record; reading a store counts it as a bad line",
}


def _exception_classes() -> dict[str, type[BaseException]]:
    found = {}
    for name in sorted(project_modules()):
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if (inspect.isclass(value) and issubclass(value, BaseException)
                    and value.__module__ == name and value.__name__ == attr):
                found[f"{name}.{attr}"] = value
    return found


@pytest.fixture(scope="module")
def exception_classes() -> dict[str, type[BaseException]]:
    return _exception_classes()


def test_every_public_exception_derives_from_the_root(exception_classes):
    outside = sorted(name for name, cls in exception_classes.items()
                     if not issubclass(cls, PacmanError) and not cls.__name__.startswith("_")
                     and name not in OUTSIDE_THE_ROOT)
    assert not outside, f"derive from pacman.errors.PacmanError or say why not: {outside}"


def test_the_errors_the_issue_named_derive_from_the_root(exception_classes):
    for name in ("pacman.grading.game_grading.SubmissionError",
                 "pacman.grading.remote_state.GraderError", "pacman.grading.sandbox.WorkerFailure",
                 "pacman.contained.jail.ContainmentError"):
        assert issubclass(exception_classes[name], PacmanError), name


def test_every_listed_exception_exists_and_is_outside_the_root(exception_classes):
    for name in OUTSIDE_THE_ROOT:
        assert name in exception_classes, f"{name} is gone: take it off the list"
        assert not issubclass(exception_classes[name], PacmanError), f"{name} is in the root now"


def test_the_architecture_page_names_each_error_outside_the_root():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for name in OUTSIDE_THE_ROOT:
        assert f"`{name.rsplit('.', 1)[1]}`" in text, name


def test_agents_import_no_catalog_and_no_display():
    broken = [f"{f.source}:{f.line} imports {f.target}" for f in project_imports()
              if f.source.startswith("pacman.agents") and f.source != "pacman.agents.catalog"
              and any(f.target == name or f.target.startswith(name + ".")
                      for name in NOT_FOR_AGENTS)]
    assert not broken, "\n".join(broken)


def _names_used(path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    used |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    used |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
             for alias in node.names}
    return used


@pytest.mark.parametrize("catalog", ["EVALUATIONS", "PACMAN_AGENTS", "GHOST_AGENTS"])
def test_agents_look_up_nothing_in_a_catalog(catalog):
    """Agents take objects (``BETTER``), never a name looked up in a catalog: only the module
    that defines a catalog names it."""
    defining = {"EVALUATIONS": "pacman.agents.evaluation", "PACMAN_AGENTS": "pacman.agents.catalog",
                "GHOST_AGENTS": "pacman.agents.catalog"}[catalog]
    users = sorted(name for name, path in project_modules().items()
                   if name.startswith("pacman.agents") and name != defining
                   and catalog in _names_used(path))
    assert not users

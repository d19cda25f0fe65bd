"""The mutation check: a function the tests are named for is replaced by one that raises or one
that lies, and the tests named for it must fail.

A *target* is a function (or method) and the tests named for it. A *mutant* replaces the
function's code in place (``__code__``), so every name bound to it (``from x import f``, a
dictionary built at import, a method looked up on its class) runs the mutant, and calls the
original through a copy. ``raise``: the mutant raises :class:`Mutant`. ``lie``: it returns a
plausible wrong answer (a value off by one, a successor with one point more, a record accepted
unchecked).

:func:`run_mutant` runs the tests of a target under one mutant with pytest in a subprocess
(this module is also the pytest plugin, ``-p mutants``, reading the mutant from the
environment) and returns each test's outcome; a test that passes under a mutant is one that
cannot see what it is named for break. ``python bench/mutation_check.py`` runs every target
and mutant; ``tests/mutation/test_mutation_check.py`` a short version.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
#: the environment variable naming the mutant (``target:mode``) and the outcomes file
MUTANT_VARIABLE = "PACMAN_ARENA_MUTANT"
OUTCOMES_VARIABLE = "PACMAN_ARENA_MUTANT_OUTCOMES"
MODES = ("raise", "lie")


class Mutant(Exception):
    """Raised by a mutant that raises."""


def _off_by_one(original: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return original(*args, **kwargs) + 1


def _decision_off_by_one(original: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    decision = original(*args, **kwargs)
    return dataclasses.replace(decision, value=decision.value + 1)


def _one_point_more(original: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    child = original(*args, **kwargs)
    return child.replace(score=child.score + 1)


def _accepts_unchecked(original: Callable[..., Any], record: Any) -> Any:
    try:
        return original(record)
    except ValueError:
        from pacman.batch.jobs import GameJob
        from pacman.engine.game import GameResult

        return GameJob.from_dict(record["job"]), GameResult.from_dict(record["result"])


@dataclass(frozen=True)
class Target:
    """A function (``module``, dotted ``name``), how it lies, and the tests named for it: those
    in ``paths`` (relative to the checkout's ``tests``) whose names match ``keyword`` (pytest's
    ``-k``)."""

    module: str
    name: str
    lie: Callable[..., Any]
    paths: tuple[str, ...]
    keyword: str


TARGETS: dict[str, Target] = {
    "node_value": Target(
        "pacman.agents.search.node_search", "Search.node_value", _off_by_one,
        ("search/test_pacman_fast_path.py", "search/test_textbook.py"),
        "through_the_fast_path or fast_loop"),
    "textbook.alphabeta": Target(
        "pacman.agents.search.textbook", "alphabeta", _decision_off_by_one,
        ("search/test_textbook.py",),
        "(alike and not expectimax and not chance) or random_trees or recitation_tree"),
    "textbook.expectimax": Target(
        "pacman.agents.search.textbook", "expectimax", _decision_off_by_one,
        ("search/test_textbook.py",), "(alike and expectimax) or worth_10"),
    "rules.successor": Target(
        "pacman.engine.rules", "successor", _one_point_more,
        ("engine/test_rules.py",), "costs or dot or eating or win"),
    "validate.check_record": Target(
        "pacman.batch.validate", "check_record", _accepts_unchecked,
        ("batch/test_store_trust.py", "batch/test_store_properties.py"),
        "refused and not seal and not text and not options and not holding"),
}


def _resolve(target: Target) -> tuple[Any, str, types.FunctionType]:
    import importlib

    owner: Any = importlib.import_module(target.module)
    *path, attribute = target.name.split(".")
    for part in path:
        owner = getattr(owner, part)
    function = owner.__dict__[attribute] if isinstance(owner, type) else getattr(owner, attribute)
    return owner, attribute, function


def apply(name: str, mode: str) -> None:
    """Replace the code of target ``name``'s function by the mutant ``mode`` (in place)."""
    target = TARGETS[name]
    _, _, function = _resolve(target)
    if function.__closure__:
        raise ValueError(f"{target.name} has free variables: its code cannot be swapped")
    original = types.FunctionType(function.__code__, function.__globals__, function.__name__,
                                  function.__defaults__, function.__closure__)
    original.__kwdefaults__ = function.__kwdefaults__
    # The mutant's code reads these names from the function's own module.
    function.__globals__["_mutation_error"] = Mutant
    function.__globals__["_mutation_original"] = original
    function.__globals__["_mutation_lie"] = target.lie
    function.__code__ = (_raising if mode == "raise" else _lying).__code__


def _raising(*args: Any, **kwargs: Any) -> Any:
    raise _mutation_error("mutant")  # type: ignore[name-defined]  # noqa: F821


def _lying(*args: Any, **kwargs: Any) -> Any:
    return _mutation_lie(_mutation_original, *args, **kwargs)  # type: ignore[name-defined]  # noqa: F821


def run_mutant(name: str, mode: str | None, tests_root: Path | None = None,
               extra: tuple[str, ...] = (), timeout: float = 900) -> dict[str, str]:
    """Run target ``name``'s tests with the mutant ``mode`` (``None``: unmutated) in a pytest
    subprocess, from ``tests_root`` (default: this checkout's tests), and return each test's
    outcome (``passed``, ``failed``, ``skipped``) by its node id."""
    import tempfile

    root = tests_root if tests_root is not None else ROOT / "tests"
    target = TARGETS[name]
    args = [*(str(root / path) for path in target.paths), "-k", target.keyword]
    with tempfile.TemporaryDirectory() as scratch:
        outcomes_file = Path(scratch) / "outcomes.json"
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).parent),
                                                          env.get("PYTHONPATH")]))
        env[OUTCOMES_VARIABLE] = str(outcomes_file)
        if mode is not None:
            env[MUTANT_VARIABLE] = f"{name}:{mode}"
        else:
            env.pop(MUTANT_VARIABLE, None)
        command = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "mutants", "-p", "no:cacheprovider",
                   "--tb=no", "--rootdir", str(root.parent),
                   "-c", str(ROOT / "pyproject.toml"), "--hypothesis-profile", "mutant",
                   *extra, *args]
        subprocess.run(command, cwd=root.parent, env=env, timeout=timeout,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        if not outcomes_file.exists():
            raise RuntimeError(f"pytest recorded no outcomes for {name}:{mode}")
        outcomes: dict[str, str] = json.loads(outcomes_file.read_text())
        return outcomes


# --- the pytest plugin ------------------------------------------------------------------------
_outcomes: dict[str, str] = {}


def _register_profile() -> None:
    from hypothesis import Phase, settings

    # A failing example is enough: shrinking it would only cost time. (Registered at import:
    # hypothesis reads ``--hypothesis-profile`` before the plugins' configure hooks run.)
    settings.register_profile("mutant", phases=[Phase.explicit, Phase.generate], database=None)


_register_profile()


def pytest_configure(config: Any) -> None:
    mutant = os.environ.get(MUTANT_VARIABLE)
    if mutant:
        name, mode = mutant.split(":")
        apply(name, mode)


def pytest_runtest_logreport(report: Any) -> None:
    if report.when == "call" or report.outcome != "passed":
        if _outcomes.get(report.nodeid) != "failed":
            _outcomes[report.nodeid] = report.outcome


def pytest_unconfigure(config: Any) -> None:
    path = os.environ.get(OUTCOMES_VARIABLE)
    if path:
        Path(path).write_text(json.dumps(_outcomes))

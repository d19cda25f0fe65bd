"""The data of an assignment: its questions, tests, limits and credit bands (parsed by
:mod:`pacman.grading.assignment`, which documents the file format)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Mapping

from pacman.grading.sandbox import Limits
from pacman.grading.tree_tests import LayeredTree

VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")
METRICS = ("win_rate", "mean_score", "wins", "timeouts", "failures")


@dataclass(frozen=True)
class TestLimits:
    """Limits of one test (see ``[limits]``): ``game_seconds`` is Pacman's total thinking time
    in one game of a game test (``None``: no such limit), as the classic course's
    ``getMaxTotalTime``."""

    move_seconds: float = 2.0
    game_seconds: float | None = None
    test_seconds: float = 60.0
    memory_mb: int = 512
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
    classic_name: str | None = None  # the classic autograder's name of the same test
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
    rules: str = "default"          # game tests: the rules variant (pacman.engine.state.RULES_VARIANTS)
    random: str = "per-game"        # game tests: "per-game" seeds, or one "shared" classic stream
    game: str = "seeded"            # position tests: "seeded", or the "classic" autograder's game


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

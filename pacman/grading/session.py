"""One test's run against a submission: the worker session that runs it, what stops it, and
its result, with the submission's own words cut and named for a student.

The grader (:mod:`pacman.grading.grader`) makes one :class:`Session` per submission and hands it
to the module of each test's kind (:mod:`pacman.grading.tree_grading`,
:mod:`pacman.grading.position_grading`, :mod:`pacman.grading.game_grading`), which asks the
worker through it and ends with :func:`finish_test`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pacman.grading.assignment import Assignment, Test
from pacman.grading.run_limits import STARTUP_SECONDS
from pacman.grading.sandbox import Worker, WorkerFailure
from pacman.grading.state_server import StateServer
from pacman.grading.submissions import python2_reason

#: Seconds a game move may take past its limit before the worker is stopped (the move still
#: counts as a timeout: the game loop compares the time taken with the limit itself).
MOVE_GRACE = 0.25
#: Failing trees described in full in a test's output.
SHOWN_FAILURES = 3
@dataclass
class TestResult:
    """The outcome of one test: its score, what happened, and the diagnosis."""

    question: str
    number: str
    name: str
    score: float
    max_score: float
    visibility: str
    tags: tuple[str, ...]
    output: list[str] = field(default_factory=list)
    diagnosis: list[str] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    load_failure: bool = False
    passed_tests: bool | None = None
    classic_name: str | None = None

    @property
    def label(self) -> str:
        """The test's short name: the classic autograder's (``q2/8-pacman-game``) where it
        has one, else the question and the test's number (``q2/2.1``)."""
        return self.classic_name or f"{self.question}/{self.number}"

    @property
    def passed(self) -> bool:
        if self.passed_tests is not None:
            return self.passed_tests
        return self.score >= self.max_score


class Stop(Exception):
    """Ends a test early (the submission cannot run it); the message explains why."""


class LoadFailed(Stop):
    """The submission cannot even be imported: every other test would fail the same way."""


class Session:
    """The worker of the current test, started (and restarted after a failure) on demand;
    :meth:`start` moves on to the next test."""

    def __init__(self, path: Path, assignment: Assignment, given: Path | None = None) -> None:
        self.path = path
        self.given = given if given is not None and given.is_dir() else path
        self.assignment = assignment
        self.test: Test | None = None
        self.worker: Worker | None = None
        self.found: dict[str, Any] = {}
        self.violations: list[str] = []
        self.printed: list[str] = []
        self.student_traceback = ""
        self.deadline: float | None = None

    def start(self, test: Test) -> None:
        """Make ``test`` the current test; keep the worker only if it is alive, has this test's
        limits and saw no forbidden attempt, and restart its clock."""
        limits = test.limits.worker_limits()
        if self.worker is not None and (self.violations or not self.worker.alive
                                        or self.worker.limits != limits):
            self.worker.close()
            self.worker = None
        # one clock per test, from its first worker's start, whatever becomes of its workers:
        # a worker started after one was killed gets what is left, not a fresh limit
        self.deadline = None
        if self.worker is not None:
            self.deadline = self.worker.deadline = time.monotonic() + limits.wall_seconds
        self.test = test
        self.violations, self.printed, self.student_traceback = [], [], ""

    def ensure(self) -> Worker:
        assert self.test is not None
        needed = [r for r in (self.test.role, self.test.evaluation_role) if r]
        if self.worker is None or not self.worker.alive:
            self._load()
        for role in needed:
            if role not in self.found:
                names = " or ".join(self.assignment.roles[role])
                raise Stop(f"the submission defines no {names}")
        assert self.worker is not None
        return self.worker

    def _load(self) -> None:
        assert self.test is not None
        if self.worker is not None:
            self.worker.close()
        folder = self.path if self.path.is_dir() else self.path.parent
        self.worker = Worker(self.test.limits.worker_limits(), [folder], submission=self.given)
        if self.deadline is None:
            self.deadline = self.worker.deadline
        self.worker.deadline = min(self.worker.deadline, self.deadline)
        roles = {r: list(names) for r, names in self.assignment.roles.items()}
        loaded = self.worker.staged(self.path)
        try:
            reply = self.request({"cmd": "load", "path": str(loaded), "roles": roles},
                                 STARTUP_SECONDS)
        except WorkerFailure as failure:
            raise LoadFailed(f"loading the submission failed: {failure}") from None
        if reply.get("error"):
            error = error_text(reply["error"])
            python2 = python2_reason(self.path) if self.path.is_file() else None
            if python2 is not None and "SyntaxError" in error:
                error = f"{error}: {python2}"
            raise LoadFailed(f"loading the submission failed: {error}")
        found = reply.get("found")
        self.found = found if isinstance(found, dict) else {}

    def request(self, message: dict[str, Any], timeout: float,
                server: StateServer | None = None) -> dict[str, Any]:
        assert self.worker is not None
        reply = self.worker.request(message, timeout, server)
        violations = reply.get("violations")
        for v in violations if isinstance(violations, list) else []:  # the pipe is untrusted
            if isinstance(v, str) and v not in self.violations:
                self.violations.append(v)
        error = reply.get("error")
        told = error.get("student_traceback") if isinstance(error, dict) else None
        if isinstance(told, str) and told and not self.student_traceback:
            self.student_traceback = student_names(told[:3000])
        out = reply.get("output")
        if isinstance(out, str) and out and sum(map(len, self.printed)) < 2000:
            self.printed.append(out)
        return reply

    def close(self) -> None:
        if self.worker is not None:
            self.worker.close()
            self.worker = None


def error_text(error: Any) -> str:
    if isinstance(error, dict):
        kind, message = error.get("type", "Error"), error.get("message", "")
        if kind in ("SystemExit",):
            return f"the submission {message}"
        if kind == "OutputLimitExceeded":
            return f"the submission {message} (output limit)"
        if kind == "NodeBudgetExceeded":
            return f"the submission {message}"
        if kind == "MemoryError":
            return "the submission ran out of memory (MemoryError)"
        return student_names(f"{kind}: {message}")
    return str(error)


#: The grader's own classes a submission's states are, by the names a student knows them by.
_STUDENT_NAMES = {"RemoteClassicState": "GameState", "RemotePositionState": "GameState",
                  "ClassicTreeState": "GameState", "RemoteState": "GameState",
                  "TreeState": "GameState", "ConfigurationError: ": ""}


def student_names(text: str) -> str:
    """``text`` with the grader's internal class names replaced by the ones the student's
    code uses (``'RemoteClassicState' object ...`` reads ``'GameState' object ...``)."""
    for internal, known in _STUDENT_NAMES.items():
        text = text.replace(internal, known)
    return text


#: Characters of what a submission printed shown in a test's output.
SHOWN_PRINTED = 2000


def printed_text(text: str) -> str:
    """What a submission printed, for a test's output: whole when short, else cut at the last
    line (or space) before :data:`SHOWN_PRINTED` characters, saying so."""
    if len(text) <= SHOWN_PRINTED:
        return "the submission printed:\n" + text.rstrip()
    cut = text[:SHOWN_PRINTED]
    end = max(cut.rfind("\n"), cut.rfind(" "))
    cut = cut[:end] if end > 0 else cut
    return (f"the submission printed (more than {SHOWN_PRINTED} characters; the first "
            f"{len(cut)} shown, cut between words):\n" + cut.rstrip() + "\n...")


def finish_test(result: TestResult, session: Session) -> None:
    if session.student_traceback and not result.passed:
        result.output.append(session.student_traceback)
    if session.violations:
        result.score = 0.0
        result.output.append("the submission tried something a grader forbids: "
                             + "; ".join(session.violations[:3]))
    if session.printed:
        result.output.append(printed_text("".join(session.printed)))

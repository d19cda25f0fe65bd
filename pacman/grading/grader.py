"""Grading one submission against an assignment: every test in its own sandboxed worker.

The grader (this process) holds the assignment and computes every reference answer; a worker
(:mod:`pacman.grading.worker`) only ever receives one test input at a time and answers with what
the submission did. Tree tests compare that with the reference search and, on failure, with the
deliberately wrong variants (:mod:`pacman.grading.variants`) to name the mistake. Game tests run
the game loop here, with the ghosts, so a submission can neither change the state nor the rules:
each of Pacman's decisions is a request to the worker.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable

from pacman.errors import ConfigurationError
from pacman.grading.assignment import Assignment, Question, Test
from pacman.grading.sandbox import Worker, WorkerFailure
from pacman.grading.state_server import StateServer
from pacman.grading.submissions import CLASSIC_FILE, find_submission, python2_reason
from pacman.grading.uploads import Upload, inspect_upload
from pacman.grading.run_limits import BUDGET_RESERVE, STARTUP_SECONDS, RunLimits
from pacman.grading.question_rules import all_or_nothing, common_diagnosis, settle_diagnosis

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


@dataclass
class QuestionResult:
    id: str
    title: str
    tests: list[TestResult]

    @property
    def score(self) -> float:
        return sum(t.score for t in self.tests)

    @property
    def max_score(self) -> float:
        return sum(t.max_score for t in self.tests)

    @property
    def diagnosis(self) -> list[str]:
        """The mistakes that explain every diagnosed failing test of the question."""
        return common_diagnosis([t.diagnosis for t in self.tests if not t.passed])


@dataclass
class GradeReport:
    """Everything about one graded submission."""

    submission: str
    assignment: str
    questions: list[QuestionResult]
    seconds: float = 0.0
    leaderboard: list[dict[str, Any]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    @property
    def score(self) -> float:
        return sum(q.score for q in self.questions)

    @property
    def max_score(self) -> float:
        return sum(q.max_score for q in self.questions)


def grade(submission: str | Path, assignment: Assignment, *, questions: set[str] | None = None,
          progress: Callable[[TestResult], None] | None = None,
          limits: RunLimits | None = None) -> GradeReport:
    """Grade ``submission`` (a Python file or a folder of them) on ``assignment``.

    ``questions`` restricts grading to those question ids. ``progress`` is called after each
    test. ``limits`` caps the run (:class:`RunLimits`). Raises :class:`ConfigurationError` if
    the submission does not exist.
    """
    upload = _inspect(Path(submission))
    path = submission_file(Path(submission), upload)
    if questions:
        unknown = questions - {q.id for q in assignment.questions}
        if unknown:
            raise ConfigurationError(f"no question {sorted(unknown)[0]!r} in {assignment.source}")
    began = time.monotonic()
    report = GradeReport(str(submission), assignment.name, [], refused=list(upload.refused))
    session = _Session(path, assignment, Path(submission).resolve())
    try:
        _grade_questions(report, path, assignment, questions, session, progress,
                         limits or RunLimits())
    finally:
        session.close()
    report.seconds = time.monotonic() - began
    return report


def _grade_questions(report: GradeReport, path: Path, assignment: Assignment,
                     questions: set[str] | None, session: _Session,
                     progress: Callable[[TestResult], None] | None, limits: RunLimits) -> None:
    load_failure: str | None = None
    deadline = (None if limits.budget_seconds is None
                else time.monotonic() + limits.budget_seconds - BUDGET_RESERVE)
    for question in assignment.questions:
        if questions and question.id not in questions:
            continue
        results = []
        for test in question.tests:
            limited = limits.apply(test, deadline)
            if load_failure is not None:
                result = _not_run(question, test, load_failure)
            elif limited is None:
                result = _not_run(question, test, "not run: the grading run's time budget "
                                  f"({limits.budget_seconds:g} s) is spent")
            else:
                result = run_test(path, assignment, question, limited, session)
                if limited.limits.test_seconds < test.limits.test_seconds:
                    result.output.append(f"(this test's time limit was cut to "
                                         f"{limited.limits.test_seconds:.0f} s: what was left of "
                                         f"the run's budget of {limits.budget_seconds:g} s)")
                if result.load_failure:
                    load_failure = f"not run: {result.output[0]} (test {result.number})"
            results.append(result)
            if progress is not None:
                progress(result)
            if test.leaderboard and test.leaderboard in result.metrics:
                report.leaderboard.append({"name": f"{test.name}: {test.leaderboard}",
                                           "value": result.metrics[test.leaderboard],
                                           "order": "asc" if test.leaderboard in ("timeouts", "failures") else "desc"})
        settle_diagnosis(results)
        if question.all_or_nothing:
            all_or_nothing(results)
        report.questions.append(QuestionResult(question.id, question.title, results))


def submission_file(path: Path, upload: Upload | None = None) -> Path:
    """The file or folder to grade for ``path``: a folder holding ``multiAgents.py`` (a whole
    classic project, or one nested as on GitHub: ``multiagent/multiAgents.py``) is graded by that
    file alone (:func:`~pacman.grading.submissions.find_submission`). Raises
    :class:`ConfigurationError` when ``path`` is neither a Python file nor a folder, holds no
    Python file, or when what would be graded is something ``upload`` refused (a link, a pipe,
    a device, a file over the size cap: :mod:`pacman.grading.uploads`)."""
    upload = upload or _inspect(path)
    resolved = path.resolve()
    if resolved.is_dir():
        classic = Path(upload.root) / CLASSIC_FILE
        if os.path.lexists(classic) and not upload.taken(classic):
            raise ConfigurationError(f"{upload.reason(classic) or CLASSIC_FILE + ': refused'} "
                                     "(not read)")
        found = find_submission(resolved)
        if found is None:
            why = [line for line in upload.refused if line.partition(":")[0].endswith(".py")]
            raise ConfigurationError(f"{path}: no Python file in the submission"
                                     + (f" ({'; '.join(why[:3])})" if why else ""))
        return found
    if not upload.taken(upload.root):
        raise ConfigurationError(f"{upload.reason(upload.root) or path.name + ': not a regular file'} "
                                 "(not read)")
    if not (resolved.is_file() and resolved.suffix == ".py"):
        raise ConfigurationError(f"{path}: no such Python file or folder")
    return resolved


def _inspect(path: Path) -> Upload:
    try:
        return inspect_upload(path)
    except OSError as error:
        raise ConfigurationError(f"{path}: no such Python file or folder "
                                 f"({error.strerror or error})") from None


def _not_run(question: Question, test: Test, reason: str) -> TestResult:
    return TestResult(question.id, test.number, test.name, 0.0, test.points, test.visibility,
                      test.tags, output=[reason], classic_name=test.classic_name)


def run_test(path: Path, assignment: Assignment, question: Question, test: Test,
             session: _Session | None = None) -> TestResult:
    """Run one test; never raises for anything the submission does.

    With ``session`` the test reuses its worker when that worker is alive, has the test's
    limits and saw no forbidden attempt (its time limits restart); otherwise a fresh one.
    """
    result = TestResult(question.id, test.number, test.name, 0.0, test.points, test.visibility,
                        test.tags, classic_name=test.classic_name)
    began = time.monotonic()
    own = session is None
    session = session or _Session(path, assignment)
    session.start(test)
    try:
        if test.kind == "tree":
            from pacman.grading.tree_grading import tree_test

            tree_test(session, test, result)
        elif test.kind == "positions":
            from pacman.grading.position_grading import position_test

            position_test(session, test, result)
        else:
            from pacman.grading.game_grading import game_test

            game_test(session, test, result)
    except _Stop as stop:
        result.output.append(str(stop))
        if session.student_traceback:
            result.output.append(session.student_traceback)
        result.score = 0.0
        result.load_failure = isinstance(stop, _LoadFailed)
    finally:
        if own:
            session.close()
    result.seconds = time.monotonic() - began
    return result


class _Stop(Exception):
    """Ends a test early (the submission cannot run it); the message explains why."""


class _LoadFailed(_Stop):
    """The submission cannot even be imported: every other test would fail the same way."""


class _Session:
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
                raise _Stop(f"the submission defines no {names}")
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
            raise _LoadFailed(f"loading the submission failed: {failure}") from None
        if reply.get("error"):
            error = _error_text(reply["error"])
            python2 = python2_reason(self.path) if self.path.is_file() else None
            if python2 is not None and "SyntaxError" in error:
                error = f"{error}: {python2}"
            raise _LoadFailed(f"loading the submission failed: {error}")
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


def _error_text(error: Any) -> str:
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


def _finish(result: TestResult, session: _Session) -> None:
    if session.student_traceback and not result.passed:
        result.output.append(session.student_traceback)
    if session.violations:
        result.score = 0.0
        result.output.append("the submission tried something a grader forbids: "
                             + "; ".join(session.violations[:3]))
    if session.printed:
        result.output.append(printed_text("".join(session.printed)))

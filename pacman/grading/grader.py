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
from pacman.grading.submissions import CLASSIC_FILE, find_submission
from pacman.grading.uploads import Upload, inspect_upload
from pacman.grading.run_limits import BUDGET_RESERVE, RunLimits
from pacman.grading.question_rules import all_or_nothing, common_diagnosis, settle_diagnosis
from pacman.grading.sandbox import WorkerFailure
from pacman.grading.session import LoadFailed, Session, Stop, TestResult
from pacman.grading.state_server import StateServer
from pacman.grading.game_grading import game_test
from pacman.grading.position_grading import position_test
from pacman.grading.tree_grading import tree_test

class TimedSession(Session):
    """A :class:`Session` that remembers how the current test's agent last ran out of time
    (:attr:`timed_out`: the failure's words, ``""`` while it has not)."""

    def __init__(self, path: Path, assignment: Assignment, given: Path | None = None) -> None:
        super().__init__(path, assignment, given)
        self.timed_out = ""

    def start(self, test: Test) -> None:
        super().start(test)
        self.timed_out = ""

    def request(self, message: dict[str, Any], timeout: float,
                server: StateServer | None = None) -> dict[str, Any]:
        try:
            return super().request(message, timeout, server)
        except WorkerFailure as failure:
            if failure.kind == "timeout":
                self.timed_out = str(failure)
            raise


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
    session = TimedSession(path, assignment, Path(submission).resolve())
    try:
        _grade_questions(report, path, assignment, questions, session, progress,
                         limits or RunLimits())
    finally:
        session.close()
    report.seconds = time.monotonic() - began
    return report


def _grade_questions(report: GradeReport, path: Path, assignment: Assignment,
                     questions: set[str] | None, session: TimedSession,
                     progress: Callable[[TestResult], None] | None, limits: RunLimits) -> None:
    load_failure: str | None = None
    deadline = (None if limits.budget_seconds is None
                else time.monotonic() + limits.budget_seconds - BUDGET_RESERVE)
    for question in assignment.questions:
        if questions and question.id not in questions:
            continue
        results = []
        late: dict[str, str] = {}  # agent role -> why its later tests are not run
        for test in question.tests:
            limited = limits.apply(test, deadline)
            if load_failure is not None:
                result = _not_run(question, test, load_failure)
            elif test.role in late:
                result = _not_run(question, test, late[test.role])
            elif limited is None:
                result = _not_run(question, test, "not run: the grading run's time budget "
                                  f"({limits.budget_seconds:g} s) is spent")
            else:
                result = run_test(path, assignment, question, limited, session)
                if (limited.limits.test_seconds < test.limits.test_seconds
                        and not result.load_failure):  # a file that did not load: beside the point
                    result.output.append(f"(this test's time limit was cut to "
                                         f"{limited.limits.test_seconds:.0f} s: what was left of "
                                         f"the run's budget of {limits.budget_seconds:g} s)")
                if result.load_failure:
                    load_failure = f"not run: {result.output[0]} (test {result.number})"
                if question.all_or_nothing and session.timed_out and test.role:
                    late[test.role] = _after_timeout(question, limited, session.timed_out)
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


def _after_timeout(question: Question, test: Test, failure: str) -> str:
    """Why a question's later tests of the same agent are not run once ``test`` ran out of
    time: the question is all or nothing, so they cannot change its score, and each would wait
    out its own limit again (an endless loop makes every test wait its whole limit)."""
    why = (f"limit {test.limits.move_seconds:g} s per move" if failure.startswith("no answer")
           else failure)
    return (f"not run: test {test.number} ran out of time ({why}), and {question.id} gives "
            f"points only when all its tests pass: make {test.number} end in time first")


def _not_run(question: Question, test: Test, reason: str) -> TestResult:
    return TestResult(question.id, test.number, test.name, 0.0, test.points, test.visibility,
                      test.tags, output=[reason], classic_name=test.classic_name)


def run_test(path: Path, assignment: Assignment, question: Question, test: Test,
             session: Session | None = None) -> TestResult:
    """Run one test; never raises for anything the submission does.

    With ``session`` the test reuses its worker when that worker is alive, has the test's
    limits and saw no forbidden attempt (its time limits restart); otherwise a fresh one.
    """
    result = TestResult(question.id, test.number, test.name, 0.0, test.points, test.visibility,
                        test.tags, classic_name=test.classic_name)
    began = time.monotonic()
    own = session is None
    session = session or Session(path, assignment)
    session.start(test)
    try:
        if test.kind == "tree":
            tree_test(session, test, result)
        elif test.kind == "positions":
            position_test(session, test, result)
        else:
            game_test(session, test, result)
    except Stop as stop:
        result.output.append(str(stop))
        if session.student_traceback:
            result.output.append(session.student_traceback)
        result.score = 0.0
        result.load_failure = isinstance(stop, LoadFailed)
    finally:
        if own:
            session.close()
    result.seconds = time.monotonic() - began
    return result

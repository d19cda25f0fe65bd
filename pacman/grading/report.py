"""Reports of a graded submission: readable text, JSON, and Gradescope's ``results.json``.

Gradescope's format (its autograder specification): a top-level object with ``score``,
``execution_time`` (whole seconds), ``output``, ``visibility``, ``stdout_visibility``,
``tests`` and ``leaderboard``. Each test has ``score`` and ``max_score`` (numbers), ``status``
(``passed`` or ``failed``), ``name``, ``number`` (a string such as ``"2.3"``), ``output``,
``tags`` (strings) and ``visibility`` (``visible``, ``hidden``, ``after_due_date`` or
``after_published``). A leaderboard entry has ``name``, ``value`` and optionally ``order``
(``asc`` or ``desc``).
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

from pacman.errors import ConfigurationError
from pacman.grading.grader import GradeReport
from pacman.grading.session import TestResult
from pacman.grading.sandbox import identity_line, jail_status, workers_run_as_root
from pacman.grading.question_rules import common_diagnosis
from pacman.grading.variants import BUGS


def text_report(report: GradeReport) -> str:
    """The terminal report: per question, per test, what was expected, what happened, why."""
    lines = [f"{report.assignment}: {report.submission}", sandbox_line(),
             *refused_lines(report)]
    broken = nothing_graded(report)  # a rerun would fail the same way until the file loads
    for question in report.questions:
        lines.append("")
        lines.append(f"{question.id} {question.title}: {_points(question.score)}/"
                     f"{_points(question.max_score)}")
        for bug in question.diagnosis:
            lines.append(f"  diagnosis: {BUGS[bug]}")
        for test in question.tests:
            mark = "PASS" if test.passed else ("PART" if test.score > 0 else "FAIL")
            hidden = "" if test.visibility == "visible" else f" [{test.visibility}]"
            lines.append(f"  {mark} {test.number} {test.name}{hidden}: {_points(test.score)}/"
                         f"{_points(test.max_score)}")
            for line in test.output:
                if line.startswith(NOT_LOADED) and line.endswith(")"):
                    # the load error is shown once, by the test that met it
                    line = f"not run: the submission did not load ({line.rpartition('(')[2]}"
                lines.extend("      " + part for part in line.splitlines())
        if any(not t.passed for t in question.tests) and not broken:
            lines.append(f"  rerun: {rerun_command(report, question.id)}")
    lines.append("")
    lines.append(f"total: {_points(report.score)}/{_points(report.max_score)}  "
                 f"({report.seconds:.1f} s)")
    for entry in report.leaderboard:
        lines.append(f"leaderboard: {entry['name']} = {_number(entry['value'])}")
    return "\n".join(lines)


#: How the output of a test starts when an earlier test found that the submission does not load.
NOT_LOADED = "not run: loading the submission failed"


def nothing_graded(report: GradeReport) -> bool:
    """Whether no test could run the submission (it did not load): the command then fails."""
    tests = [t for q in report.questions for t in q.tests]
    return bool(tests) and all(
        t.output and (t.output[0].startswith(("loading the submission failed", NOT_LOADED)))
        for t in tests)


def student_text_report(report: GradeReport) -> str:
    """The report a student may see: tests that are not ``visible`` appear as hidden, with
    neither their points nor their output, and the diagnosis comes from visible tests only."""
    lines = [f"{report.assignment}: {Path(report.submission).name}", *refused_lines(report)]
    for question in report.questions:
        lines.append("")
        lines.append(f"{question.id} {question.title}: {_points(question.score)}/"
                     f"{_points(question.max_score)}")
        visible = [t for t in question.tests if t.visibility == "visible"]
        failing = [t.diagnosis for t in visible if not t.passed and t.diagnosis]
        if failing:
            for bug in common_diagnosis(failing):
                lines.append(f"  diagnosis: {BUGS[bug]}")
        for test in question.tests:
            if test.visibility != "visible":
                lines.append(f"  HIDDEN {test.number} {test.name}: hidden test "
                             f"({test.visibility.replace('_', ' ')})")
                continue
            mark = "PASS" if test.passed else ("PART" if test.score > 0 else "FAIL")
            lines.append(f"  {mark} {test.number} {test.name}: {_points(test.score)}/"
                         f"{_points(test.max_score)}")
            for line in test.output:
                lines.extend("      " + part for part in line.splitlines())
        if any(not t.passed for t in question.tests):
            lines.append(f"  rerun on your computer: {rerun_command(report, question.id)}")
    lines.append("")
    lines.append(f"total: {_points(report.score)}/{_points(report.max_score)}")
    return "\n".join(lines)


def json_report(report: GradeReport) -> dict[str, Any]:
    """Everything in the report as plain JSON data."""
    return {
        "submission": report.submission, "assignment": report.assignment,
        "score": report.score, "max_score": report.max_score,
        "seconds": round(report.seconds, 3), "leaderboard": report.leaderboard,
        "sandbox": sandbox_line(), "refused": report.refused,
        "questions": [{
            "id": q.id, "title": q.title, "score": q.score, "max_score": q.max_score,
            "diagnosis": q.diagnosis,
            "tests": [_test_json(t) for t in q.tests]} for q in report.questions],
    }


def _test_json(test: TestResult) -> dict[str, Any]:
    return {"number": test.number, "name": test.name, "score": test.score,
            "max_score": test.max_score, "passed": test.passed, "visibility": test.visibility,
            "tags": list(test.tags), "output": test.output, "diagnosis": test.diagnosis,
            "metrics": test.metrics, "seconds": round(test.seconds, 3)}


def refused_lines(report: GradeReport) -> list[str]:
    """One line per entry of the upload that was not read (a link, a pipe, a device, a file
    over the size cap: :mod:`pacman.grading.uploads`)."""
    return [f"not read from the upload: {line}" for line in report.refused]


def rerun_command(report: GradeReport, question: str) -> str:
    """The command that grades ``question`` again on the student's own computer."""
    name = Path(report.submission).name
    return f"pacman-arena grade {name if name.endswith('.py') else 'multiAgents.py'} -q {question}"


def gradescope_results(report: GradeReport) -> dict[str, Any]:
    """Gradescope's ``results.json`` (see the module docstring). Each test is named by its
    :attr:`~pacman.grading.grader.TestResult.label` (``q2/8-pacman-game: ...``); a failed
    test's output ends with the command that reruns its question locally."""
    tests = []
    for question in report.questions:
        for test in question.tests:
            output = list(test.output)
            if not test.passed:
                output.append(f"To rerun this question on your computer: "
                              f"{rerun_command(report, question.id)}")
            tests.append({
                "score": float(test.score), "max_score": float(test.max_score),
                "status": "passed" if test.passed else "failed",
                "name": f"{test.label}: {question.title}, {test.name}", "number": test.number,
                "output": "\n".join(output), "tags": [question.id, *test.tags],
                "visibility": test.visibility,
            })
    summary = "; ".join(f"{q.id} {_points(q.score)}/{_points(q.max_score)}"
                        for q in report.questions)
    return {
        "score": float(report.score), "execution_time": int(math.ceil(report.seconds)),
        "output": "\n".join([f"{report.assignment}: {_points(report.score)}/"
                              f"{_points(report.max_score)} ({summary})", *refused_lines(report)]),
        "visibility": "visible", "stdout_visibility": "hidden", "tests": tests,
        "extra_data": {"sandbox": sandbox_line(), **instructor_warnings()},
        "leaderboard": [{"name": e["name"], "value": _leaderboard_value(e["value"]),
                         "order": e.get("order", "desc")} for e in report.leaderboard],
    }


def error_results(message: str, error: str | None = None) -> dict[str, Any]:
    """A valid ``results.json`` for a submission the grader could not grade: score 0,
    ``message`` for the student, ``error`` (the grader's own error) for the instructor only."""
    return {
        "score": 0.0, "execution_time": 0, "output": message, "visibility": "visible",
        "stdout_visibility": "hidden", "tests": [],
        "extra_data": {"sandbox": sandbox_line(), "grader_error": error},
    }


def write_json(data: Any, path: str | Path) -> None:
    """Write ``data`` as JSON to ``path`` atomically: a temporary file in the same folder, then
    renamed over ``path`` (a reader sees the old file or the new one, never a part)."""
    target = Path(path)
    try:
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(json.dumps(data, indent=2) + "\n")
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as error:
        raise ConfigurationError(f"{path}: cannot be written ({error.strerror or error})") from None


def instructor_warnings() -> dict[str, str]:
    """What the instructor must know about this run and the student need not see (Gradescope
    shows ``extra_data`` to the course staff only): workers that ran as root."""
    if not workers_run_as_root():
        return {}
    return {"warning": f"student code ran as root: workers run {identity_line()}; rebuild the "
                       "image so that setup.sh finds or installs a Python every user can run"}


def sandbox_line() -> str:
    """The boundary around workers and the user they run as, in one line."""
    return f"{jail_status().line}; workers run {identity_line()}"


def _leaderboard_value(value: Any) -> float:
    return round(float(value), 2)


def _points(value: float) -> str:
    return f"{value:g}"


def _number(value: Any) -> str:
    return f"{value:.1f}" if isinstance(value, float) else str(value)

"""Batch grading: a folder of submissions, in parallel, into one gradebook plus one report each.

A folder of submissions holds one Python file or one folder per student (names starting with
``.`` or ``_`` are skipped). A student's id is the full name of that file or folder
(``alice.py``, ``bob.smith``, ``bob.jones``), so no two students share one. A student's folder
holding the whole classic project (or one nested as on GitHub) is graded by its
``multiAgents.py`` alone (:mod:`pacman.grading.submissions`). Every entry gets a row: one that
cannot be graded (an empty folder or file, an archive, a text file, an unreadable file) gets
its status and no points. The whole folder is graded on one assignment: the one given, else
the shipped one most submissions call for (``classic`` on a tie), named in every row.

Out of a run come, in the output folder:

* ``gradebook.csv``: one row per entry, in sorted order of ids: the assignment, per-question
  points, total, maximum and status (``graded``, ``did not load: ...``, ``grader error: ...``,
  ``missing: ...``, ``unsupported: ...`` or ``unreadable: ...``);
* ``<id>.txt``: the student's report, showing only what students may see (tests that are not
  ``visible`` appear as hidden, with neither points nor details);
* ``<id>.results.json``: Gradescope's results (Gradescope applies the visibilities itself);
* ``instructor/<id>.json``: the full report.
"""

from __future__ import annotations

import csv
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable

from pacman.errors import ConfigurationError
from pacman.grading.assignment import (CLASSIC_ASSIGNMENT, Assignment, assignment_for,
                                       load_assignment)
from pacman.grading.grader import grade
from pacman.grading.run_limits import RunLimits
from pacman.grading.submissions import entries
from pacman.grading.uploads import read_regular
from pacman.grading.report import (gradescope_results, json_report, student_text_report,
                                   write_json)

GRADEBOOK = "gradebook.csv"


@dataclass(frozen=True)
class BatchSummary:
    count: int
    csv_path: Path
    seconds: float


def submissions_in(folder: Path) -> list[Path]:
    """The submissions of a batch folder: its ``.py`` files and sub-folders, sorted by name."""
    return [e.path for e in entries(folder) if e.path.is_dir() or e.path.suffix == ".py"]


def is_batch_folder(folder: Path, assignment: Assignment | None = None) -> bool:
    """Whether ``folder`` holds submissions rather than being one.

    It is one submission when it holds ``multiAgents.py`` (a classic project), or has no
    sub-folders and exactly one Python file defining one of the assignment's names (by default
    those of the shipped assignment); with several such files, or with sub-folders, each file
    and folder is a student's.
    """
    if (folder / "multiAgents.py").is_file():
        return False
    entries = submissions_in(folder)
    if any(p.is_dir() for p in entries):
        return True
    if assignment is None:
        assignment = load_assignment()
    names = {n for names in assignment.roles.values() for n in names}
    defining = [f for f in entries if _defines(f, names)]
    return len(defining) != 1 and bool(entries)


def _defines(file: Path, names: set[str]) -> bool:
    try:
        text = read_regular(file).decode("utf-8", errors="replace")
    except OSError:
        return False
    return any(f"class {n}" in text or f"def {n}" in text or f"{n} =" in text for n in names)


def default_out(folder: Path) -> Path:
    return folder.resolve().parent / f"{folder.resolve().name}-grades"


def _grade_one(path: str, assignment_source: str, questions: list[str],
               out: str, limits: RunLimits | None = None) -> dict:
    student = Path(path).name
    report = grade(path, load_assignment(assignment_source), questions=set(questions), limits=limits)
    Path(out, f"{student}.txt").write_text(student_text_report(report) + "\n", encoding="utf-8")
    write_json(gradescope_results(report), Path(out, f"{student}.results.json"))
    write_json(json_report(report), Path(out, "instructor", f"{student}.json"))
    failed_load = next((t.output[0] for q in report.questions for t in q.tests if t.load_failure),
                       None)
    return {"total": report.score, "max": report.max_score,
            "status": "graded" if failed_load is None else f"did not load: {failed_load}",
            **{q.id: q.score for q in report.questions}}


def grade_directory(folder: Path, assignment: Assignment | None, out: Path, *, jobs: int = 2,
                    questions: set[str] | None = None,
                    progress: Callable[[str], None] | None = None,
                    limits: RunLimits | None = None) -> BatchSummary:
    """Grade every submission of ``folder`` with ``jobs`` processes into ``out`` (see the
    module docstring). ``assignment`` ``None`` grades each submission on the shipped
    assignment its API calls for (:func:`~pacman.grading.assignment.assignment_for`)."""
    began = time.monotonic()
    found = entries(folder)
    if not found:
        raise ConfigurationError(f"{folder}: no submissions (Python files or folders) in it")
    try:
        (out / "instructor").mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ConfigurationError(f"{out}: cannot create the output folder ({error.strerror})") from None
    gradable = [e for e in found if e.target is not None]
    if assignment is None:
        source = common_assignment([e.path for e in gradable])
        assignment = load_assignment(source)
    else:
        source = assignment.source.removeprefix("assignment ")
    name = source if assignment.source.startswith("assignment ") else Path(source).name
    rows: dict[str, dict] = {e.student: {"status": e.status} for e in found if e.target is None}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(_grade_one, str(e.path), source, sorted(questions or ()), str(out),
                               limits): e.student for e in gradable}
        for future, student in futures.items():
            try:
                row = future.result()
            except Exception as error:  # one broken grade must not lose the others
                row = {"status": f"grader error: {type(error).__name__}: {error}"}
            rows[student] = row
            if progress is not None:
                progress(f"{student}: " + (f"{row['total']:g}/{row['max']:g}" if "total" in row
                                           else "") + ("" if row["status"] == "graded"
                                                       else f" ({row['status']})"))
    for row in rows.values():
        row["assignment"] = name
    csv_path = out / GRADEBOOK
    _write_gradebook(csv_path, rows, _question_ids(rows, assignment, questions))
    return BatchSummary(len(found), csv_path, time.monotonic() - began)


def common_assignment(paths: list[Path]) -> str:
    """The shipped assignment most of ``paths`` call for (``classic`` on a tie or for none)."""
    votes = [assignment_for(p) for p in paths]
    return max(sorted(set(votes)), key=lambda n: (votes.count(n), n == CLASSIC_ASSIGNMENT),
               default=CLASSIC_ASSIGNMENT)


def _question_ids(rows: dict[str, dict], assignment: Assignment | None,
                  questions: set[str] | None) -> list[str]:
    if assignment is not None:
        return [q.id for q in assignment.questions if not questions or q.id in questions]
    seen: dict[str, None] = {}
    for row in rows.values():
        seen.update((k, None) for k in row if k not in ("total", "max", "status"))
    return sorted(seen, key=lambda q: (len(q), q))


def _write_gradebook(path: Path, rows: dict[str, dict], ids: list[str]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", "assignment", *ids, "total", "max", "status"])
        for student in sorted(rows):
            row = rows[student]
            writer.writerow([student, row.get("assignment", ""), *(_cell(row.get(i)) for i in ids),
                             _cell(row.get("total")), _cell(row.get("max")), row.get("status", "")])


def _cell(value: object) -> str:
    return "" if value is None else f"{value:g}"

"""Batch grading: every submission in a folder, in parallel, into one CSV plus one report each.

A folder of submissions holds one Python file or one folder per student (names starting with
``.`` or ``_`` are skipped). Submissions are graded by a process pool (each grade runs its own
sandboxed workers); the order of rows in ``scores.csv`` is the sorted order of the names, so a
run is reproducible whatever order the pool finishes in.
"""

from __future__ import annotations

import csv
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from pacman.errors import ConfigurationError
from pacman.grading.assignment import Assignment, load_assignment
from pacman.grading.grader import grade
from pacman.grading.report import gradescope_results, json_report, text_report, write_json


@dataclass(frozen=True)
class BatchSummary:
    count: int
    csv_path: Path
    seconds: float


def submissions_in(folder: Path) -> list[Path]:
    """The submissions of a batch folder: its ``.py`` files and sub-folders, sorted by name."""
    entries = [p for p in sorted(folder.iterdir()) if not p.name.startswith((".", "_"))
               and (p.is_dir() or p.suffix == ".py") and p.name != "__pycache__"]
    return entries


def is_batch_folder(folder: Path, assignment: Assignment) -> bool:
    """A folder is a batch when none of its own files defines one of the assignment's names."""
    names = {n for names in assignment.roles.values() for n in names}
    for file in folder.glob("*.py"):
        try:
            text = file.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if any(f"class {n}" in text or f"def {n}" in text or f"{n} =" in text for n in names):
            return False
    return True


def default_out(folder: Path) -> Path:
    return folder.resolve().parent / f"{folder.resolve().name}-grades"


def _grade_one(path: str, assignment_source: str, questions: list[str], out: str) -> tuple[str, dict]:
    assignment = load_assignment(assignment_source)
    report = grade(path, assignment, questions=set(questions))
    stem = Path(path).stem
    Path(out, f"{stem}.txt").write_text(text_report(report) + "\n", encoding="utf-8")
    write_json(json_report(report), Path(out, f"{stem}.json"))
    write_json(gradescope_results(report), Path(out, f"{stem}.results.json"))
    return stem, {"total": report.score, "max": report.max_score,
                  **{q.id: q.score for q in report.questions}}


def grade_directory(folder: Path, assignment: Assignment, out: Path, *, jobs: int = 2,
                    questions: set[str] | None = None,
                    progress: Callable[[str], None] | None = None) -> BatchSummary:
    """Grade every submission of ``folder`` with ``jobs`` processes; write ``out/scores.csv``
    and ``out/<name>.txt``, ``.json`` and ``.results.json`` per submission."""
    began = time.monotonic()
    subs = submissions_in(folder)
    if not subs:
        raise ConfigurationError(f"{folder}: no submissions (Python files or folders) in it")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ConfigurationError(f"{out}: cannot create the output folder ({error.strerror})") from None
    source = assignment.source.removeprefix("assignment ")
    rows: dict[str, dict] = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(_grade_one, str(p), source, sorted(questions or ()), str(out)): p
                   for p in subs}
        for future, path in futures.items():
            try:
                stem, row = future.result()
            except Exception as error:  # one broken grade must not lose the others
                stem, row = path.stem, {"error": f"{type(error).__name__}: {error}"}
            rows[stem] = row
            if progress is not None:
                progress(f"{stem}: " + (f"{row['total']:g}/{row['max']:g}" if "total" in row
                                        else row["error"]))
    ids = [q.id for q in assignment.questions if not questions or q.id in questions]
    csv_path = out / "scores.csv"
    with open(csv_path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", *ids, "total", "max", "error"])
        for stem in sorted(rows):
            row = rows[stem]
            writer.writerow([stem, *(_cell(row.get(i)) for i in ids), _cell(row.get("total")),
                             _cell(row.get("max")), row.get("error", "")])
    return BatchSummary(len(subs), csv_path, time.monotonic() - began)


def _cell(value: object) -> str:
    return "" if value is None else f"{value:g}"

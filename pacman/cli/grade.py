"""``grade``: grade a submission, or a folder of submissions, against an assignment.

Usage: ``grade [SUBMISSION] [--assignment FILE] [--json OUT] [--gradescope OUT] [--question ID
...]`` prints the report of one submission (a Python file, or a folder holding one submission,
such as a whole classic project, graded by its ``multiAgents.py``); without ``SUBMISSION``,
``./multiAgents.py`` is graded (one line says so). ``grade DIR --out OUT`` grades every
submission of a folder of submissions (detected: a folder holding neither ``multiAgents.py`` nor
a file defining the assignment's agents) into ``OUT/gradebook.csv`` plus one report per student.
``grade --gradescope-package DIR`` writes Gradescope's autograder bundle.

Without ``--assignment``, a file written against the classic course's API is graded on the
shipped ``classic`` assignment, anything else on ``default`` (``lecture`` is another name for
it). With ``--gradescope OUT``, ``OUT`` is always written: a submission the grader cannot grade
(nothing to grade, or an error of the grader itself) gets score 0 and the reason.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

from pacman.cli.argtypes import whole_number
from pacman.errors import ConfigurationError
from pacman.grading.assignment import (CLASSIC_ASSIGNMENT, Assignment, assignment_for,
                                       load_assignment)
from pacman.grading.batch import default_out, grade_directory, is_batch_folder
from pacman.grading.grader import grade
from pacman.grading.run_limits import RunLimits
from pacman.grading.gradescope import PLATFORM_BUDGET_SECONDS, PLATFORM_MEMORY_MB, write_package
from pacman.grading.report import (error_results, gradescope_results, json_report,
                                   nothing_graded, text_report, write_json)

#: The file graded when no submission is given (the classic project's).
DEFAULT_SUBMISSION = "multiAgents.py"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("submission", metavar="SUBMISSION", nargs="?",
                        help="a Python file or folder to grade, or a folder of submissions "
                             f"(default: ./{DEFAULT_SUBMISSION})")
    parser.add_argument("--assignment", "-a", metavar="FILE",
                        help="assignment TOML file or shipped name: classic, default or lecture "
                             "(default: classic for classic-API files, else default)")
    parser.add_argument("--question", "-q", action="append", metavar="ID",
                        help="grade only this question (repeatable): q2, Q2 or 2")
    parser.add_argument("--no-graphics", action="store_true",
                        help="accepted for the classic autograder's habit: grading never "
                             "draws")
    parser.add_argument("--json", metavar="OUT", help="also write the report as JSON to OUT")
    parser.add_argument("--gradescope", metavar="OUT",
                        help="also write Gradescope's results.json to OUT (always written)")
    parser.add_argument("--batch", action="store_true",
                        help="SUBMISSION is a folder of submissions (detected when possible)")
    parser.add_argument("--single", action="store_true",
                        help="SUBMISSION is one submission, even a folder that looks like many")
    parser.add_argument("--out", metavar="DIR",
                        help="batch: where gradebook.csv and the reports go (default: DIR-grades)")
    parser.add_argument("--jobs", "-j", type=whole_number(1), default=2, metavar="N",
                        help="batch: submissions graded at the same time (default: 2)")
    parser.add_argument("--time-budget", type=_seconds, metavar="SECONDS",
                        help="wall time of the whole run per submission: each test's limit is "
                             "cut to what is left, so that a submission that loops still ends "
                             f"(default: {PLATFORM_BUDGET_SECONDS:g}, as in the Gradescope bundle)")
    parser.add_argument("--memory-mb", type=whole_number(64), metavar="MB",
                        help="at most this much memory for each test's process (bundle default: "
                             f"{PLATFORM_MEMORY_MB})")
    parser.add_argument("--gradescope-package", metavar="DIR",
                        help="write Gradescope's autograder bundle (setup.sh, run_autograder) "
                             "into DIR and stop")


def run(args: argparse.Namespace) -> int:
    if args.gradescope_package:
        scripts = write_package(Path(args.gradescope_package), args.assignment,
                                budget_seconds=args.time_budget or PLATFORM_BUDGET_SECONDS,
                                memory_mb=args.memory_mb or PLATFORM_MEMORY_MB)
        print(f"wrote {', '.join(str(s) for s in scripts)} and the project; zip the contents "
              f"of {args.gradescope_package} and upload it as the autograder")
        return 0
    if args.gradescope:
        return _run_always_writing(args, args.gradescope)
    return _run(args)


def _run_always_writing(args: argparse.Namespace, results: str) -> int:
    """:func:`_run`, but ``results`` is written whatever happens (see the module docstring)."""
    try:
        return _run(args)
    except ConfigurationError as error:
        write_json(error_results(f"Nothing was graded: {error}", str(error)), results)
        raise
    except Exception as error:  # the grader's own failure: the student still gets an answer
        detail = "".join(traceback.format_exception(error))
        write_json(error_results("The autograder could not grade this submission (an error of "
                                 "the grader, not of your code); the course staff have the "
                                 f"details. ({type(error).__name__})", detail[-4000:]), results)
        print(detail, file=sys.stderr, end="")
        from pacman.cli import print_error

        print_error(f"grade: the grader failed ({type(error).__name__}: {error}); {results} says so "
                    "with score 0")
        return 1


def _run(args: argparse.Namespace) -> int:
    if args.submission is None:
        if not Path(DEFAULT_SUBMISSION).is_file():
            raise ConfigurationError(f"grade: give a SUBMISSION (there is no ./{DEFAULT_SUBMISSION} "
                                     "here), or --gradescope-package DIR")
        args.submission = DEFAULT_SUBMISSION
        print(f"grading ./{DEFAULT_SUBMISSION} (no submission given)", file=sys.stderr)
    path = Path(args.submission)
    limits = RunLimits(memory_mb=args.memory_mb,
                       budget_seconds=args.time_budget or PLATFORM_BUDGET_SECONDS)
    given = load_assignment(args.assignment) if args.assignment else None
    questions = set(args.question or ())
    if path.is_dir() and not args.single and (args.batch or is_batch_folder(path, given)):
        out = Path(args.out) if args.out else default_out(path)
        summary = grade_directory(path, given, out, jobs=args.jobs, questions=questions,
                                  progress=lambda line: print(line, flush=True), limits=limits)
        print(f"{summary.count} submissions graded in {summary.seconds:.1f} s; gradebook in "
              f"{summary.csv_path}")
        return 0
    if not path.exists():
        raise ConfigurationError(f"{path}: no such Python file or folder")
    if not (path.is_file() or path.is_dir()):
        raise ConfigurationError(f"{path}: not a Python file or folder (a device or a pipe)")
    assignment = given or load_assignment(chosen_assignment(path))
    questions = question_ids(args.question or (), assignment)
    report = grade(path, assignment, questions=questions, limits=limits,
                   progress=lambda t: print(f"  {t.number} {t.name}: {t.score:g}/{t.max_score:g}",
                                            file=sys.stderr, flush=True))
    print(text_report(report))
    if args.json:
        write_json(json_report(report), args.json)
    if args.gradescope:
        write_json(gradescope_results(report), args.gradescope)
    if nothing_graded(report):
        from pacman.cli import print_error

        print_error(f"grade: nothing could be graded: {path.name} did not load (see test "
                    f"{report.questions[0].tests[0].number} above)")
        return 1
    return 0


def question_ids(asked: Sequence[str], assignment: Assignment) -> set[str]:
    """The questions ``-q`` names, each as ``q2``, ``Q2`` or ``2``; a name that is none of the
    assignment's questions is a :class:`ConfigurationError` listing them."""
    known = [q.id for q in assignment.questions]
    by_key = {q.lower().removeprefix("q"): q for q in known}
    chosen = set()
    for text in asked:
        found = text if text in known else by_key.get(text.strip().lower().removeprefix("q"))
        if found is None:
            raise ConfigurationError(f"no question {text[:40]!r} in {assignment.name}; its "
                                     f"questions are {', '.join(known)} (-q q2, Q2 or 2)")
        chosen.add(found)
    return chosen


#: Classes only a file of the classic multi-agent project defines.
_CLASSIC_CLASSES = re.compile(r"^class\s+(MultiAgentSearchAgent|ReflexAgent|MinimaxAgent|"
                              r"AlphaBetaAgent|ExpectimaxAgent)\b", re.M)
_CLASSIC_IMPORTS = re.compile(r"^\s*(import\s+util|from\s+(game|util)\s+import)", re.M)


def chosen_assignment(path: Path) -> str:
    """The assignment a submission is graded on without ``--assignment``: the one its API
    calls for, and for a file that does not parse (a syntax error), ``classic`` when a
    tolerant reading finds the classic project in it (its file name ``multiAgents.py``, its
    imports or its class names), so one syntax error does not change the assignment."""
    name = assignment_for(path)
    if name == CLASSIC_ASSIGNMENT:
        return name
    from pacman.grading.submissions import find_submission

    found = find_submission(path) if path.is_dir() else path
    if found is None or not found.is_file() or _parses(found):
        return name
    try:
        text = found.read_text(encoding="utf-8", errors="replace")[:1_000_000]
    except OSError:
        return name
    classic = (found.name == DEFAULT_SUBMISSION or _CLASSIC_IMPORTS.search(text) is not None
               or len(set(_CLASSIC_CLASSES.findall(text))) >= 2)
    return CLASSIC_ASSIGNMENT if classic else name


def _parses(path: Path) -> bool:
    try:
        ast.parse(path.read_bytes()[:16_000_000])
    except (SyntaxError, ValueError, OSError):
        return False
    return True


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 30 <= value <= 86_400:
        raise argparse.ArgumentTypeError(f"{text}: give between 30 and 86400 seconds")
    return value

"""``grade``: grade a submission (or a folder of submissions) against an assignment.

Usage: ``grade SUBMISSION [--assignment FILE] [--json OUT] [--gradescope OUT]
[--question ID ...]`` prints the report of one submission (a Python file, or a folder holding
one submission). ``grade DIR_OF_SUBMISSIONS --batch [--out DIR] [--jobs N]`` grades every
submission in the folder in parallel into ``scores.csv`` plus one report per student. A folder
is graded as a batch when it holds no module defining the assignment's agents itself.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pacman.commands.argtypes import whole_number
from pacman.grading.assignment import load_assignment
from pacman.grading.batch import default_out, grade_directory, is_batch_folder
from pacman.grading.grader import grade
from pacman.grading.report import gradescope_results, json_report, text_report, write_json


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("submission", metavar="SUBMISSION",
                        help="a Python file or folder to grade, or a folder of submissions")
    parser.add_argument("--assignment", "-a", metavar="FILE",
                        help="assignment TOML file or shipped name (default: default)")
    parser.add_argument("--question", "-q", action="append", metavar="ID",
                        help="grade only this question (repeatable)")
    parser.add_argument("--json", metavar="OUT", help="also write the report as JSON to OUT")
    parser.add_argument("--gradescope", metavar="OUT",
                        help="also write Gradescope's results.json to OUT")
    parser.add_argument("--batch", action="store_true",
                        help="SUBMISSION is a folder of submissions (detected when possible)")
    parser.add_argument("--out", metavar="DIR",
                        help="batch: where scores.csv and the reports go (default: DIR-grades)")
    parser.add_argument("--jobs", "-j", type=whole_number(1), default=2, metavar="N",
                        help="batch: submissions graded at the same time (default: 2)")


def run(args: argparse.Namespace) -> int:
    assignment = load_assignment(args.assignment)
    path = Path(args.submission)
    questions = set(args.question or ())
    if path.is_dir() and (args.batch or is_batch_folder(path, assignment)):
        out = Path(args.out) if args.out else default_out(path)
        summary = grade_directory(path, assignment, out, jobs=args.jobs, questions=questions,
                                  progress=lambda line: print(line, flush=True))
        print(f"{summary.count} submissions graded in {summary.seconds:.1f} s; scores in "
              f"{summary.csv_path}")
        return 0
    report = grade(path, assignment, questions=questions,
                   progress=lambda t: print(f"  {t.number} {t.name}: {t.score:g}/{t.max_score:g}",
                                            file=sys.stderr, flush=True))
    print(text_report(report))
    if args.json:
        write_json(json_report(report), args.json)
    if args.gradescope:
        write_json(gradescope_results(report), args.gradescope)
    return 0

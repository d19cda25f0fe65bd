"""Grading speed: seconds to grade the zoo's correct submissions on the default assignment.

Usage: ``python bench/bench_grading.py [--repeats R]``

Prints, per submission, the best wall time of ``R`` gradings (target: under 10 s for one
correct submission), its score, and the share of the time spent per question, so the slowest
question stands out.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pacman.grading.assignment import load_assignment  # noqa: E402
from pacman.grading.grader import grade  # noqa: E402

SUBMISSIONS = ("correct_native.py", "correct_classic.py")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    assignment = load_assignment(None)
    print(f"{'submission':<22}{'seconds':>9}{'score':>9}   per question (s)")
    for name in SUBMISSIONS:
        best = float("inf")
        report = None
        per_question: dict[str, float] = {}
        for _ in range(max(1, args.repeats)):
            marks: dict[str, float] = {}
            began = last = time.perf_counter()

            def tick(test, marks=marks) -> None:
                nonlocal last
                now = time.perf_counter()
                qid = test.number.split(".")[0]
                marks[qid] = marks.get(qid, 0.0) + now - last
                last = now

            report = grade(ROOT / "tests" / "grading" / "zoo" / name, assignment, progress=tick)
            spent = time.perf_counter() - began
            if spent < best:
                best, per_question = spent, marks
        shares = "  ".join(f"q{q}:{s:.1f}" for q, s in sorted(per_question.items()))
        print(f"{name:<22}{best:>9.2f}{report.score:>5}/{report.max_score:<3}   {shares}")
    print("target: under 10 s per correct submission")


if __name__ == "__main__":
    main()

"""Grading speed: this project's grader against the classic course's autograder, side by side.

Usage: ``python bench/bench_grading.py [--classic DIR] [--repeats R] [FILE ...]``

For each classic-API file (default: the zoo's ``correct_classic.py``) it grades the file with
this project's grader (the ``classic`` assignment, as ``grade FILE`` does) and, when ``--classic``
names a checkout of the classic multiagent project (Python 3 port), with the classic autograder
(``autograder.py --no-graphics`` on a copy of the checkout holding the file), in the same run.
Prints the best wall time of ``R`` runs of each, both scores, and the ratio ours / classic
(target: at most 1.0). The native submission is graded on the default assignment for reference.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pacman.grading.assignment import assignment_for, load_assignment  # noqa: E402
from pacman.grading.grader import grade  # noqa: E402

ZOO = ROOT / "tests" / "grading" / "zoo"


def ours(path: Path) -> tuple[float, str, dict[str, float]]:
    """Seconds, score and seconds per question of this project's grader on ``path``."""
    marks: dict[str, float] = {}
    began = last = time.perf_counter()

    def tick(test) -> None:
        nonlocal last
        now = time.perf_counter()
        marks[test.question] = marks.get(test.question, 0.0) + now - last
        last = now

    report = grade(path, load_assignment(assignment_for(path)), progress=tick)
    return time.perf_counter() - began, f"{report.score:g}/{report.max_score:g}", marks


def classic(checkout: Path, path: Path) -> tuple[float, str]:
    """Seconds and score of the classic autograder on ``path`` (a copy of ``checkout``)."""
    with tempfile.TemporaryDirectory(prefix="classic-bench-") as work:
        tree = Path(work) / "project"
        shutil.copytree(checkout, tree, ignore=shutil.ignore_patterns(".git", "__pycache__"))
        shutil.copy(path, tree / "multiAgents.py")
        began = time.perf_counter()
        done = subprocess.run([sys.executable, "autograder.py", "--no-graphics"], cwd=tree,
                              capture_output=True, text=True, timeout=3600)
        spent = time.perf_counter() - began
    total = re.search(r"^Total: (\d+)/(\d+)", done.stdout, re.M)
    return spent, f"{total.group(1)}/{total.group(2)}" if total else "failed"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="classic-API multiAgents.py files")
    parser.add_argument("--classic", type=Path, help="checkout of the classic multiagent project")
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    files = args.files or [ZOO / "correct_classic.py"]
    print(f"{'file':<28}{'ours s':>8}{'score':>7}{'classic s':>11}{'score':>7}{'ratio':>7}"
          "   ours per question (s)")
    for path in files:
        runs = [ours(path) for _ in range(max(1, args.repeats))]
        mine, score, marks = min(runs, key=lambda r: r[0])
        shares = "  ".join(f"{q}:{s:.1f}" for q, s in marks.items())
        if args.classic is not None:
            theirs, their_score = min((classic(args.classic, path)
                                       for _ in range(max(1, args.repeats))), key=lambda r: r[0])
            print(f"{path.name:<28}{mine:>8.2f}{score:>7}{theirs:>11.2f}{their_score:>7}"
                  f"{mine / theirs:>7.2f}   {shares}")
        else:
            print(f"{path.name:<28}{mine:>8.2f}{score:>7}{'-':>11}{'-':>7}{'-':>7}   {shares}")
    native, score, _ = ours(ZOO / "correct_native.py")
    print(f"{'correct_native.py (default)':<28}{native:>8.2f}{score:>7}")
    print("target: ratio ours / classic at most 1.0")


if __name__ == "__main__":
    main()

"""The mutation check: each target function replaced in turn by one that raises and one that
lies; every test named for it must fail (see ``tests/mutation/mutants.py``).

    python bench/mutation_check.py                      # this checkout's tests
    python bench/mutation_check.py --tests-from 9c0c9e9 # another revision's tests, today's code
    python bench/mutation_check.py --target node_value --mode raise

Each target's tests run first unmutated: one that does not pass there proves nothing under a
mutant (another revision's test may name code that is gone) and counts as one that passed.
Prints, for each target and mutant, how many of its tests failed and the names of those that
passed (tests that cannot see the function break); exits 1 if any passed.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "mutation"))

from mutants import MODES, TARGETS, run_mutant  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from baseline import moved_modules  # noqa: E402


def revision_tests(revision: str, into: Path) -> Path:
    """The ``tests`` folder of ``revision``, unpacked under ``into``, with today's mutation
    plugin beside it; its imports of engine modules that have since moved into a package are
    rewritten to today's place (``pacman.game`` is ``pacman.engine.game``)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "tests"],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    for path in (into / "tests").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(moved_modules(text), encoding="utf-8")
    return into / "tests"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tests-from", metavar="REVISION", help="run that revision's tests")
    parser.add_argument("--target", choices=sorted(TARGETS), action="append")
    parser.add_argument("--mode", choices=MODES, action="append")
    args = parser.parse_args()
    survived = False
    with tempfile.TemporaryDirectory() as scratch:
        root = revision_tests(args.tests_from, Path(scratch)) if args.tests_from else None
        for name in args.target or sorted(TARGETS):
            plain = run_mutant(name, None, tests_root=root)
            broken = sorted(node for node, outcome in plain.items() if outcome != "passed")
            for node in broken:
                print(f"    {name}: does not pass unmutated: {node}")
            for mode in args.mode or MODES:
                outcomes = run_mutant(name, mode, tests_root=root)
                passed = sorted(node for node, outcome in outcomes.items()
                                if outcome != "failed" or node in broken)
                survived |= bool(passed) or not outcomes
                print(f"{name:24} {mode:6} {len(outcomes) - len(passed):3} of {len(outcomes):3} "
                      f"tests fail" + ("" if outcomes else "  (no tests named for it)"))
                for node in passed:
                    print(f"    passes under the mutant: {node}")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())

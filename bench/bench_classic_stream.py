"""The cost of playing the classic autograder's own games (``random = "shared"``).

Usage: ``python bench/bench_classic_stream.py [--repeats R] [FILE]``

Prints, side by side in one run: the microseconds of one move's lending of the random stream
(the grader's part and the submission's process's part) and of a game's start (the whole
state), the sizes sent, and the wall time of the classic assignment's q5 game test on FILE
(default: the zoo's ``correct_classic.py``) with ``random = "shared"`` and with
``random = "per-game"``, with their ratio.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pacman.compat.random_state import LentRandom  # noqa: E402
from pacman.grading.assignment import load_assignment  # noqa: E402
from pacman.grading.classic_stream import SharedStream  # noqa: E402
from pacman.grading.grader import grade  # noqa: E402

ZOO = ROOT / "tests" / "grading" / "zoo"


def per_call(function, calls: int = 2000) -> float:
    """Microseconds of one call of ``function`` (best of 3 batches)."""
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        for _ in range(calls):
            function()
        best = min(best, (time.perf_counter() - began) / calls)
    return best * 1e6


def stream_costs() -> None:
    """One move's work for the stream: the grader lends it (a count of words) and takes back
    the submission's count; the submission's process sets its random, the agent draws one
    number (as a reflex agent's ``random.choice``), and it counts the words drawn. A game's
    start sends the whole state once."""
    stream = SharedStream(0)
    whole = stream.lend(whole=True)
    with LentRandom(whole) as lent:
        pass
    stream.take_back(lent.reply()["random"])

    def grader_side() -> None:
        stream.random()  # the ghost's draw
        stream.lend()
        stream.take_back({"words": 1})

    def worker_side() -> None:
        with LentRandom({"advance": 2}) as lent:
            random.getrandbits(3)
        lent.reply()

    def whole_state() -> None:
        with LentRandom({"state": whole["state"]}) as lent:
            pass
        lent.reply()
        stream.lend(whole=True)

    print(f"whole state as sent at a game's start: {len(json.dumps(whole))} bytes of JSON; "
          f"a move sends {len(json.dumps({'advance': 2}))} and gets back "
          f"{len(json.dumps({'words': 1}))}")
    print(f"grader, per move (a ghost draw, lend, take back): {per_call(grader_side):7.1f} us")
    print(f"worker, per move (set, draw, count):              {per_call(worker_side):7.1f} us")
    print(f"both, per game start (the whole state):           {per_call(whole_state):7.1f} us")


def q5_seconds(path: Path, mode: str, repeats: int) -> tuple[float, str]:
    classic = load_assignment("classic")
    q5 = next(q for q in classic.questions if q.id == "q5")
    tests = tuple(dataclasses.replace(t, random=mode) for t in q5.tests)
    assignment = dataclasses.replace(classic, questions=(dataclasses.replace(q5, tests=tests),))
    best, score = float("inf"), ""
    for _ in range(repeats):
        began = time.perf_counter()
        report = grade(path, assignment)
        best = min(best, time.perf_counter() - began)
        score = f"{report.questions[0].score:g}/{report.questions[0].max_score:g}"
    return best, score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(ZOO / "correct_classic.py"))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    stream_costs()
    shared, shared_score = q5_seconds(Path(args.file), "shared", args.repeats)
    own, own_score = q5_seconds(Path(args.file), "per-game", args.repeats)
    print(f"q5 on {Path(args.file).name}: shared {shared:.2f} s ({shared_score}), "
          f"per-game {own:.2f} s ({own_score}), ratio shared / per-game {shared / own:.2f}")


if __name__ == "__main__":
    main()

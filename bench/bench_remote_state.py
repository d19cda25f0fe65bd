"""What serving tree tests from the grader costs: one search, in the grader's process and
through a worker (with and without bubblewrap), side by side.

Usage: ``python bench/bench_remote_state.py [--repeats R] [--rounds N]``

A correct native minimax (the zoo's baseline) searches one seeded random tree of two agents
and ``N`` rounds. In process, its states are the grader's own tree states; through a worker,
every successor and evaluation is a round trip over the pipe. Prints the best of ``R`` runs:
seconds per search, calls served, and microseconds per call (the round trip's cost), plus the
time to start a worker and load the submission.

Then position tests: the zoo's classic minimax searches ``P`` positions of a seeded game on
smallClassic with two ghosts (depth 2) through a worker, with the states a correct search asks
handed out ahead (one round trip per position) and without (one round trip per state the
search expands); prints seconds per position, round trips and states explored per position.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "grading" / "zoo"))

from pacman.contained.jail import JAIL_ENVIRONMENT as ENVIRONMENT
from pacman.grading.sandbox import jail_status  # noqa: E402
from pacman.grading.sandbox import Limits, Worker  # noqa: E402
from pacman.grading.tree_state import TreeRecorder, TreeState  # noqa: E402
from pacman.grading.tree_tests import LayeredTree, random_tree_dict  # noqa: E402

SUBMISSION = ROOT / "tests" / "grading" / "zoo" / "correct_native.py"


def in_process(tree: LayeredTree, depth: int) -> tuple[float, int]:
    import _native_student

    recorder = TreeRecorder(tree.num_agents, tree.plies)
    agent = _native_student.MinimaxAgent(depth=depth, evaluation=recorder.evaluation())
    began = time.perf_counter()
    agent.get_action(TreeState(tree.root, recorder))
    return time.perf_counter() - began, len(recorder.generated) + len(recorder.evaluated)


def through_worker(tree: LayeredTree, depth: int) -> tuple[float, int, float]:
    began = time.perf_counter()
    with Worker(Limits(wall_seconds=120), [SUBMISSION.parent]) as worker:
        worker.request({"cmd": "load", "path": str(SUBMISSION),
                        "roles": {"minimax": ["MinimaxAgent"]}}, 60)
        started = time.perf_counter() - began
        began = time.perf_counter()
        reply = worker.request({"cmd": "tree", "role": "minimax", "tree": tree.data,
                                "agents": tree.num_agents, "depth": depth, "budget": None}, 60)
        seconds = time.perf_counter() - began
    assert reply.get("error") is None, reply
    return seconds, len(reply["generated"]) + len(reply["evaluated"]), started


CLASSIC = ROOT / "tests" / "grading" / "zoo" / "correct_classic.py"


def positions(count: int) -> list:
    """Pacman's positions of a seeded random game on smallClassic with two ghosts."""
    import random

    from pacman.engine.layout import load_layout
    from pacman.engine.state import GameState

    rng = random.Random(5)
    state = GameState.initial(load_layout("smallClassic"), num_ghosts=2)
    found = []
    while len(found) < count and state.outcome is None:
        if state.turn == 0:
            found.append(state)
        state = state.successor(rng.choice(state.legal_actions()))
    return found


def served_positions(states: list, ahead: bool) -> tuple[float, int, int]:
    """Seconds, round trips and states explored over ``states``, through one worker."""
    from pacman.grading.position_server import PositionServer

    with Worker(Limits(wall_seconds=300), [CLASSIC.parent]) as worker:
        worker.request({"cmd": "load", "path": str(CLASSIC),
                        "roles": {"minimax": ["MinimaxAgent"]}}, 60)
        layout = states[0].layout
        trips = explored = 0
        began = time.perf_counter()
        for state in states:
            server = PositionServer(state, None, 2 if ahead else None)
            reply = worker.request({"cmd": "position", "role": "minimax", "depth": 2,
                                    "root": server.root(), "layout": layout.text,
                                    "layout_name": layout.name}, 60, server)
            assert reply.get("error") is None, reply
            trips += 1 + server.expands
            explored += reply["explored"]
        return time.perf_counter() - began, trips, explored


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--positions", type=int, default=20)
    args = parser.parse_args()
    tree = LayeredTree(random_tree_dict(7, 2, args.rounds, branching=(2, 3)), 2)
    depth = args.rounds
    print(f"random tree: {tree.size} nodes, minimax to depth {depth}")
    print(f"{'where':<30}{'seconds':>9}{'calls':>8}{'us/call':>9}{'worker start (s)':>18}")
    rows = [("in the grader's process", None), ("worker, bubblewrap", ""),
            ("worker, no bubblewrap", "plain")]
    for label, setting in rows:
        if setting is None:
            seconds, calls = min(in_process(tree, depth) for _ in range(args.repeats))
            print(f"{label:<30}{seconds:>9.3f}{calls:>8}{seconds / calls * 1e6:>9.1f}")
            continue
        os.environ[ENVIRONMENT] = setting
        if setting == "" and not jail_status().jailed:
            print(f"{label:<30}  skipped: {jail_status().line}")
            continue
        seconds, calls, started = min(through_worker(tree, depth) for _ in range(args.repeats))
        print(f"{label:<30}{seconds:>9.3f}{calls:>8}{seconds / calls * 1e6:>9.1f}{started:>18.2f}")
    os.environ.pop(ENVIRONMENT, None)
    states = positions(args.positions)
    print(f"\n{len(states)} positions on smallClassic, classic minimax depth 2 "
          f"({jail_status().line.split(':')[0]})")
    print(f"{'states handed out ahead':<30}{'s/position':>11}{'trips/pos':>11}{'explored/pos':>14}")
    for ahead in (True, False):
        seconds, trips, explored = min(served_positions(states, ahead)
                                       for _ in range(args.repeats))
        n = len(states)
        print(f"{'yes' if ahead else 'no':<30}{seconds / n:>11.4f}{trips / n:>11.1f}"
              f"{explored / n:>14.1f}")


if __name__ == "__main__":
    main()

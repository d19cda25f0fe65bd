"""Benchmark of the deepening agent's own search loop and of what a move costs in all.

Run: ``python3 bench/bench_deepening_loop.py`` (about a minute; ``--layout``, ``--games``,
``--moves``, ``--budget``).

Positions are Pacman's turns from seeded games of the strongest setting against directional
ghosts (the first ``--moves`` of each game).

1. The reading of a node. At each position the deepening search of the strongest setting
   (``strong`` evaluation, a table and the previous iteration's best moves first; a focus radius
   of 6, since the horizon focus is read by Pacman's adapter only) runs under its CPU budget two
   ways, each first in turn, both through the one fast loop
   (:meth:`pacman.agents.search.node_search.Search.node_value`): reading the game through its
   protocol methods (a subclass of ``PacmanGame``, node for node the same search) and through
   Pacman's adapter (:class:`pacman.agents.pacman_search.PacmanSearch`). Printed: nodes per move
   (and the ratio to the first) and the mean depth of the deepest finished iteration.
2. The whole move. The agent of the setting decides at each position; printed are its CPU time
   per move as it reports it, as measured around the call, and the garbage collector's time in
   collections that ran during the calls. A search that referred to itself (a bound method of
   its own among its tools) lived on with its table until a collection found it, and that
   collection's time fell outside the time the agent reported.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pacman.agents.evaluation import EVALUATIONS  # noqa: E402
from pacman.agents.ghosts import DirectionalGhost  # noqa: E402
from pacman.agents.pacman_game import PacmanGame  # noqa: E402
from pacman.agents.search.deepening import iterative_deepening  # noqa: E402
from pacman.agents.search_agents import IterativeDeepeningAgent  # noqa: E402
from pacman.engine.layout import load_layout  # noqa: E402
from pacman.engine.state import GameState  # noqa: E402

SETTING = dict(order="none", evaluation=EVALUATIONS["strong"], resist=True, focus="horizon",
               outrun=20)


def positions(layout: str, games: int, moves: int, budget: float) -> list[GameState]:
    agent = IterativeDeepeningAgent(0, random.Random(0), time_budget=budget, **SETTING)
    found = []
    for seed in range(games):
        state = GameState.initial(load_layout(layout))
        ghosts = [DirectionalGhost(i, random.Random(f"{seed}:{i}"))
                  for i in range(1, len(state.positions))]
        for _ in range(moves):
            if state.outcome is not None:
                break
            found.append(state)
            state = state.successor(agent.get_action(state))
            for ghost in ghosts:
                if state.outcome is not None:
                    break
                state = state.successor(ghost.get_action(state))
    return found


class ProtocolPacmanGame(PacmanGame):
    """The same game, read through its protocol methods (a subclass is not adapted)."""


def loop_comparison(states: list[GameState], budget: float) -> None:
    variants = [("the game's protocol", ProtocolPacmanGame(EVALUATIONS["strong"], focus=6)),
                ("Pacman's adapter", PacmanGame(EVALUATIONS["strong"], focus=6))]
    nodes: list[list[int]] = [[] for _ in variants]
    depths: list[list[int]] = [[] for _ in variants]
    gc.disable()  # as in the agent's own searches
    try:
        for i, state in enumerate(states):
            order = list(range(len(variants)))
            for k in order[i % len(order):] + order[:i % len(order)]:  # each first in turn
                _, searched = variants[k]
                result = iterative_deepening(searched, state, max_depth=30, time_budget=budget,
                                             order="none", reorder="all", table=True,
                                             clock=time.thread_time)
                nodes[k].append(result.stats.nodes_generated)
                depths[k].append(result.stats.depth_reached or 0)
    finally:
        gc.enable()
    print(f"1. the reading of a node, {budget * 1000:.0f} ms CPU budget, {len(states)} positions "
          "(nodes ratio: to the protocol's)")
    base = statistics.fmean(nodes[0])
    for k, (name, _) in enumerate(variants):
        print(f"   {name:24s} nodes per move {statistics.fmean(nodes[k]):8.0f} "
              f"({statistics.fmean(nodes[k]) / base:.2f}x)   "
              f"mean depth {statistics.fmean(depths[k]):.2f}")


def whole_move(states: list[GameState], budget: float) -> None:
    agent = IterativeDeepeningAgent(0, random.Random(0), time_budget=budget, **SETTING)
    collecting = [0.0, 0.0]  # start of the running collection, total

    def on_collection(phase: str, info: dict) -> None:
        if phase == "start":
            collecting[0] = time.thread_time()
        else:
            collecting[1] += time.thread_time() - collecting[0]

    reported, measured = [], []
    gc.callbacks.append(on_collection)
    try:
        for state in states:
            started = time.thread_time()
            agent.get_action(state)
            measured.append(time.thread_time() - started)
            reported.append(agent.last.stats.elapsed)  # type: ignore[union-attr]
    finally:
        gc.callbacks.remove(on_collection)
    ordered = sorted(measured)
    print(f"2. the whole move (the agent's decision), {len(states)} positions, CPU ms")
    print(f"   reported by the agent   mean {1000 * statistics.fmean(reported):6.2f}")
    print(f"   measured around it      mean {1000 * statistics.fmean(measured):6.2f}   "
          f"99th percentile {1000 * ordered[int(0.99 * len(ordered))]:6.2f}   "
          f"max {1000 * ordered[-1]:6.2f}")
    print(f"   garbage collections     {1000 * collecting[1] / len(states):6.2f} per move")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", default="smallClassic")
    parser.add_argument("--games", type=int, default=2, help="seeded games (2)")
    parser.add_argument("--moves", type=int, default=80, help="Pacman moves per game (80)")
    parser.add_argument("--budget", type=float, default=0.04, help="CPU seconds per search")
    args = parser.parse_args()
    states = positions(args.layout, args.games, args.moves, args.budget)
    loop_comparison(states, args.budget)
    whole_move(states, args.budget)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

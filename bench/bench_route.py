"""Benchmark of the route to food (``route``): what it costs a move of the strongest setting,
and what it leaves the search.

Run: ``python3 bench/bench_route.py`` (under a minute; ``--games``, ``--moves``,
``--layout``, ``--budget``, ``--rounds``).

Positions are Pacman's turns from seeded games of the strongest setting with ``route`` against
directional ghosts (the first ``--moves`` of each game). At each, on the searching thread's CPU
clock:

* the route search alone, unbounded in time (its node budget only) and bounded as the agent
  bounds it (``ROUTE_SHARE`` of the budget): time per move and how often each found a route;
* the whole decision of the agent with ``route`` and of the same agent without it, each first
  in turn: time per move (reported by the agent and measured around the call), depth reached,
  and how often steering changed the search's move.

``--baseline REV`` also times ``agents/food_route.py`` as it was at git revision ``REV`` (the
rest of the code as it is) beside today's route search, unbounded, each first in turn, and
counts the positions where both chose the same move (``f4acd96``: before the route search read
the cached distance-to-food map).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pacman.agents import search_agents  # noqa: E402
from bench_outrun import percentile  # noqa: E402  (this folder is on the path of its scripts)
from pacman.agents.chase_survival import CheckBudget  # noqa: E402
from pacman.agents.evaluation import EVALUATIONS  # noqa: E402
from pacman.agents.food_route import ROUTE_NODES, route_to_food  # noqa: E402
from pacman.agents.ghosts import DirectionalGhost  # noqa: E402
from pacman.agents.search_agents import ROUTE_SHARE, IterativeDeepeningAgent  # noqa: E402
from pacman.engine.layout import load_layout  # noqa: E402
from pacman.engine.state import GameState  # noqa: E402


def route_module_at(rev: str) -> ModuleType:
    """``agents/food_route.py`` of git revision ``rev``, imported as a module of its own."""
    root = Path(__file__).resolve().parents[1]
    shown = subprocess.run(["git", "-C", str(root), "show", f"{rev}:agents/food_route.py"],
                           capture_output=True, text=True)
    if shown.returncode:
        print(f"--baseline {rev}: no agents/food_route.py at that revision", file=sys.stderr)
        sys.exit(2)
    module = ModuleType("food_route_baseline")
    exec(compile(shown.stdout, f"{rev}:agents/food_route.py", "exec"), module.__dict__)
    return module


def agent(budget: float, route: int) -> IterativeDeepeningAgent:
    return IterativeDeepeningAgent(0, random.Random(0), time_budget=budget, order="none",
                                   evaluation=EVALUATIONS["strong"], resist=True,
                                   focus="horizon", outrun=20, route=route)


def row(name: str, times: list[float]) -> str:
    return (f"{name:34s} {1000 * statistics.fmean(times):7.2f} "
            f"{1000 * percentile(times, 0.99):7.2f} {1000 * max(times):7.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", default="originalClassic")
    parser.add_argument("--games", type=int, default=2, help="seeded games (2)")
    parser.add_argument("--moves", type=int, default=120, help="Pacman moves per game (120)")
    parser.add_argument("--rounds", type=int, default=30, help="rounds of a route (30)")
    parser.add_argument("--budget", type=float, default=0.04, help="CPU seconds per move")
    parser.add_argument("--baseline", metavar="REV", help="also time the route search of REV")
    args = parser.parse_args()
    baseline = route_module_at(args.baseline) if args.baseline else None
    against: list[float] = []
    ours: list[float] = []
    agree = 0
    clock = time.thread_time
    steered = [0]
    steer = search_agents.steer_to_food

    def counting_steer(result, move, margin):  # type: ignore[no-untyped-def]
        chosen = steer(result, move, margin)
        steered[0] += chosen.action != result.action
        return chosen

    search_agents.steer_to_food = counting_steer
    with_route, without = agent(args.budget, args.rounds), agent(args.budget, 0)
    routes: dict[str, list[float]] = {"unbounded": [], "bounded": []}
    found = {"unbounded": 0, "bounded": 0}
    reported: dict[str, list[float]] = {"route": [], "none": []}
    measured: dict[str, list[float]] = {"route": [], "none": []}
    depths: dict[str, list[int]] = {"route": [], "none": []}
    for seed in range(args.games):
        state = GameState.initial(load_layout(args.layout))
        ghosts = [DirectionalGhost(i, random.Random(f"{seed}:{i}"))
                  for i in range(1, len(state.positions))]
        for _ in range(args.moves):
            if state.outcome is not None:
                break
            gc.disable()  # as during the agent's own decision
            kinds = [("unbounded", None), ("bounded", ROUTE_SHARE)]
            if len(depths["route"]) % 2:  # each first in turn: the first warms the tables
                kinds.reverse()
            for name, share in kinds:
                started = clock()
                deadline = float("inf") if share is None else started + share * args.budget
                move = route_to_food(state, args.rounds, 20,
                                     CheckBudget(ROUTE_NODES, clock, deadline))
                routes[name].append(clock() - started)
                found[name] += move is not None
            if baseline is not None:
                pair = [(baseline.route_to_food, against), (route_to_food, ours)]
                if len(ours) % 2:  # each first in turn
                    pair.reverse()
                moves = []
                for search, times in pair:
                    started = clock()
                    moves.append(search(state, args.rounds, 20, ROUTE_NODES))
                    times.append(clock() - started)
                agree += moves[0] == moves[1]
            gc.enable()
            order = [("route", with_route), ("none", without)]
            if len(depths["route"]) % 2:
                order.reverse()
            chosen = None
            for name, player in order:
                started = clock()
                result = player.search(state)
                measured[name].append(clock() - started)
                reported[name].append(result.stats.elapsed)
                depths[name].append(result.stats.depth_reached or 0)
                if name == "route":
                    chosen = result.action
            state = state.successor(chosen)
            for ghost in ghosts:
                if state.outcome is not None:
                    break
                state = state.successor(ghost.get_action(state))
    positions = len(depths["route"])
    print(f"{positions} positions of {args.games} games on {args.layout}, "
          f"{args.budget * 1000:.0f} ms budget, routes of {args.rounds} rounds")
    print(f"{'CPU ms per move':34s} {'mean':>7s} {'p99':>7s} {'max':>7s}")
    for name in ("unbounded", "bounded"):
        print(row(f"route search, {name}", routes[name]))
    for name in ("route", "none"):
        label = "with route" if name == "route" else "without route"
        print(row(f"decision {label}, reported", reported[name]))
        print(row(f"decision {label}, measured", measured[name]))
    if baseline is not None:
        print(row(f"route search at {args.baseline}", against))
        print(row("route search, this tree", ours))
        print(f"this tree / {args.baseline}: {sum(ours) / sum(against):.2f} of the time; "
              f"the same move in {agree} of {len(ours)} positions")
    print(f"routes found: {found['unbounded']} unbounded, {found['bounded']} bounded, "
          f"of {positions}")
    mean_depth = {name: statistics.fmean(values) for name, values in depths.items()}
    print(f"mean depth (rounds): {mean_depth['route']:.2f} with route, "
          f"{mean_depth['none']:.2f} without ({mean_depth['route'] / mean_depth['none']:.3f}x);"
          f" moves steered: {steered[0]} of {positions}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

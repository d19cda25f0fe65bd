"""What containing an agent costs: µs per move and game time, contained against built in.

Usage: ``python bench/bench_contained.py [--games N] [--layout NAME] [--repeats R]``

The same agent class plays built in (its catalog name, in the game's process) and contained
(named ``module:attr``, so it plays in its own namespaces, see ``pacman/sandboxed_agent.py``),
on the same seeds, contained in two ways side by side:

* **fresh**: every game starts and ends its own processes (``play``, or
  ``PACMAN_AGENT_REUSE=0``);
* **kept**: the ``--games`` games are played in one
  :func:`~pacman.contained_pool.reused_processes` scope, as a batch plays a chunk (with
  ``--workers 1``, the whole batch): the agent's process is kept from one game to the next.

Figures:

* **per-move overhead**: random Pacman (the cheapest move there is) against random ghosts;
  the mean think time per Pacman move contained minus built in. The think time is measured
  by the game loop around each request, so it includes pickling the state, the round trip
  to the child and the answer;
* **game time ratio**: the default Pacman (``alphabeta``) against the default ghosts on the
  default maze, wall time of whole games (starting the contained processes included),
  contained / built in; the target is at most 2.0;
* **start cost**: wall time to start, build and close one contained agent (fresh), and to
  build and end one game's agent in a kept process;
* **hand-over**: one ``get_action`` request and its answer, 3000 times, wall time and the CPU
  time of each side;
* the same game time ratio in CPU seconds of every process involved, which other load on
  the machine disturbs far less than wall-clock time.

Each figure is the best of ``--repeats`` runs (least disturbed by other load on a shared
machine).
"""

from __future__ import annotations

import argparse
import contextlib
import os
from multiprocessing import forkserver
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pacman.game_loop import run_game  # noqa: E402
from pacman.layout import load_layout  # noqa: E402
from pacman.lineup import lineup  # noqa: E402
from pacman.contained_pool import reused_processes  # noqa: E402
from pacman.sandboxed_agent import SandboxedAgent  # noqa: E402
from pacman.state import state_class  # noqa: E402

CONTAINED = {"random": "pacman.agents.basic:RandomPacman",
             "alphabeta": "pacman.agents.search_agents:AlphaBetaAgent"}


def cpu_seconds() -> float:
    """CPU time of this process and of the fork server with every process it has reaped.
    A contained agent's processes are reaped in a chain (worker by init, init by supervisor,
    supervisor by the fork server), so this counts the contained side too."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    total = own.ru_utime + own.ru_stime
    server = getattr(forkserver._forkserver, "_forkserver_pid", None)
    if server is not None:
        with open(f"/proc/{server}/stat", encoding="ascii") as file:
            fields = file.read().rpartition(")")[2].split()
        # utime, stime, cutime, cstime: fields 14 to 17 of proc(5), in clock ticks
        total += sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    return total


def play(layout_name: str, pacman: str, ghosts: str, seeds: range,
         kept: bool = False) -> tuple[float, float, int, float]:
    """Wall seconds, Pacman's think seconds, Pacman's moves and CPU seconds over ``seeds``;
    ``kept``: in one scope that keeps contained processes from game to game (its end, which
    ends them, is counted)."""
    layout = load_layout(layout_name)
    specs = lineup(layout, pacman, ghosts)
    wall = think = 0.0
    moves = 0
    cpu = cpu_seconds()
    scope = reused_processes() if kept else contextlib.nullcontext()
    began = time.perf_counter()
    with scope:
        for seed in seeds:
            result = run_game(layout, specs, seed=seed, max_moves=300)
            assert result.failure is None, result.failure
            think += result.think_time[0]
            moves += result.decisions[0]
    wall = time.perf_counter() - began
    return wall, think, moves, cpu_seconds() - cpu


def best(repeats: int, measure, *args) -> tuple[float, float, int, float]:
    runs = [measure(*args) for _ in range(repeats)]
    return min(runs, key=lambda run: run[0])


def start_cost(layout_name: str, repeats: int, kept: bool = False) -> float:
    """Best wall seconds to build and close one contained agent; ``kept``: in a scope whose
    process was started before (the figure is then a game's agent in a kept process)."""
    layout = load_layout(layout_name)
    seconds = []
    request = (CONTAINED["random"], "pacman", {})
    with reused_processes() if kept else contextlib.nullcontext():
        if kept:
            SandboxedAgent(request, 0, random.Random(1), layout, None).close(reuse=True)
        for _ in range(repeats):
            began = time.perf_counter()
            agent = SandboxedAgent(request, 0, random.Random(1), layout, None)
            agent.close(reuse=kept)
            seconds.append(time.perf_counter() - began)
    return min(seconds)


def _cpu_of(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as file:
        fields = file.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def hand_over(layout_name: str, moves: int, repeats: int) -> tuple[float, float, float]:
    """Best of ``repeats``: wall µs per ``get_action`` of a contained random Pacman on the
    initial state, and the CPU µs of the game's side and of the agent's process."""
    layout = load_layout(layout_name)
    state = state_class("default").initial(layout)
    agent = SandboxedAgent((CONTAINED["random"], "pacman", {}), 0, random.Random(1), layout,
                           None)
    try:
        init = agent._child.init_pid  # type: ignore[union-attr]  # the worker is its child
        with open(f"/proc/{init}/task/{init}/children", encoding="ascii") as file:
            worker = int(file.read().split()[0])
        for _ in range(100):
            agent.get_action(state)
        runs = []
        for _ in range(repeats):
            wall, cpu, child = time.perf_counter(), time.process_time(), _cpu_of(worker)
            for _ in range(moves):
                agent.get_action(state)
            runs.append((1e6 * (time.perf_counter() - wall) / moves,
                         1e6 * (time.process_time() - cpu) / moves,
                         1e6 * (_cpu_of(worker) - child) / moves))
    finally:
        agent.close()
    return min(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--layout", default="small_classic")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    seeds = range(args.games)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall-clock "
          "figures grow with it)")
    start_cost(args.layout, 1)  # start the fork server once, outside the figures
    print(f"build and close one contained agent: fresh process "
          f"{1000 * start_cost(args.layout, 5 * args.repeats):.1f} ms, kept process "
          f"{1000 * start_cost(args.layout, 5 * args.repeats, kept=True):.1f} ms (best)")
    wall, ours, theirs = hand_over(args.layout, 3000, args.repeats)
    print(f"hand-over of one move (3000 moves of a contained random Pacman): {wall:.1f} µs "
          f"wall, CPU {ours:.1f} µs on the game's side + {theirs:.1f} µs in the agent's "
          "process")
    variants = {"built in": False, "fresh": False, "kept": True}
    for title, pacman, ghosts in (("random Pacman vs random", "random", "random"),
                                  (f"alphabeta vs directional on {args.layout}", "alphabeta",
                                   "directional")):
        runs = {name: best(args.repeats, play, args.layout,
                           pacman if name == "built in" else CONTAINED[pacman], ghosts, seeds,
                           kept)
                for name, kept in variants.items()}
        inside = runs["built in"]
        print(f"{title}, {args.games} games, {inside[2]} Pacman moves:")
        for name, run in runs.items():
            per_move = 1e6 * run[1] / run[2]
            line = (f"  {name:8} {1000 * run[0] / args.games:7.1f} ms per game "
                    f"(CPU {1000 * run[3] / args.games:6.1f}), {per_move:6.1f} µs per move")
            if name != "built in":
                line += (f": +{per_move - 1e6 * inside[1] / inside[2]:.1f} µs per move, "
                         f"ratio {run[0] / inside[0]:.2f} (CPU {run[3] / inside[3]:.2f})")
            print(line)
    print("target: a contained game at most 2.0 times the built-in one (alphabeta)")

if __name__ == "__main__":
    main()

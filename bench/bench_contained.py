"""What containing an agent costs: µs per move and game time, contained against built in.

Usage: ``python bench/bench_contained.py [--games N] [--layout NAME] [--repeats R]``

The same agent class plays once built in (its catalog name, in the game's process) and once
contained (named ``module:attr``, so it plays in its own namespaces, see
``pacman/sandboxed_agent.py``), on the same seeds:

* **per-move overhead**: random Pacman (the cheapest move there is) against random ghosts;
  the mean think time per Pacman move contained minus built in. The think time is measured
  by the game loop around each request, so it includes pickling the state, the round trip
  to the child and the answer;
* **game time ratio**: the default Pacman (``alphabeta``) against the default ghosts on the
  default maze, wall time of whole games (starting the contained processes included),
  contained / built in; the target is at most 2.0;
* **start cost**: wall time to start, build and close one contained agent;
* the same game time ratio in CPU seconds of every process involved, which other load on
  the machine disturbs far less than wall-clock time.

Each figure is the best of ``--repeats`` runs (least disturbed by other load on a shared
machine).
"""

from __future__ import annotations

import argparse
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
from pacman.sandboxed_agent import SandboxedAgent  # noqa: E402

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


def play(layout_name: str, pacman: str, ghosts: str,
         seeds: range) -> tuple[float, float, int, float]:
    """Wall seconds, Pacman's think seconds, Pacman's moves and CPU seconds over ``seeds``."""
    layout = load_layout(layout_name)
    specs = lineup(layout, pacman, ghosts)
    wall = think = 0.0
    moves = 0
    cpu = cpu_seconds()
    for seed in seeds:
        began = time.perf_counter()
        result = run_game(layout, specs, seed=seed, max_moves=300)
        wall += time.perf_counter() - began
        assert result.failure is None, result.failure
        think += result.think_time[0]
        moves += result.decisions[0]
    return wall, think, moves, cpu_seconds() - cpu


def best(repeats: int, measure, *args) -> tuple[float, float, int, float]:
    runs = [measure(*args) for _ in range(repeats)]
    return min(runs, key=lambda run: run[0])


def start_cost(layout_name: str, repeats: int) -> float:
    layout = load_layout(layout_name)
    seconds = []
    for _ in range(repeats):
        began = time.perf_counter()
        agent = SandboxedAgent((CONTAINED["random"], "pacman", {}), 0, random.Random(1), layout,
                               None)
        agent.close()
        seconds.append(time.perf_counter() - began)
    return min(seconds)


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
    print(f"start, build and close one contained agent: "
          f"{1000 * start_cost(args.layout, 5 * args.repeats):.1f} ms (best)")
    inside = best(args.repeats, play, args.layout, "random", "random", seeds)
    outside = best(args.repeats, play, args.layout, CONTAINED["random"], "random", seeds)
    per_in, per_out = (1e6 * inside[1] / inside[2], 1e6 * outside[1] / outside[2])
    print(f"random Pacman, {inside[2]} moves: {per_in:.1f} µs per move built in, "
          f"{per_out:.1f} µs contained: overhead {per_out - per_in:.1f} µs per move")
    inside = best(args.repeats, play, args.layout, "alphabeta", "directional", seeds)
    outside = best(args.repeats, play, args.layout, CONTAINED["alphabeta"], "directional",
                   seeds)
    print(f"alphabeta vs directional on {args.layout}, {args.games} games: "
          f"{1000 * inside[0] / args.games:.0f} ms per game built in, "
          f"{1000 * outside[0] / args.games:.0f} ms contained: ratio "
          f"{outside[0] / inside[0]:.2f} (target at most 2.0)")
    print(f"  CPU (every process): {1000 * inside[3] / args.games:.0f} ms per game built in, "
          f"{1000 * outside[3] / args.games:.0f} ms contained: ratio "
          f"{outside[3] / inside[3]:.2f}")


if __name__ == "__main__":
    main()

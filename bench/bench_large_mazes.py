"""Large mazes and many ghosts: load time, random play, peak memory, default agents' move times.

Usage: ``python bench/bench_large_mazes.py [--sizes 100,200] [--moves 50]``

Each size runs in a fresh process (so its peak memory is its own): an N x N maze with four
ghosts (tests/engine/mazes.py ``big_maze``) is parsed, then random agents play ``--moves``
Pacman moves. The last line plays the default agents (expectimax with its node budget against
directional ghosts) on a 30x20 maze with eight ghosts and prints the longest and mean move.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def measure_random_play(size: int, moves: int) -> dict:
    from pacman.agents.basic import RandomPacman
    from pacman.agents.ghosts import RandomGhost
    from pacman.engine.game_loop import run_game
    from pacman.engine.layout import parse_layout
    from tests.engine.mazes import big_maze

    text = big_maze(size, size)
    began = time.perf_counter()
    layout = parse_layout(text, name=f"big{size}")
    loaded = time.perf_counter()
    agents = [RandomPacman(0, random.Random(1))] + [
        RandomGhost(i, random.Random(i)) for i in range(1, layout.num_ghosts + 1)]
    result = run_game(layout, agents, seed=1, max_moves=moves)
    played = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"size": size, "load": loaded - began, "play": played - loaded,
            "moves": result.moves, "peak_mb": peak}


def measure_default_agents(moves: int) -> dict:
    from pacman.engine.game_loop import run_game
    from pacman.engine.layout import parse_layout
    from pacman.lineup.build import lineup
    from tests.engine.mazes import big_maze

    layout = parse_layout(big_maze(30, 20, ghosts=8), name="eight_ghosts")
    result = run_game(layout, lineup(layout, "expectimax", "directional"), seed=1,
                      max_moves=moves)
    return {"moves": result.moves, "longest": result.max_move_time[0],
            "mean": result.think_time[0] / max(1, result.decisions[0])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,200")
    parser.add_argument("--moves", type=int, default=50)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "agents":
        print(json.dumps(measure_default_agents(10)))
        return
    if args.child:
        print(json.dumps(measure_random_play(int(args.child), args.moves)))
        return
    print(f"{'maze':>8} {'load s':>7} {'play s':>7} {'moves':>6} {'peak MB':>8}")
    for size in (int(s) for s in args.sizes.split(",")):
        out = subprocess.run([sys.executable, __file__, "--child", str(size), "--moves",
                              str(args.moves)], capture_output=True, text=True, check=True)
        row = json.loads(out.stdout)
        print(f"{size:>4}x{size:<3} {row['load']:>7.2f} {row['play']:>7.2f} {row['moves']:>6} "
              f"{row['peak_mb']:>8.0f}", flush=True)
    out = subprocess.run([sys.executable, __file__, "--child", "agents"], capture_output=True,
                         text=True, check=True)
    row = json.loads(out.stdout)
    print(f"default agents, 8 ghosts, 30x20: longest move {row['longest']:.2f} s, mean "
          f"{row['mean']:.2f} s over {row['moves']} moves")


if __name__ == "__main__":
    main()

"""Engine speed on every shipped maze: successors/s, legal-action calls/s, random games/s.

Usage: ``python bench/bench_engine.py [--states N] [--games N] [--layouts a,b] [--cpu]``

States are sampled from seeded random play (all ghosts of the maze play); every legal successor
of every sampled state is generated. The last column compares successors/s with the issue's
targets (300,000/s on the 20x7 two-ghost maze, 100,000/s on the 28x27 four-ghost maze).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import islice
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.basic import RandomPacman  # noqa: E402
from agents.ghosts import RandomGhost  # noqa: E402
from pacman.game import random_play, run_game  # noqa: E402
from pacman.layout import load_layout, shipped_layout_names  # noqa: E402
from pacman.rules import legal_actions, successor  # noqa: E402
from pacman.state import GameState  # noqa: E402

TARGETS = {"small_classic": 300_000, "large_classic": 100_000}


def sample_states(layout, count: int, seed: int = 0) -> list[GameState]:
    return list(islice(random_play(GameState.initial(layout), random.Random(seed)), count))


#: the timer of every figure: wall-clock time, or this process's CPU time with ``--cpu``
TIMER = time.perf_counter


def best_of(repeats: int, work) -> float:
    """The shortest of ``repeats`` timings of ``work()`` (least disturbed by other load)."""
    times = []
    for _ in range(repeats):
        began = TIMER()
        work()
        times.append(TIMER() - began)
    return min(times)


def bench_layout(name: str, states_wanted: int, games: int) -> dict:
    layout = load_layout(name)
    states = [s for s in sample_states(layout, states_wanted) if not s.is_terminal]
    pairs = [(s, a) for s in states for a in legal_actions(s, s[7])]

    def generate():
        for state, action in pairs:
            successor(state, action)

    def legal():
        for state in states:
            legal_actions(state, state[7])

    succ_rate = len(pairs) / best_of(3, generate)
    legal_rate = len(states) / best_of(3, legal)
    agents = [RandomPacman(0, random.Random(1))] + [
        RandomGhost(i, random.Random(i + 1)) for i in range(1, layout.num_ghosts + 1)]
    began = TIMER()
    for seed in range(games):
        run_game(layout, agents, seed=seed, max_moves=1000)
    game_rate = games / (TIMER() - began)
    return {"name": name, "size": f"{layout.width}x{layout.height}", "ghosts": layout.num_ghosts,
            "succ": succ_rate, "legal": legal_rate, "games": game_rate}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--layouts", help="comma-separated maze names (default: all shipped)")
    parser.add_argument("--cpu", action="store_true",
                        help="time with this process's CPU time (figures independent of other "
                             "load on the machine) instead of wall-clock time")
    args = parser.parse_args()
    if args.cpu:
        global TIMER
        TIMER = time.process_time
    names = args.layouts.split(",") if args.layouts else shipped_layout_names()
    print(f"{'maze':16} {'size':>6} {'ghosts':>6} {'successors/s':>13} {'legal/s':>12} "
          f"{'games/s':>8}  vs target")
    for name in names:
        row = bench_layout(name, args.states, args.games)
        target = TARGETS.get(name)
        versus = f"{row['succ'] / target:.1f}x of {target:,}" if target else ""
        print(f"{row['name']:16} {row['size']:>6} {row['ghosts']:>6} {row['succ']:>13,.0f} "
              f"{row['legal']:>12,.0f} {row['games']:>8.1f}  {versus}", flush=True)


if __name__ == "__main__":
    main()

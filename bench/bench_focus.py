"""Benchmark of the focus on near ghosts: how deep the strongest setting's search gets.

Run: ``python3 bench/bench_focus.py`` (about a minute; ``--positions``, ``--budget``,
``--focus 0,4,6,horizon``, ``--layouts``).

Positions are Pacman's turns from seeded random play on each maze (one every few moves, a game
that ends starts over). Each is searched by the strongest setting's iterative deepening
(``strong`` evaluation, no ordering, previous-iteration moves first, a CPU-time budget) once per
focus radius, the radii side by side on the same positions; 0 is no focus (every ghost move
searched), ``horizon`` the radius that follows the rounds left at each ghost node. Printed per
radius: the depth of the deepest finished iteration (median and mean), the nodes generated per
move, and the mean depth as a ratio to no focus.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from itertools import islice
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pacman.agents.evaluation import EVALUATIONS  # noqa: E402
from pacman.agents.ghost_focus import HORIZON  # noqa: E402
from pacman.agents.pacman_game import PacmanGame  # noqa: E402
from pacman.agents.search import iterative_deepening  # noqa: E402
from pacman.engine.game import random_play  # noqa: E402
from pacman.engine.layout import load_layout  # noqa: E402
from pacman.engine.state import GameState  # noqa: E402


def positions(layout_name: str, count: int, seed: int, spacing: int = 9) -> list[GameState]:
    """``count`` of Pacman's turns from random play on the maze, ``spacing`` turns apart."""
    play = random_play(GameState.initial(load_layout(layout_name)), random.Random(seed))
    turns = (s for s in play if s.turn == 0)
    return list(islice(turns, spacing - 1, spacing * count, spacing))


def depth_reached(state: GameState, focus: int | str, budget: float) -> tuple[int, int]:
    game = PacmanGame(EVALUATIONS["strong"], focus=focus)  # type: ignore[arg-type]
    result = iterative_deepening(game, state, max_depth=30, time_budget=budget,
                                 algorithm="alphabeta", order="none", reorder="all",
                                 clock=time.thread_time)
    return result.stats.depth_reached, result.stats.nodes_generated


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40, help="positions per maze (40)")
    parser.add_argument("--budget", type=float, default=0.04, help="CPU seconds per move (0.04)")
    parser.add_argument("--focus", default="0,6,horizon",
                        help="radii to compare, or horizon (0,6,horizon)")
    parser.add_argument("--layouts", default="originalClassic,mediumClassic,smallClassic")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random play (0)")
    args = parser.parse_args()
    radii = [r if r == HORIZON else int(r) for r in args.focus.split(",")]
    print(f"Depth under a {args.budget} s CPU budget per move, {args.positions} positions per maze")
    print(f"{'maze':16s} {'focus':>7s} {'median':>7s} {'mean':>6s} {'nodes/move':>11s} "
          f"{'mean depth / focus 0':>21s}")
    for name in args.layouts.split(","):
        sample = positions(name, args.positions, args.seed)
        means: dict[int | str, float] = {}
        for radius in radii:
            runs = [depth_reached(state, radius, args.budget) for state in sample]
            depths = [d for d, _ in runs]
            means[radius] = statistics.fmean(depths)
            base = means.get(0)
            ratio = f"{means[radius] / base:21.2f}" if base else f"{'':21s}"
            print(f"{name:16s} {radius!s:>7s} {statistics.median(depths):7.1f} {means[radius]:6.2f} "
                  f"{statistics.fmean(n for _, n in runs):11,.0f} {ratio}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

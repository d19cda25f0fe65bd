"""Time to draw one frame of the window on the largest shipped maze with four ghosts.

Usage: ``python bench/bench_window.py [--frames N] [--layout NAME] [--zoom Z]``

Frames show states sampled from seeded random play (every ghost plays), drawn headless (SDL's
dummy driver) at the window's cell size (24 pixels at zoom 1). Rows: a still frame; a frame of
smooth movement (halfway between two rounds); a frame with the search overlay (heat map of the
``better`` evaluation, cached per state as the window does, plus root values and a principal
variation); the whole window frame including the flip. The last column is the 4 ms target
divided by the time (above 1 meets it, so 60 frames per second leave room for the agents).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from itertools import islice
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from pacman.agents.evaluation import better  # noqa: E402
from pacman.display._pygame import pygame  # noqa: E402
from pacman.display.overlay import SearchView, heat_map, principal_paths  # noqa: E402
from pacman.display.renderer import Renderer, Status  # noqa: E402
from pacman.display.window import BASE_TILE, WindowDisplay  # noqa: E402
from pacman.engine.game import random_play  # noqa: E402
from pacman.engine.layout import load_layout  # noqa: E402
from pacman.engine.state import GameState  # noqa: E402

TARGET_MS = 4.0


def rounds(layout, count: int, seed: int = 0) -> list[GameState]:
    """``count`` states where Pacman is to move, from seeded random play."""
    start = GameState.initial(layout)
    play = random_play(start, random.Random(seed))
    return list(islice((s for s in play if s.turn == 0), count))


def per_frame(draw, frames: int, repeats: int = 5) -> float:
    """Median over ``repeats`` of the mean seconds per call of ``draw(i)`` for ``frames`` i."""
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        for i in range(frames):
            draw(i)
        times.append((time.perf_counter() - began) / frames)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--layout", default="large_classic")
    parser.add_argument("--zoom", type=float, default=1.0)
    args = parser.parse_args()

    layout = load_layout(args.layout)
    tile = round(BASE_TILE * args.zoom)
    states = rounds(layout, args.frames + 1)
    renderer = Renderer(layout, tile)
    surface = pygame.Surface(renderer.size)
    status = Status(move=123, agents=["expectimax"] + ["directional"] * layout.num_ghosts)
    heats = [heat_map(s, better) for s in states[:-1]]
    views = [SearchView(s.pacman_cell, {a: -12.5 for a in s.legal_actions()},
                        s.legal_actions()[0], principal_paths(s, [s.legal_actions()[0]]))
             for s in states[:-1]]
    n = args.frames

    rows = [
        ("still frame", lambda i: renderer.draw(surface, states[i + 1], status=status)),
        ("smooth movement", lambda i: renderer.draw(surface, states[i + 1], previous=states[i],
                                                    progress=0.5, status=status)),
        ("search overlay", lambda i: renderer.draw(surface, states[i + 1], status=status,
                                                   heat=heats[i], view=views[i])),
    ]
    window = WindowDisplay(frame_time=0.0, zoom=args.zoom, linger=0)
    window.start(states[0], status.agents)

    def window_frame(i: int) -> None:
        window.shown = states[i + 1]
        window.redraw()

    rows.append(("window frame + flip", window_frame))
    print(f"{args.layout}: {layout.width}x{layout.height}, {layout.num_ghosts} ghosts, "
          f"{tile} px cells, frame {renderer.size[0]}x{renderer.size[1]}, {n} frames")
    print(f"{'what':22} {'ms/frame':>9} {'frames/s':>9} {'target/time':>12}")
    for name, draw in rows:
        seconds = per_frame(draw, n)
        ms = seconds * 1000
        print(f"{name:22} {ms:9.3f} {1 / seconds:9.0f} {TARGET_MS / ms:11.1f}x")
    heat_seconds = per_frame(lambda i: heat_map(states[i], better), min(n, 50), repeats=3)
    print(f"(heat map of 'better', once per state: {heat_seconds * 1000:.2f} ms)")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

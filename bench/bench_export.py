"""GIF export: one shared palette against a palette chosen per frame, side by side.

Usage: ``python bench/bench_export.py [--layout NAME] [--moves M] [--smooth K] [--repeats R]``

Both variants write the same frames (drawn once, kept in memory, so only the writing is timed)
of one seeded game (alpha-beta Pacman, depth 1, against the maze's directional ghosts) with
the search heat map; the old way hands Pillow RGB frames, which it quantises one by one, the
new way maps every frame to :func:`pacman.display.export.shared_palette`. Prints seconds per
variant (best of R), frames per second, file sizes and the speed-up.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from pacman.agents.evaluation import better  # noqa: E402
from pacman.display import export  # noqa: E402
from pacman.engine.game import replay_states  # noqa: E402
from pacman.engine.game_loop import run_game  # noqa: E402
from pacman.engine.layout import load_layout  # noqa: E402
from pacman.lineup.build import lineup  # noqa: E402


def game_frames(layout_name: str, moves: int, smooth: int) -> list:
    layout = load_layout(layout_name)
    specs = lineup(layout, "alphabeta", "directional", pacman_options={"depth": "1"})
    result = run_game(layout, specs, 7, max_moves=moves)
    states = list(replay_states(result))
    agents = [a["name"] for a in result.agents]
    return list(export.frames(states, agents, result.outcome, smooth=smooth, evaluation=better))


def best_time(images: list, path: str, one_palette: bool, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        export.write(iter(images), path, 0.1, one_palette=one_palette)
        times.append(time.perf_counter() - began)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", default="medium_classic")
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--smooth", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    images = game_frames(args.layout, args.moves, args.smooth)
    print(f"{len(images)} frames of {images[0].size[0]}x{images[0].size[1]} px "
          f"({args.layout}, {args.moves} moves, smooth {args.smooth}, heat map on)")
    with tempfile.TemporaryDirectory() as folder:
        rows = []
        for label, one_palette in (("palette per frame (old)", False),
                                   ("one shared palette (new)", True)):
            path = str(Path(folder) / f"{one_palette}.gif")
            seconds = best_time(images, path, one_palette, args.repeats)
            rows.append((label, seconds, os.path.getsize(path)))
    print(f"{'variant':28} {'seconds':>8} {'frames/s':>9} {'KiB':>8}")
    for label, seconds, size in rows:
        print(f"{label:28} {seconds:8.2f} {len(images) / seconds:9.1f} {size / 1024:8.0f}")
    print(f"speed-up: {rows[0][1] / rows[1][1]:.1f}x")


if __name__ == "__main__":
    main()

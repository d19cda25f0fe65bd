"""Screenshots of the window with the search overlay on every shipped maze, at the default size,
at half and at double size, drawn by the real window (run it under an X server).

Usage: ``python docs/screenshots/overlay_shots.py OUT_DIR [MAZE ...]``

Each maze plays a seeded game of an alpha-beta Pacman (depth 2) against the default ghosts for
a few moves with the overlay shown; the window is then shrunk to half and grown to double its
default size, as a user's resize would. Files: ``OUT_DIR/<maze>-{default,half,double}.png``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pacman.agents.evaluation import better  # noqa: E402
from pacman.display._pygame import pygame  # noqa: E402
from pacman.display.window import WindowDisplay  # noqa: E402
from pacman.engine.game_loop import run_game  # noqa: E402
from pacman.engine.layout import load_layout, shipped_layout_names  # noqa: E402
from pacman.lineup.build import lineup  # noqa: E402

MOVES = 6


def shoot(name: str, out: Path) -> list[str]:
    layout = load_layout(name)
    window = WindowDisplay(frame_time=0.0, overlay=True, evaluation=better, linger=0)
    try:
        specs = lineup(layout, "alphabeta", "directional", pacman_options={"depth": "2"})
        run_game(layout, specs, 3, max_moves=MOVES, display=window)
        window.outcome = None
        window._wait_note = ""
        written = []
        default = window.screen.get_size()
        for label, size in (("default", default), ("half", (default[0] // 2, default[1] // 2)),
                            ("double", (default[0] * 2, default[1] * 2))):
            window.resize(size)
            window.redraw()
            path = out / f"{name}-{label}.png"
            pygame.image.save(window.screen, str(path))
            written.append(f"{path.name} {window.screen.get_size()} tile {window.renderer.tile}")
        return written
    finally:
        window.close()


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name in sys.argv[2:] or shipped_layout_names():
        for line in shoot(name, out):
            print(line, flush=True)


if __name__ == "__main__":
    main()

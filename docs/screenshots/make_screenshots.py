"""Regenerate the screenshots of the window in README.md and docs/playing.md, headless.

Usage: ``python docs/screenshots/make_screenshots.py``

Each picture is a frame of a seeded game drawn exactly as the window draws it (24-pixel cells):
``medium_classic.png`` with the search overlay of an alpha-beta Pacman (root values, principal
variation, heat map of its evaluation), ``large_classic.png`` with four ghosts, scared after a
capsule, and ``capsule_rich.png`` with scared ghosts, one of them flashing before it recovers.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from pacman.agents.evaluation import EVALUATIONS  # noqa: E402
from pacman.display._pygame import pygame  # noqa: E402
from pacman.display.overlay import HeatScale, heat_map, search_view  # noqa: E402
from pacman.display.statusbar import KEYS_HINT  # noqa: E402
from pacman.display.renderer import Renderer, Status  # noqa: E402
from pacman.display.sprites import FLASH_MOVES  # noqa: E402
from pacman.engine.game_loop import run_game  # noqa: E402
from pacman.engine.layout import load_layout  # noqa: E402
from pacman.lineup.build import lineup  # noqa: E402


class Capture:
    """Keeps every (state, move, state before the move) a game shows."""

    def __init__(self):
        self.frames = []
        self.before = None

    def start(self, state, agents):
        self.agents = agents
        self.before = state

    def update(self, state, move):
        self.frames.append((state, move, self.before))
        self.before = state

    def finish(self, state, result):
        pass


def play(layout_name, pacman, options, seed, max_moves):
    layout = load_layout(layout_name)
    capture = Capture()
    run_game(layout, lineup(layout, pacman, "directional", None, options), seed,
             max_moves=max_moves, display=capture)
    return layout, capture


def save(layout, state, path, status, **options):
    renderer = Renderer(layout, 24)
    surface = pygame.Surface(renderer.size)
    renderer.draw(surface, state, status=status, **options)
    pygame.image.save(surface, str(path))
    print(f"wrote {path}")


def moves_until(capture, index):
    return sum(1 for _, move, _ in capture.frames[:index + 1] if move.agent == 0)


def main() -> int:
    layout, capture = play("medium_classic", "alphabeta", {"depth": "2"}, 3, 40)
    index = next(i for i, (s, m, _) in enumerate(capture.frames)
                 if m.agent == 0 and moves_until(capture, i) >= 12)
    pacman_state, move, before = capture.frames[index]
    end = index
    while capture.frames[end][0].turn != 0:
        end += 1
    state = capture.frames[end][0]
    heat = heat_map(state, EVALUATIONS["better"])
    save(layout, state, HERE / "medium_classic.png",
         Status(move=moves_until(capture, end), agents=capture.agents, overlay=True,
                legend=HeatScale.of(heat, state.pacman_cell), paths=True),
         view=search_view(before, move.report), heat=heat)

    def flashing(timers):
        return any(0 < t <= FLASH_MOVES and t % 2 == 0 for t in timers)

    for name, scared_wanted in (("large_classic", lambda t: max(t) > FLASH_MOVES),
                                ("capsule_rich", flashing)):
        layout, capture = play(name, "expectimax", {}, 2, 400)
        found = next((i for i, (s, _, _) in enumerate(capture.frames)
                      if s.turn == 0 and scared_wanted(s.scared_timers)), None)
        if found is None:
            found = len(capture.frames) // 2
        state = capture.frames[found][0]
        save(layout, state, HERE / f"{name}.png",
             Status(move=moves_until(capture, found), agents=capture.agents, hint=KEYS_HINT))
    return 0


if __name__ == "__main__":
    sys.exit(main())

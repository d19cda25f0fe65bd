"""What the environments' ``render()`` returns, through the project's own renderer.

``ansi``: the maze as text (:meth:`GameState.render`) with the score. ``rgb_array``: an
H x W x 3 uint8 picture drawn by :class:`pacman.display.renderer.Renderer` on an off-screen
surface (no screen needed). ``human``: the same picture in a pygame window, at most
``fps`` frames per second; ``render()`` then returns ``None``. :class:`Screen` is what every
environment's ``render()`` and ``close()`` do.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from gymnasium import logger

from pacman.engine.layout import Layout
from pacman.engine.state import GameState

RENDER_MODES = ["ansi", "rgb_array", "human"]
#: Cell size of ``rgb_array`` pictures, and of the window.
ARRAY_TILE = 16
WINDOW_TILE = 24


def ansi_frame(state: GameState, moves: int) -> str:
    """The state as maze text, then the score, Pacman's move count and the outcome."""
    ending = f"  {state.outcome}" if state.outcome else ""
    return f"{state.render()}\nscore {state.score}  move {moves}{ending}\n"


class Painter:
    """Draws the states of one maze, off screen (``rgb_array``) or in a window (``human``)."""

    def __init__(self, layout: Layout, agents: Sequence[str], mode: str, fps: int = 10) -> None:
        from pacman.display._pygame import pygame
        from pacman.display.renderer import Renderer

        self._pygame = pygame
        self.agents = list(agents)
        self.mode = mode
        self.fps = fps
        self.renderer = Renderer(layout, WINDOW_TILE if mode == "human" else ARRAY_TILE)
        self.window = None
        self._clock = None
        if mode == "human":
            pygame.display.init()
            self.window = pygame.display.set_mode(self.renderer.size)
            pygame.display.set_caption(f"pacman-arena: {layout.name}")
            self._clock = pygame.time.Clock()
            self.surface = self.window
        else:
            self.surface = pygame.Surface(self.renderer.size)

    def draw(self, state: GameState, moves: int) -> np.ndarray | None:
        """Draw ``state``; the picture as an array, or ``None`` in a window."""
        from pacman.display.renderer import Status

        status = Status(move=moves, agents=self.agents, outcome=state.outcome)
        self.renderer.draw(self.surface, state, status=status)
        pygame = self._pygame
        if self.window is None:
            width, height = self.renderer.size
            pixels = pygame.image.tobytes(self.surface, "RGB")
            return np.frombuffer(pixels, dtype=np.uint8).reshape(height, width, 3).copy()
        pygame.event.pump()
        pygame.display.flip()
        if self._clock is not None:
            self._clock.tick(self.fps)
        return None

    def close(self) -> None:
        """Close the window, if one is open."""
        if self.window is not None:
            self.window = None
            self._pygame.display.quit()


class Screen:
    """An environment's ``render()`` and ``close()``: text for ``ansi``, else a :class:`Painter`
    made on the first frame; with no ``mode``, a warning that tells ``where`` to give one."""

    def __init__(self, layout: Layout, agents: Sequence[str], mode: str | None, fps: int,
                 where: str) -> None:
        self.layout = layout
        self.agents = list(agents)
        self.mode = mode
        self.fps = fps
        self.where = where
        self._painter: Painter | None = None

    def render(self, state: GameState, moves: int) -> str | np.ndarray | None:
        if self.mode is None:
            logger.warn(f"render() was called without a render_mode; give one to {self.where}, "
                        "e.g. render_mode='rgb_array'")
            return None
        if self.mode == "ansi":
            return ansi_frame(state, moves)
        if state.layout is not self.layout:  # an episode on another maze of the list
            self.close()
            self.layout = state.layout
        if self._painter is None:
            self._painter = Painter(self.layout, self.agents, self.mode, self.fps)
        return self._painter.draw(state, moves)

    def close(self) -> None:
        if self._painter is not None:
            self._painter.close()
            self._painter = None

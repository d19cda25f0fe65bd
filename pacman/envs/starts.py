"""Where an episode starts: on one maze or on one of a list, at the maze's own start cells or
at random open cells.

``layout=`` may name one maze or give a list (or tuple) of mazes of the same size and, for the
ghosts that play, the same count; ``random_starts=True`` puts Pacman and every ghost on distinct
open cells drawn at random (a ghost that is eaten still goes back to the maze's own ghost
start, as the rules say). Both are drawn at ``reset`` from the environment's generator, so a
seed fixes them; ``reset(options={"random_starts": ...})`` changes the choice from that reset
on.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pacman.errors import ConfigurationError
from pacman.envs.observation import Observer
from pacman.engine.layout import Layout, load_layout
from pacman.engine.state import GameState

MazeArgument = Layout | str | Sequence[Layout | str]


def maze_list(layout: MazeArgument) -> list[Layout]:
    """The mazes ``layout`` names (one, or a non-empty list of the same size)."""
    items = [layout] if isinstance(layout, (Layout, str)) else list(layout)
    if not items:
        raise ConfigurationError("layout must name a maze or give a non-empty list of mazes")
    mazes = [item if isinstance(item, Layout) else load_layout(item) for item in items]
    sizes = {(maze.width, maze.height) for maze in mazes}
    if len(sizes) > 1:
        raise ConfigurationError(f"the mazes of a list must have one size (the observation's), "
                                 f"got {', '.join(f'{m.name} {m.width}x{m.height}' for m in mazes)}")
    return mazes


class Starts:
    """The mazes of an environment, an :class:`Observer` for each, and the start of an episode."""

    def __init__(self, mazes: list[Layout], num_ghosts: int, random_starts: bool) -> None:
        for maze in mazes:
            if maze.num_ghosts < num_ghosts:
                raise ConfigurationError(f"num_ghosts must be 0 to {maze.num_ghosts} on "
                                         f"{maze.name!r}, got {num_ghosts!r}")
            if random_starts and len(maze.open_cells) < num_ghosts + 1:
                raise ConfigurationError(f"{maze.name!r} has too few open cells for random starts")
        self.mazes = mazes
        self.num_ghosts = num_ghosts
        self.random_starts = bool(random_starts)
        self.observers = {id(maze): Observer(maze, num_ghosts) for maze in mazes}

    def observer(self, maze: Layout) -> Observer:
        return self.observers[id(maze)]

    def draw(self, rng: np.random.Generator, options: dict | None = None) -> GameState:
        """The first state of an episode, drawn with ``rng`` (nothing is drawn on one maze
        without random starts)."""
        if options and "random_starts" in options:
            self.random_starts = bool(options["random_starts"])
        maze = self.mazes[int(rng.integers(len(self.mazes)))] if len(self.mazes) > 1 \
            else self.mazes[0]
        state = GameState.initial(maze, self.num_ghosts)
        if self.random_starts:
            picks = rng.choice(len(maze.open_cells), size=self.num_ghosts + 1, replace=False)
            state = state.replace(positions=tuple(maze.open_cells[int(i)] for i in picks))
        return state


__all__ = ["Starts", "maze_list", "MazeArgument"]

"""Helpers of the environment tests: a reference observation built from the public state API."""

from __future__ import annotations

import numpy as np

from pacman.engine.state import GameState


def reference_planes(state: GameState, agent: int) -> np.ndarray:
    """The planes :mod:`pacman.envs.observation` documents, built from ``(x, y)`` positions."""
    layout = state.layout
    k = state.num_ghosts
    planes = np.zeros((layout.height, layout.width, 6 + k), dtype=np.int8)

    def mark(position, plane):
        x, y = position
        planes[layout.height - 1 - y, x, plane] = 1

    for y in range(layout.height):
        for x in range(layout.width):
            if layout.is_wall((x, y)):
                mark((x, y), 0)
    for position in state.food_positions:
        mark(position, 1)
    for position in state.capsule_positions:
        mark(position, 2)
    mark(state.pacman_position, 3)
    for ghost, position in enumerate(state.ghost_positions, start=1):
        mark(position, 3 + ghost)
        if state.is_scared(ghost):
            mark(position, 4 + k)
    mark(state.agent_position(agent), 5 + k)
    return planes

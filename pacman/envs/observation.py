"""Observations of the environments: a game state as stacked H x W int8 planes, built with numpy.

Planes, in order (``C = 6 + k`` for ``k`` ghosts):

====================  ============================================================
``0`` walls           1 on every wall cell
``1`` food            1 on every food dot left
``2`` capsules        1 on every capsule left
``3`` Pacman          1 on Pacman's cell
``4 .. 3+k`` ghosts   plane ``3 + i`` is 1 on ghost ``i``'s cell
``4+k`` scared        1 on the cell of every scared ghost
``5+k`` self          1 on the cell of the agent that observes
====================  ============================================================

Row 0 is the top row of the maze, as it is drawn (the engine counts ``y`` from the bottom).
Every plane is 0 or 1; the observation is fully observable: every agent sees the whole board
and only the last plane differs between agents. The action mask lists the five actions in
:data:`pacman.engine.directions.ACTIONS` order (North, South, East, West, Stop), 1 where legal; once
the game is over only Stop is 1 (a mask is never all 0).
"""

from __future__ import annotations

import numpy as np

from pacman.engine.directions import ACTIONS, STOP
from pacman.engine.layout import Layout
from pacman.engine.state import GameState

WALLS, FOOD, CAPSULES, PACMAN = 0, 1, 2, 3
#: Index of each action in the action space; :data:`ACTIONS` maps back.
ACTION_INDEX = {action: index for index, action in enumerate(ACTIONS)}


def plane_count(num_ghosts: int) -> int:
    """How many planes an observation has with ``num_ghosts`` ghosts."""
    return 6 + num_ghosts


class Observer:
    """Builds the observations of games on one maze with ``num_ghosts`` ghosts.

    What never changes (the wall plane, each cell's row and column) is computed once; a state
    costs two bit unpackings (food, capsules) and a few indexed writes. The last state's
    planes are kept, so the observations of every agent of one state share that work.
    """

    def __init__(self, layout: Layout, num_ghosts: int) -> None:
        self.layout = layout
        self.num_ghosts = num_ghosts
        self.shape = (layout.height, layout.width, plane_count(num_ghosts))
        size = layout.width * layout.height
        cells = np.arange(size)
        #: Row (from the top) and column of every cell.
        self.rows = (layout.height - 1 - cells // layout.width).tolist()
        self.columns = (cells % layout.width).tolist()
        self._bytes = (size + 7) // 8
        self._size = size
        # Planes are filled cell by cell index (y from the bottom), one row per plane, then
        # turned into the H x W x C picture by a view and one copy.
        self._blank = np.zeros((self.shape[2], size), dtype=np.int8)
        self._blank[WALLS] = self.bits(layout.walls)
        self._last: tuple[GameState, np.ndarray] | None = None

    def bits(self, mask: int) -> np.ndarray:
        """The bits of ``mask`` as 0/1 per cell, cell 0 first."""
        packed = np.frombuffer(mask.to_bytes(self._bytes, "little"), dtype=np.uint8)
        return np.unpackbits(packed, count=self._size, bitorder="little")

    def plane(self, mask: int) -> np.ndarray:
        """The H x W int8 plane of the cells whose bits are set in ``mask``, top row first."""
        layout = self.layout
        return self.bits(mask).view(np.int8).reshape(layout.height, layout.width)[::-1]

    def board(self, state: GameState) -> np.ndarray:
        """The planes of ``state`` with the self plane empty; the caller must not change
        them."""
        last = self._last
        if last is not None and last[0] is state:
            return last[1]
        flat = self._blank.copy()
        flat[FOOD] = self.bits(state.food)
        flat[CAPSULES] = self.bits(state.capsules)
        positions, timers = state.positions, state.scared_timers
        flat[PACMAN, positions[0]] = 1
        scared = PACMAN + self.num_ghosts + 1
        for ghost in range(1, len(positions)):
            flat[PACMAN + ghost, positions[ghost]] = 1
            if timers[ghost - 1]:
                flat[scared, positions[ghost]] = 1
        height, width, count = self.shape
        planes = np.ascontiguousarray(
            flat.reshape(count, height, width)[:, ::-1, :].transpose(1, 2, 0))
        self._last = (state, planes)
        return planes

    def observe(self, state: GameState, agent: int) -> np.ndarray:
        """The H x W x C planes that agent ``agent`` (0 Pacman, 1.. the ghosts) sees."""
        planes = self.board(state).copy()
        cell = state.positions[agent]
        planes[self.rows[cell], self.columns[cell], -1] = 1
        return planes

    @staticmethod
    def action_mask(state: GameState, agent: int) -> np.ndarray:
        """1 for each legal action of ``agent`` in ``state``; once the game is over, Stop
        only."""
        mask = np.zeros(len(ACTIONS), dtype=np.int8)
        legal = state.legal_actions(agent) if state.outcome is None else (STOP,)
        for action in legal:
            mask[ACTION_INDEX[action]] = 1
        return mask

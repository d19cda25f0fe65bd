"""Bug: all ghosts form one layer: after the first ghost it is Pacman's turn again."""

import _native_student as base
from _native_student import AlphaBetaAgent, ExpectimaxAgent, ReflexAgent, better_evaluation  # noqa: F401


class MinimaxAgent(base.MinimaxAgent):
    def next(self, agent, depth):
        if agent == 0:
            return 1, depth
        return 0, depth - 1

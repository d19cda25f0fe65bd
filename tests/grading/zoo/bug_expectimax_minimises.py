"""Bug: expectimax that minimises at the ghosts' layers (it is minimax)."""

import _native_student as base
from _native_student import AlphaBetaAgent, MinimaxAgent, ReflexAgent, better_evaluation  # noqa: F401


class ExpectimaxAgent(base.MinimaxAgent):
    pass

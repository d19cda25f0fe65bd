"""Bug: stops when the depth drops below zero, so it searches one round too deep."""

import _native_student as base
from _native_student import AlphaBetaAgent, ExpectimaxAgent, ReflexAgent, better_evaluation  # noqa: F401


class MinimaxAgent(base.MinimaxAgent):
    def stop(self, state, depth):
        return depth < 0 or state.is_terminal

"""Bug: prunes a MAX node against alpha and a MIN node against beta."""

import _native_student as base
from _native_student import ExpectimaxAgent, MinimaxAgent, ReflexAgent, better_evaluation  # noqa: F401


class AlphaBetaAgent(base.AlphaBetaAgent):
    def prune_max(self, v, alpha, beta):
        return v >= alpha

    def prune_min(self, v, alpha, beta):
        return v <= beta

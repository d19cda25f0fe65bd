"""Hostile: a "reflex" agent that is really the project's own alpha-beta with its ``better``
evaluation, and the project's ``better`` handed in as the student's evaluation function.
Targets q1 (reflex games) and q5 (evaluation games)."""

from pacman.agents.evaluation import better as better_evaluation  # noqa: F401
from pacman.agents.search_agents import AlphaBetaAgent as _ShippedAlphaBeta


class ReflexAgent(_ShippedAlphaBeta):
    def __init__(self, index=0, rng=None):
        super().__init__(index, rng, depth=2, evaluation=better_evaluation)

"""Bug: decrements the depth after every agent's move instead of once per round."""

import _native_student as base
from _native_student import AlphaBetaAgent, ExpectimaxAgent, ReflexAgent, better_evaluation  # noqa: F401


class MinimaxAgent(base.MinimaxAgent):
    def next(self, agent, depth):
        return (agent + 1) % self.agents, depth - 1

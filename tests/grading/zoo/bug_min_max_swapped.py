"""Bug: minimises at Pacman's layers and maximises at the ghosts'."""

import _native_student as base
from _native_student import AlphaBetaAgent, ExpectimaxAgent, ReflexAgent, better_evaluation  # noqa: F401


class MinimaxAgent(base.MinimaxAgent):
    def value(self, state, agent, depth, alpha, beta):
        if self.stop(state, depth):
            return self.evaluation(state)
        nxt, nd = self.next(agent, depth)
        values = [self.value(c, nxt, nd, alpha, beta) for _, c in self.children(state, agent)]
        return min(values) if agent == 0 else max(values)

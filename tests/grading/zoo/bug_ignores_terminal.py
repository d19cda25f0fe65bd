"""Bug: stops only when the depth runs out, not at wins and losses."""

import math

import _native_student as base
from _native_student import AlphaBetaAgent, ReflexAgent, better_evaluation  # noqa: F401


class MinimaxAgent(base.MinimaxAgent):
    def stop(self, state, depth):
        return depth == 0

    def max_value(self, state, agent, depth, alpha, beta):
        nxt, nd = self.next(agent, depth)
        v = -math.inf
        for _, child in self.children(state, agent):
            v = max(v, self.value(child, nxt, nd, alpha, beta))
        return v

    def ghost_value(self, state, agent, depth, alpha, beta):
        nxt, nd = self.next(agent, depth)
        v = math.inf
        for _, child in self.children(state, agent):
            v = min(v, self.value(child, nxt, nd, alpha, beta))
        return v


class ExpectimaxAgent(base.ExpectimaxAgent):
    def stop(self, state, depth):
        return depth == 0

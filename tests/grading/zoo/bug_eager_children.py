"""Bug: builds the list of all children before searching, so pruned children are generated."""

import _native_student as base
from _native_student import ExpectimaxAgent, MinimaxAgent, ReflexAgent, better_evaluation  # noqa: F401


class AlphaBetaAgent(base.AlphaBetaAgent):
    def children(self, state, agent):
        return [(a, state.successor(a, agent)) for a in state.legal_actions(agent)]

"""A student's multi-agent search written against the native API: the zoo's baseline.

The bug submissions of the zoo subclass these agents and override one method with a classic
mistake, exactly as a student's single wrong line would.
"""

import math

from agents.base import BaseAgent
from agents.evaluation import better


class ReflexAgent(BaseAgent):
    """Takes the move whose successor evaluates best: food close, ghosts far (one-step look-ahead)."""

    def get_action(self, state):
        actions = [a for a in state.legal_actions(0) if a != "Stop"] or list(state.legal_actions(0))
        return max(actions, key=lambda a: better(state.successor(a, 0)))


class SearchAgent(BaseAgent):
    """Depth-limited adversarial search; ghosts are handled by :meth:`ghost_value`."""

    def __init__(self, index=0, rng=None, *, depth: int = 2, evaluation=better):
        super().__init__(index, rng)
        self.depth = depth
        self.evaluation = evaluation

    def get_action(self, state):
        self.agents = state.num_agents
        best, best_action, alpha = -math.inf, None, -math.inf
        agent, depth = self.next(0, self.depth)
        for action, child in self.children(state, 0):
            v = self.value(child, agent, depth, alpha, math.inf)
            if best_action is None or v > best:
                best, best_action = v, action
            alpha = max(alpha, best)
        return best_action

    def next(self, agent, depth):
        following = (agent + 1) % self.agents
        return following, depth - 1 if following == 0 else depth

    def stop(self, state, depth):
        return depth == 0 or state.is_terminal

    def children(self, state, agent):
        for action in state.legal_actions(agent):
            yield action, state.successor(action, agent)

    def value(self, state, agent, depth, alpha, beta):
        if self.stop(state, depth):
            return self.evaluation(state)
        if agent == 0:
            return self.max_value(state, agent, depth, alpha, beta)
        return self.ghost_value(state, agent, depth, alpha, beta)

    def max_value(self, state, agent, depth, alpha, beta):
        nxt, nd = self.next(agent, depth)
        return max(self.value(c, nxt, nd, alpha, beta) for _, c in self.children(state, agent))

    def ghost_value(self, state, agent, depth, alpha, beta):
        nxt, nd = self.next(agent, depth)
        return min(self.value(c, nxt, nd, alpha, beta) for _, c in self.children(state, agent))


class MinimaxAgent(SearchAgent):
    """Minimax: every ghost minimises."""


class AlphaBetaAgent(SearchAgent):
    """Alpha-beta: minimax with pruning on v >= beta (MAX) and v <= alpha (MIN)."""

    def max_value(self, state, agent, depth, alpha, beta):
        nxt, nd = self.next(agent, depth)
        v = -math.inf
        for _, child in self.children(state, agent):
            v = max(v, self.value(child, nxt, nd, alpha, beta))
            if self.prune_max(v, alpha, beta):
                return v
            alpha = max(alpha, v)
        return v

    def ghost_value(self, state, agent, depth, alpha, beta):
        nxt, nd = self.next(agent, depth)
        v = math.inf
        for _, child in self.children(state, agent):
            v = min(v, self.value(child, nxt, nd, alpha, beta))
            if self.prune_min(v, alpha, beta):
                return v
            beta = min(beta, v)
        return v

    def prune_max(self, v, alpha, beta):
        return v >= beta

    def prune_min(self, v, alpha, beta):
        return v <= alpha


class ExpectimaxAgent(SearchAgent):
    """Expectimax: every ghost moves uniformly at random."""

    def ghost_value(self, state, agent, depth, alpha, beta):
        nxt, nd = self.next(agent, depth)
        values = [self.value(c, nxt, nd, alpha, beta) for _, c in self.children(state, agent)]
        return sum(values) / len(values)


def better_evaluation(state):
    """The student's evaluation function."""
    return better(state)

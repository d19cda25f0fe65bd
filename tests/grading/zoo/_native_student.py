"""A student's multi-agent search written against the native API: the zoo's baseline.

The bug submissions of the zoo subclass these agents and override one method with a classic
mistake, exactly as a student's single wrong line would.
"""

import math

from pacman.agents.base import BaseAgent
import numpy as np


# The student's own evaluation (a submission may not import the project's evaluations).
DANGER_REACH = 4
ESCAPE_ROOM = 10


def nearest_food_distance(state):
    """Maze distance from Pacman to the nearest reachable dot (``None`` if there is none)."""
    food = state.food
    row = state.layout.distance_rows[state.positions[0]]
    nearest = None
    while food:
        low = food & -food
        d = row[low.bit_length() - 1]
        if d >= 0 and (nearest is None or d < nearest):
            nearest = d
            if d == 1:
                break
        food ^= low
    return nearest


def pacman_territory(state) -> int:
    """Open cells Pacman reaches strictly before every ghost that is not scared: his room to
    escape.

    Pacman moves first in a round, so a cell he reaches in ``t`` moves is safe from a ghost that
    needs ``t`` or more. With no hunting ghost, every cell Pacman can reach counts.
    """
    layout = state.layout
    rows = layout.open_distances
    positions = state.positions
    scared = state.scared_timers
    theirs = None
    for ghost in range(1, len(positions)):
        if not scared[ghost - 1]:
            row = rows[positions[ghost]]
            theirs = row if theirs is None else np.minimum(theirs, row)
    mine = rows[positions[0]]
    if theirs is None:
        return int(np.count_nonzero(mine < len(layout.cell_xy)))
    return int(np.count_nonzero(mine < theirs))


def better(state):
    """A strong evaluation: the score, the way to food, ghost danger, hunting scared ghosts.

    * the game score (so eating, winning and losing count as in the game);
    * ``-9 d / D`` for the maze distance ``d`` to the nearest dot, ``D`` the maze's diameter:
      every step towards food gains the same amount however far the food is (no hovering when
      food is far), and eating a dot (+10) always pays more than the walk to the next one;
    * for each ghost that is not scared at distance ``d <= 4``: ``-150 / (d + 1)`` (danger
      within reach before the search horizon sees the capture);
    * ``-150`` when fewer than 10 cells are Pacman's territory (cells he reaches before every
      hunting ghost, :func:`pacman_territory`): the ghosts are closing the ways out, and a
      capture that a shallow search cannot see yet is coming;
    * for each scared ghost Pacman can reach before it recovers: ``+100 / (d + 1)`` (hunt it;
      eating it gives +200 and ends the bonus, so eating always pays);
    * ``-20`` per capsule left, so capsules are eaten on the way rather than ignored.

    The danger reach and the territory threshold were chosen by win rate over 100 seeded games
    against two directional ghosts on ``small_classic`` (see the search benchmark).
    """
    if state.outcome is not None:
        return state.score
    layout = state.layout
    positions = state.positions
    row = layout.distance_rows[positions[0]]
    value = state.score
    nearest = nearest_food_distance(state)
    if nearest is not None:
        value -= 9.0 * nearest / layout.diameter
    scared = state.scared_timers
    hunted = False
    for ghost in range(1, len(positions)):
        d = row[positions[ghost]]
        timer = scared[ghost - 1]
        if timer > d >= 0:
            value += 100.0 / (d + 1)
        elif not timer:
            hunted = True
            if 0 <= d <= DANGER_REACH:
                value -= 150.0 / (d + 1)
    if hunted and pacman_territory(state) < ESCAPE_ROOM:
        value -= 150.0
    return value - 20 * state.capsules.bit_count()


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

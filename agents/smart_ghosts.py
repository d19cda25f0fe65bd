"""Ghosts that think: they search the game tree with Pacman as their opponent (seed 003).

* :class:`AdversarialGhost` searches ``depth`` rounds of minimax (alpha-beta, same choice) with
  an evaluation that seeks Pacman: each ghost cares about its own distance to him.
* :class:`TeamGhost` searches the same tree with a *team* evaluation: the cells Pacman can still
  reach before any ghost (his escape routes) plus the ghosts' distances to him. Because every
  ghost is a MIN layer of one tree, successive MIN layers minimise over the *joint* ghost move,
  so the search is a joint plan; each ghost plays its own part of it. A ghost that minimises
  Pacman's territory takes the other side of a loop rather than following its mate.
* :class:`MixedGhost` plays the adversarial move with probability ``p`` and a uniformly random
  legal move otherwise (seed 003's "informed probabilities": 80 % depth-2 minimax), and exposes
  exactly that mixture as its distribution.

All values are from Pacman's point of view (the search adapter's convention): the ghosts are
MIN. Every ghost is deterministic given the state (ties go to the first move in the order
North, South, East, West), except the mixed ghost's random draws, which use its own seeded
generator. Each exposes :meth:`distribution`, so an expectimax Pacman can use it as a model.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Callable, Mapping

from agents.base import DistributionAgent
from agents.evaluation import pacman_territory
from agents.pacman_game import PacmanGame
from agents.search.algorithms import alphabeta
from pacman.errors import ConfigurationError
from pacman.state import GameState

#: Weight of one step of a hunting ghost's distance to Pacman (a dot is worth 10).
CHASE = 2.0
#: Weight of one step of a scared ghost's distance (it wants to be far).
FLEE = 2.0
#: Weight of one cell of Pacman's territory under the team evaluation.
TERRITORY = 1.0
#: Decisions remembered per ghost: an expectimax Pacman asks for the same states many times.
MEMORY = 4096


def seek_pacman(ghost: int) -> Callable[[GameState], float]:
    """The evaluation of ghost ``ghost`` (agent index): the score, plus ``CHASE`` per step it is
    away from Pacman (minus ``FLEE`` per step while it is scared)."""

    def value(state: GameState) -> float:
        if state[8] is not None:
            return state[6]
        d = state[0].distance_rows[state[1][0]][state[1][ghost]]
        if d < 0:
            return state[6]
        return state[6] + (-FLEE * d if state[3][ghost - 1] else CHASE * d)

    return value


def team_value(state: GameState) -> float:
    """The team evaluation: the score, ``TERRITORY`` per cell Pacman can still reach first,
    ``CHASE`` per step of each hunting ghost's distance to him, minus ``FLEE`` per step of each
    scared ghost's distance (scared ghosts scatter)."""
    if state[8] is not None:
        return state[6]
    row = state[0].distance_rows[state[1][0]]
    positions = state[1]
    scared = state[3]
    value = state[6] + TERRITORY * pacman_territory(state)
    for ghost in range(1, len(positions)):
        d = row[positions[ghost]]
        if d >= 0:
            value += -FLEE * d if scared[ghost - 1] else CHASE * d
    return value


class _SearchingGhost(DistributionAgent):
    """A ghost choosing the move that minimises Pacman's value over ``depth`` rounds."""

    def __init__(self, index: int = 1, rng: random.Random | None = None, *,
                 depth: int = 2) -> None:
        super().__init__(index, rng)
        if index < 1:
            raise ConfigurationError(f"{type(self).__name__} plays a ghost (agent 1 or more)")
        if depth < 1:
            raise ConfigurationError(f"depth must be at least 1, got {depth}")
        self.depth = depth
        self.game = PacmanGame(self.evaluation())
        self._memory: OrderedDict[GameState, str] = OrderedDict()

    def evaluation(self) -> Callable[[GameState], float]:
        raise NotImplementedError

    def best_action(self, state: GameState) -> str:
        """The searched move in ``state`` (remembered for repeated questions)."""
        action = self._memory.get(state)
        if action is None:
            action = alphabeta(self.game, state, depth=self.depth).action
            self._memory[state] = action
            if len(self._memory) > MEMORY:
                self._memory.popitem(last=False)
        return action

    def distribution(self, state: GameState) -> Mapping[str, float]:
        best = self.best_action(state)
        return {a: 1.0 if a == best else 0.0 for a in state.legal_actions(self.index)}

    def get_action(self, state: GameState) -> str:
        return self.best_action(state)


class AdversarialGhost(_SearchingGhost):
    """Searches ``depth`` rounds of minimax, seeking Pacman by its own distance to him."""

    def evaluation(self) -> Callable[[GameState], float]:
        return seek_pacman(self.index)


class TeamGhost(_SearchingGhost):
    """Plans jointly with the other ghosts: minimax over their joint moves, minimising
    Pacman's escape routes (cells he reaches first) and the ghosts' distances to him."""

    def evaluation(self) -> Callable[[GameState], float]:
        return team_value


class MixedGhost(AdversarialGhost):
    """Plays the adversarial ghost's move with probability ``p``, else a random legal move."""

    def __init__(self, index: int = 1, rng: random.Random | None = None, *,
                 depth: int = 2, p: float = 0.8) -> None:
        super().__init__(index, rng, depth=depth)
        if not 0.0 <= p <= 1.0:
            raise ConfigurationError(f"p must be between 0 and 1, got {p}")
        self.p = p

    def distribution(self, state: GameState) -> Mapping[str, float]:
        actions = state.legal_actions(self.index)
        best = self.best_action(state)
        spread = (1.0 - self.p) / len(actions)
        return {a: spread + (self.p if a == best else 0.0) for a in actions}

    def get_action(self, state: GameState) -> str:
        # Draw once for "search or random" and, if random, once more for the move: the same
        # mixture as ``distribution``, and a random move costs no search.
        actions = state.legal_actions(self.index)
        if self.rng.random() < self.p:
            return self.best_action(state)
        return actions[self.rng.randrange(len(actions))]

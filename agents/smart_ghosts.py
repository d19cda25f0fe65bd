"""Ghosts that think: they search the game tree with Pacman as their opponent (the Pacman slides).

* :class:`AdversarialGhost` searches ``depth`` rounds of minimax (alpha-beta, same choice) with
  an evaluation that seeks Pacman: each ghost cares about its own distance to him.
* :class:`TeamGhost` searches the same tree with a *team* evaluation: the cells Pacman can still
  reach before any ghost (his escape routes) plus the ghosts' distances to him. Because every
  ghost is a MIN layer of one tree, successive MIN layers minimise over the *joint* ghost move,
  so the search is a joint plan; each ghost plays its own part of it. A ghost that minimises
  Pacman's territory takes the other side of a loop rather than following its mate.
* :class:`JointMinimaxGhost` is the lecture's "smart ghosts coordinate" without any
  purpose-written evaluation: every ghost is a MIN layer of one tree that minimises a simple
  evaluation, the score plus ``CHASE`` per step of *every* hunting ghost's distance to Pacman
  (:func:`joint_chase`). The joint plan comes from the tree alone.
* :class:`MixedGhost` plays the adversarial move with probability ``p`` and a uniformly random
  legal move otherwise (the Pacman slides' "informed probabilities": 80 % depth-2 minimax), and exposes
  exactly that mixture as its distribution.

All values are from Pacman's point of view (the search adapter's convention): the ghosts are
MIN. With ``tie_break=first`` (the default) every ghost is deterministic given the state (ties
go to the first move in the order North, South, East, West); with ``tie_break=random`` it
draws among its equally good moves with its own seeded generator (exact root values from a
full minimax), and so does the mixed ghost for its random moves. Each exposes
:meth:`distribution`, so an expectimax Pacman can use it as a model.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Literal
from collections.abc import Callable, Mapping

from pacman.agents.base import DistributionAgent
from pacman.agents.evaluation import pacman_territory
from pacman.agents.maze_tables import maze_tables
from pacman.agents.pacman_game import PacmanGame
from pacman.agents.search.algorithms import alphabeta, minimax
from pacman.errors import ConfigurationError
from pacman.engine.state import LAYOUT, OUTCOME, POSITIONS, SCARED_TIMERS, SCORE, GameState

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
        if state[OUTCOME] is not None:
            return state[SCORE]
        d = state[LAYOUT].distance_rows[state[POSITIONS][0]][state[POSITIONS][ghost]]
        if d < 0:
            return state[SCORE]
        return state[SCORE] + (-FLEE * d if state[SCARED_TIMERS][ghost - 1] else CHASE * d)

    return value


def team_value(state: GameState) -> float:
    """The team evaluation: :func:`joint_chase` plus ``TERRITORY`` per cell Pacman can still
    reach first (his escape routes)."""
    if state[OUTCOME] is not None:
        return state[SCORE]
    return joint_chase(state) + TERRITORY * pacman_territory(state)


def joint_chase(state: GameState) -> float:
    """The joint-minimax evaluation: the score plus ``CHASE`` per step of every hunting
    ghost's distance to Pacman, minus ``FLEE`` per step of every scared ghost's distance."""
    if state[OUTCOME] is not None:
        return state[SCORE]
    row = state[LAYOUT].distance_rows[state[POSITIONS][0]]
    positions = state[POSITIONS]
    scared = state[SCARED_TIMERS]
    value = state[SCORE]
    for ghost in range(1, len(positions)):
        d = row[positions[ghost]]
        if d >= 0:
            value += -FLEE * d if scared[ghost - 1] else CHASE * d
    return value


def own_territory(ghost: int) -> Callable[[GameState], float]:
    """Ghost ``ghost``'s evaluation: the score, ``CHASE`` per step of its own distance to
    Pacman (minus ``FLEE`` per step while scared) and ``TERRITORY`` per cell Pacman reaches
    strictly before this ghost (every cell he can reach while it is scared)."""

    def value(state: GameState) -> float:
        if state[OUTCOME] is not None:
            return state[SCORE]
        pacman, me = state[POSITIONS][0], state[POSITIONS][ghost]
        scared = state[SCARED_TIMERS][ghost - 1]
        d = state[LAYOUT].distance_rows[pacman][me]
        chase = 0.0 if d < 0 else (-FLEE * d if scared else CHASE * d)
        hunters = [] if scared else [me]
        return state[SCORE] + chase + TERRITORY * maze_tables(state[LAYOUT]).territory(pacman, hunters)

    return value


class _SearchingGhost(DistributionAgent):
    """A ghost choosing the move that minimises Pacman's value over ``depth`` rounds."""

    def __init__(self, index: int = 1, rng: random.Random | None = None, *,
                 depth: int = 2, tie_break: Literal["first", "random"] = "first") -> None:
        super().__init__(index, rng)
        if index < 1:
            raise ConfigurationError(f"{type(self).__name__} plays a ghost (agent 1 or more)")
        if depth < 1:
            raise ConfigurationError(f"depth must be at least 1, got {depth}")
        if tie_break not in ("first", "random"):
            raise ConfigurationError(f"tie_break must be first or random, got {tie_break!r}")
        self.depth = depth
        self.tie_break = tie_break
        self.game = PacmanGame(self.evaluation())
        self._memory: OrderedDict[GameState, tuple[str, ...]] = OrderedDict()

    def evaluation(self) -> Callable[[GameState], float]:
        raise NotImplementedError

    def best_actions(self, state: GameState) -> tuple[str, ...]:
        """The moves this ghost may play in ``state``: the first minimising move, or with
        ``tie_break=random`` every move whose exact value is the minimum (remembered for
        repeated questions)."""
        best = self._memory.get(state)
        if best is None:
            if self.tie_break == "first":
                best = (alphabeta(self.game, state, depth=self.depth).action,)
            else:
                values = minimax(self.game, state, depth=self.depth).root_values
                low = min(values.values())
                best = tuple(a for a in state.legal_actions(self.index) if values[a] == low)
            self._memory[state] = best
            if len(self._memory) > MEMORY:
                self._memory.popitem(last=False)
        return best

    def best_action(self, state: GameState) -> str:
        """The searched move in ``state`` (a random one of the equals with random ties)."""
        best = self.best_actions(state)
        return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]

    def distribution(self, state: GameState) -> Mapping[str, float]:
        best = self.best_actions(state)
        return {a: (1.0 / len(best) if a in best else 0.0)
                for a in state.legal_actions(self.index)}

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


class JointMinimaxGhost(_SearchingGhost):
    """Plans jointly with the other ghosts by plain minimax: every ghost a MIN layer of one
    tree, minimising the score plus every ghost's distance to Pacman (:func:`joint_chase`)."""

    def evaluation(self) -> Callable[[GameState], float]:
        return joint_chase


class IndependentTerritoryGhost(_SearchingGhost):
    """Plans alone with the team's kind of evaluation: minimises Pacman's escape routes from
    itself and its own distance to him (the coordination experiment's control: the territory
    team's evaluation without the joint plan)."""

    def evaluation(self) -> Callable[[GameState], float]:
        return own_territory(self.index)


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
        best = self.best_actions(state)[0]
        spread = (1.0 - self.p) / len(actions)
        return {a: spread + (self.p if a == best else 0.0) for a in actions}

    def get_action(self, state: GameState) -> str:
        # Draw once for "search or random" and, if random, once more for the move: the same
        # mixture as ``distribution``, and a random move costs no search.
        actions = state.legal_actions(self.index)
        if self.rng.random() < self.p:
            return self.best_action(state)
        return actions[self.rng.randrange(len(actions))]

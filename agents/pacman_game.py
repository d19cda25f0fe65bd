"""Pacman as a searchable game: the adapter between the engine and :mod:`pacman.agents.search`.

Pacman is MAX. Each ghost is its own layer after him: a MIN layer (minimax: ghosts are
adversaries) or a CHANCE layer (expectimax) whose outcome probabilities come from a uniform
model or from the ghosts' own move distributions (the Pacman slides' "informed probabilities"). Depth
counts full rounds: the move of the last agent of a round completes one unit. Utilities and
evaluations are from Pacman's point of view; a terminal state's utility is its game score.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from pacman.agents.ghost_focus import HORIZON, focused_actions
from pacman.agents.pacman_search import PacmanSearch
from pacman.agents.search.game import NodeKind
from pacman.agents.search.node_search import Search
from pacman.engine.rules import legal_actions, successor
from pacman.engine.state import OUTCOME, POSITIONS, SCORE, TURN, GameState

GhostModel = Literal["adversarial", "uniform", "informed"]
#: ``(state, ghost index) -> {action: probability}``: a model of how that ghost moves.
GhostDistribution = Callable[[GameState, int], Mapping[str, float]]

_MAX, _MIN, _CHANCE = NodeKind.MAX, NodeKind.MIN, NodeKind.CHANCE


class PacmanGame:
    """The search-game view of Pacman, searched by :class:`pacman.agents.pacman_search.PacmanSearch`.

    ``ghost_model``: ``adversarial`` (MIN layers), ``uniform`` (CHANCE, every legal move alike)
    or ``informed`` (CHANCE, probabilities from ``ghost_distributions[i - 1](state)`` for ghost
    ``i``, typically each ghost agent's ``distribution`` method). ``evaluation`` scores states
    where the depth runs out. ``focus``: when positive, a ghost farther than that many maze
    steps from Pacman has one move, a chaser's (:mod:`pacman.agents.ghost_focus`); 0 searches every
    ghost move; ``"horizon"`` sets the radius at each ghost node from the rounds the search has
    left there (adversarial ghosts only, and this class only: the depth-free protocol method
    :meth:`actions`, which a subclass's generic search calls, cannot apply it and lists every
    move).
    """

    def __init__(self, evaluation: Callable[[GameState], float],
                 ghost_model: GhostModel = "adversarial",
                 ghost_distribution: GhostDistribution | None = None,
                 focus: int | Literal["horizon"] = 0) -> None:
        if ghost_model == "informed" and ghost_distribution is None:
            raise ValueError("the informed ghost model needs the ghosts' distribution")
        if focus == HORIZON:
            if ghost_model != "adversarial" or type(self) is not PacmanGame:
                raise ValueError("focus='horizon' needs adversarial ghosts searched by the "
                                 "Pacman search (PacmanGame itself, not a subclass)")
        elif not isinstance(focus, int) or focus < 0:
            raise ValueError(f"focus must be 0 (off), a positive radius or 'horizon', got {focus!r}")
        self.focus = focus
        self.evaluation = evaluation
        self.ghost_model = ghost_model
        self.ghost_distribution = ghost_distribution
        self.kind_of_ghosts = _MIN if ghost_model == "adversarial" else _CHANCE

    @property
    def search_type(self) -> type[Search]:
        """The core search specialised for Pacman (same results and counts, cheaper per node);
        the generic one for a subclass, whose methods the specialisation would bypass."""
        return PacmanSearch if type(self) is PacmanGame else Search

    def kind(self, state: GameState) -> NodeKind:
        return _MAX if state[TURN] == 0 else self.kind_of_ghosts

    @staticmethod
    def is_end(state: GameState) -> bool:
        return state[OUTCOME] is not None

    @staticmethod
    def utility(state: GameState) -> float:
        return state[SCORE]

    def actions(self, state: GameState) -> Sequence[str]:
        turn = state[TURN]
        actions: Sequence[str] = legal_actions(state, turn)
        if turn == 0:
            return actions
        if len(actions) > 1 and isinstance(self.focus, int) and self.focus:
            actions = focused_actions(state, turn, actions, self.focus)
        return actions

    @staticmethod
    def successor(state: GameState, action: str) -> GameState:
        return successor(state, action)

    def probabilities(self, state: GameState) -> Sequence[float]:
        actions = self.actions(state)
        if self.ghost_model == "informed" and self.ghost_distribution is not None:
            distribution = self.ghost_distribution(state, state[TURN])
            weights = [distribution.get(a, 0.0) for a in actions]
            total = sum(weights)
            if total > 0:
                return [w / total for w in weights]
        share = 1.0 / len(actions)
        return [share] * len(actions)

    def evaluate(self, state: GameState) -> float:
        return self.evaluation(state)

    @staticmethod
    def ends_depth_unit(state: GameState) -> bool:
        return state[TURN] == len(state[POSITIONS]) - 1

    @staticmethod
    def state_key(state: GameState) -> GameState:
        return state

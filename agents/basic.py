"""Pacman agents that need no search: random and greedy (one-step look-ahead)."""

from __future__ import annotations

import random
from typing import Literal

from pacman.agents.base import BaseAgent
from pacman.agents.evaluation import CLOSEST_DOT, Evaluation
from pacman.engine.directions import STOP
from pacman.engine.state import GameState


class RandomPacman(BaseAgent):
    """Moves uniformly at random among the legal moves (stopping only if allowed or forced)."""

    def __init__(self, index: int = 0, rng: random.Random | None = None, *,
                 allow_stop: bool = False) -> None:
        super().__init__(index, rng)
        self.allow_stop = allow_stop

    def get_action(self, state: GameState) -> str:
        actions = state.legal_actions(self.index)
        if not self.allow_stop and len(actions) > 1:
            actions = tuple(a for a in actions if a != STOP)
        return self.rng.choice(actions)


class GreedyPacman(BaseAgent):
    """Takes the move whose successor evaluates best (one-step look-ahead).

    Ties are broken at random (``tie_break=random``) or by action order (``first``).
    """

    def __init__(self, index: int = 0, rng: random.Random | None = None, *,
                 evaluation: Evaluation = CLOSEST_DOT, allow_stop: bool = False,
                 tie_break: Literal["random", "first"] = "random") -> None:
        super().__init__(index, rng)
        self.evaluation = evaluation
        self.allow_stop = allow_stop
        self.tie_break = tie_break

    def get_action(self, state: GameState) -> str:
        actions = state.legal_actions(self.index)
        if not self.allow_stop and len(actions) > 1:
            actions = tuple(a for a in actions if a != STOP)
        values = [self.evaluation(state.successor(a, self.index)) for a in actions]
        best = max(values)
        ties = [a for a, v in zip(actions, values) if v == best]
        return ties[0] if self.tie_break == "first" else self.rng.choice(ties)

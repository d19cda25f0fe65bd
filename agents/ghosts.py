"""Ghost agents. Each exposes its move distribution, so expectimax can use the true model."""

from __future__ import annotations

import random
from collections.abc import Mapping

from agents.base import DistributionAgent
from pacman.state import GameState


class RandomGhost(DistributionAgent):
    """Moves uniformly at random among its legal moves."""

    def distribution(self, state: GameState) -> Mapping[str, float]:
        actions = state.legal_actions(self.index)
        share = 1.0 / len(actions)
        return {a: share for a in actions}


class DirectionalGhost(DistributionAgent):
    """Chases Pacman with probability ``attack`` (flees with ``flee`` while scared).

    The chasing moves are those that bring the ghost closest to Pacman by maze distance (the
    fleeing moves, farthest); they share that probability equally, and every legal move shares
    the rest equally.
    """

    def __init__(self, index: int = 1, rng: random.Random | None = None, *,
                 attack: float = 0.8, flee: float = 0.8) -> None:
        super().__init__(index, rng)
        self.attack = attack
        self.flee = flee

    def distribution(self, state: GameState) -> Mapping[str, float]:
        layout = state.layout
        index = self.index
        actions = state.legal_actions(index)
        moves = layout.ghost_moves[state.positions[index]][state.directions[index]]
        to_pacman = layout.distance_rows[state.positions[0]]
        distances = [to_pacman[moves[a]] for a in actions]
        scared = state.scared_timers[index - 1] > 0
        target = max(distances) if scared else min(distances)
        best = [a for a, d in zip(actions, distances) if d == target]
        bias = self.flee if scared else self.attack
        spread = (1.0 - bias) / len(actions)
        return {a: spread + (bias / len(best) if a in best else 0.0) for a in actions}

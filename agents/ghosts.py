"""Ghost agents. Each exposes its move distribution, so expectimax can use the true model."""

from __future__ import annotations

import random
from typing import Literal
from collections.abc import Mapping

from pacman.agents.base import DistributionAgent
from pacman.errors import ConfigurationError
from pacman.engine.state import GameState


class RandomGhost(DistributionAgent):
    """Moves uniformly at random among its legal moves."""

    def distribution(self, state: GameState) -> Mapping[str, float]:
        actions = state.legal_actions(self.index)
        share = 1.0 / len(actions)
        return {a: share for a in actions}


class DirectionalGhost(DistributionAgent):
    """Chases Pacman with probability ``attack`` (flees with ``flee`` while scared).

    The chasing moves are those that bring the ghost closest to Pacman (the fleeing moves,
    farthest); they share that probability equally, and every legal move shares the rest
    equally. ``distance``: how near is measured, ``maze`` (maze distance, the default: a ghost
    that follows Pacman round walls) or ``manhattan`` (``|dx| + |dy|``, as the classic course's
    ``DirectionalGhost`` measures it: a ghost that heads for Pacman across walls and can be
    held behind one).
    """

    def __init__(self, index: int = 1, rng: random.Random | None = None, *,
                 attack: float = 0.8, flee: float = 0.8,
                 distance: Literal["maze", "manhattan"] = "maze") -> None:
        super().__init__(index, rng)
        if distance not in ("maze", "manhattan"):
            raise ConfigurationError(f"distance must be maze or manhattan, got {distance!r}")
        self.attack = attack
        self.flee = flee
        self.distance = distance

    def distribution(self, state: GameState) -> Mapping[str, float]:
        layout = state.layout
        index = self.index
        actions = state.legal_actions(index)
        moves = layout.ghost_moves[state.positions[index]][state.directions[index]]
        if self.distance == "maze":
            to_pacman = layout.distance_rows[state.positions[0]]
            distances = [to_pacman[moves[a]] for a in actions]
        else:
            px, py = layout.xy(state.positions[0])
            distances = [abs(x - px) + abs(y - py)
                         for x, y in (layout.xy(moves[a]) for a in actions)]
        scared = state.scared_timers[index - 1] > 0
        target = max(distances) if scared else min(distances)
        best = [a for a, d in zip(actions, distances) if d == target]
        bias = self.flee if scared else self.attack
        spread = (1.0 - bias) / len(actions)
        return {a: spread + (bias / len(best) if a in best else 0.0) for a in actions}

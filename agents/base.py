"""What every agent of this package shares: its index and its own random generator."""

from __future__ import annotations

import random
from collections.abc import Mapping

from pacman.engine.state import GameState


class BaseAgent:
    """An agent playing as agent ``index`` (0 is Pacman) with its own generator ``rng``.

    The game loop passes a generator seeded from the game seed; nothing here uses the
    module-level :mod:`random`. Subclasses implement :meth:`get_action` and declare their options
    as typed keyword-only constructor parameters (see :mod:`pacman.lineup.options`).
    """

    def __init__(self, index: int = 0, rng: random.Random | None = None) -> None:
        self.index = index
        self.rng = rng if rng is not None else random.Random(0)

    def get_action(self, state: GameState) -> str:
        raise NotImplementedError


class DistributionAgent(BaseAgent):
    """An agent that acts by sampling its own move distribution.

    Exposing :meth:`distribution` lets an expectimax searcher use the agent's true model
    ("informed probabilities").
    """

    def distribution(self, state: GameState) -> Mapping[str, float]:
        """``action -> probability`` over the legal actions of this agent in ``state``."""
        raise NotImplementedError

    def get_action(self, state: GameState) -> str:
        return sample(self.distribution(state), self.rng)


def sample(distribution: Mapping[str, float], rng: random.Random) -> str:
    """Draw one action from ``distribution`` (in its iteration order, so draws are reproducible)."""
    point = rng.random() * sum(distribution.values())
    last = None
    for action, probability in distribution.items():
        if probability <= 0:
            continue
        last = action
        point -= probability
        if point < 0:
            return action
    if last is None:
        raise ValueError("cannot sample from an empty distribution")
    return last

"""The classic ``multiAgents`` base: ``MultiAgentSearchAgent`` and ``scoreEvaluationFunction``.

Classic submissions usually define these themselves (they are part of the file students edit);
this module serves those that import them instead.
"""

from __future__ import annotations

from typing import Any

from pacman.compat import util
from pacman.compat.game import Agent


def scoreEvaluationFunction(currentGameState: Any) -> float:
    """The game score: the default evaluation of classic search agents."""
    return currentGameState.getScore()


class MultiAgentSearchAgent(Agent):
    """Base of classic search agents: ``index`` 0, ``depth`` (rounds) and
    ``evaluationFunction`` (looked up by name here, or a function)."""

    def __init__(self, evalFn: Any = "scoreEvaluationFunction", depth: Any = "2") -> None:
        self.index = 0
        self.evaluationFunction = util.lookup(evalFn, globals()) if isinstance(evalFn, str) else evalFn
        self.depth = int(depth)

"""Agents by short name: what ``--pacman`` and ``--ghosts`` accept besides plug-in paths."""

from __future__ import annotations

from typing import Any

from agents.basic import GreedyPacman, RandomPacman
from agents.ghosts import DirectionalGhost, RandomGhost
from agents.keyboard import KeyboardPacman
from agents.smart_ghosts import AdversarialGhost, JointMinimaxGhost, MixedGhost, TeamGhost
from agents.search_agents import (AlphaBetaAgent, ExpectimaxAgent, IterativeDeepeningAgent,
                                  MCTSAgent, MinimaxAgent, MonteCarloAgent)

PACMAN_AGENTS: dict[str, Any] = {
    "random": RandomPacman,
    "greedy": GreedyPacman,
    "reflex": GreedyPacman,
    "minimax": MinimaxAgent,
    "alphabeta": AlphaBetaAgent,
    "expectimax": ExpectimaxAgent,
    "deepening": IterativeDeepeningAgent,
    "montecarlo": MonteCarloAgent,
    "mcts": MCTSAgent,
    "keyboard": KeyboardPacman,
}

GHOST_AGENTS: dict[str, Any] = {
    "random": RandomGhost,
    "directional": DirectionalGhost,
    "adversarial": AdversarialGhost,
    "team": TeamGhost,
    "joint": JointMinimaxGhost,
    "mixed": MixedGhost,
}


def summary(factory: Any) -> str:
    """The first line of a factory's docstring."""
    doc = (factory.__doc__ or "").strip()
    return doc.splitlines()[0] if doc else ""

"""Agents by short name: what ``--pacman`` and ``--ghosts`` accept besides plug-in paths."""

from __future__ import annotations

import re
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


#: The class names of the classic course's agents (``-p AlphaBetaAgent``, ``-g RandomGhost``),
#: by role, and the short name of the agent here that plays the same way.
CLASSIC_NAMES: dict[str, dict[str, str]] = {
    "pacman": {"ReflexAgent": "reflex", "GreedyAgent": "greedy", "MinimaxAgent": "minimax",
               "AlphaBetaAgent": "alphabeta", "ExpectimaxAgent": "expectimax",
               "KeyboardAgent": "keyboard"},
    "ghost": {"RandomGhost": "random", "DirectionalGhost": "directional"},
}


def short_name(name: str, role: str) -> str:
    """``name`` with a classic class name (``AlphaBetaAgent``) replaced by its short name here;
    ``role`` is ``"pacman"`` or ``"ghost"``. Any other name is returned unchanged."""
    return CLASSIC_NAMES.get(role, {}).get(name.strip(), name)


#: One sentence for agents whose docstring does not start with one a newcomer can read.
DESCRIPTIONS: dict[Any, str] = {
    MonteCarloAgent: "Shallow expectimax whose leaves are valued by averaging seeded random "
                     "playouts.",
}


def summary(factory: Any) -> str:
    """One plain sentence about an agent: :data:`DESCRIPTIONS`, else the first sentence of
    its docstring (the first paragraph joined into one line, cut after the first full stop,
    reST markup such as ````name```` removed)."""
    if factory in DESCRIPTIONS:
        return DESCRIPTIONS[factory]
    doc = (factory.__doc__ or "").strip()
    paragraph = " ".join(line.strip() for line in doc.split("\n\n")[0].splitlines())
    plain = re.sub(r"``([^`]*)``", r"\1", paragraph).replace("`", "")
    match = re.match(r"(.+?[.!?])(\s|$)", plain)
    return (match.group(1) if match else plain).strip()

"""Agents by short name: what ``--pacman`` and ``--ghosts`` accept besides plug-in paths.

The catalogs are :class:`~pacman.registry.Registry` tables of lazy ``module:attr`` entries:
naming an agent imports its module, listing the names imports none.
"""

from __future__ import annotations

import re
from typing import Any

from pacman.registry import Registry

#: Pacman agents by short name (each imported on first use).
PACMAN_AGENTS: Registry[Any] = Registry("Pacman agent", {
    "random": "pacman.agents.basic:RandomPacman",
    "greedy": "pacman.agents.basic:GreedyPacman",
    "reflex": "pacman.agents.basic:GreedyPacman",
    "minimax": "pacman.agents.search_agents:MinimaxAgent",
    "alphabeta": "pacman.agents.search_agents:AlphaBetaAgent",
    "expectimax": "pacman.agents.search_agents:ExpectimaxAgent",
    "deepening": "pacman.agents.search_agents:IterativeDeepeningAgent",
    "strongest": "pacman.agents.strongest:StrongestPacman",
    "montecarlo": "pacman.agents.search_agents:MonteCarloAgent",
    "mcts": "pacman.agents.search_agents:MCTSAgent",
    "keyboard": "pacman.agents.keyboard:KeyboardPacman",
})

#: Ghost agents by short name (each imported on first use).
GHOST_AGENTS: Registry[Any] = Registry("ghost agent", {
    "random": "pacman.agents.ghosts:RandomGhost",
    "directional": "pacman.agents.ghosts:DirectionalGhost",
    "adversarial": "pacman.agents.smart_ghosts:AdversarialGhost",
    "team": "pacman.agents.smart_ghosts:TeamGhost",
    "territory": "pacman.agents.smart_ghosts:IndependentTerritoryGhost",
    "joint": "pacman.agents.smart_ghosts:JointMinimaxGhost",
    "mixed": "pacman.agents.smart_ghosts:MixedGhost",
})


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


def summary(factory: Any) -> str:
    """One plain sentence about an agent: the first sentence of its docstring (the first
    paragraph joined into one line, cut after the first full stop, reST markup such as
    ````name```` removed)."""
    doc = (factory.__doc__ or "").strip()
    paragraph = " ".join(line.strip() for line in doc.split("\n\n")[0].splitlines())
    plain = re.sub(r"``([^`]*)``", r"\1", paragraph).replace("`", "")
    match = re.match(r"(.+?[.!?])(\s|$)", plain)
    return (match.group(1) if match else plain).strip()

"""The coordination experiment's control ghost: the territory evaluation without joint planning.

:class:`~agents.smart_ghosts.TeamGhost` differs from
:class:`~agents.smart_ghosts.AdversarialGhost` in two ways at once: its evaluation counts
Pacman's escape routes (the cells he reaches before *any* ghost: not a sum of per-ghost
terms, so the ghosts' moves interact in it), and every ghost plays its part of one joint plan.
:class:`IndependentTerritoryGhost` keeps the first and drops the second: each ghost minimises
the score, its *own* distance to Pacman and the cells Pacman reaches before *it*, so its mate
counts for nothing in its plan. Comparing the three separates "a better evaluation" from
"planning jointly". Named in games as :data:`REFERENCE` (a ``module:attr`` agent), so stored
games replay anywhere the package is installed.
"""

from __future__ import annotations

from collections.abc import Callable

from agents.maze_tables import maze_tables
from agents.smart_ghosts import CHASE, FLEE, TERRITORY, _SearchingGhost
from pacman.state import GameState

REFERENCE = "pacman.experiments.coordination_ghosts:IndependentTerritoryGhost"


def own_territory(ghost: int) -> Callable[[GameState], float]:
    """Ghost ``ghost``'s evaluation: the score, ``CHASE`` per step of its own distance to
    Pacman (minus ``FLEE`` per step while scared) and ``TERRITORY`` per cell Pacman reaches
    strictly before this ghost (every cell he can reach while it is scared)."""

    def value(state: GameState) -> float:
        if state[8] is not None:
            return state[6]
        pacman, me = state[1][0], state[1][ghost]
        scared = state[3][ghost - 1]
        d = state[0].distance_rows[pacman][me]
        chase = 0.0 if d < 0 else (-FLEE * d if scared else CHASE * d)
        hunters = [] if scared else [me]
        return state[6] + chase + TERRITORY * maze_tables(state[0]).territory(pacman, hunters)

    return value


class IndependentTerritoryGhost(_SearchingGhost):
    """Each ghost alone: minimises Pacman's escape routes from *itself* and its own distance to
    him (the team's kind of evaluation, without the joint plan)."""

    def evaluation(self) -> Callable[[GameState], float]:
        return own_territory(self.index)

"""Searching the far ghosts as chasers: fewer ghost branches, a deeper search.

With four ghosts every round of the game tree multiplies by the moves of each, but a ghost far
from Pacman decides nothing in the next few rounds except where it will be. Under a *focus*
of ``radius`` maze steps, a ghost farther than that from Pacman is searched as one move, the
one a chasing ghost makes (the move that brings it nearest Pacman by maze distance; the one
that takes it farthest while it is scared; the first in the engine's order among ties), and
only the ghosts within the radius are searched over all their moves. Which ghosts are near is
decided afresh at every ghost node, so a far ghost becomes a full adversary as soon as it
comes within the radius.

The search then sees a few rounds further with the same number of nodes. The price is that a
far ghost that does not chase is not foreseen until it comes near; the search's own horizon
has the same blind spot at its leaves.
"""

from __future__ import annotations

from collections.abc import Sequence

from pacman.state import GameState


def focused_actions(state: GameState, ghost: int, actions: Sequence[str],
                    radius: int) -> Sequence[str]:
    """``actions`` (the legal moves of ``ghost``, the agent to move in ``state``) when that
    ghost is at most ``radius`` maze steps from Pacman or has one move; else the one move of a
    chasing ghost (fleeing while scared), as a one-element tuple."""
    if len(actions) == 1:
        return actions
    layout, positions = state[0], state[1]
    to_pacman = layout.distance_rows[positions[0]]
    cell = positions[ghost]
    if 0 <= to_pacman[cell] <= radius:
        return actions
    moves = layout._ghost_moves[cell][state[2][ghost]]
    if state[3][ghost - 1] > 0:
        return (max(actions, key=lambda a: to_pacman[moves.get(a, cell)]),)
    return (min(actions, key=lambda a: to_pacman[moves.get(a, cell)]),)

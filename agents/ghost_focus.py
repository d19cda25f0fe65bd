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

The *horizon* focus (:data:`HORIZON`) sets the radius from the rounds the search has left
instead: a ghost to move with ``r`` rounds left (its own move now, then ``r - 1`` rounds of
Pacman's and its moves) closes at most ``2 r - 1`` maze steps on Pacman, so a ghost farther
than that (:func:`horizon_radius`) cannot catch him, nor be eaten by him, before the search's
depth runs out. Only where such a ghost stands at the leaves is then guessed (where a chaser
would be); no capture the full search would see is missed, and the deep rounds of the tree,
where it is widest, are the ones that shrink. The radius of a ghost node depends on its depth
only through the rounds left, which a transposition table's key holds.
"""

from __future__ import annotations

from collections.abc import Sequence

from pacman.engine.state import DIRECTIONS, LAYOUT, POSITIONS, SCARED_TIMERS, GameState

#: ``focus=HORIZON``: the radius at each ghost node is :func:`horizon_radius` of its rounds left
HORIZON = "horizon"


def horizon_radius(rounds_left: int) -> int:
    """The most maze steps a ghost to move with ``rounds_left`` rounds left (this round's move
    included) can close on Pacman before the search's depth runs out."""
    return 2 * rounds_left - 1


def focused_actions(state: GameState, ghost: int, actions: Sequence[str],
                    radius: int) -> Sequence[str]:
    """``actions`` (the legal moves of ``ghost``, the agent to move in ``state``) when that
    ghost is at most ``radius`` maze steps from Pacman or has one move; else the one move of a
    chasing ghost (fleeing while scared), as a one-element tuple."""
    if len(actions) == 1:
        return actions
    layout, positions = state[LAYOUT], state[POSITIONS]
    to_pacman = layout.distance_rows[positions[0]]
    cell = positions[ghost]
    if 0 <= to_pacman[cell] <= radius:
        return actions
    moves = layout.ghost_moves[cell][state[DIRECTIONS][ghost]]
    if state[SCARED_TIMERS][ghost - 1] > 0:
        return (max(actions, key=lambda a: to_pacman[moves.get(a, cell)]),)
    return (min(actions, key=lambda a: to_pacman[moves.get(a, cell)]),)


def chase_action(state: GameState, ghost: int, actions: Sequence[str]) -> str:
    """The move of ``actions`` (legal moves of ``ghost`` in ``state``) that a chasing ghost
    makes: the one that ends nearest Pacman by maze distance, or farthest while the ghost is
    scared; the first in the engine's order among ties."""
    return focused_actions(state, ghost, actions, -1)[0]  # no ghost is within radius -1

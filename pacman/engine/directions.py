"""Actions and compass directions.

Actions are plain strings, identical to the classic course's ``Directions`` constants, so they
are cheap to hash, print and serialise to JSON. Positions are ``(x, y)`` with ``x`` the column
and ``y`` the row counted from the bottom of the maze, so ``North`` increases ``y``.
"""

from __future__ import annotations

from typing import Final

NORTH: Final = "North"
SOUTH: Final = "South"
EAST: Final = "East"
WEST: Final = "West"
STOP: Final = "Stop"

#: The four moves, in the fixed order in which legal actions are always listed.
MOVES: Final[tuple[str, ...]] = (NORTH, SOUTH, EAST, WEST)
#: Every action, ``Stop`` last: the order of legal-action lists (ties are broken by this order).
ACTIONS: Final[tuple[str, ...]] = MOVES + (STOP,)

VECTORS: Final[dict[str, tuple[int, int]]] = {
    NORTH: (0, 1), SOUTH: (0, -1), EAST: (1, 0), WEST: (-1, 0), STOP: (0, 0),
}
REVERSE: Final[dict[str, str]] = {
    NORTH: SOUTH, SOUTH: NORTH, EAST: WEST, WEST: EAST, STOP: STOP,
}
LEFT: Final[dict[str, str]] = {NORTH: WEST, WEST: SOUTH, SOUTH: EAST, EAST: NORTH, STOP: STOP}
RIGHT: Final[dict[str, str]] = {v: k for k, v in LEFT.items()}

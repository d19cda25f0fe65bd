"""``strong``: an evaluation for deep searches against chasing ghosts.

It refines :func:`pacman.agents.evaluation.better` where the lost games of the strongest setting showed
why Pacman dies: cornered in a dead end or a loop by two ghosts, with a capsule in reach that
the old evaluation did not count as a way out, or next to a scared ghost about to recover that
it counted as harmless. Every feature is a maze distance or a count of cells from the
per-maze tables (:mod:`pacman.agents.maze_tables`), so a leaf costs a few microseconds and the search
goes deep.

The value of a state that is not over (a finished game is worth its score):

* the game score;
* ``-9 d / D`` for the maze distance ``d`` to the nearest dot (``D`` the maze's diameter): a
  steady pull to food that never outweighs eating a dot;
* for each hunting (not scared) ghost at maze distance ``d <= DANGER_REACH``:
  ``-DANGER / (d + 1)``;
* when Pacman reaches fewer than ``ESCAPE_ROOM`` cells strictly before every hunting ghost (his
  territory: he is being cornered), ``-TRAPPED``, unless a capsule is among the cells he
  reaches first: then it is his way out and costs only ``-TRAPPED / 4`` (the search sees
  whether he takes it);
* for each scared ghost whose scared moves outlast Pacman's distance to it:
  ``+HUNT / (d + 1)`` (eating it gives +200 and sends it home);
* ``-CAPSULE`` per capsule left.

A scared ghost that recovers before Pacman could reach it counts as hunting once its timer is
below ``RECOVERY`` moves: it is about to chase again.
"""

from __future__ import annotations

from collections.abc import Sequence

from pacman.agents.maze_tables import TABLES_BY_LAYOUT_ID, MazeTables, maze_tables
from pacman.engine.state import CAPSULES, FOOD, LAYOUT, OUTCOME, POSITIONS, SCARED_TIMERS, SCORE, GameState

#: a hunting ghost counts as danger up to this maze distance
DANGER_REACH = 4
#: the danger of a hunting ghost at distance d is DANGER / (d + 1)
DANGER = 150.0
#: fewer territory cells than this: Pacman is cornered
ESCAPE_ROOM = 10
#: the cost of being cornered with no capsule of his own
TRAPPED = 150.0
#: the pull of a scared ghost at distance d within its timer is HUNT / (d + 1)
HUNT = 100.0
#: cost per capsule left
CAPSULE = 20.0
#: a scared ghost out of reach with fewer scared moves left than this counts as hunting
RECOVERY = 3


def strong(state: GameState) -> float:
    """The value of ``state`` for Pacman; see the module docstring for the terms."""
    if state[OUTCOME] is not None:
        return state[SCORE]
    layout = state[LAYOUT]
    tables = TABLES_BY_LAYOUT_ID.get(id(layout))  # maze_tables(layout), without the call when known
    if tables is None or tables.layout is not layout:
        tables = maze_tables(layout)
    positions = state[POSITIONS]
    pacman = positions[0]
    row = tables.rows[pacman]
    value = state[SCORE]
    food_map = tables.food_maps.get(state[FOOD])
    if food_map is None:
        food_map = tables.food_distances(state[FOOD])
    nearest = food_map[pacman]
    if nearest >= 0:
        value -= 9.0 * nearest / tables.diameter
    scared = state[SCARED_TIMERS]
    hunters = []
    for ghost in range(1, len(positions)):
        cell = positions[ghost]
        d = row[cell]
        timer = scared[ghost - 1]
        if timer > d >= 0:
            value += HUNT / (d + 1)
        elif timer < RECOVERY:
            hunters.append(cell)
            if 0 <= d <= DANGER_REACH:
                value -= DANGER / (d + 1)
    if hunters:
        value -= cornered_cost(tables, pacman, hunters, state[CAPSULES])
    return value - CAPSULE * state[CAPSULES].bit_count()


def cornered_cost(tables: MazeTables, pacman: int, hunters: Sequence[int],
                  capsules: int) -> float:
    """``TRAPPED`` when Pacman has fewer than ``ESCAPE_ROOM`` cells of his own against
    ``hunters``, a quarter of it when one of ``capsules`` (a bitmask) is his way out, else 0."""
    room = tables.territories.get((pacman, ESCAPE_ROOM, *hunters))
    if room is None:
        room = tables.territory(pacman, hunters, ESCAPE_ROOM)
    if room >= ESCAPE_ROOM:
        return 0.0
    if capsules and capsule_first(tables, pacman, hunters, capsules):
        return TRAPPED / 4
    return TRAPPED


def capsule_first(tables: MazeTables, pacman: int, hunters: Sequence[int], capsules: int) -> bool:
    """Whether Pacman reaches some capsule of the bitmask ``capsules`` in fewer moves than every
    ghost in ``hunters`` (a tie counts against him: that ghost could meet him on the way)."""
    rows = tables.rows
    row = rows[pacman]
    while capsules:
        low = capsules & -capsules
        cell = low.bit_length() - 1
        capsules ^= low
        mine = row[cell]
        if mine < 0:
            continue
        if all(not 0 <= rows[h][cell] <= mine for h in hunters):
            return True
    return False

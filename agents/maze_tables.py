"""Per-maze tables that make evaluation features cheap per call.

An evaluation runs at every leaf of a search, so it must not redo per call what depends only
on the maze or on the food left. :func:`maze_tables` gives each layout one
:class:`MazeTables`:

* ``food_distances(food)``: for every cell, the maze distance to the nearest dot of ``food``,
  by one breadth-first search from all dots at once, cached per food set (a search meets few
  food sets: the root's, minus the dots eaten along its lines);
* ``territory(pacman, hunters, limit)``: the cells Pacman reaches strictly before every hunting
  ghost, counted by a breadth-first search from Pacman that only grows through such cells (every
  cell on Pacman's shortest way to one of his cells is his too: a ghost that reached it no later
  would reach the far cell no later), and stopped once ``limit`` is reached; remembered by the
  cells of Pacman and the ghosts, since a search meets the same few placements again and again.

Only the layout's public distance API is used (``distance_rows``, ``neighbours``,
``diameter``); plain tuples and ints throughout, since numpy's per-call cost exceeds the work on
arrays of a few hundred cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pacman.engine.distances import nearest_source_distances

#: distinct food sets remembered per maze before the cache starts afresh
FOOD_CACHE_SIZE = 4096
#: territory counts remembered per maze, by Pacman's cell, the limit and the hunters' cells
TERRITORY_CACHE_SIZE = 100_000
#: mazes whose tables are kept (the oldest is dropped first)
MAZES_KEPT = 16

#: The tables of the mazes kept, by ``id`` of their layout (check ``tables.layout is layout``:
#: an id can be reused once a maze is gone). Code run at every leaf may look a maze up here
#: instead of calling :func:`maze_tables`; a miss must go through :func:`maze_tables`.
TABLES_BY_LAYOUT_ID: dict[int, MazeTables] = {}


class MazeTables:
    """Distance tables of one layout; see the module docstring."""

    __slots__ = ("layout", "rows", "steps", "size", "diameter", "food_maps", "_balls", "territories")

    def __init__(self, layout: Any) -> None:
        self.layout = layout
        self.rows: Sequence[Sequence[int]] = layout.distance_rows
        self.size = layout.width * layout.height
        #: per cell, the cells one move away (no Stop)
        self.steps: tuple[tuple[int, ...], ...] = tuple(
            () if moves is None else tuple(moves.values()) for moves in layout.neighbours)
        self.diameter = layout.diameter
        self.food_maps: dict[int, tuple[int, ...]] = {}
        self._balls: dict[int, tuple[int, ...]] = {}
        self.territories: dict[tuple[int | None, ...], int] = {}

    def food_distances(self, food: int) -> tuple[int, ...]:
        """Per cell, the maze distance to the nearest dot of the bitmask ``food`` (-1: none
        reachable)."""
        found = self.food_maps.get(food)
        if found is None:
            if len(self.food_maps) >= FOOD_CACHE_SIZE:
                self.food_maps.clear()
            found = self.food_maps[food] = self._nearest_dot_map(food)
        return found

    def _nearest_dot_map(self, food: int) -> tuple[int, ...]:
        dots = []
        while food:
            low = food & -food
            dots.append(low.bit_length() - 1)
            food ^= low
        return tuple(nearest_source_distances(self.steps, self.size, dots))

    def territory(self, pacman: int, hunters: Sequence[int], limit: int | None = None) -> int:
        """How many cells Pacman reaches strictly before every ghost in ``hunters`` (cells),
        counting no further than ``limit`` (``None``: count them all)."""
        key = (pacman, limit, *hunters)
        count = self.territories.get(key)
        if count is None:
            if len(self.territories) >= TERRITORY_CACHE_SIZE:
                self.territories.clear()
            count = self.territories[key] = self._territory(pacman, hunters, limit)
        return count

    def _territory(self, pacman: int, hunters: Sequence[int], limit: int | None) -> int:
        rows = self.rows
        ghost_rows = [rows[g] for g in hunters]
        if limit is not None:
            # Cells Pacman reaches in m moves with 2m < (his distance to the nearest ghost)
            # are his: that ghost needs more than m moves to get there.
            near = [row[pacman] for row in ghost_rows if row[pacman] >= 0]
            counts = self.ball(pacman)
            radius = len(counts) - 1 if not near else (min(near) - 1) // 2
            if radius >= 0 and counts[min(radius, len(counts) - 1)] >= limit:
                return counts[min(radius, len(counts) - 1)]
        return self._grow_territory(pacman, ghost_rows, limit)

    def _grow_territory(self, pacman: int, ghost_rows: list[Sequence[int]], limit: int | None) -> int:
        for row in ghost_rows:
            if 0 <= row[pacman] <= 0:
                return 0
        steps = self.steps
        seen = {pacman}
        frontier = [pacman]
        count = moves = 0
        while frontier:
            count += len(frontier)
            if limit is not None and count >= limit:
                return count
            moves += 1
            reached = []
            for cell in frontier:
                for target in steps[cell]:
                    if target in seen:
                        continue
                    seen.add(target)
                    for row in ghost_rows:
                        theirs = row[target]
                        if 0 <= theirs <= moves:
                            break  # a ghost is there no later than Pacman
                    else:
                        reached.append(target)
            frontier = reached
        return count

    def ball(self, cell: int) -> tuple[int, ...]:
        """``ball(cell)[r]``: how many cells are at most ``r`` moves from ``cell``."""
        counts = self._balls.get(cell)
        if counts is None:
            row = self.rows[cell]
            at = [0] * (max(row) + 1)
            for d in row:
                if d >= 0:
                    at[d] += 1
            total = 0
            for r, n in enumerate(at):
                total += n
                at[r] = total
            counts = self._balls[cell] = tuple(at)
        return counts


def maze_tables(layout: Any) -> MazeTables:
    """The tables of ``layout``, built on first use and kept while it is among the last
    :data:`MAZES_KEPT` mazes used."""
    tables = TABLES_BY_LAYOUT_ID.get(id(layout))
    if tables is None or tables.layout is not layout:
        if len(TABLES_BY_LAYOUT_ID) >= MAZES_KEPT:
            del TABLES_BY_LAYOUT_ID[next(iter(TABLES_BY_LAYOUT_ID))]
        tables = TABLES_BY_LAYOUT_ID[id(layout)] = MazeTables(layout)
    return tables

"""Maze distances: breadth-first search rows, a full table for small mazes, lazy rows for large.

A maze of ``n`` cells has ``n * n`` distances: 19,600 on the classic 20x7 maze, but 1.6 billion
on a 200x200 one, more than memory holds. :func:`full_rows` computes every row at once (fast
look-ups as tuples); :class:`LazyRows` computes a row by breadth-first search when it is first
asked for and keeps the most recently used rows up to a memory budget. Both are indexed the same
way (``rows[a][b]``: moves from cell ``a`` to cell ``b``, ``UNREACHABLE`` if none), so callers
need not know which one a maze has.
"""

from __future__ import annotations

import threading
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

#: Distance reported between two cells that no path joins.
UNREACHABLE = -1

#: Rows kept by :class:`LazyRows`: as many as fit in this many bytes (at least 64 rows).
ROW_CACHE_BYTES = 96 * 2**20


def breadth_first(adjacency: Sequence[tuple[int, ...]], size: int, source: int) -> list[int]:
    """Moves from ``source`` to every cell (``UNREACHABLE`` where no path leads)."""
    return nearest_source_distances(adjacency, size, (source,))


def nearest_source_distances(adjacency: Sequence[tuple[int, ...]], size: int,
                             sources: Iterable[int]) -> list[int]:
    """Moves from the nearest of ``sources`` to every cell (``UNREACHABLE`` where no path
    leads, everywhere when there is no source): one breadth-first search from all of them."""
    dist = [UNREACHABLE] * size
    frontier = list(sources)
    for cell in frontier:
        dist[cell] = 0
    step = 0
    while frontier:
        step += 1
        following = []
        for cell in frontier:
            for target in adjacency[cell]:
                if dist[target] < 0:
                    dist[target] = step
                    following.append(target)
        frontier = following
    return dist


def full_rows(adjacency: Sequence[tuple[int, ...]], open_cells: Sequence[int],
              size: int) -> tuple[tuple[int, ...], ...]:
    """Every row of the distance table; rows of wall cells are all ``UNREACHABLE``."""
    blank = (UNREACHABLE,) * size
    rows: list[tuple[int, ...]] = [blank] * size
    for source in open_cells:
        rows[source] = tuple(breadth_first(adjacency, size, source))
    return tuple(rows)


def frozen_array(values: np.ndarray) -> np.ndarray:
    """A read-only copy of ``values`` whose memory belongs to an immutable ``bytes`` object, so
    that not even ``setflags(write=True)`` can make it writable again."""
    values = np.ascontiguousarray(values)
    frozen = np.frombuffer(values.tobytes(), dtype=values.dtype).reshape(values.shape)
    assert not frozen.flags.writeable
    return frozen


def cell_array(mask: int) -> np.ndarray:
    """The cells whose bits are set in ``mask``, in increasing order (linear time)."""
    data = np.frombuffer(mask.to_bytes((mask.bit_length() + 7) // 8, "little"), np.uint8)
    return np.flatnonzero(np.unpackbits(data, bitorder="little"))


def least_distance(row: Sequence[int], mask: int) -> int | None:
    """The least distance of ``row`` over the cells set in ``mask``, ignoring unreachable
    cells; ``None`` if there is none."""
    cells = cell_array(mask)
    if not len(cells):
        return None
    values = (np.frombuffer(row, np.int32) if isinstance(row, memoryview)
              else np.asarray(row, dtype=np.int32))[cells]
    values = values[values >= 0]
    return int(values.min()) if len(values) else None


class _LRU:
    """A thread-safe least-recently-used cache of ``key -> make(key)``, ``capacity`` entries."""

    def __init__(self, make: Callable[[int], object], capacity: int) -> None:
        self._make = make
        self._capacity = capacity
        self._entries: OrderedDict[int, object] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: int) -> object:
        entries = self._entries
        with self._lock:
            found = entries.get(key)
            if found is not None:
                entries.move_to_end(key)
                return found
        made = self._make(key)
        with self._lock:
            entries[key] = made
            if len(entries) > self._capacity:
                entries.popitem(last=False)
        return made

    def __len__(self) -> int:
        return len(self._entries)


class LazyRows(Sequence):
    """The rows of a distance table, each computed on first use and cached (least recently used
    rows are dropped beyond :data:`ROW_CACHE_BYTES`). A row is a read-only ``memoryview`` of
    32-bit integers: ``rows[a][b]`` is an ``int``, and ``np.frombuffer(rows[a], np.int32)``
    views it as an array without copying.
    """

    def __init__(self, adjacency: Sequence[tuple[int, ...]], size: int) -> None:
        self._adjacency = adjacency
        self._size = size
        capacity = max(64, ROW_CACHE_BYTES // (4 * max(size, 1)))
        self._cache = _LRU(self._row, capacity)
        self._blank = memoryview(array("i", [UNREACHABLE] * size).tobytes()).cast("i")

    def _row(self, source: int) -> memoryview:
        if not self._adjacency[source]:
            return self._blank
        values = array("i", breadth_first(self._adjacency, self._size, source))
        return memoryview(values.tobytes()).cast("i")

    def __getitem__(self, cell):
        if not isinstance(cell, (int, np.integer)) or isinstance(cell, bool):
            raise TypeError(f"distance rows are indexed by a cell number, not {cell!r}")
        cell = int(cell)
        if not 0 <= cell < self._size:
            raise IndexError(f"cell {cell} is outside the maze (0..{self._size - 1})")
        return self._cache.get(cell)

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[memoryview]:
        return (self[c] for c in range(self._size))

    @property
    def cached(self) -> int:
        """How many rows are held now."""
        return len(self._cache)


class LazyTable:
    """A read-only ``(cells, columns)`` int32 table whose rows are made on demand: ``table[a]``
    is row ``a`` (a read-only array), ``table[a, b]`` one entry. Rows are cached like
    :class:`LazyRows`. Stands in for a full array on mazes too large to hold one."""

    def __init__(self, make_row: Callable[[int], np.ndarray], rows: int, columns: int) -> None:
        self.shape = (rows, columns)
        self.dtype = np.dtype(np.int32)
        capacity = max(64, ROW_CACHE_BYTES // (4 * max(columns, 1)))
        self._cache = _LRU(make_row, capacity)

    def __getitem__(self, key):
        column = None
        if isinstance(key, tuple):
            if len(key) != 2:
                raise IndexError("index a distance table by [row] or [row, column]")
            key, column = key
        if not isinstance(key, (int, np.integer)) or isinstance(key, bool):
            raise TypeError(f"distance tables are indexed by cell numbers, not {key!r}")
        if not 0 <= key < self.shape[0]:
            raise IndexError(f"row {key} is outside the table (0..{self.shape[0] - 1})")
        row: Any = self._cache.get(int(key))
        return row if column is None else row[column]

    def __len__(self) -> int:
        return self.shape[0]


def iter_components(adjacency: Sequence[tuple[int, ...]], open_cells: Sequence[int],
                    size: int) -> Iterator[list[int]]:
    """The connected groups of open cells, each as a list of cells."""
    seen = bytearray(size)
    for start in open_cells:
        if seen[start]:
            continue
        seen[start] = 1
        group, frontier = [start], [start]
        while frontier:
            following = []
            for cell in frontier:
                for target in adjacency[cell]:
                    if not seen[target]:
                        seen[target] = 1
                        following.append(target)
            group.extend(following)
            frontier = following
        yield group


#: Rows :func:`diameter` may search per connected group before it settles for its bound.
DIAMETER_ROWS = 24


def diameter(rows: Sequence[Sequence[int]], adjacency: Sequence[tuple[int, ...]],
             open_cells: Sequence[int], size: int, budget: int = DIAMETER_ROWS) -> int:
    """The longest distance between two connected open cells, or a close lower bound.

    Per connected group, by the fringe method: from a central cell ``u`` found by two sweeps,
    cells are taken by falling distance from ``u``; once the longest distance found reaches
    twice the distance of the next level, no farther pair can exist (every pair of cells at
    most ``i`` from ``u`` is at most ``2 i`` apart), and the result is exact. A group that
    needs more than ``budget`` rows keeps the longest distance found so far, at least half the
    true one and usually equal to it (the two sweeps alone are exact on trees).
    """
    best = 0
    for group in iter_components(adjacency, open_cells, size):
        if len(group) == 1:
            continue
        far = max(group, key=rows[group[0]].__getitem__)
        row_far = rows[far]
        other = max(group, key=row_far.__getitem__)
        row_other = rows[other]
        middle = row_far[other] // 2
        centre = next(c for c in group if row_far[c] == middle and row_other[c] ==
                      row_far[other] - middle)
        row_centre = rows[centre]
        lower = max(row_far[other], max(row_centre[c] for c in group))
        levels: dict[int, list[int]] = {}
        for cell in group:
            levels.setdefault(row_centre[cell], []).append(cell)
        searched = 3
        for level in sorted(levels, reverse=True):
            if lower >= 2 * level or searched >= budget:
                break
            for cell in levels[level][:budget - searched]:
                searched += 1
                row = rows[cell]
                lower = max(lower, max(row[c] for c in group))
        best = max(best, lower)
    return best

"""Maze files: parsing, validation and the precomputed tables search needs.

The format is the classic course's plain text: one character per cell, top row first.

====  =====================================================================
``%``  wall
``.``  food dot
``o``  capsule (power pellet)
``P``  Pacman's start (exactly one)
``G``  a ghost's start
``1``-``4``  a numbered ghost's start
space  empty floor
====  =====================================================================

Trailing blanks and a missing final newline are accepted; blank lines after the last row are
ignored. Ghosts are numbered as the classic engine numbers them: ``G`` counts as ghost 1 and
numbered ghosts by their digit, ties broken by position (column first, then row from the
bottom), so maze files written for the classic course give the same ghost order.

A :class:`Layout` is frozen and interned (the same maze parsed twice is one object). Cells are
integers ``y * width + x``, ``y`` counted from the bottom row. It holds the move tables of the
rules (a successor costs a few dictionary look-ups) and the maze distances: all pairs on small
mazes, rows on demand on large ones (:mod:`pacman.engine.distances`).
"""

from __future__ import annotations


import difflib
import threading
import tomllib
import weakref
from collections.abc import Sequence
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from pacman.engine.distances import (UNREACHABLE, LazyRows, LazyTable, cell_array, diameter, frozen_array, full_rows,
                              least_distance)
from pacman.errors import LayoutError
from pacman.engine.move_tables import move_tables, read_only

from pacman.engine.maze_reader import (ALLOWED, CAPSULE, EMPTY, FOOD, GHOST, GHOST_DIGITS,  # noqa: F401
                                MAX_CELLS, PACMAN, WALL, maze_rows, read_maze_text)


#: Mazes of at most this many cells get their full distance table when first asked (fast
#: look-ups); larger ones get rows computed on demand (see :mod:`pacman.engine.distances`).
FULL_TABLE_CELLS = 2048

_interned: weakref.WeakValueDictionary[tuple[str, str], Layout] = weakref.WeakValueDictionary()
_interning = threading.Lock()


def _scan(rows: list[str], name: str) -> dict[str, Any]:
    """The fields of a maze read straight from its validated rows (the move tables aside)."""
    height, width = len(rows), len(rows[0])
    walls = food = capsules = 0
    pacman_start = -1
    ghosts: list[tuple[int, int, int, int]] = []
    for row_index, row in enumerate(rows):
        y = height - 1 - row_index
        for x, char in enumerate(row):
            cell = y * width + x
            if char == WALL:
                walls |= 1 << cell
            elif char == FOOD:
                food |= 1 << cell
            elif char == CAPSULE:
                capsules |= 1 << cell
            elif char == PACMAN:
                pacman_start = cell
            elif char == GHOST:
                ghosts.append((1, x, y, cell))
            elif char in GHOST_DIGITS:
                ghosts.append((int(char), x, y, cell))
    ghosts.sort()
    return {"name": name, "text": "\n".join(rows), "width": width, "height": height,
            "walls": walls, "food": food, "capsules": capsules, "pacman_start": pacman_start,
            "ghost_starts": tuple(g[3] for g in ghosts),
            "cell_xy": tuple((c % width, c // width) for c in range(width * height)),
            "open_cells": tuple(c for c in range(width * height) if not walls >> c & 1)}


class Layout:
    """A parsed, validated maze, frozen: setting or deleting an attribute raises
    ``AttributeError``, its tables are tuples, read-only dicts and read-only arrays.

    Layouts are interned by text and name: parsing the same maze twice (or unpickling one)
    gives the same object, so states on it compare and hash equal.

    Attributes:
        name: short name (the file stem, or the given name for text).
        source: where it came from (a path, or ``<string>``), used in messages.
        text: the maze rows, top row first, trailing blanks removed.
        width, height: size in cells.
        walls: bitmask over cells, bit ``c`` set when cell ``c`` is a wall.
        food, capsules: bitmasks of the initial food dots and capsules.
        pacman_start: Pacman's start cell.
        ghost_starts: ghost start cells, ghost 1 first.
        pacman_actions: per cell, the tuple of Pacman's legal actions, in :data:`ACTIONS` order.
        adjacency: per cell, the tuple of neighbouring open cells.
        neighbours, pacman_moves, ghost_moves, ghost_actions: read-only move tables (below).
    """

    __slots__ = (
        "name", "source", "text", "width", "height", "walls", "food", "capsules",
        "pacman_start", "ghost_starts", "cell_xy", "_neighbours", "_pacman_moves",
        "pacman_actions", "_ghost_moves", "_ghost_actions", "open_cells", "adjacency",
        "__dict__", "__weakref__",
    )
    # Declared for readers and the type checker; ``_build`` sets them once (the class is frozen).
    name: str
    source: str
    text: str
    width: int
    height: int
    walls: int
    food: int
    capsules: int
    pacman_start: int
    ghost_starts: tuple[int, ...]
    cell_xy: tuple[tuple[int, int], ...]
    open_cells: tuple[int, ...]
    pacman_actions: tuple[tuple[str, ...], ...]
    adjacency: tuple[tuple[int, ...], ...]

    def __new__(cls, rows: list[str], name: str, source: str = "<string>") -> Layout:
        """The layout of validated rows (top row first); use :func:`parse_layout`.

        The same text and name give the same object while it lives, unless that object no
        longer holds what the rows say: ``object.__setattr__`` can still reach a frozen
        object, so code in this process that forced a change gets a fresh maze next time
        instead of passing its change on."""
        key = ("\n".join(rows), name)
        fields = _scan(rows, name)
        with _interning:
            found = _interned.get(key)
            if found is None or any(getattr(found, field, None) != value
                                    for field, value in fields.items()):
                found = object.__new__(cls)
                found._build(fields, source)
                _interned[key] = found
        return found

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a maze is read-only: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a maze is read-only: cannot delete {name!r}")

    def _build(self, fields: dict[str, Any], source: str) -> None:
        put = object.__setattr__
        for field, value in fields.items():
            put(self, field, value)
        put(self, "source", source)
        width, height, walls = fields["width"], fields["height"], fields["walls"]
        for field, value in move_tables(width, height, walls, self.open_cells).items():
            put(self, field, value)

    def _publish(private: str, doc: str) -> cached_property:  # type: ignore[misc]
        def published(self: Layout) -> tuple:
            return read_only(getattr(self, private))
        published.__doc__ = doc
        return cached_property(published)

    neighbours = _publish("_neighbours", "Per cell, a read-only dict ``move -> next open "
                          "cell`` (``None`` for walls).")
    pacman_moves = _publish("_pacman_moves", "Per cell, a read-only dict ``action -> next "
                            "cell`` of Pacman's legal moves (``Stop`` included), or ``None``.")
    ghost_moves = _publish("_ghost_moves", "Per cell, a read-only dict ``last direction -> "
                           "{action: next cell}`` of a ghost's legal moves (no stopping; no "
                           "reversing unless it is the only move).")
    ghost_actions = _publish("_ghost_actions", "Per cell, a read-only dict ``last direction "
                             "-> tuple of legal actions``.")
    del _publish

    # --- coordinates -------------------------------------------------------------------------
    def xy(self, cell: int) -> tuple[int, int]:
        """The ``(x, y)`` position of ``cell``."""
        return self.cell_xy[cell]

    def cell(self, position: tuple[int, int]) -> int:
        """The cell index of ``(x, y)``; raises ``ValueError`` outside the maze."""
        x, y = position
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError(f"position {position} is outside the {self.width}x{self.height} maze")
        return int(y) * self.width + int(x)

    def is_wall(self, position: tuple[int, int]) -> bool:
        """Whether ``(x, y)`` is a wall."""
        return bool(self.walls >> self.cell(position) & 1)

    def cells_of(self, mask: int) -> list[int]:
        """The cells whose bits are set in ``mask``, in increasing order."""
        if mask.bit_length() > 4096:  # bit by bit would cost quadratic time on a large maze
            return self.cell_array(mask).tolist()
        cells = []
        while mask:
            low = mask & -mask
            cells.append(low.bit_length() - 1)
            mask ^= low
        return cells

    def cell_array(self, mask: int) -> np.ndarray:
        """The cells whose bits are set in ``mask``, in increasing order, as an array (linear
        time in the size of the maze)."""
        return cell_array(mask)

    def distance_to_nearest(self, cell: int, mask: int) -> int | None:
        """The maze distance from ``cell`` to the nearest cell set in ``mask`` (``None`` if no
        such cell is reachable), by one look-up per cell of ``mask``; a distance, not a cell."""
        return least_distance(self.distance_rows[cell], mask)

    def positions_of(self, mask: int) -> list[tuple[int, int]]:
        """The ``(x, y)`` positions whose bits are set in ``mask``."""
        return [self.cell_xy[c] for c in self.cells_of(mask)]

    @property
    def num_ghosts(self) -> int:
        """How many ghosts the maze places."""
        return len(self.ghost_starts)

    def wall_grid(self) -> list[list[bool]]:
        """``grid[x][y]`` is True on walls (the classic ``getWalls()`` orientation)."""
        return [[bool(self.walls >> (y * self.width + x) & 1) for y in range(self.height)]
                for x in range(self.width)]

    # --- maze distances ----------------------------------------------------------------------
    @property
    def lazy_distances(self) -> bool:
        """Whether distance rows are computed on demand (mazes over :data:`FULL_TABLE_CELLS`
        cells) rather than all at once."""
        return self.width * self.height > FULL_TABLE_CELLS

    @cached_property
    def distance_rows(self) -> Sequence[Sequence[int]]:
        """``distance_rows[a][b]``: moves from cell ``a`` to cell ``b`` (``UNREACHABLE`` if none).

        On a small maze a tuple of tuples, computed once on first use by a breadth-first search
        from every open cell; on a large one (:attr:`lazy_distances`) a
        :class:`~pacman.engine.distances.LazyRows` whose rows are searched when first asked for.
        Rows of wall cells are all ``UNREACHABLE``.
        """
        size = self.width * self.height
        if self.lazy_distances:
            return LazyRows(self.adjacency, size)
        return full_rows(self.adjacency, self.open_cells, size)

    @cached_property
    def distances(self) -> np.ndarray | LazyTable:
        """All-pairs maze distances, read-only int32: ``distances[a, b]`` and ``distances[a]``
        (a row). An array on small mazes; on large ones a :class:`~pacman.engine.distances.LazyTable`
        indexed the same way."""
        size = self.width * self.height
        if self.lazy_distances:
            rows: Any = self.distance_rows  # lazy: rows are int32 buffers (memoryviews)
            return LazyTable(lambda cell: np.frombuffer(rows[cell], dtype=np.int32), size, size)
        return frozen_array(np.array(self.distance_rows, dtype=np.int32))

    @cached_property
    def open_distances(self) -> np.ndarray | LazyTable:
        """Maze distances from every cell to each open cell, in :attr:`open_cells` order, as
        read-only ``(cells, open cells)`` int32 rows with unreachable pairs set to the number
        of cells (farther than any real path), so minima over several sources need no masking.
        An array on small mazes, a :class:`~pacman.engine.distances.LazyTable` on large ones.
        """
        size = self.width * self.height
        columns = np.array(self.open_cells, dtype=np.intp)
        if self.lazy_distances:
            rows: Any = self.distance_rows  # lazy: rows are int32 buffers (memoryviews)

            def row(cell: int) -> np.ndarray:
                values = np.frombuffer(rows[cell], dtype=np.int32)[columns]
                values[values == UNREACHABLE] = size
                return frozen_array(values)

            return LazyTable(row, size, len(columns))
        table = self.distances[:, columns]
        table[table == UNREACHABLE] = size
        return frozen_array(table)

    @cached_property
    def diameter(self) -> int:
        """The longest maze distance between two connected open cells."""
        if self.lazy_distances:
            return diameter(self.distance_rows, self.adjacency, self.open_cells,
                            self.width * self.height)
        return max((max(row) for row in self.distance_rows), default=0)

    def maze_distance(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """Moves along open cells from ``a`` to ``b`` (``UNREACHABLE`` when no path exists)."""
        return self.distance_rows[self.cell(a)][self.cell(b)]

    def __repr__(self) -> str:
        return f"Layout({self.name!r}, {self.width}x{self.height}, ghosts={self.num_ghosts})"

    def __reduce__(self):  # pickled by text, so worker processes rebuild the tables
        return (_rebuild, (self.text, self.name, self.source))


def _rebuild(text: str, name: str, source: str) -> Layout:
    # The text was checked when the layout was first parsed: its rows are built as they are.
    return Layout(text.split("\n"), name=name, source=source)


def parse_layout(text: str, name: str = "custom", source: str = "<string>") -> Layout:
    """Parse and validate maze text; raise :class:`LayoutError` naming line and column."""
    layout = Layout(maze_rows(text, source), name=name, source=source)
    for ghost, start in enumerate(layout.ghost_starts, start=1):
        if not layout.adjacency[start]:
            x, y = layout.xy(start)
            raise LayoutError(source, f"ghost {ghost} starts walled in and could never move",
                              layout.height - y, x + 1)
    return layout


def read_layout(path: str | Path) -> Layout:
    """Load and validate the maze file at ``path`` (see :func:`pacman.engine.maze_reader.read_maze_text`
    for what is refused before parsing)."""
    path = Path(path)
    layout = parse_layout(read_maze_text(path), name=path.stem, source=str(path))
    if not layout.food:
        raise LayoutError(str(path), "the maze has no food '.': every game on it would be won "
                                     "before a move")
    return layout


def _shipped_dir():
    return resources.files("pacman.layouts")


def shipped_layout_names() -> list[str]:
    """Names of the mazes shipped with the package, sorted."""
    return sorted(entry.name[:-4] for entry in _shipped_dir().iterdir()
                  if entry.name.endswith(".lay"))


def layout_catalog() -> dict[str, str]:
    """``name -> one-line purpose`` for every shipped maze (empty purpose if undocumented)."""
    catalog_file = _shipped_dir() / "catalog.toml"
    described: dict[str, str] = {}
    if catalog_file.is_file():
        data = tomllib.loads(catalog_file.read_text(encoding="utf-8"))
        described = {name: str(entry.get("purpose", "")) for name, entry in data.items()
                     if isinstance(entry, dict)}
    names = shipped_layout_names()
    ordered = [n for n in described if n in names] + [n for n in names if n not in described]
    return {name: described.get(name, "") for name in ordered}


def load_layout(name_or_path: str | Path) -> Layout:
    """Load a shipped maze by name (``small_classic``) or any maze file by path.

    An unknown name raises :class:`LayoutError` suggesting the closest shipped names.
    """
    text = str(name_or_path)
    path = Path(text)
    looks_like_path = path.suffix == ".lay" or "/" in text or "\\" in text
    try:
        found = path.is_file() or (looks_like_path and path.exists())
    except (OSError, ValueError) as error:  # a name too long, a null byte...
        raise LayoutError(text[:80], f"not a usable file name ({error})") from None
    if found:
        return read_layout(path)
    stem = text[:-4] if text.endswith(".lay") else text
    shipped = _shipped_dir() / f"{stem}.lay"
    if "/" not in stem and shipped.is_file():
        return parse_layout(shipped.read_text(encoding="utf-8"), name=stem,
                            source=f"layouts/{stem}.lay")
    if looks_like_path:
        raise LayoutError(text, "no such maze file")
    names = shipped_layout_names()
    close = difflib.get_close_matches(stem, names, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else f"; shipped mazes: {', '.join(names)}"
    raise LayoutError(text, f"no maze file or shipped maze of that name{hint}")

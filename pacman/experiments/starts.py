"""Varied starts: the same maze with Pacman and the ghosts placed at random near their starts.

A deterministic setting (deterministic ghosts, Pacman breaking ties by move order) plays one
game however many seeds it is given. Moving every start cell to a random open cell within a
maze distance ``radius`` of where the maze puts it gives each seed its own game, while keeping
the maze, its food and the character of the starts (ghosts near their den, Pacman near his).

The moved agent swaps characters with the target cell, so the food and capsules keep their
count (a dot under the new start moves to the old one). The variant of seed ``s`` is the same
in every run and every condition (conditions of one seed stay paired); it is written as a
maze file, so every game records its own maze and replays from its record.
"""

from __future__ import annotations

import random
from pathlib import Path

from pacman.engine.layout import GHOST, GHOST_DIGITS, PACMAN, WALL, Layout, load_layout

AGENT_CHARS = PACMAN + GHOST + GHOST_DIGITS


def varied_start_text(layout: Layout, seed: int, radius: int) -> str:
    """The maze text of ``layout`` with every start moved to a random open cell within maze
    distance ``radius`` of it (never onto another agent, never onto a cell next to a ghost
    for Pacman, never unreachable). ``radius`` 0 gives the maze unchanged."""
    if radius < 0:
        raise ValueError(f"radius must be 0 or more, got {radius}")
    rng = random.Random(f"varied-start:{layout.name}:{radius}:{seed}")
    rows = [list(row) for row in layout.text.split("\n")]
    height = len(rows)

    def char_at(cell: int) -> str:
        x, y = layout.xy(cell)
        return rows[height - 1 - y][x]

    def put(cell: int, char: str) -> None:
        x, y = layout.xy(cell)
        rows[height - 1 - y][x] = char

    distances = layout.distance_rows
    taken: set[int] = set()
    starts = [*layout.ghost_starts, layout.pacman_start]  # ghosts first: Pacman avoids them
    for start in starts:
        if start in taken:
            continue
        is_pacman = start == layout.pacman_start
        row = distances[start]
        options = [c for c in layout.open_cells
                   if 0 <= row[c] <= radius and c not in taken
                   and (c == start or char_at(c) not in AGENT_CHARS)
                   and layout.neighbours[c]]
        if is_pacman:
            ghosts = [g for g in taken]
            options = [c for c in options
                       if all(distances[g][c] > 2 or distances[g][c] < 0 for g in ghosts)
                       ] or [start]
        target = rng.choice(sorted(options)) if options else start
        if target != start:
            here, there = char_at(start), char_at(target)
            put(start, there if there != WALL else " ")
            put(target, here)
        taken.add(target)
    return "\n".join("".join(r) for r in rows) + "\n"


def varied_start_file(name: str, seed: int, radius: int, folder: Path) -> str:
    """Write the varied-start variant of maze ``name`` for ``seed`` into ``folder`` (once) and
    return its path, as a job's maze."""
    layout = load_layout(name)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{layout.name}-r{radius}-s{seed}.lay"
    text = varied_start_text(layout, seed, radius)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return str(path)

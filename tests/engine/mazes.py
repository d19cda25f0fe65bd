"""Small hand-made mazes used by the engine tests, and the list of every maze to test on.

The inline mazes are written to exercise the rules often in short random games: capsules next to
ghosts, dead ends (ghost reversal), loops (transpositions), a Pacman start that a ghost can reach,
numbered ghosts mixed with ``G``.
"""

from __future__ import annotations

import random
from functools import cache

from pacman.engine.layout import Layout, load_layout, parse_layout, shipped_layout_names

INLINE_MAZES: dict[str, str] = {
    # A loop with a capsule in the middle of the top corridor; three ghosts (G, 1, 2).
    "ring": (
        "%%%%%%%%%\n"
        "%P..o..1%\n"
        "%.%%%%%.%\n"
        "%.%%%%%.%\n"
        "%...G..2%\n"
        "%%%%%%%%%\n"
    ),
    # Dead ends everywhere: Pacman can walk onto the ghost's start; one dead end below.
    "dead_end": (
        "%%%%%%%\n"
        "%P.o.G%\n"
        "%%%.%%%\n"
        "%%%.%%%\n"
        "%%%%%%%\n"
    ),
    # Tiny and crowded: two capsules, two ghosts, many collisions.
    "crowded": (
        "%%%%%%\n"
        "%P.o.%\n"
        "%.%%G%\n"
        "%o..2%\n"
        "%%%%%%\n"
    ),
    # An open room (many transpositions) with four ghosts in classic numbering.
    "room": (
        "%%%%%%%%\n"
        "%3....4%\n"
        "%. o  .%\n"
        "%.  P .%\n"
        "%1....2%\n"
        "%%%%%%%%\n"
    ),
    # Pacman alone: no ghosts at all.
    "alone": (
        "%%%%%%\n"
        "%P. .%\n"
        "%  %.%\n"
        "%.o  %\n"
        "%%%%%%\n"
    ),
}


@cache
def inline_layout(name: str) -> Layout:
    return parse_layout(INLINE_MAZES[name], name=name, source=f"<inline {name}>")


def maze_names() -> list[str]:
    """Every maze the property tests run on: ``shipped:NAME`` and ``inline:NAME``."""
    return ([f"shipped:{n}" for n in shipped_layout_names()]
            + [f"inline:{n}" for n in INLINE_MAZES])


@cache
def get_layout(case: str) -> Layout:
    kind, _, name = case.partition(":")
    if kind == "shipped":
        return load_layout(name)
    return inline_layout(name)


def big_maze(width: int, height: int, ghosts: int = 4, seed: int = 0) -> str:
    """Open floor, half of it food, crossed by wall segments with gaps."""
    rng = random.Random(seed)
    rows = [["%"] * width for _ in range(height)]
    for y in range(1, height - 1):
        for x in range(1, width - 1):
            rows[y][x] = "." if rng.random() < 0.5 else " "
    for y in range(2, height - 2, 4):
        for x in range(2, width - 2):
            if rng.random() < 0.7:
                rows[y][x] = "%"
    rows[1][1] = "P"
    for ghost in range(ghosts):
        rows[height - 2][width - 2 - 2 * ghost] = "G"
    return "\n".join("".join(row) for row in rows)

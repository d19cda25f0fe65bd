"""Small hand-made mazes used by the engine tests, and the list of every maze to test on.

The inline mazes are written to exercise the rules often in short random games: capsules next to
ghosts, dead ends (ghost reversal), loops (transpositions), a Pacman start that a ghost can reach,
numbered ghosts mixed with ``G``.
"""

from __future__ import annotations

from functools import lru_cache

from pacman.layout import Layout, load_layout, parse_layout, shipped_layout_names

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


@lru_cache(maxsize=None)
def inline_layout(name: str) -> Layout:
    return parse_layout(INLINE_MAZES[name], name=name, source=f"<inline {name}>")


def maze_names() -> list[str]:
    """Every maze the property tests run on: ``shipped:NAME`` and ``inline:NAME``."""
    return ([f"shipped:{n}" for n in shipped_layout_names()]
            + [f"inline:{n}" for n in INLINE_MAZES])


@lru_cache(maxsize=None)
def get_layout(case: str) -> Layout:
    kind, _, name = case.partition(":")
    if kind == "shipped":
        return load_layout(name)
    return inline_layout(name)

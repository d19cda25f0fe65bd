"""Write ``tests/engine/golden/perft.json``: engine move-tree counts ("perft") for every maze.

Run from the project root::

    python3 -m tests.engine.make_golden

For every shipped maze (and every inline test maze of :mod:`tests.engine.mazes`), from the
initial state with all of the maze's ghosts playing, it records for plies 1..4 (a ply is one
agent's move):

* ``paths``: the number of move sequences, where a sequence that reaches a terminal state
  (win or loss) before the ply stops there and still counts as one leaf;
* ``states``: the number of distinct states among those leaves.

Each entry also stores the SHA-256 of the maze text so that the test can tell a changed maze
(regenerate) from a changed engine (a bug).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from pacman.engine.layout import Layout, shipped_layout_names
from pacman.engine.state import GameState

PLIES = 4
GOLDEN = Path(__file__).resolve().parent / "golden" / "perft.json"
REGENERATE = "python3 -m tests.engine.make_golden"


def maze_digest(layout: Layout) -> str:
    return hashlib.sha256(layout.text.encode("utf-8")).hexdigest()


def engine_perft(layout: Layout, plies: int = PLIES) -> tuple[list[int], list[int]]:
    """Leaf paths and distinct leaf states at depth 1..plies, using the engine's successors."""
    paths, distinct = [], []
    frontier = [GameState.initial(layout)]
    finished: list[GameState] = []
    for _ in range(plies):
        grown = []
        for state in frontier:
            if state.is_terminal:
                finished.append(state)
                continue
            grown.extend(child for _, child in state.successors())
        frontier = grown
        leaves = finished + frontier
        paths.append(len(leaves))
        distinct.append(len(set(leaves)))
    return paths, distinct


def entry(layout: Layout) -> dict:
    paths, states = engine_perft(layout)
    return {"sha256": maze_digest(layout), "ghosts": layout.num_ghosts,
            "paths": paths, "states": states}


def build() -> dict:
    from tests.engine.mazes import get_layout, maze_names

    return {
        "about": "perft counts of the engine from each maze's start, all ghosts playing; "
                 "paths[i] / states[i] = leaf move sequences / distinct leaf states at ply i+1 "
                 "(a terminal state is a leaf that stops early). Regenerate with "
                 f"`{REGENERATE}`.",
        "plies": PLIES,
        "mazes": {case: entry(get_layout(case)) for case in maze_names()},
    }


def main() -> int:
    data = build()
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    shipped = shipped_layout_names()
    print(f"wrote {GOLDEN} ({len(data['mazes'])} mazes, {len(shipped)} shipped: "
          f"{', '.join(shipped) or 'none'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

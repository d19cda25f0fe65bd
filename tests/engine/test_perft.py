"""Golden move-tree counts ("perft") per maze, cross-checked by the reference rules and by hand."""

from __future__ import annotations

import json

import pytest

from pacman.engine.layout import parse_layout, shipped_layout_names

from . import reference as ref
from .make_golden import GOLDEN, PLIES, REGENERATE, engine_perft, maze_digest
from .mazes import get_layout, maze_names

CASES = maze_names()


@pytest.fixture(scope="module")
def golden() -> dict:
    assert GOLDEN.is_file(), f"{GOLDEN} is missing; generate it with `{REGENERATE}`"
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert data["plies"] == PLIES
    return data["mazes"]


def golden_entry(golden: dict, case: str) -> dict:
    if case not in golden:
        pytest.fail(f"maze {case!r} has no entry in {GOLDEN.name}; regenerate it with "
                    f"`{REGENERATE}` (after checking the engine is right)")
    entry = golden[case]
    if entry["sha256"] != maze_digest(get_layout(case)):
        pytest.fail(f"maze {case!r} changed since {GOLDEN.name} was written; regenerate it with "
                    f"`{REGENERATE}`")
    return entry


@pytest.mark.parametrize("case", CASES)
def test_engine_perft_matches_golden(golden, case):
    entry = golden_entry(golden, case)
    layout = get_layout(case)
    assert entry["ghosts"] == layout.num_ghosts
    paths, states = engine_perft(layout, PLIES)
    assert (paths, states) == (entry["paths"], entry["states"])


@pytest.mark.parametrize("case", CASES)
def test_golden_perft_agrees_with_the_reference_rules(golden, case):
    entry = golden_entry(golden, case)
    maze = ref.parse_maze(get_layout(case).text)
    assert ref.perft(maze, None, PLIES) == (entry["paths"], entry["states"])


def test_every_shipped_maze_has_a_golden_entry(golden):
    missing = [n for n in shipped_layout_names() if f"shipped:{n}" not in golden]
    assert not missing, (f"no golden perft for {', '.join(missing)}; regenerate with "
                         f"`{REGENERATE}`")


@pytest.mark.parametrize("case", CASES)
def test_deeper_perft_agrees_with_the_reference_rules(case):
    """Beyond the golden plies: engine and reference agree as deep as 20,000 paths allow."""
    layout = get_layout(case)
    maze = ref.parse_maze(layout.text)
    depth = PLIES
    while depth < 10 and engine_perft(layout, depth + 1)[0][-1] <= 20_000:
        depth += 1
    assert engine_perft(layout, depth) == ref.perft(maze, None, depth)
    for ghosts in range(layout.num_ghosts):   # and with fewer ghosts than the maze has
        assert _engine_perft_ghosts(layout, ghosts, 5) == ref.perft(maze, ghosts, 5)


def _engine_perft_ghosts(layout, ghosts, plies):
    from pacman.engine.state import GameState

    paths, distinct, frontier, finished = [], [], [GameState.initial(layout, ghosts)], []
    for _ in range(plies):
        grown = []
        for state in frontier:
            if state.is_terminal:
                finished.append(state)
            else:
                grown.extend(child for _, child in state.successors())
        frontier = grown
        paths.append(len(finished) + len(frontier))
        distinct.append(len(set(finished + frontier)))
    return paths, distinct


# --- counted by hand -----------------------------------------------------------------------------
def test_perft_counted_by_hand_with_a_ghost():
    # P at x=1, the only dot at x=2, a ghost at x=3 (a dead end, so it can only go West).
    # ply 1: East (wins at once) | Stop                                  -> 2 leaves
    # ply 2: East is a leaf; Stop -> ghost West onto the dot             -> 2
    # ply 3: + Pacman East (wins: the ghost on the dot does not undo it) | Stop    -> 3
    # ply 4: the ghost at x=2 cannot reverse East, so West onto Pacman: loss      -> 3
    layout = parse_layout("%%%%%\n%P.G%\n%%%%%\n")
    assert engine_perft(layout, 4) == ([2, 2, 3, 3], [2, 2, 3, 3])


def test_perft_counted_by_hand_with_transpositions():
    # Pacman alone in a corridor x=1..4, the only dot at x=4. A state is (x, last action,
    # score); a win ends the path. ply 1: {2E, 1S}. ply 2: 2E->3E,1W,2S; 1S->2E,1S: 5 paths,
    # 5 states. ply 3: 13 paths; the states are 4E(win),2W,3S,2E,1S,3E,1W,2S = 8.
    # ply 4: 32 new paths + the early win = 33; states: 7 non-terminal + win at ply 4
    # (score 506) + the early win (score 507) = 9.
    layout = parse_layout("%%%%%%\n%P  .%\n%%%%%%\n")
    assert engine_perft(layout, 4) == ([2, 5, 13, 33], [2, 5, 8, 9])

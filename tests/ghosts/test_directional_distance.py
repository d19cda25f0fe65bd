"""The directional ghost's two measures of near: maze distance (the default) and the classic
course's Manhattan distance (``distance=manhattan``), checked against the classic rule written
out here, and shown to differ where a wall stands between ghost and Pacman."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacman.agents.ghosts import DirectionalGhost
from pacman.errors import ConfigurationError
from pacman.engine.layout import load_layout
from pacman.engine.state import GameState

DIRECTIONS = ("North", "South", "East", "West", "Stop")


def random_position(layout_name: str, seed: int) -> GameState:
    """Pacman and the ghosts on random open cells, heading random ways, some ghosts scared."""
    rng = random.Random(seed)
    start = GameState.initial(load_layout(layout_name))
    layout = start[0]
    ghosts = len(start[1]) - 1
    positions = tuple(rng.choice(layout.open_cells) for _ in range(ghosts + 1))
    directions = ("Stop",) + tuple(rng.choice(DIRECTIONS) for _ in range(ghosts))
    scared = tuple(rng.choice([0, 0, 7]) for _ in range(ghosts))
    return GameState((layout, positions, directions, scared, *start[4:7], 1, None))


def classic_distribution(state: GameState, ghost: int) -> dict[str, float]:
    """The classic directional ghost's distribution: 0.8 shared by the legal moves whose next
    cell is nearest Pacman by |dx| + |dy| (farthest while scared), 0.2 shared by all."""
    actions = state.legal_actions(ghost)
    x, y = state.agent_position(ghost)
    px, py = state.pacman_position
    steps = {"North": (0, 1), "South": (0, -1), "East": (1, 0), "West": (-1, 0)}
    distances = [abs(x + steps[a][0] - px) + abs(y + steps[a][1] - py) for a in actions]
    scared = state.scared_timers[ghost - 1] > 0
    target = max(distances) if scared else min(distances)
    best = [a for a, d in zip(actions, distances) if d == target]
    return {a: 0.2 / len(actions) + (0.8 / len(best) if a in best else 0.0) for a in actions}


@settings(max_examples=150, deadline=None)
@given(layout_name=st.sampled_from(["smallClassic", "mediumClassic", "originalClassic"]),
       seed=st.integers(0, 100_000))
def test_the_manhattan_ghost_moves_as_the_classic_directional_ghost(layout_name: str,
                                                                     seed: int) -> None:
    state = random_position(layout_name, seed)
    for ghost in range(1, len(state.positions)):
        got = DirectionalGhost(ghost, distance="manhattan").distribution(state)
        want = classic_distribution(state, ghost)
        assert got.keys() == want.keys()
        assert all(got[a] == pytest.approx(want[a]) for a in want)


def test_the_two_measures_disagree_where_a_wall_is_in_the_way() -> None:
    differ = held_back = 0
    for seed in range(300):
        state = random_position("originalClassic", seed)
        maze = DirectionalGhost(1).distribution(state)
        manhattan = DirectionalGhost(1, distance="manhattan").distribution(state)
        if maze != manhattan:
            differ += 1
            # the Manhattan ghost's favourite move is not the one that follows Pacman round
            # the walls
            held_back += max(manhattan, key=manhattan.get) != max(maze, key=maze.get)
    assert differ >= 30 and held_back >= 15


def test_maze_distance_is_the_default_and_other_measures_are_refused() -> None:
    assert DirectionalGhost(1).distance == "maze"
    with pytest.raises(ConfigurationError, match="distance must be maze or manhattan"):
        DirectionalGhost(1, distance="euclid")  # type: ignore[arg-type]

"""The engine against an independent brute-force re-implementation of the rules (reference.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pacman.errors import GameOverError, IllegalActionError
from pacman.engine.state import GameState

from . import reference as ref
from .helpers import PROPERTY, score_events
from .mazes import get_layout, maze_names

CASES = maze_names()
ACTIONS = ("North", "South", "East", "West", "Stop")


def check_same(state: GameState, mirror: ref.RefState, where: str) -> None:
    assert ref.view_of_engine_state(state) == mirror, where


def compare_all_moves(layout, maze, state, mirror, where):
    """Every action of every agent from here: same legality, same resulting state."""
    for agent in range(state.num_agents):
        expected = ref.legal(maze, mirror, agent)
        assert list(state.legal_actions(agent)) == expected, f"{where}: legal of agent {agent}"
        for action in ACTIONS:
            if action in expected:
                check_same(state.successor(action, agent), ref.step(maze, mirror, action, agent),
                           f"{where}: agent {agent} plays {action}")
            else:
                error = GameOverError if mirror.outcome else IllegalActionError
                with pytest.raises(error):
                    state.successor(action, agent)


def lockstep(layout, num_ghosts, seed, plies, out_of_turn=0.0, every_action=True):
    """Random play on the engine and the reference side by side, compared after every ply."""
    maze = ref.parse_maze(layout.text)
    rng = random.Random(seed)
    state = GameState.initial(layout, num_ghosts)
    mirror = ref.initial(maze, num_ghosts)
    check_same(state, mirror, "start")
    for ply in range(plies):
        where = f"{layout.name} seed {seed} ply {ply}"
        if every_action:
            compare_all_moves(layout, maze, state, mirror, where)
        if state.is_terminal:
            break
        agent = state.turn
        if out_of_turn and rng.random() < out_of_turn:
            agent = rng.randrange(state.num_agents)
        action = rng.choice(ref.legal(maze, mirror, agent))
        nxt = state.successor(action, agent)
        mirror = ref.step(maze, mirror, action, agent)
        check_same(nxt, mirror, where)
        if agent == state.turn:
            delta, _ = score_events(state, nxt, agent)
            assert nxt.score - state.score == delta
        state = nxt
    return state, mirror


def test_reference_reads_every_maze_like_the_engine():
    for case in CASES:
        layout = get_layout(case)
        maze = ref.parse_maze(layout.text)
        assert (maze.width, maze.height) == (layout.width, layout.height), case
        assert maze.walls == {layout.xy(c) for c in range(layout.width * layout.height)
                              if layout.walls >> c & 1}, case
        assert maze.food == set(layout.positions_of(layout.food)), case
        assert maze.capsules == set(layout.positions_of(layout.capsules)), case
        assert maze.pacman == layout.xy(layout.pacman_start), case
        assert maze.ghosts == tuple(layout.xy(c) for c in layout.ghost_starts), case


@pytest.mark.parametrize("case", CASES)
def test_engine_matches_reference_on_random_games(case):
    layout = get_layout(case)
    for seed in range(6):
        for ghosts in sorted({0, layout.num_ghosts // 2, layout.num_ghosts}):
            lockstep(layout, ghosts, seed * 1000 + ghosts, plies=150, every_action=seed < 2)


@PROPERTY
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_engine_matches_reference_property(case, seed, data):
    layout = get_layout(case)
    ghosts = data.draw(st.integers(0, layout.num_ghosts), label="ghosts")
    plies = data.draw(st.integers(1, 250), label="plies")
    out_of_turn = data.draw(st.sampled_from([0.0, 0.0, 0.2]), label="out_of_turn")
    lockstep(layout, ghosts, seed, plies, out_of_turn=out_of_turn)


def test_random_play_exercises_every_rule():
    """The random games above are not vacuous: on the inline mazes they hit every event."""
    seen = set()
    for case in [c for c in CASES if c.startswith("inline:")]:
        layout = get_layout(case)
        for seed in range(150):
            rng = random.Random(seed)
            state = GameState.initial(layout)
            while not state.is_terminal and state.score > -300:
                mover = state.turn
                nxt = state.successor(rng.choice(state.legal_actions()))
                seen.update(score_events(state, nxt, mover)[1])
                state = nxt
    assert seen >= {"move", "dot", "capsule", "pacman_eats_ghost",
                    "ghost_walks_into_pacman_scared", "timer_ran_out", "win",
                    "loss_on_pacman_move", "loss_on_ghost_move"}, seen

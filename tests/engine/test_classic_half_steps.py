"""The classic scared speed, exactly: each ghost's between-cells bit, apart from its timer.

The facts below are derived from the classic rules (see :mod:`tests.engine.classic_reference`
for them in one place): a scared ghost moves by 0.5 per move; off the grid points it may only go
on; a move that ends its timer snaps it to ``(int(x + 0.5), int(y + 0.5))``; Pacman and a ghost
meet at a Manhattan distance of 0.7 or less; Pacman's move is checked against every ghost.
"""

from __future__ import annotations

import json
import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pacman.engine.directions import MOVES, VECTORS
from pacman.engine.game import GameResult, replay_states
from pacman.engine.game_loop import run_game
from pacman.grading.position_tests import PositionRecorder
from pacman.grading.state_api import state_fields, state_of_fields
from pacman.engine.layout import load_layout, parse_layout
from pacman.lineup.build import agent_spec
from pacman.engine.rules import (EAT_GHOST_SCORE, LOSE_PENALTY, SCARED_TIME, TIME_PENALTY, agent_xy,
                          is_between_cells, legal_actions, successor)
from pacman.engine.state import ClassicSpeedState, GameState

from .classic_reference import ReferenceGame
from .helpers import PROPERTY
from .mazes import get_layout, maze_names

# y = 3 is the top row of floor, y = 1 the bottom one; the capsule at (2, 3) is one step east
# of Pacman, and the bottom corridor runs from (1, 1) to (6, 1)
CORRIDOR = parse_layout("%%%%%%%%\n"
                        "%Po   .%\n"
                        "% %%%% %\n"
                        "%    G %\n"
                        "%%%%%%%%\n", name="corridor")

# capsules everywhere and three ghosts: capsules are often eaten while a ghost is half way
CAPSULES = parse_layout("%%%%%%%%%\n"
                        "%Po.o o.%\n"
                        "% %% %% %\n"
                        "%o. G .o%\n"
                        "% %% %% %\n"
                        "%o.o o G%\n"
                        "%%%%%%%%%\n", name="capsules")


def one_ghost(pacman, ghost, direction="Stop", timer=0, turn=1, between=False,
              layout=CORRIDOR, cls=ClassicSpeedState) -> GameState:
    """A one-ghost state, field by field (``between``: half way from the cell behind ``ghost``
    to ``ghost``)."""
    fields = (layout, (layout.cell(pacman), layout.cell(ghost)), ("Stop", direction), (timer,),
              layout.food, layout.capsules, 0, turn, None)
    return cls(fields + (int(between),)) if cls is ClassicSpeedState else cls(fields)


# --- facts ------------------------------------------------------------------------------------
def test_a_capsule_eaten_while_a_ghost_is_half_way_leaves_it_half_way():
    """Classic: the ghost is at (4.5, 1) going West with 25 moves of fright left; Pacman eats the
    capsule, every timer becomes 40 and no one moves the ghost: still (4.5, 1). Its next move is
    still half a cell (timer 40 > 0) and, off the grid points, only West: (4, 1), timer 39. Its
    move after that starts from a grid point: in the corridor, West (East would reverse), to
    (3.5, 1), timer 38. (A ghost scared on a grid point takes its half steps the other way
    round: half way on odd timers.)"""
    state = one_ghost((1, 3), (4, 1), direction="West", timer=25, turn=0, between=True)
    assert agent_xy(state, 1) == (4.5, 1)
    state = successor(state, "East")  # Pacman eats the capsule at (2, 3)
    assert state.scared_timers == (SCARED_TIME,) and is_between_cells(state, 1)
    assert agent_xy(state, 1) == (4.5, 1) and legal_actions(state, 1) == ("West",)
    state = successor(state, "West")
    assert agent_xy(state, 1) == (4, 1) and state.scared_timers == (39,)
    assert not is_between_cells(state, 1) and state.between_cells == 0
    state = successor(state, "Stop")
    assert legal_actions(state, 1) == ("West",)  # a corridor: West, East is the reverse
    state = successor(state, "West")
    assert agent_xy(state, 1) == (3.5, 1) and state.scared_timers == (38,)
    assert is_between_cells(state, 1)


@pytest.mark.parametrize("direction, start, ends_on", [
    ("East", (3, 1), (4, 1)),    # (3.5, 1) rounds up to (4, 1): the cell ahead
    ("West", (3, 1), (3, 1)),    # (2.5, 1) rounds up to (3, 1): back on the cell it left
    ("North", (6, 1), (6, 2)),   # (6, 1.5) rounds up to (6, 2): ahead
    ("South", (6, 2), (6, 2)),   # (6, 1.5) rounds up to (6, 2): back
])
def test_a_timer_ending_half_way_rounds_the_ghost_as_the_classic_engine_does(direction, start,
                                                                             ends_on):
    """A ghost on a grid point with one move of fright left (possible once a capsule was eaten
    while it was half way) moves half a cell, then the classic engine rounds its position with
    ``int(v + 0.5)`` on each axis: up for East and North, back for West and South."""
    state = one_ghost((1, 3), start, direction=direction, timer=1)
    after = successor(state, direction)
    assert after.agent_position(1) == ends_on and agent_xy(after, 1) == ends_on
    assert after.scared_timers == (0,) and not is_between_cells(after, 1)
    assert after.directions[1] == direction and after.outcome is None


def test_a_timer_ending_half_way_meets_pacman_only_on_the_cell_it_rounds_to():
    """Rounded to (3, 1) and no longer scared: Pacman there loses; Pacman on (2, 1), the cell
    the ghost was heading for, is 1 away from (3, 1): nothing happens."""
    on_it = successor(one_ghost((3, 1), (3, 1), direction="West", timer=1), "West")
    assert (on_it.outcome, on_it.score) == ("loss", -LOSE_PENALTY)
    ahead = successor(one_ghost((2, 1), (3, 1), direction="West", timer=1), "West")
    assert (ahead.outcome, ahead.score, ahead.agent_position(1)) == (None, 0, (3, 1))


def test_pacman_stepping_between_a_half_way_ghost_and_its_cell_eats_it_either_side():
    """A ghost at (4.5, 1) is 0.5 from (4, 1) and from (5, 1): Pacman arriving on either eats it
    (+200, back to its start, no longer scared, no longer half way)."""
    for pacman, move in (((4, 2), "South"), ((5, 2), "South")):
        layout = parse_layout("%%%%%%%%\n%P.    %\n%      %\n%    G %\n%%%%%%%%\n",
                              name="open")
        state = one_ghost(pacman, (4, 1), direction="West", timer=9, turn=0, between=True,
                          layout=layout)
        after = successor(state, move)
        assert after.score == EAT_GHOST_SCORE - TIME_PENALTY and after.scared_timers == (0,)
        assert after.positions[1] == layout.ghost_starts[0] and after.between_cells == 0
        assert after.directions[1] == "Stop"


def test_walking_into_two_ghosts_costs_500_for_each_as_in_the_classic_engine():
    """The classic engine checks Pacman's move against every ghost and charges each one that is
    not scared; the default rules charge the loss once."""
    layout = parse_layout("%%%%%%\n%P 12%\n%%%%%%\n", name="two")
    fields = (layout, (layout.cell((2, 1)), layout.cell((3, 1)), layout.cell((3, 1))),
              ("Stop", "West", "West"), (0, 0), 0, 0, 0, 0, None)
    classic = successor(ClassicSpeedState(fields + (0,)), "East")
    default = successor(GameState(fields), "East")
    assert classic.score == -TIME_PENALTY - 2 * LOSE_PENALTY and classic.outcome == "loss"
    assert default.score == -TIME_PENALTY - LOSE_PENALTY and default.outcome == "loss"


def test_a_few_moves_of_play_match_the_classic_positions():
    """From the corridor's start: Pacman eats the capsule; the ghost, scared, goes West half a
    cell per move ((4.5, 1), (4, 1), ...); Pacman waits; the positions are the classic ones."""
    state = ClassicSpeedState.initial(CORRIDOR)
    assert agent_xy(state, 1) == (5, 1)
    state = successor(state, "East")  # the capsule: timer 40, the ghost on its start cell
    seen = []
    for _ in range(4):
        state = successor(state, "West")  # a legal move each time: the ghost's first is free
        seen.append((agent_xy(state, 1), state.scared_timers[0]))
        state = successor(state, "Stop")
    assert seen == [((4.5, 1), 39), ((4, 1), 38), ((3.5, 1), 37), ((3, 1), 36)]


def test_a_state_of_the_variant_has_ten_fields():
    state = ClassicSpeedState.initial(CORRIDOR)
    assert len(state) == 10 and state.between_cells == 0 and state.key[-1] == 0
    assert len(GameState.initial(CORRIDOR)) == 9 and GameState.initial(CORRIDOR).between_cells == 0
    with pytest.raises(TypeError, match="10 fields"):
        ClassicSpeedState(tuple(state)[:9])


def test_half_way_is_part_of_a_states_identity():
    """Same cells, directions and timers: one ghost half way, the other on its cell. The classic
    engine's positions differ (4.5 against 4), so do the states, their keys and the count of
    states a search explored."""
    half = one_ghost((1, 3), (4, 1), direction="West", timer=20, between=True)
    whole = one_ghost((1, 3), (4, 1), direction="West", timer=20)
    assert half != whole and half.key != whole.key and hash(half) != hash(whole)
    recorder = PositionRecorder()
    assert recorder.identity(half) != recorder.identity(whole)


def test_the_pipe_carries_the_bit_and_refuses_a_count_of_fields_that_does_not_fit():
    half = one_ghost((1, 3), (4, 1), direction="West", timer=20, between=True)
    fields = json.loads(json.dumps(state_fields(half)))
    assert len(fields) == 9 and fields[-1] == 1
    assert state_of_fields(CORRIDOR, fields) == half
    assert type(state_of_fields(CORRIDOR, fields)) is ClassicSpeedState
    plain = GameState.initial(CORRIDOR)
    assert type(state_of_fields(CORRIDOR, state_fields(plain))) is GameState
    with pytest.raises(ValueError, match="9 state fields for a GameState"):
        state_of_fields(CORRIDOR, fields, GameState)
    with pytest.raises(ValueError, match="8 state fields for a ClassicSpeedState"):
        state_of_fields(CORRIDOR, state_fields(plain), ClassicSpeedState)


def test_a_recorded_game_with_a_capsule_eaten_half_way_replays_exactly():
    """Found by search: in this game Pacman eats a capsule while a ghost is half way."""
    layout = load_layout("mediumClassic")
    lineup = [agent_spec("greedy", "pacman"), *[agent_spec("random", "ghost")] * 2]
    result = run_game(layout, lineup, 2, max_moves=300, rules="classic")
    again = GameResult.from_json(result.to_json())
    states = list(replay_states(again))
    assert states == list(replay_states(result)) and states[-1].score == result.score
    assert all(type(s) is ClassicSpeedState for s in states)
    assert any(a.turn == 0 and a.between_cells and a.capsules != b.capsules
               for a, b in zip(states, states[1:])), "the game no longer shows the case"


# --- properties -------------------------------------------------------------------------------
def _mazes() -> list[str]:
    return [*maze_names(), "capsules"]


def _maze(case: str):
    return CAPSULES if case == "capsules" else get_layout(case)


@st.composite
def positions(draw):
    """A position of the classic variant on a maze: the start, or ghosts anywhere, half way or
    not, scared or not, with Pacman on a cell no ghost is within reach of. Random play from
    there, with the seed drawn last."""
    layout = _maze(draw(st.sampled_from(_mazes())))
    ghosts = draw(st.integers(0, layout.num_ghosts))
    state = ClassicSpeedState.initial(layout, ghosts)
    if draw(st.booleans()):  # anywhere
        cells, directions, timers, between = [], [], [], 0
        for ghost in range(ghosts):
            cell = draw(st.sampled_from(layout.open_cells))
            came = [d for d in MOVES
                    if not layout.is_wall(_back(layout.xy(cell), d))]  # the way it came, if any
            half = bool(came) and draw(st.booleans())
            direction = draw(st.sampled_from(came if half else [*came, "Stop"]))
            cells.append(cell)
            directions.append(direction)
            timers.append(draw(st.integers(1 if half else 0, SCARED_TIME)))
            between |= half << ghost
        reach = set(cells) | {layout.cell(_back(layout.xy(c), d))
                              for g, (c, d) in enumerate(zip(cells, directions))
                              if between >> g & 1}
        free = [c for c in layout.open_cells if c not in reach]
        if free:
            state = ClassicSpeedState((
                layout, (draw(st.sampled_from(free)), *cells), ("Stop", *directions),
                tuple(timers), layout.food, layout.capsules, 0, 0, state.outcome, between))
    return state, draw(st.integers(0, 2**32 - 1))


def _back(xy, direction):
    dx, dy = VECTORS[direction]
    return (xy[0] - dx, xy[1] - dy)


def _reference(state: ClassicSpeedState) -> ReferenceGame:
    reference = ReferenceGame(state.layout, state.num_ghosts)
    reference.pacman = agent_xy(state, 0)
    for index, ghost in enumerate(reference.ghosts, 1):
        ghost.pos, ghost.direction = agent_xy(state, index), state.directions[index]
        ghost.timer = state.scared_timers[index - 1]
    return reference


@PROPERTY
@given(positions())
def test_random_play_matches_the_classic_reference_move_for_move(start):
    """Legal actions, every agent's position (half way included), direction, timers, score and
    outcome after every move, against the classic rules on a continuous grid."""
    state, seed = start
    rng, reference = random.Random(seed), _reference(state)
    for _ in range(200):
        mover = state.turn
        legal = state.legal_actions()
        assert set(legal) == reference.legal(mover)
        if not legal:
            break
        action = rng.choice(sorted(legal))
        state = state.successor(action)
        reference.move(mover, action)
        assert [agent_xy(state, a) for a in range(state.num_agents)] == [
            reference.pacman, *(g.pos for g in reference.ghosts)]
        assert list(state.directions[1:]) == [g.direction for g in reference.ghosts]
        assert list(state.scared_timers) == [g.timer for g in reference.ghosts]
        assert (state.score, state.outcome) == (reference.score, reference.outcome)


@PROPERTY
@given(positions())
def test_random_play_keeps_the_half_way_invariants(start):
    state, seed = start
    rng, layout = random.Random(seed), state.layout
    for _ in range(200):
        legal = state.legal_actions()
        if not legal:
            break
        mover = state.turn
        after = state.successor(rng.choice(legal))
        assert 0 <= after.between_cells < 1 << after.num_ghosts
        assert type(after) is ClassicSpeedState
        for ghost in range(1, after.num_agents):
            if is_between_cells(after, ghost):
                assert after.scared_timers[ghost - 1] > 0  # half way only while scared
                assert after.outcome or after.legal_actions(ghost) == (after.directions[ghost],)
                assert not layout.is_wall(_back(after.agent_position(ghost),
                                                after.directions[ghost]))
        if mover and state.scared_timers[mover - 1] and after.positions[mover] != \
                layout.ghost_starts[mover - 1]:
            (x0, y0), (x1, y1) = agent_xy(state, mover), agent_xy(after, mover)
            step = abs(x1 - x0) + abs(y1 - y0)
            assert step == 0.5 or (after.scared_timers[mover - 1] == 0 and step in (0, 1))
        assert pickle.loads(pickle.dumps(after)) == after and hash(after) == hash(tuple(after))
        state = after


def test_the_heat_map_moves_pacman_in_states_of_the_variant_with_ghosts_still_half_way():
    from pacman.display.overlay import heat_map

    state = one_ghost((1, 3), (4, 1), direction="West", timer=20, turn=0, between=True)
    seen: list[GameState] = []
    heat = heat_map(state, lambda s: seen.append(s) or 0.0)
    assert len(heat) == len(seen) > 1
    assert all(type(s) is ClassicSpeedState and agent_xy(s, 1) == (4.5, 1) for s in seen)
    assert all(s.successors() for s in seen)  # whole states: the rules take them

"""The classic scared speed (:class:`~pacman.engine.state.ClassicSpeedState`): scared ghosts at half
speed on whole cells, each rule on a tiny maze, the default rules beside it, and random play."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pacman.errors import IllegalActionError
from pacman.engine.game_loop import run_game
from pacman.engine.layout import parse_layout
from pacman.engine.rules import (EAT_GHOST_SCORE, LOSE_PENALTY, SCARED_TIME, TIME_PENALTY, agent_xy,
                          is_between_cells, legal_actions, successor)
from pacman.engine.state import RULES_VARIANTS, ClassicSpeedState, GameState, state_class

from .helpers import PROPERTY
from .mazes import get_layout, maze_names

# y = 3 is the top row of floor, y = 1 the bottom one
RING = parse_layout("%%%%%%%\n"
                    "%P   .%\n"
                    "% %%% %\n"
                    "%G    %\n"
                    "%%%%%%%\n", name="ring")


def build(cls, pacman, ghost, direction="Stop", timer=0, turn=1, layout=RING,
          between=False) -> GameState:
    """A one-ghost state of class ``cls``, field by field (``between``: the ghost is half way
    from the cell behind ``ghost`` to ``ghost``, a field of the classic variant only)."""
    fields = (layout, (layout.cell(pacman), layout.cell(ghost)), ("Stop", direction),
              (timer,), layout.food, layout.capsules, 0, turn, None)
    return cls(fields + (int(between),) if cls.half_speed_scared else fields)


def test_variants_by_name():
    assert {"default": GameState, "classic": ClassicSpeedState} == RULES_VARIANTS
    assert state_class("classic") is ClassicSpeedState and state_class("default") is GameState
    with pytest.raises(ValueError, match="unknown rules 'fast'"):
        state_class("fast")
    assert not GameState.half_speed_scared and ClassicSpeedState.half_speed_scared


@pytest.mark.parametrize("timer", [40, 38, 2])
def test_even_timer_moves_one_cell_with_every_usual_choice(timer):
    state = build(ClassicSpeedState, (1, 3), (5, 1), timer=timer)
    assert legal_actions(state, 1) == ("North", "West")  # as in the default rules
    after = successor(state, "West")
    assert after.agent_position(1) == (4, 1) and after.directions[1] == "West"
    assert after.scared_timers == (timer - 1,) and type(after) is ClassicSpeedState
    assert is_between_cells(after, 1) and agent_xy(after, 1) == (4.5, 1)


@pytest.mark.parametrize("timer", [39, 37, 1, 40, 2])
def test_between_cells_one_legal_action_takes_it_onto_its_cell(timer):
    """Whatever the timer's parity (a capsule eaten half way restarts it at 40)."""
    state = build(ClassicSpeedState, (1, 3), (4, 1), direction="West", timer=timer, between=True)
    assert legal_actions(state, 1) == ("West",) and state.legal_actions(1) == ("West",)
    for other in ("East", "North", "Stop"):
        with pytest.raises(IllegalActionError, match="between cells"):
            successor(state, other, 1)
    after = successor(state, "West")
    assert after.agent_position(1) == (4, 1) and after.directions[1] == "West"
    assert after.scared_timers == (timer - 1,) and not is_between_cells(after, 1)
    assert agent_xy(after, 1) == (4, 1) and after.turn == 0


def test_forced_move_at_a_dead_end_still_stays():
    """Between cells the last direction is legal even where a wall now blocks it."""
    state = build(ClassicSpeedState, (1, 3), (5, 1), direction="East", timer=39, between=True)
    assert legal_actions(state, 1) == ("East",)
    assert successor(state, "East").agent_position(1) == (5, 1)


def test_the_default_rules_move_a_scared_ghost_every_move():
    state = build(GameState, (1, 3), (4, 1), direction="West", timer=39)
    assert legal_actions(state, 1) == ("West",)  # the maze's own choice from (4, 1) going West
    state = build(GameState, (1, 3), (5, 1), direction="West", timer=39)
    assert legal_actions(state, 1) == ("North", "West")
    after = successor(state, "North")
    assert after.agent_position(1) == (5, 2) and type(after) is GameState
    assert not is_between_cells(after, 1) and agent_xy(after, 1) == (5, 2)


def test_unscared_ghost_moves_at_full_speed_in_the_variant():
    state = build(ClassicSpeedState, (1, 3), (5, 1), direction="West", timer=0)
    assert legal_actions(state, 1) == ("North", "West")
    after = successor(successor(state, "West"), "Stop")
    assert after.agent_position(1) == (4, 1)
    assert legal_actions(after, 1) == ("West",)  # the corridor, not the half step
    assert successor(after, "West").agent_position(1) == (3, 1)


def test_a_scared_ghost_takes_two_of_its_moves_per_cell_until_its_timer_ends():
    state = ClassicSpeedState.initial(RING).successor("Stop")
    state = tuple.__new__(ClassicSpeedState, state[:3] + ((6,),) + state[4:])
    cells = []
    while state.scared_timers[0] or len(cells) < 8:
        ghost_moves = legal_actions(state, 1)
        if state.scared_timers[0] % 2:
            assert len(ghost_moves) == 1
        state = successor(successor(state, ghost_moves[-1]), "Stop")  # East first, away
        cells.append(state.positions[1])
    # timers 6 (a cell), 5, 4 (a cell), 3, 2 (a cell), 1, then full speed: a cell every move
    moved = [a != b for a, b in zip([RING.ghost_starts[0]] + cells, cells)]
    assert moved == [True, False, True, False, True, False, True, True]
    assert state.outcome is None and state.score == -8 * TIME_PENALTY - TIME_PENALTY


def test_pacman_meets_a_ghost_between_cells_on_the_cell_it_left():
    state = build(ClassicSpeedState, (5, 2), (4, 1), direction="West", timer=39, turn=0,
                  between=True)
    after = successor(state, "South")  # onto (5, 1), the cell the ghost is leaving
    assert after.score == -TIME_PENALTY + EAT_GHOST_SCORE
    assert after.positions[1] == RING.ghost_starts[0]
    assert after.scared_timers == (0,) and after.directions[1] == "Stop"
    assert type(after) is ClassicSpeedState and after.outcome is None
    assert after.between_cells == 0
    default = successor(build(GameState, (5, 2), (4, 1), direction="West", timer=39, turn=0),
                        "South")
    assert default.score == -TIME_PENALTY and default.positions[1] == RING.cell((4, 1))


def test_a_ghost_leaving_pacmans_neighbour_meets_him_only_in_the_variant():
    """A ghost that moves away from a cell Pacman is on is eaten half way (impossible in play,
    where they would have met before; the rule is still exact)."""
    state = build(ClassicSpeedState, (5, 1), (5, 1), timer=40)
    after = successor(state, "West")
    assert after.score == EAT_GHOST_SCORE and after.scared_timers == (0,)


def test_completing_a_half_step_away_from_pacman_does_not_meet_him():
    state = build(ClassicSpeedState, (5, 1), (4, 1), direction="West", timer=1, between=True)
    after = successor(state, "West")
    assert (after.score, after.outcome, after.scared_timers) == (0, None, (0,))
    assert after.agent_position(1) == (4, 1) and not is_between_cells(after, 1)


def test_a_timer_running_out_on_pacman_loses():
    state = build(ClassicSpeedState, (4, 1), (4, 1), direction="West", timer=1, between=True)
    after = successor(state, "West")
    assert after.score == -LOSE_PENALTY and after.outcome == "loss"


def test_capsule_scares_for_forty_and_ghosts_then_move_at_half_speed():
    layout = parse_layout("%%%%%%%\n"
                          "%Po  .%\n"
                          "% %%% %\n"
                          "%    G%\n"
                          "%%%%%%%\n", name="capsule")
    state = ClassicSpeedState.initial(layout).successor("East")
    assert state.scared_timers == (SCARED_TIME,) and type(state) is ClassicSpeedState
    state = state.successor("West")
    assert state.agent_position(1) == (4, 1) and state.legal_actions(1) == ("West",)


@pytest.mark.parametrize("cls", [GameState, ClassicSpeedState])
def test_states_keep_their_class_through_pickle_and_hash(cls):
    state = build(cls, (1, 3), (4, 1), direction="West", timer=39)
    again = pickle.loads(pickle.dumps(successor(state, "West")))
    assert type(again) is cls and again == successor(state, "West")
    assert hash(again) == hash(successor(state, "West"))


class _Seen:
    """Plays the first legal action and records the class of every state it is shown."""

    def __init__(self, index: int) -> None:
        self.index, self.seen = index, set()

    def get_action(self, state):
        self.seen.add(type(state))
        return state.legal_actions(self.index)[0]


@pytest.mark.parametrize("rules, cls", [("classic", ClassicSpeedState), ("default", GameState)])
def test_run_game_plays_the_named_rules(rules, cls):
    agents = [_Seen(0), _Seen(1)]
    result = run_game(RING, agents, 3, max_moves=20, rules=rules)
    assert result.outcome in ("win", "loss", "move_limit")
    assert agents[0].seen == agents[1].seen == {cls}


def test_run_game_refuses_unknown_rules():
    with pytest.raises(ValueError, match="unknown rules 'nope'"):
        run_game(RING, [_Seen(0), _Seen(1)], 3, max_moves=5, rules="nope")


def test_the_engine_search_honours_the_variant():
    """The specialised Pacman search plays a ghost between cells with its one legal action (the
    maze's own choices there would be illegal moves)."""
    from pacman.agents.catalog import PACMAN_AGENTS
    from pacman.engine.directions import MOVES, VECTORS
    from pacman.engine.game import agent_rng

    layout = get_layout("shipped:smallClassic")
    pacman = layout.pacman_start
    ghost, direction = next(
        (cell, d) for cell in layout.open_cells for d in MOVES
        if len(layout.ghost_actions[cell][d]) > 1 and cell != pacman
        and not layout.walls >> (cell - VECTORS[d][0] - VECTORS[d][1] * layout.width) & 1)
    state = build(ClassicSpeedState, layout.xy(pacman), layout.xy(ghost), direction=direction,
                  timer=39, turn=0, layout=layout, between=True)
    for name in ("expectimax", "minimax", "alphabeta"):
        agent = PACMAN_AGENTS[name](index=0, rng=agent_rng(0, 0), depth=2)
        assert agent.get_action(state) in state.legal_actions()


@st.composite
def playouts(draw):
    case = draw(st.sampled_from(maze_names()))
    layout = get_layout(case)
    return layout, draw(st.integers(0, layout.num_ghosts)), draw(st.integers(0, 2**32 - 1))


@PROPERTY
@given(playouts())
def test_random_play_in_the_variant_keeps_ghosts_on_open_cells_and_states_exact(game):
    layout, ghosts, seed = game
    rng = random.Random(seed)
    state = ClassicSpeedState.initial(layout, ghosts)
    for _ in range(300):
        legal = state.legal_actions()
        if not legal:
            break
        mover = state.turn
        if is_between_cells(state, mover):
            assert legal == (state.directions[mover],)
        after = state.successor(rng.choice(legal))
        assert type(after) is ClassicSpeedState
        for cell in after.positions:
            assert not layout.walls >> cell & 1
        if is_between_cells(state, mover) and after.scared_timers[mover - 1]:
            assert after.positions[mover] == state.positions[mover]  # the second half step
        for agent in range(1, after.num_agents):
            x, y = agent_xy(after, agent)
            assert abs(x - round(x)) + abs(y - round(y)) in (0, 0.5)
        assert pickle.loads(pickle.dumps(after)) == after and hash(after) == hash(tuple(after))
        state = after


def test_the_classic_api_shows_a_ghost_between_cells_half_way():
    from pacman.compat.state import GameState as ClassicState

    between = ClassicState(build(ClassicSpeedState, (1, 3), (4, 1), direction="West", timer=39,
                                 between=True))
    assert between.getGhostPositions() == [(4.5, 1)]
    assert between.getGhostPosition(1) == (4.5, 1) and between.getLegalActions(1) == ["West"]
    on_cell = ClassicState(build(GameState, (1, 3), (4, 1), direction="West", timer=39))
    assert on_cell.getGhostPositions() == [(4, 1)] and on_cell.getGhostPosition(1) == (4, 1)


def test_the_classic_api_lists_legal_actions_in_the_classic_order_only_in_the_variant():
    from pacman.compat.state import GameState as ClassicState

    layout = get_layout("shipped:openClassic")
    engine = GameState.initial(layout, 1)
    assert len(engine.legal_actions(0)) >= 4  # an open cell: the order is visible
    rank = {"West": 0, "Stop": 1, "East": 2, "North": 3, "South": 4}
    classic = ClassicState(ClassicSpeedState.initial(layout, 1)).getLegalActions(0)
    assert classic == sorted(engine.legal_actions(0), key=rank.__getitem__)
    assert ClassicState(engine).getLegalActions(0) == list(engine.legal_actions(0))
    assert classic != list(engine.legal_actions(0))

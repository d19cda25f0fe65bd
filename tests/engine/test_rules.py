"""Every scoring and movement rule, each on a tiny maze with the score worked out by hand."""

from __future__ import annotations

import pytest

from pacman.errors import GameOverError, IllegalActionError
from pacman.engine.game_loop import run_game
from pacman.engine.layout import parse_layout
from pacman.engine.rules import (EAT_GHOST_SCORE, FOOD_SCORE, LOSE_PENALTY, SCARED_TIME, TIME_PENALTY,
                          WIN_SCORE)
from pacman.engine.state import GameState


def maze(text: str):
    return parse_layout(text, name="t")


def play(state: GameState, *actions: str) -> GameState:
    """Apply ``actions`` in turn order (each by the agent whose turn it is)."""
    for action in actions:
        state = state.successor(action)
    return state


def build(layout, pacman, ghosts=(), directions=None, scared=None, food=None, capsules=(),
          score=0, turn=0, outcome=None) -> GameState:
    """A state assembled field by field (the documented tuple layout of GameState)."""
    positions = tuple(layout.cell(p) for p in (pacman, *ghosts))
    if directions is None:
        directions = ("Stop",) * len(positions)
    if scared is None:
        scared = (0,) * len(ghosts)
    food_mask = layout.food if food is None else sum(1 << layout.cell(p) for p in food)
    capsule_mask = sum(1 << layout.cell(p) for p in capsules)
    return GameState((layout, positions, tuple(directions), tuple(scared), food_mask,
                      capsule_mask, score, turn, outcome))


def test_classic_constants():
    assert (TIME_PENALTY, FOOD_SCORE, WIN_SCORE, LOSE_PENALTY, EAT_GHOST_SCORE, SCARED_TIME) == (
        1, 10, 500, 500, 200, 40)


# --- time penalty, food, win -----------------------------------------------------------------------
CORRIDOR = maze("%%%%%%\n"
                "%P  .%\n"
                "%%%%%%\n")


def test_every_pacman_move_costs_one_including_stop():
    state = GameState.initial(CORRIDOR)
    assert (state.score, state.turn, state.outcome) == (0, 0, None)
    state = state.successor("Stop")
    assert state.score == -1 and state.pacman_position == (1, 1)
    state = state.successor("East")
    assert state.score == -2 and state.pacman_position == (2, 1)
    state = play(state, "East", "Stop", "West")
    assert state.score == -5 and state.pacman_position == (2, 1)
    assert state.outcome is None and state.food_count == 1


def test_last_dot_wins_with_bonus():
    state = play(GameState.initial(CORRIDOR), "East", "East", "East")
    assert state.score == -3 + 10 + 500
    assert state.outcome == "win" and state.is_win and state.is_terminal
    assert state.food_count == 0 and state.food == 0


def test_each_dot_is_ten_and_only_the_last_wins():
    layout = maze("%%%%%\n"
                  "%P..%\n"
                  "%%%%%\n")
    state = GameState.initial(layout).successor("East")
    assert (state.score, state.outcome, state.food_count) == (9, None, 1)
    assert not state.has_food((2, 1)) and state.has_food((3, 1))
    state = state.successor("East")
    assert (state.score, state.outcome) == (9 + 509, "win")


def test_stopping_on_an_eaten_cell_scores_nothing_more():
    layout = maze("%%%%%\n"
                  "%P..%\n"
                  "%%%%%\n")
    state = play(GameState.initial(layout), "East", "Stop", "Stop")
    assert state.score == 9 - 2


def test_maze_without_food_is_won_at_the_start():
    layout = maze("%%%%%\n"
                  "%P  %\n"
                  "%%%%%\n")
    state = GameState.initial(layout)
    assert state.outcome == "win" and state.score == 0
    assert state.legal_actions() == ()
    result = run_game(layout, [StopPacman()])
    assert (result.outcome, result.moves, result.score, result.actions) == ("win", 0, 0, [])


# --- losing -----------------------------------------------------------------------------------------
def test_pacman_moving_onto_a_ghost_loses():
    layout = maze("%%%%%\n"
                  "%PG.%\n"
                  "%%%%%\n")
    state = GameState.initial(layout).successor("East")
    assert (state.score, state.outcome) == (-1 - 500, "loss")
    assert state.is_lose and state.is_terminal


def test_ghost_moving_onto_pacman_loses():
    layout = maze("%%%%%%\n"
                  "%P G.%\n"
                  "%%%%%%\n")
    state = play(GameState.initial(layout), "Stop", "West")
    assert state.ghost_positions == [(2, 1)] and state.outcome is None and state.score == -1
    state = play(state, "Stop", "West")
    assert (state.score, state.outcome) == (-2 - 500, "loss")
    assert state.ghost_positions == [(1, 1)]


def test_pacman_moving_onto_a_ghost_standing_on_food_loses_and_eats_the_dot():
    layout = maze("%%%%%%\n"
                  "%P.G.%\n"
                  "%%%%%%\n")
    state = play(GameState.initial(layout), "Stop", "West")   # ghost now on the first dot
    state = state.successor("East")
    assert (state.score, state.outcome) == (-2 + 10 - 500, "loss")


# --- win not undone ---------------------------------------------------------------------------------
def test_win_is_not_undone_by_a_ghost_on_the_last_dot():
    layout = maze("%%%%%%\n"
                  "%P.G %\n"
                  "%%%%%%\n")
    state = play(GameState.initial(layout), "Stop", "West")
    assert state.ghost_positions == [(2, 1)] and state.has_food((2, 1))
    state = state.successor("East")
    assert (state.score, state.outcome) == (-2 + 10 + 500, "win")


def test_win_still_eats_a_scared_ghost_and_ignores_a_dangerous_one():
    layout = maze("%%%%%%%\n"
                  "%P.G G%\n"
                  "%%%%%%%\n")
    state = build(layout, (1, 1), ghosts=[(2, 1), (2, 1)], scared=(0, 7), food=[(2, 1)],
                  score=100)
    state = state.successor("East")
    assert state.outcome == "win"
    assert state.score == 100 - 1 + 10 + 500 + 200
    assert state.ghost_positions == [(2, 1), (5, 1)]  # ghost 2 eaten, back to its start
    assert state.scared_timers == (0, 0)


# --- capsules and scared timers ------------------------------------------------------------------
TWO_GHOSTS = maze("%%%%%%%%%%\n"
                  "%Po  G G.%\n"
                  "%%%%%%%%%%\n")


def test_capsule_scares_every_ghost_for_forty_and_scores_nothing():
    state = GameState.initial(TWO_GHOSTS)
    assert state.scared_timers == (0, 0) and not state.is_scared(1)
    state = state.successor("East")
    assert state.score == -1
    assert state.scared_timers == (40, 40) and state.is_scared(1) and state.is_scared(2)
    assert state.capsules == 0 and not state.has_capsule((2, 1))


def test_scared_timer_drops_by_one_per_ghost_own_move():
    state = play(GameState.initial(TWO_GHOSTS), "East")
    state = state.successor("West")           # ghost 1
    assert state.scared_timers == (39, 40)
    state = state.successor("West")           # ghost 2
    assert state.scared_timers == (39, 39)
    state = state.successor("Stop")           # Pacman's moves do not count
    assert state.scared_timers == (39, 39)
    state = state.successor("West")
    assert state.scared_timers == (38, 39)


def test_second_capsule_resets_timers_to_forty():
    layout = maze("%%%%%%%%%\n"
                  "%oPo  G.%\n"
                  "%%%%%%%%%\n")
    state = play(GameState.initial(layout), "West", "West", "East", "West")
    assert state.scared_timers == (38,) and state.ghost_positions == [(4, 1)]
    state = state.successor("East")
    assert state.scared_timers == (40,) and state.score == -3 and state.capsules == 0


def test_eating_scared_ghost_when_pacman_moves_onto_it():
    layout = maze("%%%%%%%%\n"
                  "%Po  G.%\n"
                  "%%%%%%%%\n")
    state = play(GameState.initial(layout), "East", "West", "Stop", "West")
    assert state.ghost_positions == [(3, 1)] and state.scared_timers == (38,)
    assert state.directions[1] == "West"
    state = state.successor("East")
    assert state.score == -3 + 200 and state.outcome is None
    assert state.ghost_positions == [(5, 1)]          # back to its start
    assert state.scared_timers == (0,) and not state.is_scared(1)
    assert state.directions[1] == "Stop"
    assert state.pacman_position == (3, 1)


def test_eating_scared_ghost_when_it_moves_onto_pacman():
    layout = maze("%%%%%%%%\n"
                  "%Po  G.%\n"
                  "%%%%%%%%\n")
    state = play(GameState.initial(layout), "East", "West", "East")
    assert state.pacman_position == (3, 1) and state.ghost_positions == [(4, 1)]
    state = state.successor("West")   # the scared ghost walks into Pacman
    assert state.score == -2 + 200 and state.outcome is None
    assert state.ghost_positions == [(5, 1)]
    assert state.scared_timers == (0,) and state.directions[1] == "Stop"
    assert state.turn == 0


def test_eaten_ghost_may_then_go_any_way():
    layout = maze("%%%%%%%%\n"
                  "%Po  G.%\n"
                  "%%%%%%%%\n")
    state = play(GameState.initial(layout), "East", "West", "East", "West")
    state = state.successor("Stop")
    assert state.legal_actions() == ("East", "West")


def test_pacman_meets_ghosts_in_ghost_order_eating_and_dying():
    state = play(GameState.initial(TWO_GHOSTS), "East", "West", "West", "Stop", "West", "West")
    assert state.ghost_positions == [(3, 1), (5, 1)] and state.scared_timers == (38, 38)
    state = state.successor("East")                      # eats ghost 1 (+200)
    assert state.score == -3 + 200
    assert state.ghost_positions == [(5, 1), (5, 1)] and state.scared_timers == (0, 38)
    state = play(state, "West", "West")                   # both ghosts step onto (4, 1)
    assert state.ghost_positions == [(4, 1), (4, 1)] and state.scared_timers == (0, 37)
    state = state.successor("East")   # ghost 1 is dangerous again, ghost 2 still scared
    assert state.outcome == "loss"
    assert state.score == 197 - 1 - 500 + 200
    assert state.ghost_positions[1] == (7, 1)


def test_capsule_under_a_ghost_scares_it_before_they_meet():
    layout = maze("%%%%%%\n"
                  "%PoG.%\n"
                  "%%%%%%\n")
    state = play(GameState.initial(layout), "Stop", "West")   # ghost on the capsule
    state = state.successor("East")
    assert state.outcome is None and state.score == -2 + 200
    assert state.ghost_positions == [(3, 1)] and state.scared_timers == (0,)


def test_ghost_eaten_on_pacman_standing_at_its_start_reappears_under_him():
    # Each move resolves its own meeting: the scared ghost walks into Pacman and is eaten; it
    # goes back to its start, which is Pacman's cell, unscared. Nothing more happens on that
    # move; on Pacman's next move he meets it again if he stays (loss) and not if he leaves.
    layout = maze("%%%%%%%\n"
                  "%P.o.G%\n"
                  "%%%.%%%\n"
                  "%%%.%%%\n"
                  "%%%%%%%\n")
    state = build(layout, (5, 3), ghosts=[(4, 3)], directions=("East", "East"), scared=(5,),
                  score=0, turn=1)
    assert state.legal_actions() == ("East",)   # heading East, it may not turn back West
    state = state.successor("East")
    assert state.outcome is None and state.score == 200
    assert state.ghost_positions == [(5, 3)] == [state.pacman_position]
    assert state.scared_timers == (0,)
    stayed = state.successor("Stop")
    assert stayed.outcome == "loss" and stayed.score == 200 - 1 - 500
    left = state.successor("West")
    assert left.outcome is None and left.score == 200 - 1 + 10  # and eats the dot there


def test_timer_running_out_on_the_ghost_move_kills_pacman():
    layout = maze("%%%%%%%%\n"
                  "%P.  G.%\n"
                  "%%%%%%%%\n")
    one_left = build(layout, (3, 1), ghosts=[(4, 1)], directions=("West", "West"),
                     scared=(1,), score=50, turn=1)
    state = one_left.successor("West")
    assert state.outcome == "loss" and state.score == 50 - 500
    assert state.scared_timers == (0,)
    two_left = build(layout, (3, 1), ghosts=[(4, 1)], directions=("West", "West"),
                     scared=(2,), score=50, turn=1)
    state = two_left.successor("West")
    assert state.outcome is None and state.score == 50 + 200
    assert state.ghost_positions == [(5, 1)] and state.scared_timers == (0,)


def test_timer_counts_down_to_zero_and_stops_there():
    # Pacman's pocket is cut off from the ghost's loop: the ghost circles for 45 moves.
    layout = maze("%%%%%%%%\n"
                  "%Po%   %\n"
                  "%%%% % %\n"
                  "%%%%G .%\n"
                  "%%%%%%%%\n")
    state = play(GameState.initial(layout), "East")
    for move in range(1, 46):
        state = state.successor(state.legal_actions()[0])      # the ghost
        assert state.scared_timers == (max(SCARED_TIME - move, 0),)
        assert state.is_scared(1) == (move < 40)
        state = state.successor("Stop")
    assert state.score == -46


# --- ghost movement ---------------------------------------------------------------------------------
T_MAZE = maze("%%%%%%%\n"
              "%P . .%\n"
              "%%% %%%\n"
              "%%%G%%%\n"
              "%%%%%%%\n")


def test_ghost_cannot_stop_reverse_and_reverses_only_at_dead_ends():
    state = GameState.initial(T_MAZE)
    state = state.successor("Stop")
    assert state.legal_actions() == ("North",)                    # start: dead end
    state = state.successor("North")
    state = state.successor("Stop")
    assert state.legal_actions() == ("North",)                    # no reversing South
    state = play(state, "North", "Stop")
    assert state.ghost_positions == [(3, 3)]
    assert state.legal_actions() == ("East", "West")              # no going back South
    state = play(state, "East", "Stop")
    assert state.legal_actions() == ("East",)
    state = play(state, "East", "Stop")
    assert state.ghost_positions == [(5, 3)]
    assert state.legal_actions() == ("West",)                     # dead end: reverse allowed


@pytest.mark.parametrize("last, legal", [
    ("Stop", ("South", "East", "West")),      # first move (or just eaten): any way
    ("North", ("East", "West")),
    ("West", ("South", "West")),
    ("East", ("South", "East")),
    ("South", ("South", "East", "West")),     # came from the north: none of the moves reverses
])
def test_ghost_legal_actions_by_last_direction(last, legal):
    state = build(T_MAZE, (1, 3), ghosts=[(3, 3)], directions=("Stop", last), turn=1)
    assert state.legal_actions() == legal
    assert state.legal_actions(1) == legal
    for action in ("North", "South", "East", "West", "Stop"):
        if action in legal:
            assert state.successor(action).directions[1] == action
        else:
            with pytest.raises(IllegalActionError):
                state.successor(action)


def test_ghost_first_move_may_go_any_way():
    layout = maze("%%%%%%%\n"
                  "%P . .%\n"
                  "%%% %%%\n"
                  "%%% %%%\n"
                  "%%%%%%%\n")
    state = build(layout, (1, 3), ghosts=[(3, 2)], turn=1)
    assert state.legal_actions() == ("North", "South")


def test_ghosts_never_have_stop():
    state = GameState.initial(TWO_GHOSTS).successor("Stop")
    assert "Stop" not in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.successor("Stop")


# --- legal action order, illegal actions, terminal states ----------------------------------------
def test_pacman_legal_actions_are_listed_north_south_east_west_stop():
    layout = maze("%%%%%\n"
                  "%. .%\n"
                  "% P %\n"
                  "%. .%\n"
                  "%%%%%\n")
    state = GameState.initial(layout)
    assert state.legal_actions() == ("North", "South", "East", "West", "Stop")
    corner = maze("%%%%\n"
                  "%P.%\n"
                  "%. %\n"
                  "%%%%\n")
    assert GameState.initial(corner).legal_actions() == ("South", "East", "Stop")


@pytest.mark.parametrize("action", ["West", "North", "South", "Jump", "north", "", "STOP"])
def test_illegal_pacman_action_raises(action):
    state = GameState.initial(CORRIDOR)
    with pytest.raises(IllegalActionError):
        state.successor(action)


def test_terminal_states_have_no_moves():
    won = play(GameState.initial(CORRIDOR), "East", "East", "East")
    lost = GameState.initial(maze("%%%%%\n%PG.%\n%%%%%\n")).successor("East")
    for state in (won, lost):
        assert state.legal_actions() == ()
        assert state.successors() == []
        for agent in range(state.num_agents):
            assert state.legal_actions(agent) == ()
            with pytest.raises(GameOverError):
                state.successor("Stop", agent)
        with pytest.raises(GameOverError):
            state.successor("East")


def test_explicit_agent_move_passes_the_turn_to_the_next_agent():
    state = GameState.initial(TWO_GHOSTS)
    moved = state.successor("West", 2)   # ghost 2 moves out of turn
    assert moved.ghost_positions == [(5, 1), (6, 1)] and moved.turn == 0
    moved = state.successor("East", 1)
    assert moved.ghost_positions == [(6, 1), (7, 1)] and moved.turn == 2
    assert state.successor("Stop").turn == 1


def test_initial_state_fields():
    state = GameState.initial(TWO_GHOSTS, num_ghosts=1)
    assert state.num_agents == 2 and state.num_ghosts == 1
    assert state.positions == (TWO_GHOSTS.pacman_start, TWO_GHOSTS.ghost_starts[0])
    assert state.directions == ("Stop", "Stop") and state.scared_timers == (0,)
    assert state.food == TWO_GHOSTS.food and state.capsules == TWO_GHOSTS.capsules
    assert GameState.initial(TWO_GHOSTS, num_ghosts=0).num_agents == 1
    for bad in (3, -1):
        with pytest.raises(ValueError):
            GameState.initial(TWO_GHOSTS, num_ghosts=bad)


def test_states_are_immutable():
    state = GameState.initial(TWO_GHOSTS)
    with pytest.raises(AttributeError):
        state.score = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        state[6] = 5  # type: ignore[index]


# --- move cap ---------------------------------------------------------------------------------------
class StopPacman:
    def get_action(self, state):
        return "Stop"


class FirstLegal:
    def get_action(self, state):
        return state.legal_actions()[0]


def test_move_cap_ends_the_game_with_move_limit():
    result = run_game(CORRIDOR, [StopPacman()], max_moves=5)
    assert (result.outcome, result.moves, result.score) == ("move_limit", 5, -5)
    assert result.actions == ["Stop"] * 5 and result.failure is None


def test_move_cap_counts_pacman_moves_and_lets_the_round_finish():
    layout = maze("%%%%%%%%\n"
                  "%Po%   %\n"
                  "%%%% % %\n"
                  "%%%%G .%\n"
                  "%%%%%%%%\n")
    result = run_game(layout, [StopPacman(), FirstLegal()], max_moves=4)
    assert result.outcome == "move_limit" and result.moves == 4
    assert len(result.actions) == 8 and result.score == -4


def test_game_that_ends_before_the_cap_keeps_its_outcome():
    result = run_game(CORRIDOR, [EastPacman()], max_moves=3)
    assert (result.outcome, result.moves, result.score) == ("win", 3, 507)


class EastPacman:
    def get_action(self, state):
        return "East"

"""Outrunning the chase (:mod:`pacman.agents.chase_survival`): the check agrees with a brute-force
reference, proves a dead end a trap and a loop a way out, and the deepening agent's ``outrun``
vetoes a move into a trap its shallow search does not see, and only then."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pacman.agents import search_agents
from pacman.agents.chase_survival import (CheckBudget, chase_round, escapes_after, nearest_hunter_distance,
                                   outruns, veto_trap)
from pacman.agents.evaluation import EVALUATIONS
from pacman.agents.ghost_focus import chase_action
from pacman.agents.search_agents import IterativeDeepeningAgent
from pacman.errors import ConfigurationError
from pacman.engine.layout import load_layout
from pacman.lineup.build import lineup
from pacman.engine.layout import parse_layout
from pacman.engine.rules import legal_actions, successor
from pacman.engine.state import LOSS, GameState

# West: a dead end of dots, which the chasing ghost (2 steps below Pacman) closes behind him.
# East: a loop, on which one ghost of his speed never catches him, with the last dot.
DEAD_END_OR_LOOP = GameState.initial(parse_layout("""\
%%%%%%%%%%%%%%%
%.......P     %
%%%%%%%% %%%% %
%%%%%%%%G%%%%.%
%%%%%%%%      %
%%%%%%%%%%%%%%%"""))


def reference_outruns(state: GameState, rounds: int) -> bool:
    """Every Pacman line tried, nothing remembered: the definition of :func:`outruns`."""
    if state[8] is not None:
        return state[8] != LOSS
    if rounds == 0:
        return True
    return any(reference_outruns(chase_round(successor(state, action)), rounds - 1)
               for action in legal_actions(state, 0))


def ghosts_close_in(layout_name: str, seed: int) -> GameState:
    """Pacman to move on a random cell of the maze, each ghost on a random cell 2 to 4 steps
    from him, heading a random way, some ghosts scared: positions where the chase may win."""
    rng = random.Random(seed)
    start = GameState.initial(load_layout(layout_name))
    layout = start[0]
    pacman = rng.choice(layout.open_cells)
    near = [c for c in layout.open_cells if 2 <= layout.distance_rows[pacman][c] <= 4]
    ghosts = len(start[1]) - 1
    directions = ("Stop",) + tuple(rng.choice(["North", "South", "East", "West", "Stop"])
                                   for _ in range(ghosts))
    scared = tuple(rng.choice([0, 0, 0, 5]) for _ in range(ghosts))
    positions = (pacman, *(rng.choice(near) for _ in range(ghosts)))
    return GameState((layout, positions, directions, scared, *start[4:7], 0, None))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layout_name=st.sampled_from(["smallClassic", "mediumClassic", "originalClassic"]),
       seed=st.integers(0, 10_000), rounds=st.integers(1, 5))
def test_the_check_agrees_with_the_brute_force_reference(layout_name: str, seed: int,
                                                          rounds: int) -> None:
    state = ghosts_close_in(layout_name, seed)
    assert outruns(state, rounds, budget=10**6) == reference_outruns(state, rounds)


def test_the_reference_positions_are_caught_as_often_as_not() -> None:
    # The property above is only worth its examples if both answers are common among them.
    answers = [outruns(ghosts_close_in("originalClassic", seed), 5) for seed in range(60)]
    assert 10 <= answers.count(False) <= 50


def test_ghosts_chase_until_pacman_moves_again() -> None:
    after = chase_round(successor(DEAD_END_OR_LOOP, "West"))
    assert after.turn == 0
    cell_xy = DEAD_END_OR_LOOP[0].cell_xy
    (x, y), (x2, y2) = cell_xy[DEAD_END_OR_LOOP[1][1]], cell_xy[after[1][1]]
    assert (x2, y2) == (x, y + 1)  # one row up (North), towards Pacman
    state = successor(DEAD_END_OR_LOOP, "West")
    assert chase_action(state, 1, legal_actions(state, 1)) == "North"


def test_a_dead_end_is_a_trap_and_a_loop_a_way_out() -> None:
    assert escapes_after(DEAD_END_OR_LOOP, "West", rounds=20) is False
    assert escapes_after(DEAD_END_OR_LOOP, "East", rounds=20) is True
    assert outruns(DEAD_END_OR_LOOP, 200) is True
    # Too few rounds to close the trap: not yet a proof of capture.
    assert escapes_after(DEAD_END_OR_LOOP, "West", rounds=4) is True


def test_a_check_out_of_nodes_decides_nothing() -> None:
    assert escapes_after(DEAD_END_OR_LOOP, "West", rounds=20, budget=2) is None


def ticking_clock() -> Callable[[], float]:
    """A clock that advances one second each time it is read."""
    ticks = itertools.count()
    return lambda: float(next(ticks))


def test_a_check_out_of_time_decides_nothing_and_checks_share_their_budget() -> None:
    assert escapes_after(DEAD_END_OR_LOOP, "West", 20, CheckBudget(10**6, ticking_clock(), 3)) is None
    unhurried = CheckBudget(10**6, ticking_clock(), 10**6)
    assert escapes_after(DEAD_END_OR_LOOP, "West", 20, unhurried) is False
    spent = 10**6 - unhurried.nodes
    assert spent > 3
    assert escapes_after(DEAD_END_OR_LOOP, "West", 20, unhurried) is False
    assert 10**6 - unhurried.nodes == 2 * spent  # a second check draws on what the first left


def test_the_nearest_hunter_is_one_that_can_reach_pacman() -> None:
    # The first ghost is in a pocket of its own: its distance from Pacman is unknown (-1).
    state = GameState.initial(parse_layout("%%%%%%%%%%%\n%G %P   G %\n%%%%%%%%%%%"))
    assert state[0].distance_rows[state[1][0]][state[1][1]] < 0
    assert nearest_hunter_distance(state) == 4


def deepening(outrun: int) -> IterativeDeepeningAgent:
    # A depth limit instead of a time budget: the same search on any machine.
    return IterativeDeepeningAgent(0, random.Random(0), time_budget=100.0, max_depth=2,
                                   order="none", evaluation=EVALUATIONS["score"],
                                   outrun=outrun)


def test_the_veto_turns_pacman_away_from_a_trap_beyond_the_search() -> None:
    assert deepening(0).get_action(DEAD_END_OR_LOOP) == "West"  # two rounds see only dots
    vetoing = deepening(20)
    action = vetoing.get_action(DEAD_END_OR_LOOP)
    assert action != "West" and escapes_after(DEAD_END_OR_LOOP, action) is True
    assert vetoing.last.principal_variation == (action,)


def test_without_a_proof_the_search_move_stands() -> None:
    plain = deepening(0)
    plain.get_action(DEAD_END_OR_LOOP)
    result = plain.last
    assert veto_trap(DEAD_END_OR_LOOP, result, 4) is result  # the trap needs more rounds
    assert veto_trap(DEAD_END_OR_LOOP, result, 20, budget=2) is result
    escaping = dataclasses.replace(result, action="East", principal_variation=("East",))
    assert veto_trap(DEAD_END_OR_LOOP, escaping, 20) is escaping  # a move with a way out


def test_the_veto_gives_up_when_the_decision_is_out_of_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_agents, "OUTRUN_SHARE", -1.0)  # its deadline passed at once
    assert deepening(20).get_action(DEAD_END_OR_LOOP) == "West"


def test_a_position_with_no_way_out_keeps_the_search_move() -> None:
    # Between two ghosts in a corridor every line is caught: nothing to veto in favour of.
    state = GameState.initial(parse_layout("%%%%%%%%%%%\n%G.  P   G%\n%%%%%%%%%%%"))
    assert all(escapes_after(state, a) is False for a in legal_actions(state, 0))
    plain = deepening(0)
    plain.get_action(state)
    assert veto_trap(state, plain.last) is plain.last


def test_outrun_arrives_from_text_and_a_negative_count_is_refused() -> None:
    layout = load_layout("smallClassic")
    specs = lineup(layout, "deepening", "directional", pacman_options={"outrun": "20"})
    assert specs[0].build(0, random.Random(0)).outrun == 20
    with pytest.raises(ConfigurationError, match="outrun"):
        IterativeDeepeningAgent(0, outrun=-1)

"""The ``strong`` evaluation: its terms against a brute-force definition, and the behaviour it
is for on fixed positions (leave a dead end while a ghost approaches, count a capsule as a way
out, hunt a scared ghost only while it can be caught)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings

from pacman.agents.evaluation import EVALUATIONS
from pacman.agents.search_agents import AlphaBetaAgent
from pacman.agents.strong_evaluation import (CAPSULE, DANGER, DANGER_REACH, ESCAPE_ROOM, HUNT, RECOVERY,
                                      TRAPPED, strong)
from pacman.engine.layout import parse_layout
from pacman.engine.state import GameState
from tests.search.test_evaluation_tables import positions, reference_nearest


def reference_strong(state: GameState) -> float:
    """``strong`` computed from its definition over all pairs of maze distances."""
    if state[8] is not None:
        return state[6]
    layout, placed, scared = state[0], state[1], state[3]
    rows = layout.distance_rows
    me = rows[placed[0]]
    value = float(state[6])
    nearest = reference_nearest(state)
    if nearest is not None:
        value -= 9.0 * nearest / layout.diameter
    hunters = []
    for g in range(1, len(placed)):
        d, timer = me[placed[g]], scared[g - 1]
        if timer > d >= 0:
            value += HUNT / (d + 1)
        elif timer < RECOVERY:
            hunters.append(placed[g])
            if 0 <= d <= DANGER_REACH:
                value -= DANGER / (d + 1)
    if hunters:
        room = sum(1 for cell in layout.open_cells if me[cell] >= 0
                   and all(not 0 <= rows[h][cell] <= me[cell] for h in hunters))
        if room < ESCAPE_ROOM:
            way_out = any(me[c] >= 0 and all(not 0 <= rows[h][c] <= me[c] for h in hunters)
                          for c in layout.cells_of(state[5]))
            value -= TRAPPED / 4 if way_out else TRAPPED
    return value - CAPSULE * bin(state[5]).count("1")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_strong_matches_its_definition(state: GameState) -> None:
    assert strong(state) == pytest.approx(reference_strong(state))


def position(text: str, scared: tuple[int, ...] | None = None) -> GameState:
    """The start of a game on the maze ``text``, its ghosts' scared timers set to ``scared``."""
    state = GameState.initial(parse_layout(text.strip("\n")))
    if scared is not None:
        state = GameState((*state[:3], scared, *state[4:]))
    return state


# Pacman in a dead end (left) whose mouth a ghost is approaching, or in the open room.
IN_DEAD_END = """
%%%%%%%%%%%%%%
%...P  %     %
%%%%%% %     %
%%%%%%       %
%%%%%%% G    %
%%%%%%%%%%%%%%
"""
IN_THE_OPEN = """
%%%%%%%%%%%%%%
%...   %     %
%%%%%% % P   %
%%%%%%       %
%%%%%%% G    %
%%%%%%%%%%%%%%
"""
# The same dead end with a capsule at its far end: a way out that the ghost cannot reach first.
DEAD_END_WITH_CAPSULE = IN_DEAD_END.replace("%...P", "%o..P")
# At the mouth of the dead end (West leads in), a ghost one step from closing it: only East
# keeps a way out.
AT_THE_MOUTH = """
%%%%%%%%%%%%%%
%.....P      %
%%%%%%% G    %
%%%%%%%      %
%%%%%%%      %
%%%%%%%%%%%%%%
"""


def test_a_dead_end_with_a_ghost_approaching_is_worse_than_the_open() -> None:
    cornered, free = position(IN_DEAD_END), position(IN_THE_OPEN)
    assert strong(free) - strong(cornered) > TRAPPED / 2


def test_a_ghost_far_away_does_not_make_the_dead_end_a_trap() -> None:
    far = position(IN_DEAD_END.replace("%%%%%%% G    %", "%%%%%%%      %")
                   .replace("%     %\n%%%%%% %", "%    G%\n%%%%%% %"))
    near = position(IN_DEAD_END)
    assert strong(far) - strong(near) > TRAPPED / 2


def test_a_capsule_in_the_dead_end_is_a_way_out() -> None:
    with_capsule, without = position(DEAD_END_WITH_CAPSULE), position(IN_DEAD_END)
    # Better off despite the cost of a capsule left, but still worse than being in the open.
    assert strong(with_capsule) > strong(without) + TRAPPED / 2
    assert strong(with_capsule) < strong(position(IN_THE_OPEN))


def test_a_capsule_the_ghost_reaches_first_is_no_way_out() -> None:
    # The ghost is as far from the capsule as Pacman (two moves): a tie is the ghost's.
    ghost_below = IN_DEAD_END.replace("%%%%%%% G", "%%%%%%%  ").replace("%%%%%%       %",
                                                                        "%%%%%%G      %")
    blocked = position(ghost_below.replace("%...P  %", "%...P o%"))
    assert strong(blocked) == pytest.approx(reference_strong(blocked))
    capsule_free = position(ghost_below)
    assert strong(blocked) == pytest.approx(strong(capsule_free) - CAPSULE)


def test_a_scared_ghost_within_reach_is_hunted() -> None:
    ghost_at = 3  # maze distance from Pacman to the ghost in IN_THE_OPEN
    catchable = position(IN_THE_OPEN, scared=(ghost_at + 1,))
    too_late = position(IN_THE_OPEN, scared=(ghost_at,))
    hunting = position(IN_THE_OPEN, scared=(0,))
    assert catchable[0].distance_rows[catchable[1][0]][catchable[1][1]] == ghost_at
    assert strong(catchable) > strong(too_late) + HUNT / (ghost_at + 1) / 2
    # A ghost that recovers before Pacman could reach it is no prey; about to recover, it hunts.
    assert strong(position(IN_THE_OPEN, scared=(RECOVERY - 1,))) == strong(hunting)
    assert strong(position(IN_THE_OPEN, scared=(RECOVERY,))) > strong(hunting)


def test_a_finished_game_is_worth_its_score() -> None:
    state = position(IN_DEAD_END)
    over = GameState((*state[:6], 321, 0, "loss"))
    assert strong(over) == 321


def test_strong_is_a_registered_evaluation() -> None:
    assert EVALUATIONS["strong"].function is strong


def test_the_search_leaves_the_dead_end_mouth_when_a_ghost_approaches() -> None:
    state = position(AT_THE_MOUTH)
    for depth in (1, 2, 3):
        agent = AlphaBetaAgent(0, random.Random(0), depth=depth, evaluation=EVALUATIONS["strong"])
        assert agent.get_action(state) == "East", depth

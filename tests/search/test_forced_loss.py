"""Resisting a forced loss: when the deepest iteration sees a capture whatever Pacman does, the
deepening agent with ``resist`` plays the move that holds out longest instead of the one that
dies soonest."""

from __future__ import annotations

import random

import pytest

from pacman.agents.evaluation import EVALUATIONS
from pacman.agents.forced_loss import line_loses, longest_resistance
from pacman.agents.search.result import SearchResult
from pacman.agents.search_agents import IterativeDeepeningAgent
from pacman.engine.layout import parse_layout
from pacman.engine.state import GameState


def corridor(middle: str) -> GameState:
    wall = "%" * len(middle)
    return GameState.initial(parse_layout(f"{wall}\n{middle}\n{wall}"))


# West eats the dot and meets the left ghost at once (the score is then 10 higher than for any
# later capture); East holds out for rounds between the two ghosts, which may err meanwhile.
SUICIDE_OR_RUN = corridor("%G.P       .G%")


def deepening(resist: bool, evaluation: str = "strong") -> IterativeDeepeningAgent:
    # A generous time budget with a depth limit: the search is the same on any machine.
    return IterativeDeepeningAgent(0, random.Random(0), time_budget=100.0, max_depth=8,
                                   order="none", evaluation=EVALUATIONS[evaluation],
                                   resist=resist)


@pytest.mark.parametrize("evaluation", ["strong", "better"])
def test_without_resisting_the_worst_case_search_walks_into_the_ghost(evaluation: str) -> None:
    agent = deepening(False, evaluation)
    assert agent.get_action(SUICIDE_OR_RUN) == "West"
    assert line_loses(SUICIDE_OR_RUN, agent.last.principal_variation)


@pytest.mark.parametrize("evaluation", ["strong", "better"])
def test_resisting_plays_the_move_that_holds_out(evaluation: str) -> None:
    agent = deepening(True, evaluation)
    assert agent.get_action(SUICIDE_OR_RUN) == "East"
    assert agent.last.stats.depth_reached == 8  # the same deepest iteration decided


def test_a_position_that_is_not_lost_is_played_as_without_resisting() -> None:
    # One ghost on a loop never catches Pacman, who can always run on around it.
    state = GameState.initial(parse_layout("%%%%%%%\n%P... %\n% %%% %\n%    G%\n%%%%%%%"))
    plain, resisting = deepening(False), deepening(True)
    assert resisting.get_action(state) == plain.get_action(state)
    assert not line_loses(state, plain.last.principal_variation)


def test_line_loses_follows_the_line_to_its_end() -> None:
    assert line_loses(SUICIDE_OR_RUN, ["West", "East"])  # Pacman steps West, the ghost East
    assert not line_loses(SUICIDE_OR_RUN, ["West"])
    assert not line_loses(SUICIDE_OR_RUN, ["East", "East", "West"])
    assert not line_loses(SUICIDE_OR_RUN, [])


def test_with_every_iteration_lost_the_deepest_result_stands() -> None:
    lost = deepening(False)
    lost.get_action(SUICIDE_OR_RUN)
    result = lost.last
    assert isinstance(result, SearchResult)
    assert longest_resistance(SUICIDE_OR_RUN, result, [result, result]) is result
    assert longest_resistance(SUICIDE_OR_RUN, result, []) is result

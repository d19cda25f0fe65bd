"""A node budget: iterative deepening stopped by a number of generated states, not seconds."""

from __future__ import annotations

import pytest

from pacman.agents.evaluation import better
from pacman.agents.pacman_game import PacmanGame
from pacman.agents.search import iterative_deepening
from pacman.agents.search.nodes import CHECK_EVERY
from pacman.engine.layout import load_layout
from pacman.engine.state import GameState


def search(budget):
    state = GameState.initial(load_layout("mediumClassic"))
    return iterative_deepening(PacmanGame(better), state, max_depth=12, node_budget=budget,
                               table=False, reorder="none")


def test_a_node_budget_stops_the_search_after_the_same_states_on_every_run():
    first, second = search(4_000), search(4_000)
    assert (first.action, first.value, first.stats.nodes_generated, first.stats.depth_reached) == \
           (second.action, second.value, second.stats.nodes_generated, second.stats.depth_reached)
    assert first.stats.depth_reached < 12


def test_a_larger_node_budget_searches_deeper_and_spends_about_its_budget():
    small, large = search(2_000), search(40_000)
    assert small.stats.depth_reached < large.stats.depth_reached
    for budget, result in ((2_000, small), (40_000, large)):
        assert result.stats.nodes_generated <= budget + 2 * CHECK_EVERY


def test_a_node_budget_and_a_time_budget_exclude_each_other():
    state = GameState.initial(load_layout("smallClassic"))
    with pytest.raises(ValueError):
        iterative_deepening(PacmanGame(better), state, node_budget=1_000, time_budget=1.0)

"""The generation hook of a search: the clock is read every CHECK_EVERY generated states and a
passed deadline stops the search there, with the counts of what was done; a deadline that has
not passed changes nothing."""

from __future__ import annotations

import pytest

from pacman.agents.search.algorithms import algorithm_config
from pacman.agents.search.core import SearchTimeout, run_search
from pacman.agents.search.nodes import CHECK_EVERY
from pacman.agents.search.result import Counters
from pacman.agents.search.synthetic import UniformTree

GAME = UniformTree(3, 8, seed=5)  # 9,841 states: many more than CHECK_EVERY


@pytest.mark.parametrize("name", ["minimax", "alphabeta", "expectimax"])
def test_a_passed_deadline_stops_the_search_at_the_first_look_at_the_clock(name):
    looks = []

    def clock():
        looks.append(None)
        return 1.0

    counters = Counters()
    cfg = algorithm_config(name, deadline=0.5, clock=clock)
    with pytest.raises(SearchTimeout):
        run_search(GAME, GAME.root, cfg, counters=counters)
    assert counters.generated == CHECK_EVERY  # the root and the states after it, then the look
    assert len(looks) == 2  # run_search's start, then the one look that found the deadline passed


@pytest.mark.parametrize("name", ["minimax", "alphabeta", "expectimax"])
@pytest.mark.parametrize("trace", [False, True])
def test_a_deadline_not_reached_changes_no_value_and_no_count(name, trace):
    free = run_search(GAME, GAME.root, algorithm_config(name, trace=trace))
    timed = run_search(GAME, GAME.root, algorithm_config(name, trace=trace, deadline=10.0,
                                                         clock=lambda: 0.0))
    assert (timed.value, timed.action) == (free.value, free.action)
    assert timed.stats.nodes_generated == free.stats.nodes_generated
    assert timed.stats.generated == free.stats.generated
    assert timed.stats.evaluated == free.stats.evaluated

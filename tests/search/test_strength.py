"""Strength of the strongest setting's ingredients over whole seeded games.

The strongest setting (docs/strongest-pacman.md) searches under a CPU-time budget, so its games
depend on the machine. Here the same search is bounded by depth instead (``max_depth`` with a time budget it
never reaches), which makes every game a pure function of its seed: iterative-deepening
alpha-beta to five rounds with the ``strong`` evaluation and ``resist=true`` against two
directional ghosts on ``smallClassic``. The reduced version plays two games; the ``slow`` one
twenty. The setting's ``focus`` is left out: it buys depth under a time budget and plays worse
at an equal depth, so a depth-bounded game would not show it.
"""

from __future__ import annotations

import gc
import random

import pytest

from pacman.agents.evaluation import EVALUATIONS
from pacman.agents.search_agents import IterativeDeepeningAgent
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout
from pacman.lineup.build import lineup
from pacman.engine.state import GameState

STRONG = {"time_budget": "1000", "max_depth": "5", "order": "none", "evaluation": "strong",
          "resist": "true"}
#: a one-round search on the game score: the weak end of the scale, for contrast
WEAK = {"time_budget": "1000", "max_depth": "1", "order": "none", "evaluation": "score"}


def wins(options: dict[str, str], seeds: range) -> int:
    layout = load_layout("smallClassic")
    won = 0
    for seed in seeds:
        specs = lineup(layout, "deepening", "directional", pacman_options=options)
        won += run_game(layout, specs, seed=seed).outcome == "win"
    return won


def test_the_strong_search_wins_two_seeded_games_the_weak_one_loses() -> None:
    assert wins(STRONG, range(2)) == 2
    assert wins(WEAK, range(2)) == 0


@pytest.mark.slow
def test_the_strong_search_wins_seventeen_of_twenty_seeded_games() -> None:
    assert wins(STRONG, range(20)) >= 17
    assert wins(WEAK, range(20)) <= 5


@pytest.mark.parametrize("enabled", [True, False])
def test_the_deepening_search_leaves_the_collector_as_it_found_it(enabled: bool) -> None:
    """The search pauses the garbage collector (a full collection would overrun its time
    budget) and restores it afterwards."""
    state = GameState.initial(load_layout("smallClassic"))
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        seen = []
        agent = IterativeDeepeningAgent(0, random.Random(0), time_budget=1000, max_depth=2,
                                         evaluation=EVALUATIONS["strong"])
        agent.game.evaluation = lambda s, inner=agent.game.evaluation: (
            seen.append(gc.isenabled()), inner(s))[1]
        agent.get_action(state)
        assert seen and not any(seen)  # paused while searching
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()

"""Strength of the strongest setting's ingredients over whole seeded games.

The README's strongest setting searches under a CPU-time budget, so its games depend on the
machine. Here the same search is bounded by depth instead (``max_depth`` with a time budget it
never reaches), which makes every game a pure function of its seed: iterative-deepening
alpha-beta to five rounds with the ``strong`` evaluation and ``resist=true`` against two
directional ghosts on ``smallClassic``. The reduced version plays two games; the ``slow`` one
twenty.
"""

from __future__ import annotations

import pytest

from pacman.game_loop import run_game
from pacman.layout import load_layout
from pacman.lineup import lineup

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

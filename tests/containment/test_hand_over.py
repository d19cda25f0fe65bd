"""A contained agent receives the game's states as they are (class, maze, fields) and its
answers arrive as sent, through the compact messages of a move."""

from __future__ import annotations

from pathlib import Path

import pytest

from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout
from pacman.lineup.build import lineup
from pacman.engine.outcome import Outcome

AGENTS = Path(__file__).with_name("wing_agents.py")


@pytest.mark.parametrize(("rules", "kind"), [("default", "GameState"),
                                             ("classic", "ClassicSpeedState")])
def test_an_agent_sees_the_games_states_with_their_class_and_maze(rules, kind):
    layout = load_layout("small_classic")
    specs = lineup(layout, f"{AGENTS}:ReportsItsStates", "directional")
    result = run_game(layout, specs, seed=5, max_moves=6, rules=rules)
    assert result.failure is None, result.failure
    seen = result.agent_stats[0]["seen"]
    assert len(seen) == result.decisions[0] == 6
    assert {entry[0] for entry in seen} == {kind}
    assert all(entry[1] == layout.name and entry[2] == layout.text for entry in seen)
    # the positions of the first state are the maze's starts; scores and turns as played
    assert seen[0][3] == [layout.pacman_start, *layout.ghost_starts]
    assert [entry[6] for entry in seen] == [0] * 6


def test_an_action_that_is_not_text_in_utf8_is_an_illegal_move_not_a_crash():
    layout = load_layout("small_classic")
    specs = lineup(layout, f"{AGENTS}:UnencodableAction", "directional")
    result = run_game(layout, specs, seed=5, max_moves=6)
    assert result.outcome == Outcome.ILLEGAL
    assert "\\ud800" in result.failure.message

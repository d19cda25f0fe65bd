"""``explore_decision`` takes what ``lineup(...)`` builds, and the explorer's documented example
keeps the ghosts it means."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pacman.display.search_decision import explore_decision
from pacman.errors import ConfigurationError
from pacman.engine.game import replay_states
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout
from pacman.lineup.build import lineup

DOCS = Path(__file__).resolve().parents[2] / "docs" / "search-explorer.md"


def test_explore_decision_takes_a_lineup_a_spec_or_an_agent():
    layout = load_layout("small_classic")
    agents = lineup(layout, "alphabeta", "directional", pacman_options={"depth": "2"})
    result = run_game(layout, agents, seed=7, max_moves=6)
    state = list(replay_states(result))[3]
    assert state.turn == 0
    whole = explore_decision(agents, state, title="move 2")
    spec = explore_decision(agents[0], state, title="move 2")
    agent = explore_decision(agents[0].build(0, None), state, title="move 2")
    assert whole.trace["action"] == spec.trace["action"] == agent.trace["action"]
    assert whole.trace["counts"] == agent.trace["counts"]
    with pytest.raises(ConfigurationError, match="only the minimax, alphabeta"):
        explore_decision(lineup(layout, "greedy", "directional"), state, title="x")
    with pytest.raises(ConfigurationError, match="empty lineup"):
        explore_decision([], state, title="x")


def test_the_documented_recording_names_its_ghosts():
    """``-l smallClassic`` alone plays the classic random ghosts; the example says which."""
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        if re.match(r"pacman-arena play .*--record", line):
            assert re.search(r"\s(-g|--ghosts)\s+\w+", line), line

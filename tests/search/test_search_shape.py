"""Two options that shape the deepening agent's tree: ``chase_first`` (a ghost's moves nearest
Pacman first: the same values from fewer nodes) and ``stopless_rounds`` (no Stop for Pacman in
the last rounds before the search's horizon)."""

from __future__ import annotations

import random

import pytest

from agents.evaluation import EVALUATIONS
from agents.ghost_focus import chasing_first
from agents.pacman_game import PacmanGame
from agents.pacman_search import PacmanSearch
from agents.search import alphabeta, iterative_deepening, minimax
from pacman.layout import load_layout
from pacman.lineup import lineup
from pacman.rules import legal_actions
from pacman.state import GameState
from tests.search.test_ghost_focus import MAZE, ghost_turn
from tests.search.test_pacman_fast_path import turns


def test_a_chasing_ghost_tries_the_move_towards_pacman_first() -> None:
    state = ghost_turn(MAZE)
    actions = legal_actions(state, 1)
    assert actions[0] != "West"  # the engine's order would try a dead end first
    ordered = chasing_first(state, 1, actions)
    assert ordered[0] == "West" and sorted(ordered) == sorted(actions)


def test_a_scared_ghost_tries_the_move_away_first() -> None:
    state = ghost_turn(MAZE, scared=10)
    ordered = chasing_first(state, 1, legal_actions(state, 1))
    assert ordered[-1] == "West"
    assert ordered[0] == next(a for a in legal_actions(state, 1) if a != "West")  # ties: in order


@pytest.mark.parametrize("layout", ["smallClassic", "mediumClassic"])
def test_chasing_first_keeps_every_value_and_prunes_more(layout: str) -> None:
    plain = PacmanGame(EVALUATIONS["strong"])
    chasing = PacmanGame(EVALUATIONS["strong"], chase_first=True)
    nodes = {plain: 0, chasing: 0}
    for state in turns(layout, 4, 6):
        values = set()
        for game in (plain, chasing):
            result = alphabeta(game, state, depth=4)
            values.add((result.value, result.action))  # the other root values are bounds
            nodes[game] += result.stats.nodes_generated
        assert len(values) == 1
        assert minimax(chasing, state, depth=2).value == alphabeta(chasing, state, depth=2).value
    assert nodes[chasing] < nodes[plain]  # by 2-22 % at depths 4-5 on these positions


def test_pacman_stops_only_where_more_rounds_than_the_stopless_ones_are_left(monkeypatch) -> None:
    """With ``stopless_rounds=2`` a search of 4 rounds offers Pacman Stop at the root (4 rounds
    left) and below it with 3 rounds left, never in the last two rounds; with 0, everywhere.
    What the search offered is recorded from its own ``moves``."""
    offered: list[tuple[int, bool]] = []
    moves = PacmanSearch.moves

    def recording(self, state, turn, rounds_left):
        actions = moves(self, state, turn, rounds_left)
        if turn == 0:
            offered.append((rounds_left, "Stop" in actions))
        return actions

    monkeypatch.setattr(PacmanSearch, "moves", recording)
    state = turns("smallClassic", 7, 1)[0]
    for stopless, stopping in ((0, {4, 3, 2, 1}), (2, {4, 3})):
        offered.clear()
        game = PacmanGame(EVALUATIONS["strong"], stopless_rounds=stopless)
        result = alphabeta(game, state, depth=4)
        assert "Stop" in result.root_values
        assert {left for left, _ in offered} == {3, 2, 1}  # Pacman nodes below the root
        assert {left for left, stop in offered if stop} == stopping - {4}
        assert not any(stop for left, stop in offered if left not in stopping)


def test_stopless_rounds_keep_stop_at_the_root_and_cut_the_tree() -> None:
    plain = PacmanGame(EVALUATIONS["strong"], focus="horizon")
    stopless = PacmanGame(EVALUATIONS["strong"], focus="horizon", stopless_rounds=3)
    nodes = {plain: 0, stopless: 0}
    for state in turns("smallClassic", 7, 5):
        for game in (plain, stopless):
            result = iterative_deepening(game, state, max_depth=5, reorder="all")
            assert "Stop" in result.root_values
            nodes[game] += result.stats.nodes_generated
    assert nodes[stopless] < 0.8 * nodes[plain]


def test_stopless_rounds_are_refused_where_they_cannot_apply() -> None:
    with pytest.raises(ValueError, match="stopless_rounds"):
        PacmanGame(EVALUATIONS["strong"], stopless_rounds=-1)

    class Subclass(PacmanGame):
        pass

    with pytest.raises(ValueError, match="stopless_rounds"):
        Subclass(EVALUATIONS["strong"], stopless_rounds=2)


def test_the_options_reach_the_agent_from_text() -> None:
    layout = load_layout("smallClassic")
    options = {"time_budget": "10", "max_depth": "3", "order": "none", "evaluation": "strong",
               "focus": "horizon", "chase_first": "true", "stopless_rounds": "2"}
    agent = lineup(layout, "deepening", "directional", pacman_options=options)[0].build(
        0, random.Random(0))
    assert agent.game.chase_first and agent.game.stopless_rounds == 2
    assert agent.get_action(GameState.initial(layout)) in legal_actions(
        GameState.initial(layout), 0)

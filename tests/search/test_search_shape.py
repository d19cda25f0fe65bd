"""Two options that shape the deepening agent's tree: ``chase_first`` (a ghost's moves nearest
Pacman first: the same values from fewer nodes) and ``pacman_stops=false`` (Pacman does not
stop where he can move: in the tree and so in play)."""

from __future__ import annotations

import random

import pytest

from agents.evaluation import EVALUATIONS
from agents.ghost_focus import chasing_first
from agents.ghosts import DirectionalGhost
from agents.pacman_game import PacmanGame
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


def test_without_stops_pacman_is_offered_every_move_but_stop() -> None:
    game = PacmanGame(EVALUATIONS["better"], pacman_stops=False)
    for state in turns("smallClassic", 7, 5):
        legal = legal_actions(state, 0)
        assert "Stop" in legal
        assert list(game.actions(state)) == [a for a in legal if a != "Stop"]
        result = iterative_deepening(game, state, max_depth=3, reorder="all")
        assert "Stop" not in result.root_values and result.action != "Stop"


def test_a_pacman_that_does_not_stop_never_stops_in_a_game() -> None:
    layout = load_layout("smallClassic")
    options = {"time_budget": "10", "max_depth": "3", "order": "none", "evaluation": "strong",
               "resist": "true", "focus": "horizon", "outrun": "20", "chase_first": "true",
               "pacman_stops": "false"}
    agent = lineup(layout, "deepening", "directional", pacman_options=options)[0].build(
        0, random.Random(0))
    assert agent.game.chase_first and not agent.game.pacman_stops
    state = GameState.initial(layout)
    ghosts = [DirectionalGhost(i, random.Random(i)) for i in (1, 2)]
    moves = []
    while state.outcome is None and len(moves) < 60:
        moves.append(agent.get_action(state))
        state = state.successor(moves[-1])
        for ghost in ghosts:
            if state.outcome is None:
                state = state.successor(ghost.get_action(state))
    assert len(moves) >= 30 and "Stop" not in moves

"""The classic-API layer: the GameState wrapper, the import aliases, the agent adapter."""

from __future__ import annotations

from pathlib import Path

import pytest

from pacman.compat import util
from pacman.compat.loader import classic_imports, is_classic_source
from pacman.compat.state import GameState as ClassicState
from pacman.errors import GameOverError
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout
from pacman.lineup.build import agent_spec, lineup
from pacman.lineup.plugins import resolve
from pacman.engine.state import GameState

ZOO = Path(__file__).resolve().parent / "zoo"


def test_wrapper_answers_the_classic_methods_from_the_engine_state():
    state = GameState.initial(load_layout("small_classic"))
    classic = ClassicState(state)
    assert classic.getLegalActions(0) == list(state.legal_actions(0))
    assert classic.getNumAgents() == state.num_agents == 3
    assert classic.getPacmanPosition() == state.pacman_position
    assert classic.getGhostPositions() == state.ghost_positions
    assert [g.getPosition() for g in classic.getGhostStates()] == state.ghost_positions
    assert classic.getGhostStates()[0].scaredTimer == 0
    food = classic.getFood()
    assert sorted(food.asList()) == sorted(state.food_positions) and food.count() == state.food_count
    x, y = state.food_positions[0]
    assert food[x][y] and classic.hasFood(x, y)
    assert classic.getWalls()[0][0] and classic.getCapsules() == state.capsule_positions
    action = classic.getLegalActions(0)[0]
    child = classic.generateSuccessor(0, action)
    assert child.engine == state.successor(action, 0) and classic.engine is state
    assert child.getScore() == state.successor(action, 0).score and not child.isWin()
    with pytest.raises(AttributeError):
        classic.engine = None


def test_no_successor_of_a_terminal_state():
    state = GameState.initial(load_layout("tiny"))
    while state.outcome is None:
        state = state.successor(state.legal_actions()[0])
    with pytest.raises(GameOverError):
        ClassicState(state).generateSuccessor(0, "Stop")


def test_util_helpers():
    assert util.manhattanDistance((1, 2), (4, 0)) == 5
    c = util.Counter()
    c["a"] += 2
    c["b"] = 5
    assert c["z"] == 0 and c.argMax() == "b" and c.totalCount() == 7
    q = util.PriorityQueue()
    for item, p in (("x", 3), ("y", 1), ("z", 2)):
        q.push(item, p)
    assert [q.pop() for _ in range(3)] == ["y", "z", "x"]


def test_classic_files_are_recognised_and_imports_are_restored():
    assert is_classic_source(ZOO / "correct_classic.py")
    assert not is_classic_source(ZOO / "correct_native.py")
    import sys

    before = sys.modules.get("util")
    with classic_imports():
        import util as aliased  # noqa: F401

        assert aliased is util
    assert sys.modules.get("util") is before


def test_classic_agents_play_normal_games_unchanged_and_deterministically():
    layout = load_layout("small_classic")
    spec = agent_spec(f"{ZOO / 'correct_classic.py'}:ReflexAgent", "pacman")
    ghosts = lineup(layout, "random", "random")[1:]
    first = run_game(layout, [spec, *ghosts], seed=3, max_moves=200)
    again = run_game(layout, [spec, *ghosts], seed=3, max_moves=200)
    assert first.failure is None and first.actions == again.actions
    search = agent_spec(f"{ZOO / 'correct_classic.py'}:ExpectimaxAgent", "pacman", {"depth": "1"})
    assert run_game(layout, [search, *ghosts], seed=1, max_moves=50).failure is None


def test_classic_evaluation_functions_take_engine_states():
    evaluation = resolve(f"{ZOO / 'correct_classic.py'}:betterEvaluationFunction", {}, "evaluation function")
    state = GameState.initial(load_layout("small_classic"))
    assert isinstance(evaluation(state), float)

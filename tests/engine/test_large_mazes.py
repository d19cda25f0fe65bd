"""Large mazes: distance rows on demand agree with the full table, stay within their cache,
and a 200x200 maze plays; a searching Pacman's work per move is bounded by its node budget."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacman.agents.basic import RandomPacman
from pacman.agents.bounded import bounded_expectimax, estimated_nodes
from pacman.agents.ghosts import DirectionalGhost, RandomGhost
from pacman.agents.search_agents import DEFAULT_NODE_BUDGET, AlphaBetaAgent, ExpectimaxAgent
from pacman.engine.distances import LazyRows, diameter, full_rows
from pacman.engine.game import replay_states
from pacman.engine.game_loop import run_game
from pacman.engine.layout import FULL_TABLE_CELLS, load_layout, parse_layout
from pacman.lineup.build import lineup
from pacman.engine.state import GameState

from .mazes import big_maze


def test_small_mazes_keep_the_full_table_and_large_ones_get_rows_on_demand():
    small = parse_layout(big_maze(20, 20))
    large = parse_layout(big_maze(60, 40))
    assert small.width * small.height <= FULL_TABLE_CELLS < large.width * large.height
    assert not small.lazy_distances and isinstance(small.distance_rows, tuple)
    assert isinstance(small.distances, np.ndarray)
    assert large.lazy_distances and isinstance(large.distance_rows, LazyRows)
    assert large.distance_rows.cached == 0  # nothing is searched before it is asked for


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_lazy_rows_and_tables_agree_with_the_full_table(seed):
    lazy_rows_agree_with_the_full_table(seed)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_lazy_rows_and_tables_agree_with_the_full_table_on_many_mazes(seed):
    lazy_rows_agree_with_the_full_table(seed)


def lazy_rows_agree_with_the_full_table(seed: int) -> None:
    """Rows searched on demand, the distance table and the maze distance of a random 60x40
    maze equal the table searched out from every cell."""
    layout = parse_layout(big_maze(60, 40, seed=seed), name=f"lazy{seed}")
    size = layout.width * layout.height
    full = full_rows(layout.adjacency, layout.open_cells, size)
    rng = random.Random(seed)
    columns = np.array(layout.open_cells)
    for cell in rng.sample(range(size), 12):
        assert tuple(layout.distance_rows[cell]) == full[cell]
        assert layout.distances[cell, columns[0]] == full[cell][columns[0]]
        assert list(layout.distances[cell]) == list(full[cell])
        expected = np.array(full[cell])[columns]
        expected[expected == -1] = size
        assert list(layout.open_distances[cell]) == list(expected)
    a, b = layout.xy(layout.pacman_start), layout.xy(layout.ghost_starts[0])
    assert layout.maze_distance(a, b) == full[layout.pacman_start][layout.ghost_starts[0]]


def test_lazy_rows_are_read_only_and_the_cache_is_bounded(monkeypatch):
    import pacman.engine.distances as distances

    monkeypatch.setattr(distances, "ROW_CACHE_BYTES", 0)  # the 64-row floor applies
    rows = LazyRows(parse_layout(big_maze(60, 40)).adjacency, 60 * 40)
    for cell in range(60 * 40):
        rows[cell]
    assert rows.cached == 64
    with pytest.raises(TypeError):
        rows[61][0] = 5
    with pytest.raises(IndexError):
        rows[60 * 40]
    with pytest.raises(ValueError):
        np.frombuffer(rows[61], np.int32).setflags(write=True)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), width=st.integers(4, 24), height=st.integers(4, 16))
def test_diameter_is_exact_when_searched_out_and_close_within_its_budget(seed, width, height):
    layout = parse_layout(big_maze(width, height, ghosts=0, seed=seed))
    size = width * height
    rows = full_rows(layout.adjacency, layout.open_cells, size)
    true = max(max(row) for row in rows)
    assert diameter(rows, layout.adjacency, layout.open_cells, size, budget=10**9) == true
    bounded = diameter(rows, layout.adjacency, layout.open_cells, size, budget=3)
    assert true / 2 <= bounded <= true


def _plays(width: int, height: int, moves: int) -> None:
    layout = parse_layout(big_maze(width, height), name=f"big{width}")
    agents = [RandomPacman(0, random.Random(1))] + [
        RandomGhost(i, random.Random(i)) for i in range(1, layout.num_ghosts + 1)]
    result = run_game(layout, agents, seed=1, max_moves=moves)
    assert result.moves == moves or result.outcome in ("win", "loss")
    assert list(replay_states(result))[-1][6] == result.score
    ghosts = [DirectionalGhost(i, random.Random(i)) for i in range(1, layout.num_ghosts + 1)]
    assert run_game(layout, agents[:1] + ghosts, seed=2, max_moves=5).outcome


def test_a_large_maze_plays_random_and_directional_games():
    _plays(80, 60, 50)


@pytest.mark.slow
def test_a_200x200_maze_plays_random_and_directional_games():
    _plays(200, 200, 50)


def test_estimated_nodes_bounds_the_full_width_tree():
    state = GameState.initial(parse_layout(big_maze(20, 12, ghosts=2), name="est"))
    result = ExpectimaxAgent(0, random.Random(0), depth=2).search(state)
    assert result.stats.nodes_generated <= estimated_nodes(state, 2) * 3  # deeper rounds vary


def test_the_budget_changes_nothing_when_the_tree_fits():
    state = GameState.initial(parse_layout(big_maze(20, 12, ghosts=2), name="fits"))
    plain = ExpectimaxAgent(0, random.Random(0), depth=2).search(state)
    bounded = ExpectimaxAgent(0, random.Random(0), depth=2, node_budget=10**7).search(state)
    assert (bounded.action, bounded.value, bounded.root_values) == (
        plain.action, plain.value, plain.root_values)


@pytest.mark.parametrize("budget", [300, 3000])
def test_eight_ghosts_are_searched_within_the_budget_and_deterministically(budget):
    layout = parse_layout(big_maze(30, 20, ghosts=8), name="eight")
    state = GameState.initial(layout)
    agent = ExpectimaxAgent(0, random.Random(0), depth=2, node_budget=budget)
    assert estimated_nodes(state, 2) > budget
    first = agent.search(state)
    assert first.stats.nodes_generated <= budget + 2 * 256 + 5
    assert first.action in state.legal_actions()
    again = ExpectimaxAgent(0, random.Random(0), depth=2, node_budget=budget).search(state)
    assert (again.action, again.stats.nodes_generated) == (first.action,
                                                           first.stats.nodes_generated)


def test_the_default_pacman_bounds_its_work_unless_told_otherwise():
    """The agent itself bounds a default-depth search (no option injected by the line-up), and
    the options it lists are the ones that run."""
    layout = parse_layout(big_maze(30, 20, ghosts=8), name="lineup")

    def built(options=None):
        return lineup(layout, "expectimax", "directional", pacman_options=options)[0].build(
            0, random.Random(0))

    assert lineup(layout, "expectimax", "directional")[0].options == {}
    assert (built().depth, built().node_budget) == (2, DEFAULT_NODE_BUDGET)
    assert built({"node_budget": "0"}).node_budget == 0
    assert (built({"depth": "3"}).depth, built({"depth": "3"}).node_budget) == (3, 0)
    assert built({"depth": "3", "node_budget": "500"}).node_budget == 500


def test_bounded_expectimax_on_a_finished_game_returns_no_move():
    layout = parse_layout(big_maze(30, 20, ghosts=8), name="over")
    state = GameState.initial(layout)
    ended = GameState(tuple(state)[:8] + ("loss",))
    agent = ExpectimaxAgent(0, random.Random(0), node_budget=100)
    result = bounded_expectimax(agent.game, ended, 2, 100, agent.game.evaluate)
    assert result.action is None


def test_the_default_pacman_bounds_its_work_with_eight_ghosts_and_not_on_the_default_maze():
    from pacman.cli.play import DEFAULT_PACMAN, DEFAULT_PACMAN_OPTIONS

    budget = int(DEFAULT_PACMAN_OPTIONS["node_budget"])
    crowded = GameState.initial(parse_layout(big_maze(30, 20, ghosts=8), name="crowded"))
    agent = lineup(crowded.layout, DEFAULT_PACMAN, "directional",
                   pacman_options=DEFAULT_PACMAN_OPTIONS)[0].build(0, random.Random(0))
    result = agent.search(crowded)
    assert result.stats.nodes_generated <= budget + 2 * 256 + 5
    assert result.action in crowded.legal_actions()
    default = GameState.initial(load_layout("small_classic"))
    plain = AlphaBetaAgent(0, random.Random(0), depth=3).search(default)
    bounded = lineup(default.layout, DEFAULT_PACMAN, "directional",
                     pacman_options=DEFAULT_PACMAN_OPTIONS)[0].build(0, random.Random(0))
    assert bounded.search(default).action == plain.action

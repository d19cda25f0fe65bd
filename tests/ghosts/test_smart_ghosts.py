"""The ghosts that think: their choices against a brute-force minimax, their mixtures, and the
territory measure of the team, on positions from every maze with ghosts."""

from __future__ import annotations

import random
from collections import Counter, deque

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pacman.agents.evaluation import pacman_territory
from pacman.agents.smart_ghosts import (CHASE, FLEE, TERRITORY, AdversarialGhost, JointMinimaxGhost,
                                 MixedGhost, TeamGhost, joint_chase, seek_pacman, team_value)
from pacman.errors import ConfigurationError
from pacman.engine.layout import parse_layout, shipped_layout_names
from pacman.engine.state import GameState
from tests.search.test_pacman_search import layout_of, reference_root

MAZES = [n for n in shipped_layout_names() if layout_of(n).num_ghosts and n != "large_classic"]
SETTINGS = settings(max_examples=15, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def ghost_turn_position(name: str, seed: int, steps: int) -> GameState:
    """A non-terminal state of seeded random play on ``name`` where a ghost is to move."""
    layout = layout_of(name)
    start = GameState.initial(layout, num_ghosts=min(2, layout.num_ghosts))
    rng = random.Random(seed)
    state = start
    for step in range(steps + 400):
        if state.is_terminal:
            state = start
        if step >= steps and state.turn != 0:
            return state
        state = state.successor(rng.choice(state.legal_actions()))
    raise AssertionError("no ghost turn found")


positions = st.builds(ghost_turn_position, st.sampled_from(MAZES), st.integers(0, 2**32 - 1),
                      st.integers(0, 80))


@SETTINGS
@given(positions, st.integers(1, 2))
def test_adversarial_ghost_plays_the_first_minimising_move_of_brute_force_minimax(state, depth):
    ghost = state.turn
    _, values = reference_root(state, depth, seek_pacman(ghost))
    best = min(values.values())
    expected = next(a for a in state.legal_actions() if values[a] == best)
    assert AdversarialGhost(ghost, depth=depth).get_action(state) == expected


@SETTINGS
@given(positions)
def test_team_ghost_plays_the_first_minimising_move_of_the_joint_brute_force_minimax(state):
    _, values = reference_root(state, 1, team_value)
    best = min(values.values())
    expected = next(a for a in state.legal_actions() if values[a] == best)
    assert TeamGhost(state.turn, depth=1).get_action(state) == expected


def bfs(layout, source: int) -> dict[int, int]:
    dist = {source: 0}
    queue = deque([source])
    while queue:
        cell = queue.popleft()
        for nxt in layout.neighbours[cell].values():
            if nxt not in dist:
                dist[nxt] = dist[cell] + 1
                queue.append(nxt)
    return dist


@SETTINGS
@given(positions)
def test_territory_counts_the_cells_pacman_reaches_strictly_before_every_hunting_ghost(state):
    layout = state.layout
    mine = bfs(layout, state.pacman_cell)
    hunters = [bfs(layout, state.positions[g]) for g in range(1, state.num_agents)
               if not state.is_scared(g)]
    expected = sum(1 for cell, d in mine.items()
                   if all(d < h.get(cell, float("inf")) for h in hunters))
    assert pacman_territory(state) == expected


CORRIDOR = parse_layout("%%%%%%%\n%P G..%\n%%%%%%%", name="corridor3")


def test_an_adversarial_ghost_steps_onto_a_pacman_next_to_it():
    state = GameState.initial(CORRIDOR, 1).successor("East")  # Pacman now beside the ghost
    assert state.turn == 1 and state.legal_actions() == ("East", "West")
    ghost = AdversarialGhost(1)
    assert ghost.get_action(state) == "West"
    assert ghost.distribution(state) == {"East": 0.0, "West": 1.0}
    assert state.successor("West").is_lose


def test_the_mixed_ghost_exposes_its_true_mixture_and_samples_it():
    state = GameState.initial(CORRIDOR, 1).successor("East")
    mixed = MixedGhost(1, random.Random(5), p=0.8)
    assert mixed.distribution(state) == pytest.approx({"West": 0.9, "East": 0.1})
    draws = Counter(mixed.get_action(state) for _ in range(4000))
    # 4000 draws of p = 0.1: standard deviation 19; five of them is a test that cannot flake.
    assert abs(draws["East"] - 400) < 5 * 19
    assert MixedGhost(1, p=1.0).distribution(state) == {"East": 0.0, "West": 1.0}
    assert MixedGhost(1, p=0.0).distribution(state) == {"East": 0.5, "West": 0.5}


@pytest.mark.parametrize("factory, options, message", [
    (AdversarialGhost, {"index": 0}, "ghost"),
    (TeamGhost, {"index": 1, "depth": 0}, "depth"),
    (MixedGhost, {"index": 1, "p": 1.5}, "between 0 and 1"),
])
def test_bad_options_are_configuration_errors(factory, options, message):
    with pytest.raises(ConfigurationError, match=message):
        factory(**options)


@SETTINGS
@given(positions, st.integers(1, 2))
def test_joint_minimax_ghost_plays_the_first_minimising_move_of_the_joint_brute_force(state,
                                                                                    depth):
    _, values = reference_root(state, depth, joint_chase)
    best = min(values.values())
    expected = next(a for a in state.legal_actions() if values[a] == best)
    assert JointMinimaxGhost(state.turn, depth=depth).get_action(state) == expected


@SETTINGS
@given(positions)
def test_joint_chase_counts_every_ghost_and_team_adds_the_territory(state):
    row = state.layout.distance_rows[state.pacman_cell]
    expected = state.score
    for ghost in range(1, state.num_agents):
        d = row[state.positions[ghost]]
        if d >= 0:
            expected += -FLEE * d if state.is_scared(ghost) else CHASE * d
    assert joint_chase(state) == expected
    assert team_value(state) == expected + TERRITORY * pacman_territory(state)


@SETTINGS
@given(positions, st.integers(0, 2**16))
def test_random_ties_draw_only_among_the_minimising_moves_and_say_so(state, seed):
    ghost = state.turn
    _, values = reference_root(state, 1, seek_pacman(ghost))
    best = min(values.values())
    tied = {a for a in state.legal_actions() if values[a] == best}
    agent = AdversarialGhost(ghost, random.Random(seed), depth=1, tie_break="random")
    assert agent.get_action(state) in tied
    distribution = agent.distribution(state)
    assert {a for a, p in distribution.items() if p > 0} == tied
    assert sum(distribution.values()) == pytest.approx(1.0)


def test_random_ties_vary_between_seeds_where_moves_tie():
    # Pacman far away behind walls: every first move of the ghost in the open room ties.
    maze = parse_layout("%%%%%%%\n%P%   %\n%.% G %\n%.%   %\n%%%%%%%", name="walled")
    state = GameState.initial(maze, 1).successor("South")
    assert state.turn == 1
    first = AdversarialGhost(1, depth=1).get_action(state)
    draws = {AdversarialGhost(1, random.Random(s), depth=1, tie_break="random").get_action(state)
             for s in range(40)}
    assert first in draws and len(draws) > 1


def test_joint_ghosts_are_in_the_catalog_with_their_options():
    from pacman.agents.catalog import GHOST_AGENTS
    from pacman.lineup.build import agent_spec

    assert GHOST_AGENTS["joint"] is JointMinimaxGhost
    spec = agent_spec("joint", "ghost", {"depth": "1", "tie_break": "random"})
    assert spec.options == {"depth": 1, "tie_break": "random"}
    with pytest.raises(ConfigurationError, match="tie_break"):
        agent_spec("joint", "ghost", {"tie_break": "sometimes"})


def test_the_expectimax_model_takes_the_ghosts_options():
    from pacman.lineup.build import agent_spec

    state = GameState.initial(CORRIDOR, 1).successor("East")
    spec = agent_spec("expectimax", "pacman", {"model": "mixed", "model_options": "p=0.2,depth=1"})
    model = spec.build(0, random.Random(0)).model_agent(1)
    assert (model.p, model.depth) == (0.2, 1)
    # p = 0.2: the searched move (West, onto Pacman) gets 0.2 + 0.8 / 2, the other 0.8 / 2.
    assert model.distribution(state) == pytest.approx({"West": 0.6, "East": 0.4})
    with pytest.raises(ConfigurationError, match="no option 'q'"):
        agent_spec("expectimax", "pacman", {"model": "mixed", "model_options": "q=1"})

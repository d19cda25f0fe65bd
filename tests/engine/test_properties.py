"""Properties of random play on every maze (shipped and inline), checked with hypothesis."""

from __future__ import annotations

import contextlib
import pickle
import random

from hypothesis import given
from hypothesis import strategies as st

from pacman.errors import IllegalActionError
from pacman.engine.game import AgentSpec, GameResult, replay_states
from pacman.engine.game_loop import run_game
from pacman.engine.state import GameState

from .helpers import PROPERTY, RandomAgent, RecordingDisplay, random_play, score_events, states_of
from .mazes import get_layout, maze_names

CASES = maze_names()


@st.composite
def games(draw, max_plies: int = 300):
    case = draw(st.sampled_from(CASES))
    layout = get_layout(case)
    ghosts = draw(st.integers(0, layout.num_ghosts))
    seed = draw(st.integers(0, 2**32 - 1))
    plies = draw(st.integers(1, max_plies))
    return layout, ghosts, seed, plies


def layout_snapshot(layout) -> tuple:
    return (layout.text, layout.width, layout.height, layout.walls, layout.food,
            layout.capsules, layout.pacman_start, layout.ghost_starts,
            repr(layout.pacman_moves), repr(layout.pacman_actions), repr(layout.ghost_moves),
            repr(layout.ghost_actions))


@PROPERTY
@given(games())
def test_food_and_capsules_never_increase_and_score_is_the_sum_of_events(game):
    layout, ghosts, seed, plies = game
    moves = random_play(layout, ghosts, seed, plies)
    for (prev, mover, action), (nxt, _, _) in zip(moves, moves[1:]):
        assert nxt.food | prev.food == prev.food
        assert nxt.capsules | prev.capsules == prev.capsules
        assert nxt.food_count <= prev.food_count
        delta, events = score_events(prev, nxt, mover)
        assert nxt.score - prev.score == delta, (action, mover, events, prev, nxt)
    final = moves[-1][0]
    assert final.score == sum(score_events(p, n, m)[0]
                              for (p, m, _), (n, _, _) in zip(moves, moves[1:]))


@PROPERTY
@given(games())
def test_agents_never_stand_on_walls_and_ghosts_never_stop(game):
    layout, ghosts, seed, plies = game
    moves = random_play(layout, ghosts, seed, plies)
    for state, mover, action in moves:
        for agent in range(state.num_agents):
            assert not layout.is_wall(state.agent_position(agent))
        if state.is_terminal:
            assert action == ""
            continue
        for ghost in range(1, state.num_agents):
            legal = state.legal_actions(ghost)
            assert legal and "Stop" not in legal
            try:
                state.successor("Stop", ghost)
            except IllegalActionError:
                pass
            else:
                raise AssertionError("a ghost was allowed to stop")
        if mover > 0 and action:
            nxt = state.successor(action)
            eaten = nxt.ghost_cells[mover - 1] == layout.ghost_starts[mover - 1] and \
                nxt.score == state.score + 200
            assert nxt.directions[mover] == ("Stop" if eaten else action)
            assert action != "Stop"


@PROPERTY
@given(games(max_plies=120))
def test_successors_never_change_their_parent(game):
    layout, ghosts, seed, plies = game
    layout_before = layout_snapshot(layout)
    for state in states_of(random_play(layout, ghosts, seed, plies)):
        fields = tuple(state)
        deep = pickle.dumps(tuple(state[1:]))
        digest = hash(state)
        rendered = str(state)
        for agent in range(state.num_agents):
            for action in ("North", "South", "East", "West", "Stop"):
                with contextlib.suppress(Exception):
                    state.successor(action, agent)
        state.successors()
        assert tuple(state) == fields and hash(state) == digest and str(state) == rendered
        assert pickle.dumps(tuple(state[1:])) == deep and state.layout is layout
    assert layout_snapshot(layout) == layout_before


@PROPERTY
@given(games(max_plies=150))
def test_state_equality_hash_and_key_agree(game):
    layout, ghosts, seed, plies = game
    seen = []
    for state in states_of(random_play(layout, ghosts, seed, plies)):
        seen.append(state)
        seen.extend(child for _, child in state.successors())
    by_key: dict = {}
    for state in seen:
        by_key.setdefault(state.key, []).append(state)
    for group in by_key.values():
        first = group[0]
        for other in group[1:]:
            assert other == first and hash(other) == hash(first)
    distinct = list(by_key.values())
    for i, group in enumerate(distinct):
        for other_group in distinct[i + 1:]:
            assert group[0] != other_group[0]
    # the same situation rebuilt field by field is equal, hashes equal and has the same key
    for state in seen:
        rebuilt = GameState(tuple(state))
        assert rebuilt == state and hash(rebuilt) == hash(state) and rebuilt.key == state.key


@PROPERTY
@given(games(max_plies=200))
def test_replay_reproduces_every_state_of_the_game(game):
    layout, ghosts, seed, plies = game
    display = RecordingDisplay()
    specs = [AgentSpec(name="random", factory=RandomAgent) for _ in range(ghosts + 1)]
    result = run_game(layout, specs, seed=seed, max_moves=plies, display=display)
    assert display.finished
    assert len(display.states) == len(result.actions) + 1
    replayed = list(replay_states(result))
    assert [s.key for s in replayed] == [s.key for s in display.states]
    assert all(s.layout.text == layout.text for s in replayed)
    assert replayed[-1].score == result.score
    # and the replay of the JSON round trip too
    again = list(replay_states(GameResult.from_json(result.to_json())))
    assert [s.key for s in again] == [s.key for s in display.states]


@PROPERTY
@given(games(max_plies=60))
def test_different_paths_to_one_situation_give_equal_states(game):
    """Two move sequences that differ only by a Pacman detour reach one equal state."""
    layout, _, seed, plies = game
    # Pacman alone: (a, reverse a, rest) and (Stop, Stop, rest) end in the same situation
    # whenever the detour cell holds no food or capsule.
    base = GameState.initial(layout, 0)
    rng = random.Random(seed)
    for _ in range(plies % 20):
        if base.is_terminal:
            return
        base = base.successor(rng.choice(base.legal_actions()))
    if base.is_terminal:
        return
    reverse = {"North": "South", "South": "North", "East": "West", "West": "East"}
    for action in base.legal_actions():
        if action == "Stop":
            continue
        there = base.successor(action)
        if there.food != base.food or there.capsules != base.capsules:
            continue
        detour = there.successor(reverse[action])
        waited = base.successor("Stop").successor("Stop")
        assert detour != waited  # last directions differ...
        a = detour.successor("Stop")
        b = waited.successor("Stop")
        assert a == b and hash(a) == hash(b) and a.key == b.key  # ...until both stop
        assert a is not b

"""The batched engine is the scalar engine's game: same states, rewards, ends and observations,
step by step, for the same Pacman actions and ghost choices."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pacman.envs as envs
from pacman.engine.directions import ACTIONS
from pacman.envs.observation import Observer
from pacman.envs.vector import PacmanVectorEnv
from pacman.errors import ConfigurationError, IllegalActionError
from pacman.engine.state import GameState

MAZES = ["tiny", "small_classic", "capsule_rich", "testClassic", "medium_classic", "originalClassic"]


def scalar_round(state: GameState, action: int, ghost_actions: np.ndarray) -> GameState:
    """One round of the scalar engine: Pacman's action (Stop if illegal), then each ghost's
    recorded move while the game goes on."""
    name = ACTIONS[action]
    if name not in state.legal_actions(0):
        name = "Stop"
    state = state.successor(name, 0)
    for ghost in range(1, state.num_agents):
        if state.outcome is not None:
            assert ghost_actions[ghost - 1] == -1
            break
        state = state.successor(ACTIONS[ghost_actions[ghost - 1]], ghost)
    return state


def hungry_action(state: GameState, rng: np.random.Generator, greed: float) -> int:
    """With probability ``greed`` a step towards the nearest food or capsule, else any action
    of the space (walls included): games that win, eat capsules and ghosts, and bump."""
    if rng.random() < greed and (state.food or state.capsules):
        layout = state.layout
        targets = layout.cells_of(state.food | state.capsules)
        moves = layout.pacman_moves[state.pacman_cell]
        rows = layout.distance_rows
        best = min((min(rows[cell][t] for t in targets), ACTIONS.index(action))
                   for action, cell in moves.items() if action != "Stop")
        return best[1]
    return int(rng.integers(0, len(ACTIONS)))


def check_lockstep(layout: str, kinds: list[str] | str, games: int, seed: int, max_moves: int,
                   steps: int, action_seed: int, greed: float) -> dict[str, int]:
    """Plays both engines side by side; returns how often each event happened."""
    rng = np.random.default_rng(action_seed)
    seen = dict.fromkeys(["win", "loss", "truncated", "capsule", "ghost eaten", "timer out",
                          "bump"], 0)
    env = PacmanVectorEnv(games, layout=layout, ghosts=kinds, max_moves=max_moves)
    observations, info = env.reset(seed=seed)
    observer = Observer(env.layout, env.num_ghosts)
    start = GameState.initial(env.layout, env.num_ghosts)
    states, moves = [start] * games, [0] * games
    for game in range(games):
        assert np.array_equal(observations[game], observer.observe(start, 0))
    for _ in range(steps):
        row = np.array([hungry_action(state, rng, greed) for state in states])
        observations, rewards, terminated, truncated, info = env.step(row)
        for game in range(games):
            before = states[game]
            state = scalar_round(before, int(row[game]), env.ghost_actions[game])
            moves[game] += 1
            bump = ACTIONS[row[game]] not in before.legal_actions(0)
            assert info["illegal_action"][game] == bump
            seen["bump"] += bump
            seen["capsule"] += state.capsules != before.capsules
            seen["ghost eaten"] += sum(a != b and a == c for a, b, c in zip(
                state.ghost_cells, before.ghost_cells, state.layout.ghost_starts))
            seen["timer out"] += sum(a == 1 and b == 0 for a, b in zip(before.scared_timers,
                                                                       state.scared_timers))
            assert rewards[game] == state.score - before.score
            assert terminated[game] == (state.outcome is not None)
            assert truncated[game] == (state.outcome is None and moves[game] >= max_moves)
            if terminated[game] or truncated[game]:
                assert np.array_equal(info["final_obs"][game], observer.observe(state, 0))
                assert info["final_info"]["score"][game] == state.score
                expected = str(state.outcome) if state.outcome is not None else "truncated"
                assert info["final_info"]["outcome"][game] == expected
                seen[expected] += 1
                state, moves[game] = start, 0
            assert tuple(env.game_state(game)) == tuple(state)
            assert np.array_equal(observations[game], observer.observe(state, 0))
            mask = np.array([a in state.legal_actions(0) for a in ACTIONS])
            assert np.array_equal(info["action_mask"][game], mask)
            states[game] = state
    return seen


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_batched_engine_plays_the_scalar_game(data):
    layout = data.draw(st.sampled_from(MAZES))
    count = envs.PacmanVectorEnv(1, layout=layout, ghosts="random").num_ghosts
    kinds = data.draw(st.lists(st.sampled_from(["random", "directional"]),
                               min_size=count, max_size=count))
    games = data.draw(st.integers(1, 6))
    steps = data.draw(st.integers(1, 120))
    max_moves = data.draw(st.integers(1, 80))
    seed = data.draw(st.integers(0, 2**32 - 1))
    action_seed = data.draw(st.integers(0, 2**32 - 1))
    greed = data.draw(st.sampled_from([0.0, 0.5, 0.9]))
    check_lockstep(layout, kinds or "random", games, seed, max_moves, steps, action_seed, greed)


def test_long_games_in_lockstep_meet_every_rule():
    """Fixed long runs in which every event of the rules happens (checked), both engines
    agreeing throughout."""
    seen = [check_lockstep(*run, 12, 11, max_moves, 300, 5, 0.8) for *run, max_moves in
            [("small_classic", "random,directional", 60), ("capsuleClassic",
                                                           "random,directional,random", 60)]]
    assert all(a + b for a, b in zip(*(s.values() for s in seen))), seen


def test_make_vec_builds_the_batched_engine():
    vec = gymnasium.make_vec(envs.GYMNASIUM_ID, num_envs=4, vectorization_mode="vector_entry_point",
                             layout="tiny", ghosts="random")
    assert isinstance(vec.unwrapped, PacmanVectorEnv)
    observations, info = vec.reset(seed=0)
    assert observations.shape == (4,) + vec.single_observation_space.shape
    assert vec.observation_space.contains(observations)
    observations, *_ = vec.step(np.zeros(4, dtype=np.int64))
    assert vec.observation_space.contains(observations)


def test_the_seed_fixes_the_ghosts():
    def run(seed):
        env = PacmanVectorEnv(16, layout="small_classic", ghosts="random")
        env.reset(seed=seed)
        return [env.step(np.full(16, 4))[0] for _ in range(20)]

    assert all(np.array_equal(a, b) for a, b in zip(run(5), run(5)))
    assert not all(np.array_equal(a, b) for a, b in zip(run(5), run(6)))


def test_bad_arguments_and_actions_are_refused_clearly():
    with pytest.raises(ConfigurationError):
        PacmanVectorEnv(0)
    with pytest.raises(ConfigurationError):
        PacmanVectorEnv(2, ghosts="adversarial")
    env = PacmanVectorEnv(2, layout="tiny", ghosts="random")
    env.reset(seed=0)
    for bad in ([0], [0, 5], [0.5, 1.0], [-1, 0]):
        with pytest.raises(IllegalActionError):
            env.step(np.array(bad))


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["small_classic", "capsule_rich", "originalClassic"]),
       st.integers(0, 10**6), st.integers(0, 200))
def test_the_ghosts_draw_from_the_catalog_ghosts_distributions(layout, seed, plies):
    """Stratified draws (i + 0.5) / N over N games in one state give every move with the
    probability DirectionalGhost and RandomGhost give it, within 1 / N."""
    import random

    from pacman.agents.ghosts import DirectionalGhost, RandomGhost

    games = 2000
    rng = random.Random(seed)
    state = GameState.initial(envs.PacmanVectorEnv(1, layout=layout).layout)
    for _ in range(plies):
        if state.turn == 0 and rng.random() < 0.2:
            break
        following = state.successor(rng.choice(state.legal_actions()))
        if following.outcome is not None:
            break
        state = following
    while state.turn != 0:
        state = state.successor(rng.choice(state.legal_actions()))
        if state.outcome is not None:
            return
    if rng.random() < 0.5:  # a hand-set position with scared ghosts, which flee
        state = state.replace(scared_timers=tuple(rng.choice([0, 1, 5, 40])
                                                  for _ in range(state.num_ghosts)))
    draws = (np.arange(games) + 0.5) / games
    for kind, agent in (("directional", DirectionalGhost), ("random", RandomGhost)):
        env = envs.PacmanVectorEnv(games, layout=layout, ghosts=kind)
        for game in range(games):
            env.set_game(game, state)
        for ghost in range(1, state.num_agents):
            moves = env.ghost_choices(ghost, draws)
            expected = agent(ghost).distribution(state)
            counts = np.bincount(moves, minlength=len(ACTIONS)) / games
            for index, action in enumerate(ACTIONS):
                assert abs(counts[index] - expected.get(action, 0.0)) <= 1.5 / games, (
                    kind, ghost, action, counts, expected)

"""What a researcher gets from the defaults: unmasked random play that lasts, PettingZoo's whole
test module, SuperSuit's vector route, masks that are never all False, ends that say how they
ended, and starts that a seed can vary."""

from __future__ import annotations

import types

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import max_cycles_test

import pacman.envs as envs
from pacman.engine.directions import ACTIONS


@pytest.mark.parametrize("layout", ["tiny", "small_classic", "medium_classic"])
def test_uniform_unmasked_actions_give_episodes_that_last(layout):
    """Uniform random actions, walls included, as an unmasked learner starts: no episode ends
    by an illegal action, and they last as long as the ghosts let them."""
    env = gymnasium.make(envs.GYMNASIUM_ID, layout=layout, ghosts="random", observation="planes")
    rng = np.random.default_rng(0)
    lengths, outcomes = [], []
    for seed in range(40):
        env.reset(seed=seed)
        steps, done = 0, False
        while not done:
            *_, terminated, truncated, info = env.step(int(rng.integers(len(ACTIONS))))
            steps += 1
            done = terminated or truncated
        lengths.append(steps)
        outcomes.append(info["outcome"])
    assert set(outcomes) <= {"win", "loss", "truncated"}
    assert np.mean(lengths) > 5, lengths


def test_aec_unmasked_random_play_lasts():
    env = envs.env(layout="small_classic")
    rng = np.random.default_rng(1)
    rounds = []
    for seed in range(20):
        env.reset(seed=seed)
        for _agent in env.agent_iter(10_000):
            *_, terminated, truncated, info = env.last()
            env.step(None if terminated or truncated else int(rng.integers(5)))
        rounds.append(env.unwrapped.moves)
        assert info["outcome"] in ("win", "loss", "truncated")
    assert np.mean(rounds) > 5, rounds


def test_pettingzoo_max_cycles_test_passes_with_the_defaults():
    max_cycles_test(types.SimpleNamespace(env=envs.env, parallel_env=envs.parallel_env))


def test_every_dict_of_a_parallel_step_has_the_same_agents():
    env = envs.parallel_env(layout="tiny")
    rng = np.random.default_rng(2)
    for seed in range(10):
        observations, infos = env.reset(seed=seed)
        assert set(observations) == set(infos) == set(env.agents)
        while env.agents:
            live = list(env.agents)
            results = env.step({name: int(rng.integers(5)) for name in live})
            assert all(list(result) == live for result in results), results
        assert env.step({}) == ({}, {}, {}, {}, {})


def test_supersuit_black_death_to_vector_env_runs_through_game_ends():
    ss = pytest.importorskip("supersuit", reason="the train extra is not installed")
    env = ss.black_death_v3(envs.parallel_env(layout="tiny", max_cycles=30))
    vec = ss.pettingzoo_env_to_vec_env_v1(env)
    vec.reset(seed=0)
    rng = np.random.default_rng(3)
    ends = 0
    for _ in range(300):
        _, _, terminated, truncated, _ = vec.step(rng.integers(5, size=vec.num_envs))
        ends += int(np.any(terminated) or np.any(truncated))
    assert ends >= 3


def test_masks_are_never_all_false_under_next_step_autoreset():
    vec = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make(envs.GYMNASIUM_ID, layout="tiny", ghosts="random",
                                observation="planes") for _ in range(4)])
    _, info = vec.reset(seed=0)
    rng = np.random.default_rng(4)
    ends = 0
    for _ in range(500):
        masks = info["action_mask"].astype(bool)
        assert masks.any(axis=1).all()
        actions = [int(rng.choice(np.flatnonzero(mask))) for mask in masks]
        _, _, terminated, truncated, info = vec.step(actions)
        ends += int((terminated | truncated).sum())
    assert ends > 10


def test_a_terminal_state_allows_stop_only():
    env = gymnasium.make(envs.GYMNASIUM_ID, layout="tiny", ghosts="random", observation="planes")
    env.reset(seed=0)
    rng = np.random.default_rng(5)
    done = False
    while not done:
        *_, terminated, truncated, info = env.step(int(rng.integers(5)))
        done = terminated
        if truncated:
            env.reset()
    assert info["action_mask"].tolist() == [0, 0, 0, 0, 1]
    assert env.unwrapped.action_masks().tolist() == [False] * 4 + [True]


def test_info_says_how_the_episode_ended_and_its_score():
    from pacman.engine.layout import parse_layout

    corridor = parse_layout("%%%%%%\n%P...%\n%%%%%%", name="corridor")  # East thrice wins
    seen = set()
    rng = np.random.default_rng(6)
    for layout, ghosts, max_moves in [("tiny", "random", 12), (corridor, "random", 4)]:
        env = gymnasium.make(envs.GYMNASIUM_ID, layout=layout, ghosts=ghosts, max_moves=max_moves,
                             observation="planes")
        for seed in range(30):
            _, info = env.reset(seed=seed)
            assert info["outcome"] is None and info["score"] == 0
            done = False
            while not done:
                action = int(rng.choice(np.flatnonzero(info["action_mask"][:4])))
                _, _, terminated, truncated, info = env.step(action)
                done = terminated or truncated
                assert info["score"] == env.unwrapped.game.score
                assert info["outcome"] is None or done
            expected = str(env.unwrapped.game.outcome) if terminated else "truncated"
            assert info["outcome"] == expected
            seen.add(expected)
    assert seen == {"win", "loss", "truncated"}


def first_observations(make, reset, seeds):
    return [reset(make(), seed) for seed in seeds]


STARTS = {
    "gymnasium": (lambda **kw: gymnasium.make(envs.GYMNASIUM_ID, ghosts="random", **kw),
                  lambda env, seed: env.reset(seed=seed)[0]),
    "aec": (lambda **kw: envs.env(**kw),
            lambda env, seed: (env.reset(seed=seed), env.observe("pacman_0"))[1]),
    "parallel": (lambda **kw: envs.parallel_env(**kw),
                 lambda env, seed: env.reset(seed=seed)[0]["pacman_0"]),
}


@pytest.mark.parametrize("kind", list(STARTS))
def test_random_starts_vary_with_the_seed_and_are_fixed_by_it(kind):
    make, reset = STARTS[kind]
    plain = {reset(make(layout="small_classic"), seed).tobytes() for seed in range(20)}
    assert len(plain) == 1  # the maze's own start unless asked
    env = make(layout="small_classic", random_starts=True)
    first = [reset(env, seed).tobytes() for seed in range(20)]
    again = [reset(env, seed).tobytes() for seed in range(20)]
    assert first == again and len(set(first)) == 20
    asked = make(layout="small_classic")
    if kind == "gymnasium":
        observation = asked.reset(seed=3, options={"random_starts": True})[0]
        assert observation.tobytes() == first[3]


@pytest.mark.parametrize("kind", list(STARTS))
def test_a_maze_is_drawn_from_a_list(kind):
    from pacman.engine.layout import parse_layout

    walls = ["%%%%%%\n%P..G%\n%.%%.%\n%%%%%%", "%%%%%%\n%P. G%%\n%.%%.%\n%%%%%%"]
    mazes = [parse_layout(text, name=f"m{i}") for i, text in enumerate(walls)]
    make, reset = STARTS[kind]
    env = make(layout=mazes)
    seen = [reset(env, seed).tobytes() for seed in range(12)]
    assert seen == [reset(env, seed).tobytes() for seed in range(12)]
    assert len(set(seen)) == 2
    from pacman.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="one size"):
        make(layout=["tiny", "small_classic"])


def test_default_observations_are_boxes_for_cnn_and_vector_wrappers():
    from gymnasium import spaces

    single = gymnasium.make(envs.GYMNASIUM_ID).observation_space
    aec = envs.env().observation_space("pacman_0")
    for space in (single, aec):
        assert isinstance(space, spaces.Box) and space.dtype == np.uint8
        assert space.shape[0] < min(space.shape[1:]) and min(space.shape[1:]) >= 36

"""The environments pass PettingZoo's and Gymnasium's own checkers."""

from __future__ import annotations

import functools
import re
import types
import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import (api_test, max_cycles_test, parallel_api_test, parallel_seed_test,
                             performance_benchmark, render_test, seed_test, state_test)

import pacman.envs as envs

#: What PettingZoo's checker says of every environment whose observations carry an action
#: mask in a dict (its own board games included); anything else it says is a failure here.
KNOWN_NOTES = {"Observation is not a NumPy array",
               "Observation space for each agent probably should be gymnasium.spaces.box or "
               "gymnasium.spaces.discrete"}

MAZES = [("small_classic", None), ("tiny", None), ("no_ghosts", None),
         ("capsule_rich", 1), ("large_classic", None)]


def notes_of(check) -> set[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check()
    return {str(w.message) for w in caught}


@pytest.mark.parametrize("layout, num_ghosts", MAZES)
def test_aec_api(layout, num_ghosts):
    env = envs.env(layout=layout, num_ghosts=num_ghosts, max_moves=60)
    assert notes_of(lambda: api_test(env, num_cycles=400)) <= KNOWN_NOTES


@pytest.mark.parametrize("layout", ["small_classic", "tiny"])
def test_aec_seed(layout):
    seed_test(lambda **kw: envs.env(layout=layout, max_moves=50, **kw), num_cycles=200)


def test_aec_render_modes():
    render_test(lambda **kw: envs.env(layout="tiny", **kw))


@pytest.mark.parametrize("layout", ["small_classic", "tiny", "capsule_rich"])
def test_parallel_api(layout):
    env = envs.parallel_env(layout=layout, max_moves=60)
    assert notes_of(lambda: parallel_api_test(env, num_cycles=200)) <= KNOWN_NOTES


@pytest.mark.parametrize("ghosts", ["directional", "random", "adversarial"])
def test_gymnasium_check_env(ghosts):
    env = gymnasium.make(envs.GYMNASIUM_ID, layout="small_classic", ghosts=ghosts,
                         max_moves=80)
    assert notes_of(lambda: check_env(env.unwrapped)) == set()


@pytest.mark.parametrize("mode", ["ansi", "rgb_array", "human"])
def test_gymnasium_check_env_renders(mode):
    env = gymnasium.make(envs.GYMNASIUM_ID, layout="tiny", ghosts="random", render_mode=mode)
    assert notes_of(lambda: check_env(env.unwrapped)) == set()
    env.close()


@pytest.mark.parametrize("observation", ["flat", "image", "planes"])
def test_aec_api_with_the_mask_in_info(observation):
    env = envs.env(layout="small_classic", max_moves=60, observation=observation)
    assert notes_of(lambda: api_test(env, num_cycles=200)) <= KNOWN_NOTES


@pytest.mark.parametrize("layout", ["small_classic", "tiny"])
def test_parallel_seed(layout):
    parallel_seed_test(lambda **kw: envs.parallel_env(layout=layout, max_moves=50, **kw),
                       num_cycles=100)


@pytest.mark.parametrize("illegal_action", ["end", "stop"])
def test_state(illegal_action):
    state_test(envs.env(layout="capsule_rich", illegal_action=illegal_action),
               envs.parallel_env(layout="capsule_rich"), num_cycles=50)


def test_max_cycles():
    """PettingZoo's check samples any action of the space, so the illegal ones must not end the
    game early: the environments it builds replace them (``illegal_action="stop"``)."""
    module = types.SimpleNamespace(
        env=functools.partial(envs.env, illegal_action="stop"),
        parallel_env=functools.partial(envs.parallel_env, illegal_action="stop"))
    max_cycles_test(module)


def test_performance_benchmark(capsys):
    performance_benchmark(envs.env(layout="small_classic"))
    printed = capsys.readouterr().out
    turns = float(re.search(r"([0-9.]+) turns per second", printed).group(1))
    assert turns > 500, printed


@pytest.mark.parametrize("observation", ["flat", "image", "dict"])
def test_gymnasium_check_env_formats(observation):
    env = gymnasium.make(envs.GYMNASIUM_ID, layout="small_classic", observation=observation)
    assert notes_of(lambda: check_env(env.unwrapped)) == set()

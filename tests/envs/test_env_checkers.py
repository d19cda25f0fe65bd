"""The environments pass PettingZoo's and Gymnasium's own checkers."""

from __future__ import annotations

import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test

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

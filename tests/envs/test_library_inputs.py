"""What reinforcement-learning libraries send and expect: numpy actions, illegal actions that end
the episode instead of raising, ``max_cycles``, observation formats, ``action_masks()``, the
registration's ``max_episode_steps`` and the play keys."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pacman.envs as envs
from pacman.engine.directions import ACTIONS
from pacman.envs.options import action_index
from pacman.errors import IllegalActionError

NUMPY_TWO = [np.array(2), np.int64(2), np.int32(2), np.uint8(2), np.array(2, dtype=np.int8)]


@given(st.integers(0, 4), st.sampled_from([int, np.int8, np.int16, np.int32, np.int64, np.uint8,
                                           np.uint64, "0-d"]))
def test_every_integer_spelling_of_an_action_is_that_action(action, kind):
    value = np.array(action, dtype=np.int64) if kind == "0-d" else kind(action)
    assert action_index(value) == action


@given(st.one_of(st.integers().filter(lambda n: not 0 <= n <= 4), st.floats(), st.text(),
                 st.booleans(), st.none()))
def test_anything_outside_the_space_is_refused_clearly(value):
    with pytest.raises(IllegalActionError, match="index 0 to 4"):
        action_index(value)


@pytest.mark.parametrize("action", NUMPY_TWO, ids=repr)
def test_gymnasium_takes_what_predict_returns(action):
    env = gymnasium.make(envs.GYMNASIUM_ID, layout="small_classic", ghosts="random")
    env.reset(seed=0)
    assert env.action_space.contains(np.array(2))
    east = env.unwrapped.game.pacman_position
    _, _, terminated, _, info = env.step(action)  # East is open at the start
    assert not terminated and info["illegal_action"] is False
    assert env.unwrapped.game.pacman_position == (east[0] + 1, east[1])


@pytest.mark.parametrize("action", NUMPY_TWO, ids=repr)
def test_aec_and_parallel_take_numpy_actions(action):
    env = envs.env(layout="small_classic")
    env.reset()
    env.step(action)
    assert env.unwrapped.game.directions[0] == "East"
    parallel = envs.parallel_env(layout="small_classic", observation="dict")
    observations, _ = parallel.reset()
    ghost_moves = {name: np.array(np.flatnonzero(observations[name]["action_mask"])[0])
                   for name in parallel.agents[1:]}
    parallel.step({"pacman_0": action, **ghost_moves})
    assert parallel.aec.game.directions[0] == "East"


def wall_of(mask) -> int:
    return int(np.flatnonzero(np.asarray(mask) == 0)[0])


def test_aec_illegal_action_ends_the_game_with_the_stated_penalty():
    env = envs.env(layout="small_classic", observation="dict", illegal_action="end")
    env.reset()
    game = env.unwrapped.game
    env.step(np.int64(wall_of(env.observe("pacman_0")["action_mask"])))
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards == {"pacman_0": -500.0, "ghost_1": 0.0, "ghost_2": 0.0}
    assert env.infos["pacman_0"]["illegal_action"] is True
    assert env.infos["ghost_1"]["illegal_action"] is False
    assert all(info["outcome"] == "draw" for info in env.infos.values())
    assert env.unwrapped.game is game  # the game is left as it was
    for _ in env.agent_iter():
        assert env.last()[2]
        env.step(None)
    assert env.agents == []


def test_aec_illegal_ghost_move_costs_the_ghost_its_own_reward():
    env = envs.env(layout="small_classic", illegal_reward=-3, illegal_action="end")
    env.reset()
    env.step(ACTIONS.index("Stop"))
    env.step(ACTIONS.index("Stop"))  # a ghost may never stop
    assert env.rewards == {"pacman_0": 0.0, "ghost_1": -3.0, "ghost_2": 0.0}
    assert all(env.terminations.values())


def test_aec_stop_mode_replaces_illegal_actions_by_default():
    env = envs.env(layout="small_classic", observation="dict")
    env.reset()
    env.step(wall_of(env.observe("pacman_0")["action_mask"]))
    assert env.unwrapped.game.directions[0] == "Stop" and env.rewards["pacman_0"] == -1
    assert env.infos["pacman_0"]["illegal_action"] and env.infos["pacman_0"]["illegal_actions"] == 1
    ghost_mask = env.observe("ghost_1")["action_mask"]
    env.step(ACTIONS.index("Stop"))
    first_legal = ACTIONS[int(np.flatnonzero(ghost_mask)[0])]  # no last direction at the start
    assert env.unwrapped.game.directions[1] == first_legal
    assert env.infos["ghost_1"]["illegal_action"] and not env.infos["pacman_0"]["illegal_action"]
    assert not any(env.terminations.values())


def test_an_illegal_ghost_move_keeps_the_ghost_on_its_course():
    """The stated rule: a ghost's last direction if legal, else its first legal move."""
    from pacman.envs.options import replacement

    assert replacement(1, ("North", "East"), "East") == "East"
    assert replacement(1, ("North", "East"), "West") == "North"
    assert replacement(0, ("North", "East"), "East") == "Stop"
    env = envs.env(layout="small_classic")
    env.reset()
    rng = np.random.default_rng(1)
    for agent in env.agent_iter(300):
        _, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        index = env.unwrapped.agent_name_mapping[agent]
        game = env.unwrapped.game
        if index and rng.random() < 0.5:
            legal, last = game.legal_actions(index), game.directions[index]
            env.step(ACTIONS.index("Stop"))
            assert env.unwrapped.game.directions[index] == (last if last in legal else legal[0])
        else:
            env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))


def test_parallel_illegal_action_ends_the_round_with_the_penalty():
    env = envs.parallel_env(layout="small_classic", observation="dict", illegal_action="end")
    observations, _ = env.reset()
    actions = {name: int(np.flatnonzero(observations[name]["action_mask"])[0])
               for name in env.agents}
    actions["ghost_2"] = ACTIONS.index("Stop")
    _, rewards, terminations, _, infos = env.step(actions)
    assert all(terminations.values()) and env.agents == []
    pacman_change = env.aec.game.score  # Pacman and ghost 1 moved before ghost 2's Stop
    assert rewards == {"pacman_0": pacman_change, "ghost_1": -pacman_change,
                       "ghost_2": -pacman_change - 500.0}
    assert infos["ghost_2"]["illegal_action"] is True


def test_gymnasium_illegal_action_ends_the_episode_with_the_penalty():
    env = gymnasium.make(envs.GYMNASIUM_ID, layout="small_classic", ghosts="random",
                         illegal_action="end")
    _, info = env.reset(seed=0)
    position = env.unwrapped.game.pacman_position
    _, reward, terminated, truncated, info = env.step(np.array(wall_of(info["action_mask"])))
    assert (reward, terminated, truncated) == (-500.0, True, False)
    assert info["illegal_action"] is True and env.unwrapped.game.pacman_position == position
    assert info["outcome"] == "draw"


def test_the_aec_environment_is_not_offered_to_aec_to_parallel():
    from pettingzoo.utils.conversions import aec_to_parallel

    assert envs.env().metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(envs.env())
    assert envs.parallel_env().metadata["is_parallelizable"] is True


def test_max_cycles_is_the_round_limit():
    env = envs.env(layout="no_ghosts", max_cycles=3)
    env.reset()
    for _ in range(3):
        assert not any(env.truncations.values())
        env.step(ACTIONS.index("Stop"))
    assert all(env.truncations.values())
    parallel = envs.parallel_env(layout="small_classic", max_cycles=2, illegal_action="stop")
    parallel.reset()
    rounds = 0
    while parallel.agents:
        parallel.step(dict.fromkeys(parallel.agents, 0))
        rounds += 1
    assert rounds == 2


@pytest.mark.parametrize("observation", ["planes", "flat", "image", "dict"])
def test_observation_formats_hold_the_planes(observation):
    plain = envs.env(layout="small_classic", observation="dict")
    plain.reset()
    env = envs.env(layout="small_classic", observation=observation)
    env.reset()
    planes = plain.observe("ghost_1")["observation"]
    seen = env.observe("ghost_1")
    space = env.observation_space("ghost_1")
    assert space.contains(seen)
    if observation == "planes":
        assert np.array_equal(seen, planes)
    elif observation == "flat":
        assert seen.dtype == np.float32 and np.array_equal(seen, planes.reshape(-1))
    elif observation == "image":
        assert seen.shape == (8, 42, 120) and seen.dtype == np.uint8  # 6-pixel cells
        assert np.array_equal(seen[:, ::6, ::6], planes.transpose(2, 0, 1).astype(np.uint8) * 255)
        assert np.array_equal(seen[:, 5::6, 5::6], seen[:, ::6, ::6])
    else:
        assert np.array_equal(seen["observation"], planes)
    if observation != "dict":
        assert np.array_equal(env.infos["ghost_1"]["action_mask"],
                              plain.observe("ghost_1")["action_mask"])


def test_the_image_scale_can_be_chosen_and_is_checked():
    env = envs.env(layout="tiny", observation="image", cell_pixels=2)
    assert env.observation_space("pacman_0").shape == (7, 10, 14)
    from pacman.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="cell_pixels"):
        envs.env(observation="image", cell_pixels=0)


def test_gymnasium_action_masks_follow_the_game():
    env = gymnasium.make(envs.GYMNASIUM_ID, layout="small_classic", ghosts="random")
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(50):
        masks = env.unwrapped.action_masks()
        assert masks.dtype == bool and np.array_equal(masks, info["action_mask"].astype(bool))
        legal = [ACTIONS[i] for i in np.flatnonzero(masks)]
        assert legal == list(env.unwrapped.game.legal_actions(0))
        _, _, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(masks)))
        if terminated or truncated:
            break


def test_gymnasium_episode_limit_is_max_moves():
    """The registration sets no TimeLimit of its own: max_moves=2000 plays 2,000 moves."""
    env = gymnasium.make(envs.GYMNASIUM_ID)
    assert env.spec.max_episode_steps is None and env.unwrapped.max_moves == 1000
    env = gymnasium.make(envs.GYMNASIUM_ID, layout="no_ghosts", max_moves=1500, observation="planes")
    env.reset(seed=0)
    steps, done = 0, False
    while not done:
        *_, terminated, truncated, info = env.step(ACTIONS.index("Stop"))
        steps += 1
        done = terminated or truncated
    assert steps == 1500 and info["outcome"] == "truncated"


def test_play_keys_map_arrows_and_wasd_to_moves():
    from gymnasium.utils.play import PlayableGame

    from pacman.display._pygame import pygame

    env = gymnasium.make(envs.GYMNASIUM_ID, layout="tiny", ghosts="random",
                         render_mode="rgb_array")
    keys = env.unwrapped.get_keys_to_action()
    assert keys[(pygame.K_UP,)] == keys[(ord("w"),)] == ACTIONS.index("North")
    assert keys[(pygame.K_LEFT,)] == keys[(ord("a"),)] == ACTIONS.index("West")
    assert keys[(pygame.K_SPACE,)] == ACTIONS.index("Stop")
    env.reset(seed=0)
    game = PlayableGame(env)  # reads the keys through the wrappers, as play() does
    assert pygame.K_DOWN in game.relevant_keys
    pygame.display.quit()


@settings(max_examples=10, deadline=None, database=None)
@given(st.integers(0, 1000), st.sampled_from(["end", "stop"]))
def test_unmasked_random_play_never_raises(seed, mode):
    """Every environment, any action of the space: the episode ends or goes on, nothing raises."""
    rng = np.random.default_rng(seed)
    env = envs.env(layout="tiny", max_cycles=30, illegal_action=mode)
    env.reset(seed=seed)
    for agent in env.agent_iter(200):
        done = env.terminations[agent] or env.truncations[agent]
        env.step(None if done else rng.integers(5))
    parallel = envs.parallel_env(layout="tiny", max_cycles=30, illegal_action=mode)
    parallel.reset(seed=seed)
    while parallel.agents:
        parallel.step({name: np.array(rng.integers(5)) for name in parallel.agents})
    single = gymnasium.make(envs.GYMNASIUM_ID, layout="tiny", ghosts="random", max_moves=30,
                            illegal_action=mode)
    single.reset(seed=seed)
    done = False
    while not done:
        *_, terminated, truncated, _ = single.step(rng.integers(5))
        done = terminated or truncated

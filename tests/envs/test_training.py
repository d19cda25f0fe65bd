"""The libraries' own training routes, unchanged: Stable-Baselines3's PPO and sb3-contrib's
MaskablePPO on the Gymnasium environment, and PettingZoo through SuperSuit to PPO.

Skipped without torch and the ``train`` extra (``pip install torch`` then
``pip install -e '.[train]'``). Each route trains a few thousand steps: enough to run every
part of the library's loop (rollouts, resets, updates), not to learn; ``examples/`` learns.
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")
sb3 = pytest.importorskip("stable_baselines3", reason="the train extra is not installed")
sb3_contrib = pytest.importorskip("sb3_contrib", reason="the train extra is not installed")
ss = pytest.importorskip("supersuit", reason="the train extra is not installed")

import gymnasium  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402

import pacman.envs as envs  # noqa: E402


@pytest.fixture(autouse=True)
def one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def gym_env(**kwargs):
    return gymnasium.make(envs.GYMNASIUM_ID, layout="small_classic", ghosts="random", **kwargs)


def test_maskable_ppo_trains_on_action_masks_and_never_picks_a_wall():
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    vec = make_vec_env(lambda: gym_env(observation="flat"), n_envs=2, seed=0)
    assert is_masking_supported(vec)
    model = MaskablePPO("MlpPolicy", vec, n_steps=512, batch_size=256, n_epochs=2, seed=0,
                        device="cpu")
    model.learn(total_timesteps=2048)
    assert model.num_timesteps >= 2048
    env = gym_env(observation="flat")
    observation, info = env.reset(seed=1)
    for _ in range(200):
        masks = get_action_masks(env)
        action, _ = model.predict(observation, action_masks=masks)
        assert masks[int(action)]
        observation, _, terminated, truncated, info = env.step(action)  # a 0-d array
        assert not info["illegal_action"]
        if terminated or truncated:
            break


def test_ppo_trains_with_the_documented_predict_loop():
    from stable_baselines3 import PPO

    model = PPO("MlpPolicy", gym_env(observation="flat"), n_steps=1024, batch_size=256,
                n_epochs=2, seed=0, device="cpu")
    model.learn(total_timesteps=2048)
    env = gym_env(observation="flat")
    observation, _ = env.reset(seed=2)
    ended = False
    for _ in range(1000):
        action, _ = model.predict(observation)
        assert isinstance(action, np.ndarray) and action.shape == ()
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            ended = True
            break
    assert ended  # a loss, a win or the move limit: an illegal move is a Stop


def test_ppo_cnn_policy_takes_the_image_observation():
    from stable_baselines3 import PPO
    from stable_baselines3.common.preprocessing import is_image_space

    env = gym_env(observation="image")
    assert is_image_space(env.observation_space)
    model = PPO("CnnPolicy", env, n_steps=512, batch_size=128, n_epochs=1, seed=0,
                device="cpu")
    model.learn(total_timesteps=1024)
    assert model.num_timesteps >= 1024


@pytest.mark.parametrize("observation", ["flat", "image"])
def test_supersuit_wrappers_take_the_box_observations(observation):
    env = envs.parallel_env(layout="small_classic", observation=observation, max_cycles=20)
    env = ss.black_death_v3(ss.pad_observations_v0(ss.frame_stack_v1(
        ss.dtype_v0(ss.flatten_v0(env), np.float32), 3)))
    observations, infos = env.reset(seed=0)
    size = int(np.prod(envs.parallel_env(observation=observation).observation_space(
        "pacman_0").shape))
    assert observations["pacman_0"].shape == (3 * size,)
    rounds = 0
    while env.agents:
        # after the game ends (black_death keeps the agents a round longer) no move is legal
        actions = {name: int(np.append(np.flatnonzero(infos[name].get("action_mask", [])), 0)[0])
                   for name in env.agents}
        observations, _, _, _, infos = env.step(actions)
        assert all(o.shape == (3 * size,) for o in observations.values())
        rounds += 1
    assert rounds <= 21


def test_pettingzoo_through_supersuit_trains_ppo():
    """The PettingZoo tutorial's route: one policy shared by every agent, many copies in a
    Stable-Baselines3 vector environment."""
    from stable_baselines3 import PPO

    env = envs.parallel_env(layout="small_classic", observation="flat", max_cycles=100)
    vec = ss.pettingzoo_env_to_vec_env_v1(env)
    vec = ss.concat_vec_envs_v1(vec, 2, num_cpus=1, base_class="stable_baselines3")
    # SuperSuit's vector environment has no seed(), which PPO(seed=...) calls.
    model = PPO("MlpPolicy", vec, n_steps=256, batch_size=256, n_epochs=2, device="cpu")
    model.learn(total_timesteps=3000)
    assert model.num_timesteps >= 3000
    vec.close()


def test_the_documented_routes_run_as_written(monkeypatch):
    """docs/rl.md's code, every ``learn`` cut to one rollout (``n_steps`` per environment)."""
    import re
    from pathlib import Path

    from stable_baselines3.common.base_class import BaseAlgorithm

    setup = BaseAlgorithm._setup_learn
    monkeypatch.setattr(BaseAlgorithm, "_setup_learn",
                        lambda self, total_timesteps, *args, **kw: setup(self, 1, *args, **kw))
    doc = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
    cells = re.findall(r"```python\n(.*?)```", doc.read_text("utf-8"), re.S)
    assert len(cells) == 3
    spaces = {}
    for cell in cells:
        namespace: dict = {}
        exec(cell, namespace)  # noqa: S102  (our own documentation)
        spaces[cell.split("\n")[0]] = namespace["vec"].num_envs
    assert sorted(spaces.values()) == [8, 4 * 3, 1024]  # SB3's 8, SuperSuit's 4 x 3 agents


def test_the_example_trains_and_prints_its_table(tmp_path, capsys):
    from pacman.examples import train_masked_ppo

    assert train_masked_ppo.main(["--steps", "2048", "--envs", "16", "--eval-games", "4",
                                  "--max-moves", "40", "--save", str(tmp_path / "model.pt")]) == 0
    printed = capsys.readouterr().out
    assert "| masked PPO | 4 |" in printed and "| random | 4 |" in printed
    assert "score difference (masked PPO - random) over 4 shared seeds" in printed
    assert (tmp_path / "model.pt").stat().st_size > 0


def test_the_example_runs_as_a_module_without_path_edits():
    import subprocess
    import sys
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / "pacman" / "examples"
              / "train_masked_ppo.py").read_text("utf-8")
    assert "sys.path" not in source
    done = subprocess.run([sys.executable, "-m", "pacman.examples.train_masked_ppo", "--help"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and "--steps" in done.stdout


def test_unmasked_ppo_with_the_defaults_lives_longer_than_a_few_steps():
    """SB3's PPO, unmasked, every environment default: its episodes are not cut by illegal
    moves (with the board-game default they lasted 2.7 steps)."""
    from stable_baselines3 import PPO
    from stable_baselines3.common.monitor import Monitor

    env = Monitor(gymnasium.make(envs.GYMNASIUM_ID, layout="tiny"))
    PPO("MlpPolicy", env, n_steps=512, batch_size=128, n_epochs=1, seed=0,
        device="cpu").learn(2048)
    assert np.mean(env.get_episode_lengths()) > 5


@pytest.mark.parametrize("observation", ["flat", "image"])
def test_stable_baselines3_check_env_is_silent(observation):
    import warnings

    from stable_baselines3.common.env_checker import check_env

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gym_env(observation=observation).unwrapped)
    assert [str(w.message) for w in caught] == []


def test_cnn_policy_takes_the_default_observation():
    from stable_baselines3 import PPO

    env = gymnasium.make(envs.GYMNASIUM_ID, layout="tiny")
    model = PPO("CnnPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(64)
    assert model.num_timesteps >= 64

"""What the environments mean: observations, rewards, endings, errors; the same game as the
engine's own loop."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pacman.envs as envs
from pacman.agents.basic import RandomPacman
from pacman.engine.directions import ACTIONS
from pacman.envs.observation import Observer
from pacman.errors import ConfigurationError, IllegalActionError
from pacman.engine.game import AgentSpec
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout, parse_layout
from pacman.lineup.build import agent_spec
from pacman.engine.state import GameState

from .support import reference_planes


def index(action: str) -> int:
    return ACTIONS.index(action)


@settings(max_examples=25, deadline=None, database=None)
@given(st.sampled_from(["small_classic", "tiny", "capsule_rich", "large_classic"]),
       st.integers(0, 10**6), st.integers(0, 300))
def test_observations_match_the_documented_planes(name, seed, plies):
    layout = load_layout(name)
    state = GameState.initial(layout)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal:
            break
        state = state.successor(rng.choice(state.legal_actions()))
    observer = Observer(layout, layout.num_ghosts)
    for agent in range(state.num_agents):
        observation = observer.observe(state, agent)
        assert observation.dtype == np.int8
        assert np.array_equal(observation, reference_planes(state, agent))
        mask = observer.action_mask(state, agent)
        legal = list(state.legal_actions(agent)) if not state.is_terminal else ["Stop"]
        assert [ACTIONS[i] for i in np.flatnonzero(mask)] == legal


def test_scared_ghosts_have_their_plane():
    layout = parse_layout("%%%%%%%%%\n%Po   .G%\n%%%%%%%%%", name="corridor")
    state = GameState.initial(layout).successor("East")
    observer = Observer(layout, 1)
    assert state.is_scared(1)
    planes = observer.observe(state, 0)
    assert planes[1, 7, 5] == 1 and planes[:, :, 5].sum() == 1
    assert observer.observe(GameState.initial(layout), 0)[:, :, 5].sum() == 0


def replay_in_aec(result, layout, num_ghosts, max_moves):
    env = envs.env(layout=layout, num_ghosts=num_ghosts, max_moves=max_moves, observation="dict")
    env.reset()
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for action in result.actions:
        agent = env.agent_selection
        assert not (env.terminations[agent] or env.truncations[agent])
        assert env.observe(agent)["action_mask"][index(action)] == 1
        env.step(index(action))
        for name in totals:
            totals[name] += env.rewards.get(name, 0.0)
    return env, totals


@pytest.mark.parametrize("layout_name, seed", [("small_classic", 3), ("tiny", 1),
                                               ("capsule_rich", 8), ("trapped", 2)])
def test_aec_replays_the_engine_game_with_score_rewards(layout_name, seed):
    layout = load_layout(layout_name)
    specs = [agent_spec("greedy", "pacman")] + [
        agent_spec("directional", "ghost")] * layout.num_ghosts
    result = run_game(layout, specs, seed, max_moves=200)
    env, totals = replay_in_aec(result, layout, layout.num_ghosts, 200)
    assert env.unwrapped.game.score == result.score
    assert totals["pacman_0"] == result.score
    assert all(totals[g] == -result.score for g in env.possible_agents[1:])
    ended = {"win": "terminations", "loss": "terminations", "move_limit": "truncations"}
    flags = getattr(env, ended[result.outcome])
    assert all(flags.values()) and len(flags) == layout.num_ghosts + 1


def test_aec_truncates_after_the_last_round_only():
    env = envs.env(layout="no_ghosts", max_moves=3)
    env.reset()
    for _ in range(2):
        env.step(index("Stop"))
        assert not any(env.truncations.values())
    env.step(index("Stop"))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.unwrapped.moves == 3
    env.step(None)
    assert env.agents == []


def test_aec_loss_terminates_everyone_and_costs_pacman():
    env = envs.env(layout="tiny", max_moves=None, observation="dict")
    env.reset()
    for _ in range(100):
        if any(env.terminations.values()):
            break
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        env.step(index("Stop") if agent == "pacman_0" else int(np.flatnonzero(mask)[0]))
    assert env.unwrapped.game.is_lose
    assert all(env.terminations.values())
    assert env.rewards["pacman_0"] == -500 and env.rewards["ghost_1"] == 500


def test_aec_refuses_actions_outside_the_space_and_bad_arguments():
    env = envs.env(layout="small_classic")
    env.reset()
    for outside in (7, -1, 2.0, "North", True, np.array([2]), np.array(2.0)):
        with pytest.raises(IllegalActionError, match="index 0 to 4"):
            env.step(outside)
    with pytest.raises(ConfigurationError, match="num_ghosts"):
        envs.env(layout="small_classic", num_ghosts=3)
    with pytest.raises(ConfigurationError, match="max_moves"):
        envs.env(max_moves=0)
    with pytest.raises(ConfigurationError, match="render_mode"):
        envs.env(render_mode="window")
    with pytest.raises(ConfigurationError, match="illegal_action"):
        envs.env(illegal_action="raise")
    with pytest.raises(ConfigurationError, match="illegal_reward"):
        envs.env(illegal_reward=float("nan"))
    with pytest.raises(ConfigurationError, match="observation"):
        envs.env(observation="pixels")
    with pytest.raises(ConfigurationError, match="max_cycles"):
        envs.env(max_moves=10, max_cycles=20)


def test_ghosts_cannot_stop_in_the_mask():
    env = envs.env(layout="small_classic", observation="dict")
    env.reset()
    assert env.observe("ghost_1")["action_mask"][index("Stop")] == 0
    assert env.observe("pacman_0")["action_mask"][index("Stop")] == 1


def test_parallel_round_rewards_are_the_round_score_change():
    env = envs.parallel_env(layout="small_classic", max_moves=30, observation="dict")
    observations, _ = env.reset()
    rng = np.random.default_rng(4)
    score = 0
    while env.agents:
        actions = {a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"])))
                   for a in env.agents}
        observations, rewards, *_ = env.step(actions)
        change = env.aec.game.score - score
        score = env.aec.game.score
        assert rewards["pacman_0"] == change
        assert all(rewards[g] == -change for g in rewards if g != "pacman_0")


def test_renders_through_the_project_renderer():
    from pacman.display.renderer import Renderer
    from pacman.envs.rendering import ARRAY_TILE

    env = envs.env(layout="small_classic", render_mode="rgb_array")
    env.reset()
    picture = env.render()
    width, height = Renderer.natural_size(load_layout("small_classic"), ARRAY_TILE)
    assert picture.shape == (height, width, 3) and picture.dtype == np.uint8
    assert (picture == (255, 255, 0)).all(axis=2).any()  # Pacman is drawn
    text = envs.env(layout="tiny", render_mode="ansi")
    text.reset()
    assert text.render().startswith("%%%%%%%\n%P . o%")


def gym_episode(seed, actions=None, **kwargs):
    env = gymnasium.make(envs.GYMNASIUM_ID, **kwargs)
    observation, info = env.reset(seed=seed)
    trace = [(observation.tobytes(), info["seed"])]
    rng = np.random.default_rng(0)
    for step in range(400):
        action = actions[step] if actions else int(rng.choice(
            np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        trace.append((observation.tobytes(), reward))
        if terminated or truncated or (actions and step + 1 == len(actions)):
            break
    return env.unwrapped, trace


def test_gymnasium_seed_fixes_the_episode():
    _, first = gym_episode(11, layout="small_classic", ghosts="random")
    _, again = gym_episode(11, layout="small_classic", ghosts="random")
    _, other = gym_episode(12, layout="small_classic", ghosts="random")
    assert first == again
    assert first != other


def test_gymnasium_episode_is_the_engine_game_with_the_same_seed():
    env = gymnasium.make(envs.GYMNASIUM_ID, layout="small_classic", ghosts="directional,random")
    _, info = env.reset(seed=5)
    game_seed = info["seed"]
    pacman = AgentSpec("random", RandomPacman)
    result = run_game(load_layout("small_classic"),
                      [pacman, agent_spec("directional", "ghost"), agent_spec("random", "ghost")],
                      game_seed, max_moves=1000)
    pacman_actions = result.actions[::3]
    env_state, trace = gym_episode(5, [index(a) for a in pacman_actions],
                                   layout="small_classic", ghosts="directional,random")
    assert env_state.game.score == result.score == sum(r for _, r in trace[1:])
    assert env_state.game.outcome == (result.outcome if result.outcome != "move_limit" else None)


def test_gymnasium_wall_bump_is_a_stop_by_default():
    env = gymnasium.make(envs.GYMNASIUM_ID, layout="small_classic", ghosts="random")
    _, info = env.reset(seed=0)
    before = env.unwrapped.game.pacman_position
    wall = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(wall)
    assert env.unwrapped.game.pacman_position == before
    assert env.unwrapped.game.directions[0] == "Stop"
    assert reward == -1 and not terminated
    assert info["illegal_action"] and info["illegal_actions"] == 1
    _, _, _, _, info = env.step(index("Stop"))
    assert not info["illegal_action"] and info["illegal_actions"] == 1


def test_gymnasium_truncates_at_max_moves():
    env = gymnasium.make(envs.GYMNASIUM_ID, layout="no_ghosts", ghosts="random", max_moves=4)
    env.reset(seed=0)
    ends = [env.step(index("Stop"))[3] for _ in range(4)]
    assert ends == [False, False, False, True]


def test_gymnasium_refuses_unknown_ghosts():
    with pytest.raises(ConfigurationError, match="ghost agent"):
        gymnasium.make(envs.GYMNASIUM_ID, ghosts="nosuchghost")


def test_global_state_is_the_board_without_the_self_plane():
    from pettingzoo.test.state_test import test_parallel_env, test_state_space

    env = envs.env(layout="capsule_rich", max_moves=40, observation="dict")
    env.reset()
    test_state_space(env.unwrapped)
    rng = random.Random(2)
    for _agent in env.agent_iter(200):
        observation, _, terminated, truncated, _ = env.last()
        state = env.state()
        assert env.unwrapped.state_space.contains(state)
        assert np.array_equal(state, observation["observation"][:, :, :-1])
        env.step(None if terminated or truncated else
                 rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    test_parallel_env(envs.parallel_env(layout="capsule_rich", observation="dict"))


def test_without_the_extra_the_import_says_what_to_install():
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['pettingzoo'] = None; import pacman.envs"],
        capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert "pacman.envs needs the rl extra (pettingzoo is not installed): pip install " \
           "'pacman-arena[rl]'" in done.stderr

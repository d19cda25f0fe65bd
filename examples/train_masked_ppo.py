"""Train a masked PPO Pacman on a small maze, then measure it against the random Pacman.

Usage (needs the ``train`` extra and torch)::

    python examples/train_masked_ppo.py [--layout tiny] [--ghosts random] [--num-ghosts K]
        [--steps 100000] [--eval-games 100] [--seed 0] [--max-moves 300] [--save FILE]

The policy is sb3-contrib's ``MaskablePPO`` with an MLP over the ``"flat"`` observation; the
action mask comes from the environment's ``action_masks()``, so Pacman never picks a wall.
Rewards are the game's score changes divided by 100 (food +0.1, each move -0.01, a win +5,
being caught -5), which keeps the value targets near 1.

The evaluation plays ``--eval-games`` games with the seeds ``10**6 + i`` (never seen in
training) for the trained policy (its most likely action) and for the random Pacman of the
catalog (uniform among its legal moves, no Stop), against the same ghosts, and prints a table:
win rate with its 95 % Wilson interval, mean score with its 95 % Student-t interval, and the
paired score difference over the shared seeds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gymnasium  # noqa: E402

import pacman.envs  # noqa: E402  (registers the environment)
from pacman.stats import mean_interval, paired_difference, wilson_interval  # noqa: E402

EVAL_SEED = 10**6
REWARD_SCALE = 0.01


def make_env(layout: str, ghosts: str, num_ghosts: int | None, max_moves: int) -> gymnasium.Env:
    """The training environment: flat observations, rewards scaled to about 1."""
    env = gymnasium.make(pacman.envs.GYMNASIUM_ID, layout=layout, ghosts=ghosts,
                         num_ghosts=num_ghosts, observation="flat", max_moves=max_moves)
    return gymnasium.wrappers.TransformReward(env, lambda reward: reward * REWARD_SCALE)


def train(layout: str, ghosts: str, num_ghosts: int | None, steps: int, seed: int,
          max_moves: int):
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(1)  # a small MLP: one thread is as fast, and leaves the others free

    vec = make_vec_env(lambda: make_env(layout, ghosts, num_ghosts, max_moves), n_envs=8, seed=seed)
    model = MaskablePPO("MlpPolicy", vec, n_steps=256, batch_size=256, n_epochs=4,
                        learning_rate=5e-4, gamma=0.99, ent_coef=0.01, seed=seed, verbose=0,
                        policy_kwargs={"net_arch": [256, 256]}, device="cpu")
    model.learn(total_timesteps=steps)
    return model


def play(choose: Callable[[gymnasium.Env, np.ndarray, dict], int], layout: str, ghosts: str,
         num_ghosts: int | None, games: int, max_moves: int) -> list[tuple[bool, int]]:
    """``(won, score)`` of seeded games, Pacman's actions from ``choose``."""
    env = gymnasium.make(pacman.envs.GYMNASIUM_ID, layout=layout, ghosts=ghosts,
                         num_ghosts=num_ghosts, observation="flat", max_moves=max_moves)
    results = []
    for game in range(games):
        observation, info = env.reset(seed=EVAL_SEED + game)
        done = False
        while not done:
            observation, _, terminated, truncated, info = env.step(
                choose(env, observation, info))
            done = terminated or truncated
        results.append((env.unwrapped.game.is_win, info["score"]))
    return results


def table(rows: dict[str, list[tuple[bool, int]]]) -> str:
    lines = ["| Pacman | games | win rate (95 % CI) | mean score (95 % CI) |",
             "|---|---|---|---|"]
    for name, results in rows.items():
        wins = sum(won for won, _ in results)
        low, high = wilson_interval(wins, len(results))
        mean, mean_low, mean_high = mean_interval([score for _, score in results])
        lines.append(f"| {name} | {len(results)} | {wins / len(results):.0%} "
                     f"({low:.0%} to {high:.0%}) | {mean:.0f} ({mean_low:.0f} to "
                     f"{mean_high:.0f}) |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layout", default="tiny")
    parser.add_argument("--ghosts", default="random")
    parser.add_argument("--num-ghosts", type=int, default=None,
                        help="how many ghosts play (default: every ghost start of the maze)")
    parser.add_argument("--steps", type=int, default=100_000, help="training steps")
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-moves", type=int, default=300,
                        help="moves before an episode is cut short (training and evaluation)")
    parser.add_argument("--save", metavar="FILE", help="save the trained model here")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    model = train(args.layout, args.ghosts, args.num_ghosts, args.steps, args.seed, args.max_moves)
    trained = time.perf_counter() - started
    print(f"trained {args.steps} steps in {trained:.0f} s", file=sys.stderr)
    if args.save:
        model.save(args.save)

    def policy(env, observation, info):
        action, _ = model.predict(observation, action_masks=env.unwrapped.action_masks(),
                                  deterministic=True)
        return action

    rng = random.Random(args.seed)

    def random_pacman(env, observation, info):
        legal = np.flatnonzero(info["action_mask"][:4]).tolist() or [4]
        return rng.choice(legal)

    where = (args.layout, args.ghosts, args.num_ghosts, args.eval_games, args.max_moves)
    rows = {"masked PPO": play(policy, *where), "random": play(random_pacman, *where)}
    print(table(rows))
    difference = paired_difference([s for _, s in rows["masked PPO"]],
                                   [s for _, s in rows["random"]])
    print(f"\nscore difference (masked PPO - random) over {difference.n} shared seeds: "
          f"{difference.difference:.0f} (95 % CI {difference.low:.0f} to {difference.high:.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

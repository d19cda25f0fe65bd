"""Train a masked PPO Pacman on the batched engine, then measure it against the random Pacman.

Usage (needs torch and the ``rl`` extra)::

    python -m pacman.examples.train_masked_ppo [--layout tiny] [--ghosts random]
        [--envs 32] [--steps 150000] [--eval-games 100] [--seed 0] [--max-moves 300]
        [--save FILE]

Training plays ``--envs`` games at once on :class:`pacman.envs.PacmanVectorEnv` (the batched
engine: the ``planes`` observation, Pacman's action mask in ``info["action_mask"]``, games
that end restart in the same step) with PPO written out in a few lines of torch, as CleanRL
writes it: clipped policy loss, value loss, entropy bonus, generalised advantage estimation.
The policy is an MLP over the flattened planes of the last two observations (the planes show
where each ghost is, not where it is heading; two frames show both, as Atari agents stack
frames) whose logits are masked (an action the mask forbids gets probability 0), so Pacman
never picks a wall; its layers start orthogonal, as CleanRL starts them. Rewards are the game's score changes
divided by 100 (food +0.1, each move -0.01, a win +5, being caught -5).

The evaluation plays ``--eval-games`` games with the seeds ``10**6 + i`` (never seen in
training) on the Gymnasium environment ``PacmanArena/Pacman-v0`` (the catalog's ghost agents,
the scalar engine) for the trained policy (its most likely legal action) and for the random
Pacman (uniform among its legal moves, no Stop), against the same ghosts, and prints a table:
win rate with its 95 % Wilson interval, mean score with its 95 % Student-t interval, and the
paired score difference over the shared seeds. The ``trained ... in`` line (stderr) gives the
training's wall time and CPU time.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from pacman.batch.stats import mean_interval, paired_difference, wilson_interval

EVAL_SEED = 10**6
REWARD_SCALE = 0.01


def build_policy(inputs: int, actions: int, hidden: int) -> Any:
    """The actor-critic: one MLP body, a policy head and a value head, orthogonal at the
    start (gain sqrt(2) in the body, 0.01 for the policy, so that it starts near uniform, 1 for
    the value), biases 0."""
    import torch
    from torch import nn

    def layer(into: int, out: int, gain: float) -> nn.Linear:
        linear = nn.Linear(into, out)
        nn.init.orthogonal_(linear.weight, gain)
        nn.init.zeros_(linear.bias)
        return linear

    class ActorCritic(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(layer(inputs, hidden, 2 ** 0.5), nn.Tanh(),
                                      layer(hidden, hidden, 2 ** 0.5), nn.Tanh())
            self.policy = layer(hidden, actions, 0.01)
            self.value = layer(hidden, 1, 1.0)

        def forward(self, observations: torch.Tensor, masks: torch.Tensor
                    ) -> tuple[torch.Tensor, torch.Tensor]:
            features = self.body(observations)
            logits = self.policy(features).masked_fill(~masks, -1e9)
            return logits, self.value(features).squeeze(-1)

    return ActorCritic()


def train(layout: str, ghosts: str, envs: int, steps: int, seed: int, max_moves: int,
          rollout: int = 64, epochs: int = 4, minibatches: int = 8, gamma: float = 0.99,
          lam: float = 0.95, clip: float = 0.2, learning_rate: float = 5e-4,
          entropy: float = 0.01) -> Any:
    """The trained actor-critic after ``steps`` environment steps (rounded up to whole
    rollouts of ``envs * rollout``)."""
    import torch

    from pacman.envs import PacmanVectorEnv

    torch.manual_seed(seed)
    torch.set_num_threads(1)  # a small MLP: one thread is as fast, and leaves the others free
    env = PacmanVectorEnv(envs, layout=layout, ghosts=ghosts, max_moves=max_moves)
    observations, info = env.reset(seed=seed)
    inputs = 2 * int(np.prod(env.tables.shape))  # this frame and the last
    model = build_policy(inputs, 5, 256)
    optimiser = torch.optim.Adam(model.parameters(), lr=learning_rate, eps=1e-5)
    shape = (rollout, envs)
    buffer_obs = torch.zeros(shape + (inputs,))
    buffer_masks = torch.zeros(shape + (5,), dtype=torch.bool)
    buffer_actions = torch.zeros(shape, dtype=torch.long)
    buffer_logp, buffer_values = torch.zeros(shape), torch.zeros(shape)
    buffer_rewards, buffer_dones = torch.zeros(shape), torch.zeros(shape)
    frame = torch.as_tensor(observations.reshape(envs, -1), dtype=torch.float32)
    obs = torch.cat((frame, frame), dim=1)  # a game's first frame stands for the one before
    masks = torch.as_tensor(info["action_mask"])
    updates = -(-steps // (envs * rollout))
    for update in range(updates):
        for param in optimiser.param_groups:
            param["lr"] = learning_rate * (1 - update / updates)
        for t in range(rollout):
            with torch.no_grad():
                logits, value = model(obs, masks)
                distribution = torch.distributions.Categorical(logits=logits)
                action = distribution.sample()
            buffer_obs[t], buffer_masks[t], buffer_actions[t] = obs, masks, action
            buffer_logp[t], buffer_values[t] = distribution.log_prob(action), value
            observations, rewards, terminated, truncated, info = env.step(action.numpy())
            buffer_rewards[t] = torch.as_tensor(rewards * REWARD_SCALE)
            # a truncated game's value would need its final observation; treating it as an
            # end costs little with 300 moves and keeps the loop short
            ended = torch.as_tensor(terminated | truncated)
            buffer_dones[t] = ended.float()
            following = torch.as_tensor(observations.reshape(envs, -1), dtype=torch.float32)
            before = torch.where(ended[:, None], following, frame)
            frame = following
            obs = torch.cat((frame, before), dim=1)
            masks = torch.as_tensor(info["action_mask"])
        with torch.no_grad():
            next_value = model(obs, masks)[1]
            advantages = torch.zeros(shape)
            running = torch.zeros(envs)
            for t in reversed(range(rollout)):
                following = next_value if t == rollout - 1 else buffer_values[t + 1]
                alive = 1.0 - buffer_dones[t]
                delta = buffer_rewards[t] + gamma * following * alive - buffer_values[t]
                running = delta + gamma * lam * alive * running
                advantages[t] = running
            returns = advantages + buffer_values
        flat = (buffer_obs.reshape(-1, inputs), buffer_masks.reshape(-1, 5),
                buffer_actions.reshape(-1), buffer_logp.reshape(-1), advantages.reshape(-1),
                returns.reshape(-1))
        size = envs * rollout
        for _ in range(epochs):
            order = torch.randperm(size)
            for part in order.split(size // minibatches):
                o, m, a, old_logp, adv, ret = (x[part] for x in flat)
                logits, value = model(o, m)
                distribution = torch.distributions.Categorical(logits=logits)
                ratio = (distribution.log_prob(a) - old_logp).exp()
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = -torch.min(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv).mean()
                loss = (policy_loss + 0.5 * ((value - ret) ** 2).mean()
                        - entropy * distribution.entropy().mean())
                optimiser.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
                optimiser.step()
    return model


def play(choose: Callable[[np.ndarray, np.ndarray, np.ndarray], int], layout: str, ghosts: str,
         games: int, max_moves: int) -> list[tuple[bool, int]]:
    """``(won, score)`` of seeded games of the scalar engine, Pacman's actions from
    ``choose(planes, last planes, mask)`` (the last planes are the first ones at the start)."""
    import gymnasium

    import pacman.envs

    env = gymnasium.make(pacman.envs.GYMNASIUM_ID, layout=layout, ghosts=ghosts,
                         observation="planes", max_moves=max_moves)
    results = []
    for game in range(games):
        observation, info = env.reset(seed=EVAL_SEED + game)
        last, done = observation, False
        while not done:
            action = choose(observation, last, info["action_mask"])
            last = observation
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        results.append((info["outcome"] == "win", info["score"]))
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
    parser = argparse.ArgumentParser(prog="python -m pacman.examples.train_masked_ppo",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--layout", default="tiny")
    parser.add_argument("--ghosts", default="random", help="random or directional")
    parser.add_argument("--envs", type=int, default=32, help="games played at once")
    parser.add_argument("--steps", type=int, default=150_000, help="training steps")
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-moves", type=int, default=300,
                        help="moves before an episode is cut short (training and evaluation)")
    parser.add_argument("--save", metavar="FILE", help="save the trained model's weights here")
    args = parser.parse_args(argv)
    try:
        import torch
    except ImportError:
        print("pacman-arena: this example needs torch (pip install torch)", file=sys.stderr)
        return 2
    started, cpu = time.perf_counter(), time.process_time()
    model = train(args.layout, args.ghosts, args.envs, args.steps, args.seed, args.max_moves)
    trained, used = time.perf_counter() - started, time.process_time() - cpu
    # on a shared machine the wall time is the share the process got; the CPU time is its work
    print(f"trained {args.steps} steps in {trained:.0f} s ({used:.0f} CPU-seconds)",
          file=sys.stderr)
    if args.save:
        torch.save(model.state_dict(), args.save)

    def policy(observation: np.ndarray, last: np.ndarray, mask: np.ndarray) -> int:
        frames = np.concatenate((observation.reshape(-1), last.reshape(-1)))
        with torch.no_grad():
            logits, _ = model(torch.as_tensor(frames.reshape(1, -1), dtype=torch.float32),
                              torch.as_tensor(mask.astype(bool)).reshape(1, -1))
        return int(logits.argmax())

    rng = random.Random(args.seed)

    def random_pacman(observation: np.ndarray, last: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask[:4]).tolist() or [4]
        return rng.choice(legal)

    where = (args.layout, args.ghosts, args.eval_games, args.max_moves)
    rows = {"masked PPO": play(policy, *where), "random": play(random_pacman, *where)}
    print(table(rows))
    difference = paired_difference([s for _, s in rows["masked PPO"]],
                                   [s for _, s in rows["random"]])
    print(f"\nscore difference (masked PPO - random) over {difference.n} shared seeds: "
          f"{difference.difference:.0f} (95 % CI {difference.low:.0f} to {difference.high:.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

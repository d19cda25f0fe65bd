"""Environment steps per second beside the engine's raw successors per second, in one run.

Usage: ``python bench/bench_envs.py [--moves N] [--layouts a,b]``

Every row plays seeded random legal moves (every agent, ghosts included) for ``--moves`` agent
moves, restarting finished games, and counts agent moves per second:

* ``engine successor``: ``state.successor(action)`` alone, the floor of any environment;
* ``observation (numpy)``: one successor plus the observation of the agent to move, as the
  environments build it; ``observation (loops)``: the same planes filled by Python loops over
  the cells, the variant numpy replaces;
* ``AEC env``: ``last()`` then ``step()`` of the PettingZoo AEC environment;
* ``parallel env``: PettingZoo's parallel environment, one round per ``step``;
* ``Gymnasium env``: ``PacmanArena/Pacman-v0`` with random ghosts, one round per ``step``
  (the ghosts' own agents choose their moves).

``calls/s`` counts successors, observations or environment steps (a round for the parallel
and Gymnasium environments); ``moves/s`` counts agent moves. The last column is each row's
moves per second as a fraction of the engine's.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gymnasium  # noqa: E402

import pacman.envs  # noqa: E402,F401  (registers the Gymnasium environment)
from pacman.envs.observation import Observer  # noqa: E402
from pacman.engine.layout import load_layout  # noqa: E402
from pacman.engine.state import GameState  # noqa: E402


def engine_moves(layout, moves: int, observer: Observer | None = None, build=None) -> float:
    """Seconds for ``moves`` random moves (and, with ``build``, an observation after each)."""
    rng = random.Random(0)
    start = GameState.initial(layout)
    state = start
    began = time.perf_counter()
    for _ in range(moves):
        if state[8] is not None:
            state = start
        state = state.successor(rng.choice(state.legal_actions()))
        if build is not None:
            build(observer, state)
    return time.perf_counter() - began


def numpy_observation(observer: Observer, state: GameState) -> np.ndarray:
    return observer.observe(state, state[7])


def loop_observation(observer: Observer, state: GameState) -> np.ndarray:
    """The same planes as :meth:`Observer.observe`, cell by cell in Python."""
    layout = observer.layout
    planes = np.zeros(observer.shape, dtype=np.int8)
    k = observer.num_ghosts
    for cell in range(layout.width * layout.height):
        row, column = layout.height - 1 - cell // layout.width, cell % layout.width
        planes[row, column, 0] = layout.walls >> cell & 1
        planes[row, column, 1] = state[4] >> cell & 1
        planes[row, column, 2] = state[5] >> cell & 1
        for agent, position in enumerate(state[1]):
            if position == cell:
                planes[row, column, 3 + agent] = 1
                if agent and state[3][agent - 1]:
                    planes[row, column, 4 + k] = 1
                if agent == state[7]:
                    planes[row, column, 5 + k] = 1
    return planes


def pick(rng: random.Random, mask: np.ndarray) -> int:
    """A random legal action of an action mask."""
    return rng.choice(np.flatnonzero(mask).tolist())


def aec_moves(layout, moves: int) -> float:
    env = pacman.envs.env(layout=layout, max_moves=None, observation="dict")
    env.reset(seed=0)
    rng = random.Random(0)
    began = time.perf_counter()
    for _ in range(moves):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset()
            continue
        env.step(pick(rng, observation["action_mask"]))
    return time.perf_counter() - began


def parallel_moves(layout, moves: int) -> float:
    env = pacman.envs.parallel_env(layout=layout, max_moves=None, observation="dict")
    observations, _ = env.reset(seed=0)
    rng = random.Random(0)
    done = 0
    began = time.perf_counter()
    while done < moves:
        if not env.agents:
            observations, _ = env.reset()
        actions = {agent: pick(rng, observations[agent]["action_mask"]) for agent in env.agents}
        done += len(actions)
        observations, *_ = env.step(actions)
    return time.perf_counter() - began


def gymnasium_moves(layout, moves: int) -> float:
    env = gymnasium.make("PacmanArena/Pacman-v0", layout=layout, ghosts="random",
                         max_moves=None, observation="planes")
    _, info = env.reset(seed=0)
    rng = random.Random(0)
    per_round = layout.num_ghosts + 1
    began = time.perf_counter()
    for _ in range(moves // per_round):
        _, _, terminated, truncated, info = env.step(pick(rng, info["action_mask"]))
        if terminated or truncated:
            _, info = env.reset()
    return time.perf_counter() - began


def bench_layout(name: str, moves: int) -> list[tuple[str, float, int]]:
    """``(what, agent moves per second, agent moves per call)`` of every row."""
    layout = load_layout(name)
    observer = Observer(layout, layout.num_ghosts)
    state = GameState.initial(layout)
    assert (numpy_observation(observer, state) == loop_observation(observer, state)).all()
    per_round = layout.num_ghosts + 1
    rows = [("engine successor", moves / engine_moves(layout, moves), 1),
            ("observation (numpy)", moves / engine_moves(layout, moves, observer,
                                                        numpy_observation), 1),
            ("observation (loops)", moves // 10 / engine_moves(layout, moves // 10, observer,
                                                              loop_observation), 1),
            ("AEC env", moves / aec_moves(layout, moves), 1),
            ("parallel env", moves / parallel_moves(layout, moves), per_round),
            ("Gymnasium env", moves / gymnasium_moves(layout, moves), per_round)]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20_000)
    parser.add_argument("--layouts", default="small_classic,large_classic")
    args = parser.parse_args()
    for name in args.layouts.split(","):
        layout = load_layout(name)
        print(f"{name}: {layout.width}x{layout.height}, {layout.num_ghosts} ghosts, "
              f"{args.moves} agent moves")
        rows = bench_layout(name, args.moves)
        engine = rows[0][1]
        print(f"  {'what':22} {'calls/s':>10} {'moves/s':>10} {'vs engine':>10}")
        for what, rate, per_call in rows:
            print(f"  {what:22} {rate / per_call:>10,.0f} {rate:>10,.0f} "
                  f"{rate / engine:>10.3f}")


if __name__ == "__main__":
    main()

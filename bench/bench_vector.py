"""Environment steps per second of the batched engine (pacman.envs.vector), beside Jumanji's
PacMan-v1 vmapped inside ``lax.scan`` when jax and jumanji are installed.

Usage: ``python bench/bench_vector.py [--seconds S] [--envs B] [--workers W] [--no-jumanji]``

Rows (uniformly random Pacman actions, walls included; the games reset themselves):

* ``small_classic``, its 2 random ghosts, ``planes`` observations;
* ``originalClassic``, 4 directional ghosts, ``planes`` observations.

Each row runs ``--workers`` processes (default 2, one per core of the target machine), each
stepping its own ``PacmanVectorEnv`` of ``--envs`` games (default 4,096) with ``copy=False``
(the planes returned are the environment's buffer, built in place) for ``--seconds``. It prints
env-steps per second of wall time (every worker's steps over the run), per CPU-second (what
one core gives when the process has it) and that times the workers: what the workers give on
as many idle cores. On a machine shared with other jobs the wall figure is only the share the
processes got, so all three are printed beside the load average; on an idle machine the wall
figure and the CPU-time one agree.

Jumanji's row: ``PacMan-v1`` (its own maze, 4 ghosts) with ``AutoResetWrapper``, ``B`` games
vmapped, ``T`` steps in one jitted ``lax.scan``, random actions drawn inside the scan, timed
after a first compiled run, in this process (XLA threads as it likes; its per-CPU-second figure
counts every thread). The ratio row divides our ``originalClassic`` figures (also 4 ghosts) by
Jumanji's: of wall time, and per CPU-second.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import time

import numpy as np

ROWS = [("small_classic", "random"), ("originalClassic", "directional")]


def worker(layout: str, ghosts: str, envs: int, seconds: float, seed: int) -> tuple[int, float, float]:
    """``(env-steps, wall seconds, CPU seconds)`` of one process stepping its own env."""
    from pacman.envs.vector import PacmanVectorEnv

    env = PacmanVectorEnv(envs, layout=layout, ghosts=ghosts, copy=False)
    env.reset(seed=seed)
    actions = np.random.default_rng(seed).integers(0, 5, (256, envs))
    for row in actions[:8]:  # warm the caches and the allocator
        env.step(row)
    steps = 0
    began, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - began < seconds:
        for row in actions[:32]:
            env.step(row)
        steps += 32 * envs
    return steps, time.perf_counter() - began, time.process_time() - cpu


def ours(layout: str, ghosts: str, envs: int, seconds: float, workers: int) -> tuple[float, float]:
    """Wall env-steps/s summed over the workers, and env-steps per CPU-second."""
    jobs = [(layout, ghosts, envs, seconds, seed) for seed in range(workers)]
    if workers == 1:
        results = [worker(*jobs[0])]
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            results = pool.starmap(worker, jobs)
    wall = sum(steps / elapsed for steps, elapsed, _ in results)
    per_cpu = sum(steps for steps, _, _ in results) / sum(cpu for _, _, cpu in results)
    return wall, per_cpu


def jumanji_rate(envs: int, seconds: float) -> tuple[float, float] | None:
    """Jumanji PacMan-v1 env-steps/s of wall time and per CPU-second of this process (every
    XLA thread's), vmapped in ``lax.scan``; None without jax/jumanji."""
    try:
        import jax
        import jumanji
        from jumanji.wrappers import AutoResetWrapper
    except ImportError:
        return None
    env = AutoResetWrapper(jumanji.make("PacMan-v1"))
    length = 64

    def body(carry, _):
        state, key = carry
        key, sub = jax.random.split(key)
        actions = jax.random.randint(sub, (envs,), 0, 5)
        state, _ = jax.vmap(env.step)(state, actions)
        return (state, key), None

    @jax.jit
    def run(state, key):
        return jax.lax.scan(body, (state, key), None, length=length)[0]

    keys = jax.random.split(jax.random.PRNGKey(0), envs)
    state, _ = jax.jit(jax.vmap(env.reset))(keys)
    carry = jax.block_until_ready(run(state, jax.random.PRNGKey(1)))  # compile
    steps, began, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - began < seconds:
        carry = jax.block_until_ready(run(*carry))
        steps += length * envs
    return steps / (time.perf_counter() - began), steps / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--envs", type=int, default=4096, help="games per worker (B)")
    parser.add_argument("--workers", type=int, default=2, help="processes (one per core)")
    parser.add_argument("--no-jumanji", action="store_true")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{os.cpu_count()} CPUs; {args.workers} workers x B = {args.envs}")
    print(f"| maze, ghosts | env-steps/s (wall) | env-steps per CPU-second | "
          f"x {args.workers} workers (CPU-time env-steps/s) |")
    print("|---|---|---|---|")
    figures: dict[str, tuple[float, float]] = {}
    for layout, ghosts in ROWS:
        wall, per_cpu = ours(layout, ghosts, args.envs, args.seconds, args.workers)
        figures[layout] = wall, per_cpu
        print(f"| {layout}, {ghosts}, planes | {wall:,.0f} | {per_cpu:,.0f} | "
              f"{per_cpu * args.workers:,.0f} |", flush=True)
    rates = None if args.no_jumanji else jumanji_rate(args.envs, args.seconds)
    if rates is None:
        print("Jumanji: not run (pip install jax jumanji, or the 'jax' extra)")
    else:
        rate, rate_cpu = rates
        print(f"| Jumanji PacMan-v1, 4 ghosts, vmap in lax.scan (B = {args.envs}), one process "
              f"| {rate:,.0f} | {rate_cpu:,.0f} | |")
        wall, per_cpu = figures["originalClassic"]
        print(f"ratio originalClassic (4 directional ghosts) / Jumanji PacMan-v1: "
              f"{wall / rate:.1f}x of wall time, {per_cpu / rate_cpu:.1f}x per CPU-second")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

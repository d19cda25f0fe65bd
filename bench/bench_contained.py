"""What containing an agent costs, measured side by side in one run.

Usage: ``python bench/bench_contained.py [--games N] [--workers W] [--repeats R]``

The same alpha-beta agent plays built in (``-p alphabeta``, in the game's process) and from
a file (``-p FILE.py:Agent``, contained: its own process under the backend in use, see
docs/contained-agents.md), on the same seeds of the default maze, both through the command
line as a user runs them:

* **batch**: ``pacman-arena batch -n N --workers W`` wall time, contained / built in (the
  target is at most 1.3). Each worker starts the agent's process once and plays its games in
  it;
* **lone game**: ``pacman-arena play`` of one game, the contained run's extra wall time (the
  target is under 0.5 s): one process start and the agent's loading.

Each figure is the best of ``--repeats`` runs, the two sides alternating; the load average
is printed with them (other work on a shared machine changes wall-clock figures).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AGENT_FILE = "from pacman.agents.search_agents import AlphaBetaAgent as Agent\n"


def timed(argv: list[str]) -> float:
    """Wall seconds of ``pacman-arena ARGV`` (its output discarded; it must succeed)."""
    began = time.perf_counter()
    done = subprocess.run([sys.executable, str(ROOT / "run.py"), *argv], cwd=ROOT,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench_contained: {' '.join(argv)} failed: {done.stderr.strip()}")
    return time.perf_counter() - began


def best_pair(built: list[str], contained: list[str], repeats: int) -> tuple[float, float]:
    """The best of ``repeats`` runs of each command, alternating."""
    a, b = [], []
    for _ in range(repeats):
        a.append(timed(built))
        b.append(timed(contained))
    return min(a), min(b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    backend = os.environ.get("PACMAN_AGENT_JAIL") or "default (bwrap where it runs)"
    with tempfile.TemporaryDirectory() as folder:
        agent = Path(folder) / "alphabeta_file.py"
        agent.write_text(AGENT_FILE, encoding="utf-8")
        contained = f"{agent}:Agent"
        batch = ["batch", "-n", str(args.games), "--workers", str(args.workers), "--no-store",
                 "--no-progress", "--json"]
        load_before = os.getloadavg()
        built_batch, file_batch = best_pair([*batch, "-p", "alphabeta"],
                                            [*batch, "-p", contained], args.repeats)
        play = ["play", "--json", "--seed", "1"]
        built_play, file_play = best_pair([*play, "-p", "alphabeta"], [*play, "-p", contained],
                                          args.repeats)
        load_after = os.getloadavg()
    print(f"backend: {backend}; best of {args.repeats}; load average "
          f"{load_before[0]:.2f} before, {load_after[0]:.2f} after")
    print(f"batch of {args.games} games, {args.workers} workers: built in {built_batch:.2f} s, "
          f"from a file {file_batch:.2f} s, ratio {file_batch / built_batch:.2f} (target <= 1.3)")
    print(f"one play game: built in {built_play:.2f} s, from a file {file_play:.2f} s, extra "
          f"{file_play - built_play:.2f} s (target < 0.5 s)")


if __name__ == "__main__":
    main()

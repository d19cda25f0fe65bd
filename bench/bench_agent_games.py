"""Game speed of the agents at two revisions: this checkout against another, in one run.

Usage: ``python bench/bench_agent_games.py [--baseline REV] [--rounds R] [--games N]
[--lineups a,b]`` (about 3 minutes with the defaults on a loaded 2-core machine)

The baseline revision's tree (default: where this branch left ``main``) is exported with ``git archive`` into a
temporary folder. Each round plays the same seeded games of every line-up below once with each
tree, in a fresh process per tree and line-up, the order of the two trees alternating from
round to round, so that the load of the machine falls on both alike. Printed per line-up: the
least CPU seconds per game of each tree over the rounds, their ratio (this checkout over the
baseline: under 1 is faster) and whether the games are identical (outcome, score and every
move). They must be, for a change that only renames how agents read the state. The line-ups
are the default game of ``play`` and the agents whose per-node code reads the state: the
evaluations, the smart ghosts, the strongest setting's checks (at a fixed depth, so that no
clock decides a move).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: name -> (Pacman, its options, ghosts, their options)
LINEUPS: dict[str, tuple[str, dict[str, str], str, dict[str, str]]] = {
    "default play (alphabeta depth 3, directional)": ("alphabeta", {"depth": "3"}, "directional", {}),
    "expectimax depth 2, random ghosts": ("expectimax", {"depth": "2"}, "random", {}),
    "strongest at depth 3 (strong eval, focus, outrun, route)":
        ("strongest", {"time_budget": "1000", "max_depth": "3"}, "directional", {}),
    "alphabeta depth 2 closest_dot, team ghosts":
        ("alphabeta", {"depth": "2", "evaluation": "closest_dot"}, "team", {}),
    "minimax depth 2, territory ghosts": ("minimax", {"depth": "2"}, "territory", {}),
    "greedy linear, adversarial ghosts":
        ("greedy", {"evaluation": "linear:score=1,nearest_food=-1,ghost_danger=-50,capsules_left=-5,win=100",
                    "tie_break": "first"}, "adversarial", {}),
}

#: Run in a worker with the tree as its working directory: plays the games, prints JSON.
WORKER = """
import hashlib, json, sys, time
import pacman.batch
from pacman.batch import GameJob, play_job
pacman_name, pacman_options, ghosts, ghost_options, layout, games, max_moves = json.loads(sys.argv[1])
jobs = [GameJob("bench", layout, pacman_name, pacman_options, ghosts=ghosts, ghost_options=ghost_options,
                seed=seed, max_moves=max_moves) for seed in range(games)]
play_job(jobs[0])  # warm: imports and the maze's tables
start = time.process_time()
results = [play_job(job) for job in jobs]
cpu = time.process_time() - start
games = [[str(r.outcome), r.score, r.moves, hashlib.sha256(" ".join(r.actions).encode()).hexdigest(),
          r.failure is None] for r in results]
code = [pacman.batch.__file__, *(m.__file__ for name, m in sorted(sys.modules.items())
                                 if name.startswith("agents."))]
print(json.dumps({"cpu": cpu, "games": games, "code": code}))
"""


def export_tree(rev: str) -> Path:
    """The files of revision ``rev`` of this repository, in a new temporary folder."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev],
                             check=True, capture_output=True).stdout
    folder = Path(tempfile.mkdtemp(prefix="pacman-bench-baseline-"))
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def play(tree: Path, lineup: tuple[str, dict[str, str], str, dict[str, str]], layout: str,
         games: int, max_moves: int) -> dict:
    """CPU seconds and the games of ``lineup`` played by the code of ``tree``, in a fresh
    process whose imports resolve to ``tree`` only."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    argument = json.dumps([*lineup, layout, games, max_moves])
    done = subprocess.run([sys.executable, "-c", WORKER, argument], cwd=tree, env=env,
                          capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"bench_agent_games: the games failed in {tree}:\n{done.stderr}")
    found = json.loads(done.stdout)
    if not all(Path(path).is_relative_to(tree) for path in found["code"]):
        sys.exit(f"bench_agent_games: {tree} played with code from {found['code']}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", help="git revision to compare with (default: where this "
                        "branch left main, git merge-base HEAD main)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per tree (5)")
    parser.add_argument("--games", type=int, default=4, help="seeded games per line-up (4)")
    parser.add_argument("--layout", default="small_classic")
    parser.add_argument("--max-moves", type=int, default=200, help="move cap per game (200)")
    parser.add_argument("--lineups", help="comma-separated numbers of line-ups to play (1-based)")
    args = parser.parse_args()
    chosen = list(LINEUPS.items())
    if args.lineups:
        chosen = [chosen[int(n) - 1] for n in args.lineups.split(",")]
    if args.baseline is None:
        args.baseline = subprocess.run(["git", "-C", str(ROOT), "merge-base", "HEAD", "main"], check=True,
                                       capture_output=True, text=True).stdout.strip()[:10]
    old = export_tree(args.baseline)
    trees = {"new": ROOT, "old": old}
    print(f"this checkout against {args.baseline} ({old}); {args.games} games of at most "
          f"{args.max_moves} moves per line-up on {args.layout}, best of {args.rounds} rounds; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'line-up':58s} {'new s/game':>10s} {'old s/game':>10s} {'new/old':>8s}  same games")
    total = {"new": 0.0, "old": 0.0}
    for name, lineup in chosen:
        best = {"new": float("inf"), "old": float("inf")}
        games: dict[str, list] = {}
        for round_ in range(args.rounds):
            order = ("new", "old") if round_ % 2 == 0 else ("old", "new")
            for which in order:
                found = play(trees[which], lineup, args.layout, args.games, args.max_moves)
                best[which] = min(best[which], found["cpu"] / args.games)
                games.setdefault(which, found["games"])
        total["new"] += best["new"]
        total["old"] += best["old"]
        same = "yes" if games["new"] == games["old"] else "NO"
        print(f"{name:58s} {best['new']:10.3f} {best['old']:10.3f} "
              f"{best['new'] / best['old']:8.3f}  {same}", flush=True)
    print(f"{'all line-ups (sum of the best per game)':58s} {total['new']:10.3f} "
          f"{total['old']:10.3f} {total['new'] / total['old']:8.3f}")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    shutil.rmtree(old)


if __name__ == "__main__":
    main()

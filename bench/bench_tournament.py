"""A class cup's time: a small cup measured, a 300-entrant cup extrapolated, and the speedup of a
2-worker Dask LocalCluster against 1 worker, measured side by side.

Usage: ``python bench/bench_tournament.py [--games G] [--copies K] [--repeats R] [--no-dask]``

The cup: the playing entrants of ``tests/tournament/entrants/`` (three ``ExpectimaxAgent``s at
depth 2 with their ``betterEvaluationFunction``, three reflex ``ContestAgent``s), ``--copies``
times each (default 1: six entrants), on ``contestClassic`` with its directional ghosts, ``G``
games each (default 5), ``--no-replays``, a per-move limit of 5 s (so that a loaded machine
does not turn slow moves into timeouts, which would shorten games). Every run is
``pacman-arena tournament`` as a user runs it, in a process of its own:

* **per game**: the cup with one local worker (its games played in the cup's process, each
  entrant's agent in its contained process), less the same command run again with every game
  stored (the fixed part: starting, checking each entrant's class in a contained process,
  reading the store, writing the files); its wall time and its CPU time (of the cup's process
  and every process under it, sampled from ``/proc``) per game;
* **per entrant**: the fixed part less that of a cup with no playing entrant, per entrant;
* **300 entrants, 1 maze, 10 games**: 3,000 games at the measured per-game wall time plus the
  fixed part of 300 entrants, with 1 worker; with a 2-worker Dask cluster at its measured
  per-game time (below); and the CPU time of 3,000 games over the machine's 2 cores (the floor
  on an idle machine);
* **Dask, 2 workers against 1**: the same cup on a ``LocalCluster`` of 1 and of 2 worker
  processes (one thread each, started before the clock), alternating, ``--repeats`` times
  each: the ratio of the medians of the wall times, whole and less the fixed part.

The load average (1 min) is printed before and after every run: the machine may be shared, and
wall-clock figures follow its load; CPU times do not.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pacman.grading.cpu_clock import process_tree  # noqa: E402

ENTRANTS = ROOT / "tests" / "tournament" / "entrants"
PLAYING = ("alice.py", "bob.py", "carol", "dave", "oscar.py", "walter")
TICKS = os.sysconf("SC_CLK_TCK")


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


class CpuSampler:
    """The CPU time of a process and every process under it, from ``/proc``: each process's own
    user and system time, last seen every ``interval`` seconds (a process's last interval
    before it ends is missed)."""

    def __init__(self, pid: int, interval: float = 0.05) -> None:
        self.pid, self.interval = pid, interval
        self.seen: dict[tuple[int, int], int] = {}
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done.is_set():
            for pid in process_tree(self.pid) or []:
                try:
                    with open(f"/proc/{pid}/stat", "rb") as handle:
                        fields = handle.read().rpartition(b")")[2].split()
                    self.seen[(pid, int(fields[19]))] = int(fields[11]) + int(fields[12])
                except (OSError, ValueError, IndexError):
                    continue
            self.done.wait(self.interval)

    def stop(self) -> float:
        self.done.set()
        self.thread.join()
        return sum(self.seen.values()) / TICKS


def cup(label: str, folder: Path, config: Path, out: Path, *extra: str) -> tuple[float, float]:
    """Wall and CPU seconds of ``pacman-arena tournament`` on ``folder`` into ``out``."""
    argv = [sys.executable, str(ROOT / "run.py"), "tournament", str(folder), "--config",
            str(config), "--out", str(out), "--no-progress", "--no-replays", *extra]
    before = load()
    began = time.perf_counter()
    process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    sampler = CpuSampler(process.pid)
    _, err = process.communicate()
    wall = time.perf_counter() - began
    cpu = sampler.stop()
    if process.returncode != 0:
        raise SystemExit(f"bench_tournament: {' '.join(argv)} failed: {err.strip()}")
    print(f"  {label:<40} {wall:7.1f} s wall  {cpu:7.1f} s CPU  "
          f"(load {before} -> {load()})", flush=True)
    return wall, cpu


def class_folder(where: Path, copies: int) -> Path:
    folder = where / "class"
    folder.mkdir()
    for copy in range(copies):
        for name in PLAYING:
            source = ENTRANTS / name
            target = folder / (name if copy == 0 else f"{copy}-{name}")
            if source.is_dir():
                shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy(source, target)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="games per entrant (default 5)")
    parser.add_argument("--copies", type=int, default=1,
                        help="copies of the six entrants (default 1)")
    parser.add_argument("--repeats", type=int, default=2,
                        help="runs of each Dask cluster size (default 2)")
    parser.add_argument("--no-dask", action="store_true", help="leave out the Dask speedup")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        where = Path(temporary)
        folder = class_folder(where, args.copies)
        entrants = len(PLAYING) * args.copies
        games = entrants * args.games
        config = where / "cup.toml"
        config.write_text(f'games = {args.games}\nmazes = ["contestClassic"]\n'
                          "move_time_limit = 5.0\n", encoding="utf-8")
        empty = where / "empty"
        empty.mkdir()
        (empty / "nobody.py").write_text("", encoding="utf-8")
        print(f"cup: {entrants} entrants x {args.games} games = {games} games on contestClassic; "
              f"{os.cpu_count()} cores")
        one = ("--workers", "1")
        wall, cpu = cup("the cup, 1 local worker", folder, config, where / "local", *one)
        fixed_wall, fixed_cpu = cup("again, every game stored", folder, config,
                                    where / "local", *one)
        base_wall, _ = cup("no playing entrant", empty, config, where / "empty-out", *one)
        per_game, cpu_per_game = (wall - fixed_wall) / games, (cpu - fixed_cpu) / games
        per_entrant = max(0.0, fixed_wall - base_wall) / entrants
        print(f"per game: {per_game:.2f} s wall, {cpu_per_game:.2f} s CPU (1 worker); fixed "
              f"part {fixed_wall:.1f} s = {base_wall:.1f} s + {per_entrant:.2f} s per entrant")
        big_games, big_entrants = 3000, 300
        fixed_big = base_wall + big_entrants * per_entrant
        alone = fixed_big + big_games * per_game
        print(f"300 entrants, 1 maze, 10 games (3,000 games), 1 worker: {alone / 60:.0f} min "
              f"({big_games} x {per_game:.2f} s + {fixed_big / 60:.1f} min fixed)")
        floor = big_games * cpu_per_game / 2
        print(f"  CPU of its games over 2 cores (an idle machine's floor): {floor / 60:.0f} min")
        if args.no_dask:
            return
        import distributed

        runs: dict[int, list[float]] = {1: [], 2: []}
        for repeat in range(args.repeats):
            for workers in (1, 2):
                with distributed.LocalCluster(processes=True, n_workers=workers,
                                              threads_per_worker=1,
                                              dashboard_address=None) as cluster:
                    out = where / f"dask-{workers}-{repeat}"
                    runs[workers].append(cup(f"Dask LocalCluster, {workers} worker(s)", folder,
                                             config, out, "--backend", "dask",
                                             "--scheduler", cluster.scheduler_address)[0])
        one_worker, two_workers = (statistics.median(runs[k]) for k in (1, 2))
        whole = one_worker / two_workers
        games_only = (one_worker - fixed_wall) / max(1e-9, two_workers - fixed_wall)
        print(f"Dask LocalCluster, 2 workers against 1: {whole:.2f}x whole cup "
              f"({one_worker:.1f} s against {two_workers:.1f} s, medians of {args.repeats}), "
              f"{games_only:.2f}x its games (less the {fixed_wall:.1f} s fixed part)")
        dask_per_game = (two_workers - fixed_wall) / games
        two = fixed_big + big_games * dask_per_game
        print(f"300 entrants, 1 maze, 10 games on a 2-worker Dask LocalCluster: {two / 60:.0f} "
              f"min ({big_games} x {dask_per_game:.2f} s + {fixed_big / 60:.1f} min fixed); "
              f"load now {load()}")


if __name__ == "__main__":
    main()

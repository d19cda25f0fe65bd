"""Batch speed: games/s of random agents with 1 and 2 workers, store overhead, a 10,000-game run.

Usage: ``python bench/bench_batch.py [--games N] [--layout NAME] [--big N] [--repeats R]``

* games/s of random Pacman against random ghosts on the maze (default ``small_classic``)
  with 1 worker (in-process) and 2 worker processes, and their ratio (target: at least 1.8x);
  each figure is the best of ``--repeats`` runs (least disturbed by other load);
* the store's overhead per game: appending a finished game's line to a results store
  (writing it and parsing it back), target under 1 ms; and the same measured end to end as
  the difference between a 1-worker batch with and without a store;
* ``--big`` games (default 10,000) on every core with a store, against the 2-minute target;
* where the time goes, in CPU seconds (meaningful on a shared machine): per game played, per
  game in the batch's own process while two workers play, and the time to start a pool.

The ratio needs two otherwise idle cores; the load average is printed next to it.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pacman.batch import GameJob, ResultStore, play_job, run_jobs  # noqa: E402
from pacman.batch.runner import default_workers, play_chunk  # noqa: E402
from pacman.batch.store import record_line  # noqa: E402


def jobs_for(layout: str, games: int, first_seed: int = 0) -> list[GameJob]:
    return [GameJob("random vs random", layout, "random", ghosts="random", seed=first_seed + i)
            for i in range(games)]


def best_rate(jobs: list[GameJob], repeats: int, **options) -> float:
    best = 0.0
    for _ in range(repeats):
        began = time.perf_counter()
        run_jobs(jobs, **options)
        best = max(best, len(jobs) / (time.perf_counter() - began))
    return best


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def where_time_goes(jobs: list[GameJob]) -> None:
    """CPU per game of playing (in one process) and of the batch's own process while two
    workers play (results in, store lines parsed): the second shares the cores with the
    workers, so it bounds the ratio. Also the wall time to start a pool and play 2 games.
    CPU times hold on a loaded machine, where wall-clock ratios do not."""
    began = cpu_seconds()
    run_jobs(jobs, workers=1)
    alone = (cpu_seconds() - began) / len(jobs)
    began = cpu_seconds()
    play_chunk(list(enumerate(jobs)))
    playing = (cpu_seconds() - began) / len(jobs)
    began = cpu_seconds()
    run_jobs(jobs, workers=2)
    parent = (cpu_seconds() - began) / len(jobs)
    began = time.perf_counter()
    run_jobs(jobs[:2], workers=2, chunk_size=1)
    start = time.perf_counter() - began
    # Two workers and the batch's process share two cores: at best 2 / (worker + parent)
    # games per CPU second, against 1 / alone with one worker (all in one process).
    bound = 2 * alone / (playing + parent)
    print(f"cpu per game: {1e6 * alone:.0f} us for a 1-worker batch; {1e6 * playing:.0f} us in "
          f"a worker; {1e6 * parent:.0f} us in the batch's process with 2 workers (ratio "
          f"bound on 2 idle cores {bound:.2f}); starting a pool of 2 and playing 2 games: "
          f"{start:.2f} s")


def store_append_us(jobs: list[GameJob], folder: Path) -> float:
    """Microseconds per game to append ready-made lines to a store (write + parse)."""
    lines = [record_line(job, play_job(job)) for job in jobs]
    path = folder / "append.jsonl"
    with ResultStore(path) as store:
        began = time.perf_counter()
        for line in lines:
            store.append_line(line)
        spent = time.perf_counter() - began
    return 1e6 * spent / len(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="games per speed measurement")
    parser.add_argument("--layout", default="small_classic")
    parser.add_argument("--big", type=int, default=10_000, help="games of the long run (0: skip)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    jobs = jobs_for(args.layout, args.games)
    run_jobs(jobs[:100], workers=1)  # warm up: imports, maze tables

    where_time_goes(jobs[:1000])
    one = best_rate(jobs, args.repeats, workers=1)
    two = best_rate(jobs, args.repeats, workers=2)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"random vs random on {args.layout}, {args.games} games, best of {args.repeats}")
    print(f"{'workers':>8} {'games/s':>10} {'ratio':>7}")
    print(f"{1:>8} {one:>10,.0f} {1.0:>7.2f}")
    print(f"{2:>8} {two:>10,.0f} {two / one:>7.2f}   target >= 1.80 "
          f"({'met' if two / one >= 1.8 else 'NOT met'}; load average {load:.2f}, "
          f"{default_workers()} cores)")

    with tempfile.TemporaryDirectory() as folder:
        append = store_append_us(jobs[:2000], Path(folder))
        without = best_rate(jobs, args.repeats, workers=1)
        with_store = 0.0
        for attempt in range(args.repeats):
            path = Path(folder) / f"store{attempt}.jsonl"
            began = time.perf_counter()
            run_jobs(jobs, workers=1, store=path)
            with_store = max(with_store, len(jobs) / (time.perf_counter() - began))
        end_to_end = 1e6 * (1 / with_store - 1 / without)
        print(f"store overhead per game: append {append:.1f} us; end to end "
              f"{end_to_end:.1f} us ({without:,.0f} vs {with_store:,.0f} games/s in process); "
              f"target < 1000 us ({'met' if max(append, end_to_end) < 1000 else 'NOT met'})")

        if args.big:
            big = jobs_for(args.layout, args.big, first_seed=1_000_000)
            began = time.perf_counter()
            run_jobs(big, store=Path(folder) / "big.jsonl")
            spent = time.perf_counter() - began
            print(f"{args.big:,} games on {default_workers()} workers with a store: {spent:.1f} s "
                  f"({args.big / spent:,.0f} games/s); target < 120 s "
                  f"({'met' if spent < 120 else 'NOT met'})")


if __name__ == "__main__":
    main()

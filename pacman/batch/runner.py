"""Running many :class:`GameJob` s: in this process, on local worker processes, or on a cluster.

Contract of :func:`run_jobs`
    Results come back in job order and do not depend on the number of workers or the backend:
    a game's result depends only on its job (seeded agents, seeded game), never on which
    process played it or when. (Measured think times naturally differ from run to run.)

Parallelism
    ``workers=1`` plays every game in this process. More workers use a
    :class:`~concurrent.futures.ProcessPoolExecutor` over ``fork`` where the platform has it
    (``spawn`` elsewhere). Jobs go to workers in chunks of several games, so the cost of
    passing jobs and results between processes stays small next to a game even for random
    agents (a fraction of a millisecond per game); each worker returns its games as ready-made
    store lines, so the parent only writes and parses them. A worker that dies (killed, out of
    memory) stops the batch with a :class:`BatchError`; every game finished before is stored.
    Worker processes end themselves when the parent disappears (say, after ``kill -9``).

Resuming
    With a ``store``, every finished game is appended at once; jobs whose key is already in the
    store are not played again, their stored results are returned. Interrupting (Ctrl-C)
    raises ``KeyboardInterrupt`` after stopping the workers; games in flight are lost, nothing
    else.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Iterable, Iterator, Sequence

from pacman.batch.jobs import GameJob, check_job, play_job
from pacman.batch.progress import Progress
from pacman.batch.store import ResultStore, parse_record, record_line
from pacman.errors import ConfigurationError, PacmanError
from pacman.game import INTERRUPTED, GameResult

#: Backends :func:`run_jobs` accepts.
BACKENDS = ("local", "dask")

#: The most games sent to a worker at once (bounds what a killed run loses).
MAX_CHUNK = 32


class BatchError(PacmanError):
    """A batch could not finish (a worker process died, the cluster failed)."""


def play_chunk(jobs: Sequence[tuple[int, GameJob]]) -> list[str]:
    """Play ``(index, job)`` pairs one after another and return their store lines (JSON,
    newline-ended; ``index`` is the job's position in the batch).

    What every backend runs on its workers. An interrupted game (Ctrl-C reached the worker)
    is not a finished game: it raises ``KeyboardInterrupt`` instead of being returned.
    """
    lines = []
    for index, job in jobs:
        result = play_job(job)
        if result.outcome == INTERRUPTED:
            raise KeyboardInterrupt
        lines.append(record_line(job, result, index))
    return lines


def default_workers() -> int:
    """The number of CPU cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def chunk_size_for(pending: int, workers: int) -> int:
    """Games per chunk: about sixteen chunks per worker, at most :data:`MAX_CHUNK` games."""
    return max(1, min(MAX_CHUNK, pending // (workers * 16)))


def chunked(items: Sequence[Any], size: int) -> list[list[Any]]:
    return [list(items[start:start + size]) for start in range(0, len(items), size)]


def run_jobs(jobs: Iterable[GameJob], *, workers: int | None = None,
             store: str | os.PathLike[str] | None = None, progress: bool = False,
             backend: str = "local", chunk_size: int | None = None,
             scheduler: str | None = None,
             on_repair: Callable[[str], None] | None = None) -> list[GameResult]:
    """Play every job (or take it from ``store``) and return the results in job order.

    ``workers``: processes on this machine (default: every core) or, for ``backend="dask"``,
    workers of the local cluster started when no ``scheduler`` address is given. ``store``:
    JSON-lines results file to append to and resume from (see :mod:`pacman.batch.store`).
    ``progress``: draw a progress bar on stderr. ``chunk_size``: games per task (default:
    :func:`chunk_size_for`). ``on_repair`` is told when a torn last line of the store was cut.

    Invalid jobs (unknown maze or agent, bad option) raise their
    :class:`~pacman.errors.PacmanError` before any game is played.
    """
    jobs = list(jobs)
    if backend not in BACKENDS:
        raise ConfigurationError(f"unknown backend {backend!r}; choose one of "
                                 f"{', '.join(BACKENDS)}")
    if workers is not None and workers < 1:
        raise ConfigurationError(f"workers must be at least 1, got {workers}")
    if chunk_size is not None and chunk_size < 1:
        raise ConfigurationError(f"chunk size must be at least 1, got {chunk_size}")
    seen_setups = set()
    for job in jobs:
        if job.setup not in seen_setups:
            seen_setups.add(job.setup)
            check_job(job)
    positions: dict[str, list[int]] = {}
    unique: list[GameJob] = []
    for position, job in enumerate(jobs):
        key = job.key
        if key not in positions:
            positions[key] = []
            unique.append(job)
        positions[key].append(position)
    results: list[GameResult | None] = [None] * len(jobs)

    def finish(key: str, result: GameResult) -> None:
        for position in positions[key]:
            results[position] = result

    opened = ResultStore(store) if store is not None else None
    try:
        if opened is not None:
            if opened.repaired and on_repair is not None:
                on_repair(f"{opened.path}: repaired the store: {opened.repaired}")
            for key in positions:
                if key in opened:
                    finish(key, opened.result(key))
        pending = [(index, job) for index, job in enumerate(unique)
                   if job.key not in (opened or ())]
        bar = Progress(len(unique), len(unique) - len(pending)) if progress else None
        try:
            if pending:
                workers = workers or default_workers()
                size = chunk_size or chunk_size_for(len(pending), workers)
                chunks = chunked(pending, size)
                if backend == "dask":
                    from pacman.batch.cluster import run_on_dask
                    finished = run_on_dask(chunks, workers, scheduler)
                elif workers == 1 or len(chunks) == 1:
                    finished = map(play_chunk, chunks)
                else:
                    finished = _run_local(chunks, workers)
                try:
                    for lines in finished:
                        for line in lines:
                            if opened is not None:
                                record = opened.append_line(line)
                            else:
                                record = parse_record(line)[1]
                            finish(record["key"], GameResult.from_dict(record["result"]))
                        if bar is not None:
                            bar.advance(len(lines))
                finally:
                    close = getattr(finished, "close", None)
                    if close is not None:  # stops the workers now, not when collected
                        close()
        finally:
            if bar is not None:
                bar.close()
    finally:
        if opened is not None:
            opened.close()
    return results  # type: ignore[return-value]  # every position is filled by now


def _start_method() -> str:
    return "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


def _worker_init(parent: int) -> None:
    """Make a worker end itself once its parent is gone (the pool cannot tell it then)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _run_local(chunks: list[list[tuple[int, GameJob]]], workers: int) -> Iterator[list[str]]:
    """Play ``chunks`` on ``workers`` processes; yield each chunk's lines as it finishes."""
    context = multiprocessing.get_context(_start_method())
    executor = ProcessPoolExecutor(max_workers=min(workers, len(chunks)), mp_context=context,
                                   initializer=_worker_init, initargs=(os.getpid(),))
    clean = False
    try:
        # At most two chunks per worker in flight: enough to keep workers busy, and a store
        # that resumes loses no more than that.
        queue = iter(chunks)
        running: set[Any] = set()
        limit = 2 * workers
        while True:
            while len(running) < limit:
                chunk = next(queue, None)
                if chunk is None:
                    break
                running.add(executor.submit(play_chunk, chunk))
            if not running:
                break
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                try:
                    lines = future.result()
                except BrokenProcessPool:
                    raise BatchError("a worker process died (killed, or out of memory); the "
                                     "games finished so far are kept in the store: run the "
                                     "same batch again to resume") from None
                yield lines
        clean = True
    finally:
        if clean:
            executor.shutdown(wait=True)
        else:
            _stop(executor)


def _stop(executor: ProcessPoolExecutor) -> None:
    """Stop at once: cancel what has not started and terminate the workers."""
    # The executor has no public way to stop running tasks before Python 3.14.
    processes = list(getattr(executor, "_processes", {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)

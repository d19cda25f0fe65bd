"""Running many :class:`GameJob` s: in this process, on local worker processes, or on a cluster.

Contract of :func:`run_jobs`
    Results come back in job order and do not depend on the number of workers or the backend:
    a game's result depends only on its job (seeded agents, seeded game), never on which
    process played it or when. (Measured think times naturally differ from run to run.)

Parallelism
    ``workers=1`` plays every game in this process. More workers use a
    :class:`~concurrent.futures.ProcessPoolExecutor` started with ``forkserver`` (``spawn``
    where there is none): never a ``fork`` of this process, which runs threads (the pool's
    own, a progress bar's, a cluster client's) and could deadlock a forked child. Jobs go to
    workers in chunks of several games, so the cost of
    passing jobs and results between processes stays small next to a game even for random
    agents (a fraction of a millisecond per game); each worker returns its games as ready-made
    store lines, so the parent only writes and parses them. A worker that dies (killed, out of
    memory) is replaced and its games are played again; only a pool that keeps dying stops the
    batch with a :class:`BatchError` (every game finished before is stored). Agents that can
    end a process on purpose play in processes of their own (:mod:`pacman.contained`).
    Worker processes end themselves when the parent disappears (say, after ``kill -9``).

Streaming
    :func:`stream_jobs` takes its jobs lazily and yields results as they finish, so a batch of
    any size starts at once in bounded memory; :func:`run_jobs` is the list form.

Resuming
    With a ``store``, every finished game is appended at once; jobs whose key is already in the
    store are not played again, their stored results are returned. Interrupting (Ctrl-C)
    raises ``KeyboardInterrupt`` after stopping the workers; games in flight are lost, nothing
    else.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import threading
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any
from collections.abc import Callable, Iterable, Iterator

from pacman.batch.chunks import play_chunk
from pacman.batch.jobs import GameJob, check_job
from pacman.batch.progress import Progress
from pacman.batch.store import ResultStore, parse_record
from pacman.errors import BatchError, ConfigurationError
from pacman.engine.game import GameResult
from pacman.contained.process import keep_for_this_process, keep_processes

#: Backends :func:`run_jobs` accepts.
BACKENDS = ("local", "dask")

#: The most games sent to a worker at once (bounds what a killed run loses).
MAX_CHUNK = 32




def default_workers() -> int:
    """The number of CPU cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def chunk_size_for(pending: int, workers: int) -> int:
    """Games per chunk: about sixteen chunks per worker, at most :data:`MAX_CHUNK` games."""
    return max(1, min(MAX_CHUNK, pending // (workers * 16)))


def chunked(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """``items`` in lists of ``size`` (the last may be shorter), taken lazily."""
    iterator = iter(items)
    while True:
        chunk = list(itertools.islice(iterator, size))
        if not chunk:
            return
        yield chunk


def _checked(jobs: Iterable[tuple[int, GameJob]]) -> Iterator[tuple[int, GameJob]]:
    """The jobs, each setup checked (cheaply, once) before its first job is handed on."""
    seen: set[tuple] = set()
    for item in jobs:
        setup = item[1].setup
        if setup not in seen:
            seen.add(setup)
            check_job(item[1])
        yield item


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
    A job listed twice is played once.

    Invalid jobs (unknown maze or agent, bad option) raise their
    :class:`~pacman.errors.PacmanError` before any game is played.
    """
    jobs = list(jobs)
    for setup_job in {job.setup: job for job in jobs}.values():
        check_job(setup_job)
    positions: dict[str, list[int]] = {}
    unique: list[GameJob] = []
    for position, job in enumerate(jobs):
        if job.key not in positions:
            positions[job.key] = []
            unique.append(job)
        positions[job.key].append(position)
    results: list[GameResult | None] = [None] * len(jobs)
    for _, job, result in stream_jobs(enumerate(unique), total=len(unique), workers=workers,
                                      store=store,
                                      progress=progress, backend=backend,
                                      chunk_size=chunk_size, scheduler=scheduler,
                                      on_repair=on_repair):
        for position in positions[job.key]:
            results[position] = result
    return results  # type: ignore[return-value]  # every position is filled by now


def stream_jobs(jobs: Iterable[tuple[int, GameJob]], *, total: int | None = None,
                workers: int | None = None, store: str | os.PathLike[str] | None = None,
                progress: bool = False, backend: str = "local",
                chunk_size: int | None = None, scheduler: str | None = None,
                on_repair: Callable[[str], None] | None = None
                ) -> Iterator[tuple[int, GameJob, GameResult]]:
    """Play ``(position, job)`` pairs (taken lazily: memory does not grow with their number)
    and yield ``(position, job, result)`` as games finish; ``position`` is the job's place in
    its batch (stored with the game, it orders a report's conditions).

    ``total`` is the number of jobs if known (for the progress bar and the chunk size).
    Other arguments as for :func:`run_jobs`; jobs are not deduplicated here.
    """
    if backend not in BACKENDS:
        raise ConfigurationError(f"unknown backend {backend!r}; choose one of "
                                 f"{', '.join(BACKENDS)}")
    if workers is not None and workers < 1:
        raise ConfigurationError(f"workers must be at least 1, got {workers}")
    if chunk_size is not None and chunk_size < 1:
        raise ConfigurationError(f"chunk size must be at least 1, got {chunk_size}")
    opened = ResultStore(store) if store is not None else None
    try:
        if opened is not None and opened.repaired and on_repair is not None:
            on_repair(f"{opened.path}: repaired the store: {opened.repaired}")
        stored: list[tuple[int, GameJob]] = []
        pending = _pending(iter(jobs), opened, stored)
        bar = Progress(total, 0) if progress and total is not None else None

        def from_store() -> Iterator[tuple[int, GameJob, GameResult]]:
            """The stored games met since the last call (the store is read as jobs stream)."""
            found = stored[:]
            stored.clear()
            for position, job in found:
                yield position, job, opened.result(job.key)  # type: ignore[union-attr]
            if bar is not None and found:
                bar.advance(len(found))

        try:
            first = next(pending, None)  # reads up to the first job still to play
            yield from from_store()
            if first is None:
                return
            workers = workers or default_workers()
            size = chunk_size or chunk_size_for(total or MAX_CHUNK * 16 * workers, workers)
            chunks = chunked(_checked(itertools.chain([first], pending)), size)
            for item in _collect(_finished(chunks, backend, workers, scheduler), opened, bar):
                yield item
                yield from from_store()
            yield from from_store()
        finally:
            if bar is not None:
                bar.close()
    finally:
        if opened is not None:
            opened.close()


def _pending(jobs: Iterator[tuple[int, GameJob]], opened: ResultStore | None,
             stored: list[tuple[int, GameJob]]) -> Iterator[tuple[int, GameJob]]:
    """The jobs not in the store; those in it are appended to ``stored`` on the way."""
    for item in jobs:
        if opened is not None and item[1].key in opened:
            stored.append(item)
        else:
            yield item


def _finished(chunks: Iterator[list[tuple[int, GameJob]]], backend: str, workers: int,
              scheduler: str | None
              ) -> Iterator[tuple[list[tuple[int, GameJob]], list[str]]]:
    """Each chunk with its store lines, as chunks finish."""
    if backend == "dask":
        from pacman.batch.cluster import run_on_dask

        return run_on_dask(chunks, workers, scheduler)
    if workers == 1:
        return _run_here(chunks)
    return _run_local(chunks, workers)


def _run_here(chunks: Iterator[list[tuple[int, GameJob]]]
              ) -> Iterator[tuple[list[tuple[int, GameJob]], list[str]]]:
    """Every chunk in this process, a contained agent's process kept across chunks too."""
    with keep_processes():
        for chunk in chunks:
            yield chunk, play_chunk(chunk)


def _collect(finished: Iterator[tuple[list[tuple[int, GameJob]], list[str]]],
             opened: ResultStore | None,
             bar: Progress | None) -> Iterator[tuple[int, GameJob, GameResult]]:
    """Store each finished game's line and yield it as ``(position, job, result)``."""
    try:
        for chunk, lines in finished:
            jobs = dict(chunk)  # the jobs as sent: no need to rebuild them from the lines
            for line in lines:
                if opened is not None:
                    record = opened.append_line(line)
                else:
                    record = parse_record(line, made_here=True)[1]
                yield (record["index"], jobs[record["index"]],
                       GameResult.from_dict(record["result"]))
            if bar is not None:
                bar.advance(len(lines))
    finally:
        close = getattr(finished, "close", None)
        if close is not None:  # stops the workers now, not when collected
            close()


def _worker_init() -> None:
    """Make a worker end itself once the batch's process is gone, however it ended (the pool
    cannot tell it then).

    It waits on the sentinel that :mod:`multiprocessing` gives every process it starts, which
    the starting process holds open until it ends. The worker's own parent is no guide: the
    fork server that forked it lives on while any worker it forked holds the server's pipe."""
    keep_for_this_process()  # a contained agent's process serves all the worker's chunks
    owner = multiprocessing.parent_process()
    if owner is None:  # not started by multiprocessing: nothing to watch
        return

    def watch() -> None:
        owner.join()
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


#: How often a chunk of games may lose its worker before the batch gives up.
MAX_WORKER_DEATHS = 3


#: A chunk of numbered jobs, and a chunk with the worker deaths it has seen.
_Chunk = list[tuple[int, GameJob]]
_Tracked = tuple[_Chunk, int]


def _run_local(chunks: Iterator[_Chunk], workers: int) -> Iterator[tuple[_Chunk, list[str]]]:
    """Play ``chunks`` on ``workers`` processes; yield each chunk with its lines as it
    finishes.

    A worker that dies (killed, out of memory) is replaced: the pool is started again and the
    chunks that were in flight are played again. A chunk in flight at
    :data:`MAX_WORKER_DEATHS` deaths (likely the cause) stops the batch with a
    :class:`BatchError`.
    """
    executor = _pool(workers)
    clean = False
    try:
        # At most two chunks per worker in flight: enough to keep workers busy, and a store
        # that resumes loses no more than that.
        running: dict[Any, _Tracked] = {}
        # Chunks to submit before new ones: those a dead pool lost.
        waiting: list[_Tracked] = []
        while True:
            refused = _send(executor, running, waiting, chunks, 2 * workers)
            if not running and refused is None:
                break
            broken = refused is not None
            if not broken:
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    try:
                        lines = future.result()
                    except BrokenProcessPool:
                        broken = True
                        continue
                    yield running.pop(future)[0], lines
            if broken:
                in_flight = [*running.values(), *([refused] if refused is not None else [])]
                waiting[:0] = _charge_deaths(in_flight)
                _stop(executor)
                executor = _pool(workers)
                running = {}
        clean = True
    finally:
        if clean:
            executor.shutdown(wait=True)
        else:
            _stop(executor)


def _send(executor: ProcessPoolExecutor, running: dict[Any, _Tracked], waiting: list[_Tracked],
          chunks: Iterator[_Chunk], limit: int) -> _Tracked | None:
    """Submit chunks, the ``waiting`` ones first, until ``limit`` are ``running`` or none is
    left. Returns the chunk the pool refused when it is found broken while sending (a worker
    died before its death was seen), else ``None``."""
    while len(running) < limit:
        chunk, deaths = waiting.pop(0) if waiting else (next(chunks, None), 0)
        if chunk is None:
            return None
        try:
            running[executor.submit(play_chunk, chunk)] = (chunk, deaths)
        except BrokenProcessPool:
            return chunk, deaths
        except OSError as error:  # the system refused the workers (say, TMPDIR too long)
            raise BatchError(f"cannot start worker processes ({error})") from None
    return None


def _charge_deaths(in_flight: list[_Tracked]) -> list[_Tracked]:
    """The chunks in flight (or being sent) when the pool died, each charged one death, so
    that workers that die at start cannot restart the pool for ever; raises
    :class:`BatchError` once a chunk has seen :data:`MAX_WORKER_DEATHS`."""
    lost = [(chunk, deaths + 1) for chunk, deaths in in_flight]
    if any(deaths >= MAX_WORKER_DEATHS for _, deaths in lost):
        raise BatchError("worker processes died again and again on the same games (killed, "
                         "or out of memory); the games finished so far are kept in the "
                         "store: run the same batch again to resume")
    return lost


def _pool(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers, mp_context=process_context(),
                               initializer=_worker_init)


#: Modules the fork server loads once for every worker it starts.
PRELOAD = ["__main__", "pacman.batch.runner", "pacman.lineup.build", "pacman.agents.search_agents",
           "pacman.agents.ghosts", "pacman.agents.evaluation", "pacman.agents.basic"]


def process_context() -> Any:
    """How workers start: ``forkserver``, whose server has loaded the game and the agents
    once, or ``spawn`` where there is none; never a plain ``fork`` of a process that may run
    threads."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


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

"""The cluster backend of batches, on Dask (``pip install 'pacman-arena[cluster]'``).

Why Dask and not Ray
    * Our tasks are plain Python functions on small picklable jobs that return strings: Dask's
      futures (``client.map``, ``as_completed``) are exactly the standard
      :mod:`concurrent.futures` model the local backend already uses, so both backends share
      one loop and one worker function (:func:`pacman.batch.chunks.play_chunk`).
    * Dask is pure Python and installs with pip wherever Python runs, including the Python
      versions and platforms a course's machines happen to have; Ray ships a large native
      runtime with a narrower set of supported platforms, and object stores, actors and GPU
      scheduling that batches of games do not need.
    * The same code runs on a laptop (``LocalCluster``), on a set of machines started with
      ``dask scheduler`` / ``dask worker ADDRESS``, and on SSH, Slurm/PBS (dask-jobqueue) or
      Kubernetes deployments: only the scheduler address changes.
    * A test can start a real multi-process cluster in a couple of seconds and stop it cleanly.

Where the cluster comes from
    With a ``scheduler`` address (``--scheduler tcp://host:8786``) we connect to it. Without
    one, an already active Dask client in this process is used, else a ``LocalCluster`` of
    ``workers`` single-threaded worker processes is started for the batch and closed after it.

Caveats
    Workers must be able to import ``pacman`` and ``agents`` (and read any agent files or maze
    files named by path). Dask runs tasks in worker threads, where the game loop cannot
    interrupt an agent that never returns; the per-move time limit is then checked when the
    move returns.
"""

from __future__ import annotations

import itertools
import socket
from contextlib import ExitStack
from collections.abc import Iterator

from pacman.batch.jobs import GameJob
from pacman.batch.chunks import play_chunk
from pacman.errors import BatchError, ConfigurationError


def _distributed():
    try:
        import distributed
    except ImportError:
        raise ConfigurationError("the dask backend needs Dask's distributed scheduler: pip "
                                 "install 'pacman-arena[cluster]'") from None
    return distributed


def _check_reachable(address: str) -> None:
    """Fail at once on a TCP scheduler nobody listens at (Dask itself retries until its
    connection timeout)."""
    if not address.startswith("tcp://"):
        return
    host, _, port = address[len("tcp://"):].rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=10):
            pass
    except (OSError, ValueError) as error:
        raise BatchError(f"cannot reach the Dask scheduler at {address} ({error})") from None


def _connect(stack: ExitStack, distributed, workers: int, scheduler: str | None):
    """A client of the scheduler at ``scheduler``, of this process's client, or of a local
    cluster started for the batch; a scheduler that cannot be used is one clear error."""
    if scheduler is not None:
        _check_reachable(scheduler)
        try:
            return stack.enter_context(distributed.Client(scheduler, timeout="20s"))
        except (OSError, TimeoutError) as error:
            raise BatchError(f"cannot reach the Dask scheduler at {scheduler} "
                             f"({error})") from None
        except Exception as error:  # a malformed address: Dask raises what its parser does
            raise ConfigurationError(f"--scheduler {scheduler!r} is not a Dask scheduler "
                                     f"address like tcp://host:8786 ({error})") from None
    try:
        return distributed.get_client()
    except ValueError:  # no client in this process: start a cluster for the batch
        cluster = stack.enter_context(distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None))
        return stack.enter_context(distributed.Client(cluster))


def run_on_dask(chunks: Iterator[list[tuple[int, GameJob]]], workers: int,
                scheduler: str | None = None
                ) -> Iterator[tuple[list[tuple[int, GameJob]], list[str]]]:
    """Play ``chunks`` (taken lazily) on a Dask cluster; yield each chunk with its store lines
    as it finishes. At most two chunks per cluster thread are submitted at a time."""
    distributed = _distributed()
    with ExitStack() as stack:
        client = _connect(stack, distributed, workers, scheduler)
        threads = sum(w.get("nthreads", 1) for w in
                      client.scheduler_info().get("workers", {}).values())
        limit = 2 * max(threads, workers, 1)
        running = distributed.as_completed()
        submitted = []
        sent = {}
        try:
            for chunk in itertools.islice(chunks, limit):
                submitted.append(client.submit(play_chunk, chunk, pure=False))
                sent[submitted[-1].key] = chunk
                running.add(submitted[-1])
            for future in running:
                try:
                    lines = future.result()
                except distributed.client.FutureCancelledError as error:
                    raise BatchError(f"the cluster cancelled a task ({error})") from None
                except distributed.KilledWorker:
                    raise BatchError("Dask workers died playing these games; the games "
                                     "finished so far are kept in the store") from None
                following = next(chunks, None)
                if following is not None:
                    submitted.append(client.submit(play_chunk, following, pure=False))
                    sent[submitted[-1].key] = following
                    running.add(submitted[-1])
                submitted = [f for f in submitted if not f.done()]
                yield sent.pop(future.key), lines
        finally:
            client.cancel([f for f in submitted if not f.done()])

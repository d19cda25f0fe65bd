"""The results store: one JSON line per finished game, appended as games finish.

Format (JSON lines, UTF-8)
    The first line is the header ``{"store": "pacman-arena results", "format": 1}``. Every
    other line is one finished game: ``{"key": ..., "index": ..., "job": {...}, "result":
    {...}}`` where ``index`` is the job's position in its batch, ``job`` is
    :meth:`GameJob.to_dict` and ``result`` is :meth:`GameResult.to_dict` (so any
    game can be replayed with ``run.py play --replay`` after extracting its ``result``).
    Lines are in the order games finished, not job order. A key seen twice keeps its last line.

Safety
    Each record is written with a single unbuffered ``write`` on a file opened for appending
    (``O_APPEND``), so
    a process killed at any moment (even ``kill -9``) leaves every finished game on disk and at
    worst a torn last line. Opening a store for appending detects a torn or unparsable last
    line and cuts it off (:attr:`ResultStore.repaired` says what was dropped); reading one
    without appending (:func:`read_store`) skips it. A bad line anywhere else is not a crash
    artefact and raises :class:`StoreError` naming the line. While a batch appends, it holds an
    exclusive lock on the file, so two batches cannot interleave their lines. Records are not
    ``fsync``-ed one by one (that would cost milliseconds per game): a power failure may lose
    the last games the operating system had not yet written. Before each record, the file's
    size is compared with what this store wrote: a store cut or written by another program
    while a batch runs ends that batch with one line (nothing is written after the change), and
    so does a write that fails (a full disk, a file made immutable); running the same command
    again resumes from the games on disk.

Validation
    Every record read is checked (:mod:`pacman.batch.validate`): all fields present and
    typed, a known outcome, a key that is its job's key, the settings its job asks for (move
    cap, time limit, ghosts, agents, the maze text's digest), and its actions replayed on its
    maze text by the engine alone to the outcome, score and moves it states. A record that
    fails is refused with its line number, wherever it is (a crash can only tear a line, never
    write a well-formed wrong one). A record carrying a seal of this user's key
    (:mod:`pacman.batch.seal`) was written so by a batch of this user and is only parsed. A
    store is streamed, never read whole, and a big one is checked by one process per core
    (:mod:`pacman.batch.scan`).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any
from collections.abc import Iterator

from pacman.engine.agent_stats import bounded_stats
from pacman.batch.jobs import GameJob
from pacman.batch.scan import (HEADER, HEADER_BYTES, InvalidRecord, StoredGame, parse_record,
                               scan_store, stored_game)
from pacman.batch.seal import seal
from pacman.errors import StoreError
from pacman.engine.game import GameResult, without_default_rules

try:
    import fcntl
except ImportError:  # not POSIX: no lock, the rest works
    fcntl = None  # type: ignore[assignment]

HEADER_LINE = HEADER_BYTES.decode()
__all__ = ["HEADER", "HEADER_LINE", "InvalidRecord", "ResultStore", "StoredGame",
           "check_store_path", "parse_record", "read_store", "record_line", "stored_game"]


def record_line(job: GameJob, result: GameResult, index: int | None = None) -> str:
    """The store line (newline included) for ``job``'s ``result``; ``index`` is the job's
    position in its batch (it orders the conditions of a report). Agents' statistics that
    are not JSON data within the limits of :mod:`pacman.engine.agent_stats` are left out, with one
    warning line on stderr each."""
    # The same data as result.to_dict(), without the deep copy dataclasses.asdict makes.
    data = without_default_rules(dict(vars(result)))
    data["agent_stats"], dropped = bounded_stats(result.agent_stats)
    for problem in dropped:
        print(f"warning: the game with seed {result.seed}: {problem}; not stored",
              file=sys.stderr, flush=True)
    if result.failure is not None:
        data["failure"] = dict(vars(result.failure))
    record = {"key": job.key, "index": index, "job": job.to_dict(), "result": data}
    return seal(json.dumps(record, separators=(",", ":"))) + "\n"


def check_store_path(path: str | os.PathLike[str]) -> None:
    """Raise :class:`StoreError` unless ``path`` can be a store: a regular file, or a new file
    in a folder that exists and can be written."""
    path = Path(path)
    if path.exists() or path.is_symlink():
        if not path.is_file():
            what = "a folder" if path.is_dir() else "not a regular file"
            raise StoreError(f"{path}: {what}; a results store is a file")
        if not os.access(path, os.R_OK | os.W_OK):
            raise StoreError(f"{path}: cannot be written (permission denied)")
        return
    folder = path.parent
    if not folder.is_dir():
        raise StoreError(f"{path}: cannot be created (no folder {folder})")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(f"{path}: cannot be created (permission denied in {folder})")


def read_store(path: str | os.PathLike[str], actions: bool = True,
               workers: int | None = None) -> tuple[list[StoredGame], str | None]:
    """Every game in the store at ``path`` (in the order they finished) and a note on a torn
    last line that was skipped (``None`` if there was none). The file is not changed.

    The store is streamed and its records checked as :func:`~pacman.batch.scan.scan_store`
    says (``workers``: processes that check them). Without ``actions``, each game's move list
    is left out (``result.actions`` is empty) and only its digest kept
    (:attr:`StoredGame.actions_digest`): a tenth of the memory."""
    path = Path(path)
    if not path.exists():
        raise StoreError(f"{path}: no such results store")
    if not path.is_file():
        raise StoreError(f"{path}: {'a folder' if path.is_dir() else 'not a regular file'}; "
                         "a results store is a file")
    scan = scan_store(path, "game" if actions else "lean", workers)
    return list(scan.records.values()), scan.dropped


class ResultStore:
    """A store opened for appending: finished games in, resume information out.

    Use as a context manager. Opening creates the file (with its header) if needed, repairs a
    torn last line, and takes an exclusive lock until :meth:`close`.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        check_store_path(self.path)
        scan = scan_store(self.path, "line")
        self._records: dict[str, bytes | None] = dict(scan.records)
        self.repaired = scan.dropped
        try:  # the file stays open for the store's lifetime; close() closes it
            # O_APPEND: every write lands at the end of the file as it is then, never at an
            # offset remembered from before someone else cut the file.
            self._file = open(self.path, "ab", buffering=0)  # noqa: SIM115
        except OSError as error:
            raise StoreError(f"{self.path}: cannot be written ({error.strerror})") from None
        try:
            self._lock()
            self._file.truncate(scan.good_end)
            if scan.good_end == 0:
                self._write(HEADER_LINE.encode())
            self._size = os.fstat(self._file.fileno()).st_size
        except OSError as error:
            self._file.close()
            raise self._write_error(error) from None
        except BaseException:
            self._file.close()
            raise

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = self._file.write(view)
            if not written:
                raise OSError(0, "nothing was written")
            view = view[written:]

    def _write_error(self, error: OSError) -> StoreError:
        return StoreError(f"{self.path}: cannot be written ({error.strerror or error}); the "
                          "games stored before are kept: make room or make the file writable, "
                          "then run the same command again to resume")

    def _lock(self) -> None:
        if fcntl is None:
            return
        try:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StoreError(f"{self.path}: another batch is writing to this store") from None

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __contains__(self, key: str) -> bool:
        return key in self._records

    def __len__(self) -> int:
        return len(self._records)

    def keys(self) -> Iterator[str]:
        return iter(self._records)

    def result(self, key: str) -> GameResult:
        """The stored result of the job with ``key``, found when the store was opened."""
        try:
            raw = self._records[key]
            if raw is None:
                raise KeyError(key)
            return GameResult.from_dict(json.loads(raw)["result"])
        except (TypeError, ValueError) as error:
            raise StoreError(f"{self.path}: the record of job {key} is not a game "
                             f"({error})") from None

    def append_line(self, line: str) -> dict[str, Any]:
        """Append one record line (from :func:`record_line`) and return the parsed record.
        The line is in the operating system's hands when this returns.

        Raises :class:`StoreError` if the file is no longer as this store left it (another
        program cut or wrote it: nothing is written then) or cannot be written (a full disk, a
        file made read-only or immutable); either way the games stored before are kept and
        running the same batch again resumes from them."""
        key, record = parse_record(line, made_here=True)
        data = line.encode("utf-8")
        try:
            size = os.fstat(self._file.fileno()).st_size
            if size != self._size:
                raise StoreError(f"{self.path}: changed by another program while this batch "
                                 f"wrote to it ({self._size:,} bytes expected, {size:,} found); "
                                 "nothing more was written: run the same command again to "
                                 "resume from what it holds")
            self._write(data)
        except OSError as error:
            raise self._write_error(error) from None
        self._size += len(data)
        self._records[key] = None  # its result went to the caller; only resuming needs keys
        return record

    def append(self, job: GameJob, result: GameResult) -> None:
        """Append ``job``'s ``result``."""
        self.append_line(record_line(job, result))

    def close(self) -> None:
        if not self._file.closed:
            with contextlib.suppress(OSError):
                os.fsync(self._file.fileno())
            with contextlib.suppress(OSError):  # every write was checked when it was made
                self._file.close()

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
    (:mod:`pacman.batch.seal`) was written so by a batch of this user and is only parsed.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Iterator

from pacman.agent_stats import bounded_stats
from pacman.batch.jobs import GameJob
from pacman.batch.seal import is_sealed, seal
from pacman.batch.validate import check_record
from pacman.errors import StoreError
from pacman.game import GameResult, without_default_rules

try:
    import fcntl
except ImportError:  # not POSIX: no lock, the rest works
    fcntl = None  # type: ignore[assignment]

HEADER = {"store": "pacman-arena results", "format": 1}
HEADER_LINE = json.dumps(HEADER, separators=(",", ":")) + "\n"




@dataclass(frozen=True)
class StoredGame:
    """One game of a store: the job that asked for it and its result."""

    job: GameJob
    result: GameResult
    index: int | None = None


def record_line(job: GameJob, result: GameResult, index: int | None = None) -> str:
    """The store line (newline included) for ``job``'s ``result``; ``index`` is the job's
    position in its batch (it orders the conditions of a report). Agents' statistics that
    are not JSON data within the limits of :mod:`pacman.agent_stats` are left out, with one
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


class InvalidRecord(ValueError):
    """A line that is JSON but not a valid game record (see :mod:`pacman.batch.validate`)."""


def parse_record(line: str | bytes, made_here: bool = False) -> tuple[str, dict[str, Any]]:
    """``(key, record)`` of one store line. Raises ``ValueError`` if it is not JSON and
    :class:`InvalidRecord` if it is JSON but not a complete, well-typed game record.

    ``made_here``: the line comes from :func:`record_line` in a worker of this batch, not
    from a file; only its shape is checked (the full check costs a third of what the batch's
    process spends per game, and that process shares the cores with the workers). The same
    holds for a line whose seal (:mod:`pacman.batch.seal`) shows that a batch of this user
    wrote it as it is. Any other line is checked in full and its game replayed."""
    raw = line.encode("utf-8") if isinstance(line, str) else line
    trusted = made_here or is_sealed(raw.rstrip(b"\n"))
    record = json.loads(line)
    if trusted:
        if not (isinstance(record, dict) and isinstance(record.get("key"), str)
                and isinstance(record.get("result"), dict)):
            raise InvalidRecord("not a game record")
        return record["key"], record
    try:
        check_record(record)
    except ValueError as error:
        raise InvalidRecord(str(error)) from None
    return record["key"], record


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


def stored_game(record: dict[str, Any]) -> StoredGame:
    """The :class:`StoredGame` of a parsed record."""
    index = record.get("index")
    return StoredGame(GameJob.from_dict(record["job"]), GameResult.from_dict(record["result"]),
                      index if isinstance(index, int) else None)


@dataclass
class _Scan:
    records: dict[str, bytes]  # key -> its (checked) line: a third of the parsed size
    good_end: int  # byte offset just past the last good line
    dropped: str | None  # what a torn last line held, described


def _scan(path: Path) -> _Scan:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return _Scan({}, 0, None)
    except OSError as error:
        raise StoreError(f"{path}: cannot be read ({error.strerror})") from None
    # Every record ends with a newline; a piece after the last newline is a torn write.
    *complete, tail = data.split(b"\n")
    if not complete:
        if HEADER_LINE.encode().startswith(tail):  # empty, or killed while writing the header
            return _Scan({}, 0, None)
        raise StoreError(f"{path}: not a results store of this program")
    if not _is_header(complete[0]):
        raise StoreError(f"{path}: not a results store of this program (its first line is "
                         "not the store header)")
    records: dict[str, bytes] = {}
    good_end = len(complete[0]) + 1
    dropped = None
    for number, raw in enumerate(complete[1:], start=2):
        try:
            key, record = parse_record(raw)
        except InvalidRecord as error:
            raise StoreError(f"{path}:{number}: not a valid game record: {error}") from None
        except (ValueError, UnicodeDecodeError):
            if number < len(complete) or tail:
                raise StoreError(f"{path}:{number}: damaged record in the middle of the store "
                                 "(only the last line can be torn by an interrupted run)"
                                 ) from None
            dropped = f"line {number} ({len(raw)} bytes) was not a complete record"
            break
        records[key] = raw
        good_end += len(raw) + 1
    if tail:
        dropped = f"line {len(complete) + 1} ({len(tail)} bytes) was cut short"
    return _Scan(records, good_end, dropped)


def _is_header(raw: bytes) -> bool:
    try:
        head = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(head, dict) and head.get("store") == HEADER["store"]


def read_store(path: str | os.PathLike[str]) -> tuple[list[StoredGame], str | None]:
    """Every game in the store at ``path`` (in the order they finished) and a note on a torn
    last line that was skipped (``None`` if there was none). The file is not changed."""
    path = Path(path)
    if not path.exists():
        raise StoreError(f"{path}: no such results store")
    if not path.is_file():
        raise StoreError(f"{path}: {'a folder' if path.is_dir() else 'not a regular file'}; "
                         "a results store is a file")
    scan = _scan(path)
    try:
        games = [stored_game(json.loads(raw)) for raw in scan.records.values()]
    except (TypeError, ValueError, KeyError) as error:
        raise StoreError(f"{path}: a record does not describe a game ({error})") from None
    return games, scan.dropped


class ResultStore:
    """A store opened for appending: finished games in, resume information out.

    Use as a context manager. Opening creates the file (with its header) if needed, repairs a
    torn last line, and takes an exclusive lock until :meth:`close`.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        check_store_path(self.path)
        scan = _scan(self.path)
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

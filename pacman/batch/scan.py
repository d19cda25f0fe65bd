"""Reading a results store: its lines streamed, each record checked, big stores checked by
several processes.

A store is read line by line (never whole into memory) and its records are checked in order
(:func:`parse_record`: a record sealed by this user is parsed; any other is checked in full
and its game replayed, see :mod:`pacman.batch.validate`). A store of more than
:data:`PARALLEL_BYTES` is checked by one worker process per core, :data:`CHUNK_BYTES` of lines at
a time, at most :data:`AHEAD` chunks a worker ahead of the reader: what is verified and the errors raised are
the same as in one process, and so is their order (the first bad line of the file is the one
named), only the time differs.

What a scan keeps of each record depends on who reads (:data:`Keep`): the line itself (a
batch resuming: it needs the keys and, rarely, a result), the whole game, or the game
without its actions (``report``: the move list is nine tenths of a game in memory; a digest
of it is kept in :attr:`StoredGame.actions_digest` so that two stores can still be compared).
"""

from __future__ import annotations

import collections
import gc
import hashlib
import json
import os
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pacman.batch.jobs import GameJob
from pacman.batch.seal import is_sealed
from pacman.batch.validate import check_record
from pacman.engine.json_lines import JSONLimitError, load_json
from pacman.errors import StoreError
from pacman.engine.game import GameResult

HEADER = {"store": "pacman-arena results", "format": 1}
HEADER_BYTES = json.dumps(HEADER, separators=(",", ":")).encode() + b"\n"
#: What a scan keeps of a record: its line, its game, or its game without the actions.
Keep = Literal["line", "game", "lean"]
#: A store larger than this is checked by worker processes (below, starting them costs more
#: than they save).
PARALLEL_BYTES = 4_000_000
#: Bytes of lines handed to a worker at once (whole lines: at least one).
CHUNK_BYTES = 1 << 20
#: Chunks handed to each worker ahead of the reader (a worker never waits for the reader,
#: which another program may hold off the processor; memory stays a few MB).
AHEAD = 4


@dataclass(frozen=True)
class StoredGame:
    """One game of a store: the job that asked for it and its result.

    ``actions_digest`` is set when the store was read without actions (``result.actions`` is
    then empty): a digest of the move list, equal for equal lists."""

    job: GameJob
    result: GameResult
    index: int | None = None
    actions_digest: str | None = None


class InvalidRecord(ValueError):
    """A line that is JSON but not a valid game record (see :mod:`pacman.batch.validate`)."""


def parse_record(line: str | bytes, made_here: bool = False) -> tuple[str, dict[str, Any]]:
    """``(key, record)`` of one store line. Raises ``ValueError`` if it is not JSON and
    :class:`InvalidRecord` if it is JSON but not a complete, well-typed game record.

    ``made_here``: the line comes from :func:`~pacman.batch.store.record_line` in a worker of
    this batch, not from a file; only its shape is checked (the full check costs a third of
    what the batch's process spends per game, and that process shares the cores with the
    workers). The same holds for a line whose seal (:mod:`pacman.batch.seal`) shows that a
    batch of this user wrote it as it is. Any other line is checked in full and its game
    replayed."""
    key, record, _ = _read_record(line, made_here)
    return key, record


def _read_record(line: str | bytes, made_here: bool = False
                 ) -> tuple[str, dict[str, Any], tuple[GameJob, GameResult] | None]:
    """:func:`parse_record`, and the job and result its full check built (``None`` for a
    trusted line, which is not checked in full)."""
    raw = line.encode("utf-8") if isinstance(line, str) else line
    trusted = made_here or is_sealed(raw.rstrip(b"\n"))
    record = load_json(line)
    if trusted:
        if not (isinstance(record, dict) and isinstance(record.get("key"), str)
                and isinstance(record.get("result"), dict)):
            raise InvalidRecord("not a game record")
        return record["key"], record, None
    try:
        built = check_record(record)
    except ValueError as error:
        raise InvalidRecord(str(error)) from None
    return record["key"], record, built


def stored_game(record: dict[str, Any], actions: bool = True,
                built: tuple[GameJob, GameResult] | None = None) -> StoredGame:
    """The :class:`StoredGame` of a parsed record; without ``actions``, its result's move list
    is left empty and only its digest is kept. ``built``: the job and result already made
    from this record (by :func:`~pacman.batch.validate.check_record`), taken as they are."""
    index = record.get("index")
    index = index if isinstance(index, int) else None
    if built is not None:
        job, result = built
    else:
        job = GameJob.from_dict(record["job"])
        fields = record["result"] if actions else dict(record["result"], actions=[])
        result = GameResult.from_dict(fields)
    if actions:
        return StoredGame(job, result, index)
    moves = record["result"].get("actions")
    if not isinstance(moves, list):
        raise ValueError("its actions are not a list of action names")
    try:  # a move that is not text fails the join: no need to test each one first
        joined = "\x00".join(moves)
    except TypeError:
        raise ValueError("its actions are not a list of action names") from None
    result.actions = []
    return StoredGame(job, result, index,
                      hashlib.blake2b(joined.encode("utf-8"), digest_size=16).hexdigest())


# A line's verdict: ("ok", key, kept), ("invalid", why), ("bad game", why) or ("damaged",).
Verdict = tuple[Any, ...]


def check_lines(lines: list[bytes], keep: Keep) -> list[Verdict]:
    """The verdict on each of ``lines`` (records without their newline); what a worker runs."""
    verdicts: list[Verdict] = []
    for raw in lines:
        try:
            key, record, built = _read_record(raw)
        except (InvalidRecord, JSONLimitError) as error:  # a torn line is neither
            verdicts.append(("invalid", str(error)))
            continue
        except (ValueError, UnicodeDecodeError):
            verdicts.append(("damaged",))
            continue
        if keep == "line":
            verdicts.append(("ok", key, None))
            continue
        try:
            game = stored_game(record, keep == "game", built)
            game.job.key  # noqa: B018 - computed here, in parallel, and kept with the job
            verdicts.append(("ok", key, game))
        except (TypeError, ValueError, KeyError, AttributeError) as error:
            verdicts.append(("bad game", str(error)))
    return verdicts


@dataclass
class Scan:
    """What a store holds: each key's line or game (the last line of a key wins), the byte
    offset just past the last good line, and what a torn last line held (``None``: none)."""

    records: dict[str, Any]
    good_end: int
    dropped: str | None


def _chunks(handle: Any, first_number: int) -> Iterator[tuple[int, list[bytes], bytes]]:
    """``(number of the first line, complete lines without newline, tail)`` chunks of about
    :data:`CHUNK_BYTES`; the tail (a piece after the last newline: a torn write) comes with
    the last chunk."""
    number = first_number
    while True:
        lines = handle.readlines(CHUNK_BYTES)
        if not lines:
            yield number, [], b""
            return
        tail = b""
        if not lines[-1].endswith(b"\n"):
            tail = lines.pop()
        complete = [raw[:-1] for raw in lines]
        yield number, complete, tail
        if tail:
            return
        number += len(complete)


def _workers(path: Path, workers: int | None) -> int:
    if workers is not None:
        return workers
    try:
        size = path.stat().st_size
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
            os.cpu_count() or 1)
    except OSError:
        return 1
    return min(cores, 8) if size > PARALLEL_BYTES else 1


def _verdicts(handle: Any, keep: Keep, workers: int
              ) -> Iterator[tuple[int, list[bytes], list[Verdict], bytes]]:
    """Each chunk of ``handle`` with its verdicts, in file order; ``workers`` > 1 checks them
    in that many processes, with at most :data:`AHEAD` chunks a worker in flight."""
    chunks = _chunks(handle, 2)
    if workers <= 1:
        for number, lines, tail in chunks:
            yield number, lines, check_lines(lines, keep), tail
        return
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pending: collections.deque[tuple[int, list[bytes], Future[list[Verdict]], bytes]]
    pending = collections.deque()
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        try:
            for number, lines, tail in chunks:
                pending.append((number, lines, pool.submit(check_lines, lines, keep), tail))
                if len(pending) >= AHEAD * workers:
                    number, lines, future, tail = pending.popleft()
                    yield number, lines, future.result(), tail
            while pending:
                number, lines, future, tail = pending.popleft()
                yield number, lines, future.result(), tail
        finally:
            for *_, future, _tail in pending:
                future.cancel()


def scan_store(path: Path, keep: Keep, workers: int | None = None) -> Scan:
    """Read and check the store at ``path`` (a missing file is an empty store).

    Raises :class:`StoreError` naming the line of the first record that is not valid, or of a
    damaged line that is not the last one (only the last line can be torn by an interrupted
    run; it is skipped and described in :attr:`Scan.dropped`). ``workers``: processes that
    check records (default: one per core for a store of more than :data:`PARALLEL_BYTES`)."""
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below, whatever happens
    except FileNotFoundError:
        return Scan({}, 0, None)
    except OSError as error:
        raise StoreError(f"{path}: cannot be read ({error.strerror})") from None
    collecting = gc.isenabled()
    # Records hold no cycles: reference counts free them. The cycle collector would only walk
    # the growing heap of kept games again and again (a fifth of the time of a sealed store).
    gc.disable()
    try:
        return _scan_open(path, handle, keep, _workers(path, workers))
    except OSError as error:
        raise StoreError(f"{path}: cannot be read ({error.strerror})") from None
    except BrokenProcessPool:
        raise StoreError(f"{path}: a process checking its records was killed (out of "
                         "memory?); nothing was counted: run the same command again") from None
    finally:
        handle.close()
        if collecting:
            gc.enable()


def _scan_open(path: Path, handle: Any, keep: Keep, workers: int) -> Scan:
    first = handle.readline()
    if not first.endswith(b"\n"):
        if HEADER_BYTES.startswith(first):  # empty, or killed while writing the header
            return Scan({}, 0, None)
        raise StoreError(f"{path}: not a results store of this program")
    if not _is_header(first[:-1]):
        raise StoreError(f"{path}: not a results store of this program (its first line is "
                         "not the store header)")
    records: dict[str, Any] = {}
    texts: dict[str, str] = {}  # one copy of each maze text, however many games share it
    good_end = len(first)
    damaged: tuple[int, int] | None = None  # a line that is not JSON: fine only if last
    tail = b""
    last = 1  # the number of the last complete line read
    for number, lines, verdicts, tail in _verdicts(handle, keep, workers):
        last = number + len(lines) - 1
        for offset, (raw, verdict) in enumerate(zip(lines, verdicts)):
            if damaged is not None:
                break
            where = f"{path}:{number + offset}"
            if verdict[0] == "invalid":
                raise StoreError(f"{where}: not a valid game record: {verdict[1]}")
            if verdict[0] == "bad game":
                raise StoreError(f"{where}: a record does not describe a game ({verdict[1]})")
            if verdict[0] == "damaged":
                damaged = (number + offset, len(raw))
                continue
            kept: Any = raw if keep == "line" else verdict[2]
            if keep != "line":
                text = kept.result.layout_text
                kept.result.layout_text = texts.setdefault(text, text)
            records[verdict[1]] = kept  # a key seen again keeps its last line
            good_end += len(raw) + 1
        if damaged is not None and (damaged[0] < last or tail):
            raise StoreError(f"{path}:{damaged[0]}: damaged record in the middle of the store "
                             "(only the last line can be torn by an interrupted run)")
    dropped = None
    if damaged is not None:
        dropped = f"line {damaged[0]} ({damaged[1]} bytes) was not a complete record"
    elif tail:
        dropped = f"line {last + 1} ({len(tail)} bytes) was cut short"
    return Scan(records, good_end, dropped)


def _is_header(raw: bytes) -> bool:
    try:
        head = load_json(raw)
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(head, dict) and head.get("store") == HEADER["store"]

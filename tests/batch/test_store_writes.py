"""Writes that cannot lose data silently: a store cut by another program while a batch writes
is detected at the next write, and a failing write ends the batch with one line; the games
already stored are kept and the same command resumes."""

from __future__ import annotations

import errno
import os

import pytest

from pacman.batch import GameJob, ResultStore, play_job, read_store
from pacman.batch.store import record_line
from pacman.errors import StoreError
from tests.engine.test_cli import run_cli

from .test_batch_cli import one_line_error


def lines_for(count: int) -> list[str]:
    jobs = [GameJob("c", "small_classic", "random", ghosts="random", seed=seed, max_moves=30)
            for seed in range(count)]
    return [record_line(job, play_job(job), index) for index, job in enumerate(jobs)]


def test_a_store_cut_by_another_program_is_detected_at_the_next_write(tmp_path):
    path = tmp_path / "games.jsonl"
    lines = lines_for(4)
    with ResultStore(path) as store:
        store.append_line(lines[0])
        store.append_line(lines[1])
        os.truncate(path, 10)  # someone else empties most of it
        with pytest.raises(StoreError, match="changed by another program"):
            store.append_line(lines[2])
    assert b"\0" not in path.read_bytes() and path.stat().st_size == 10
    with ResultStore(path) as store:  # the next run repairs it and resumes
        assert len(store) == 0
        store.append_line(lines[3])
    assert [g.index for g in read_store(path)[0]] == [3]


@pytest.mark.parametrize("code, words", [(errno.ENOSPC, "No space left"),
                                         (errno.EPERM, "Operation not permitted")])
def test_a_failing_write_ends_the_batch_with_one_line_and_resumes(capsys, tmp_path,
                                                                  monkeypatch, code, words):
    path = tmp_path / "games.jsonl"
    argv = ("batch", "--pacman", "random", "--ghosts", "random", "--games", "6",
            "--max-moves", "30", "--workers", "1", "--no-progress", "--store", str(path))
    real_write = ResultStore._write
    written = []

    def failing(self, data):
        if len(written) >= 3:  # the header and two games, then the disk is full
            real_write(self, data[: len(data) // 2])  # a torn line, as a full disk leaves
            raise OSError(code, os.strerror(code))
        written.append(data)
        real_write(self, data)

    monkeypatch.setattr(ResultStore, "_write", failing)
    status, out, err = run_cli(capsys, *argv)
    one_line_error(status, err, str(path), words, "run the same command again")
    monkeypatch.setattr(ResultStore, "_write", real_write)
    status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    assert sorted(g.index for g in read_store(path)[0]) == list(range(6))

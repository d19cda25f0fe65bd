"""Killing a batch with SIGKILL mid-run, then resuming, gives the uninterrupted run's store."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from pacman.batch import read_store
from pacman.cli import main

from .helpers import comparable

ROOT = Path(__file__).resolve().parents[2]
GAMES = 1500  # per condition; two conditions of random agents: a few seconds in all


def batch_argv(store: Path) -> list[str]:
    return ["batch", "--layout", "small_classic", "--pacman", "random",
            "--pacman", "random allow_stop=false", "--ghosts", "random", "--games", str(GAMES),
            "--seed", "9", "--max-moves", "200", "--workers", "2", "--store", str(store),
            "--no-progress"]


def stored_games(store: Path) -> dict:
    games, _ = read_store(store)
    return {g.job.key: comparable(g.result) for g in games}


def lines_in(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def descendants(pid: int) -> set[int]:
    """The processes below ``pid``, at any depth (Linux ``/proc``)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = [int(c) for c in (task / "children").read_text().split()]
            except (FileNotFoundError, ProcessLookupError):
                continue
            found.update(children)
            todo.extend(children)
    return found


def running(pids: set[int]) -> set[int]:
    """Those of ``pids`` that still run (neither gone nor a zombie)."""
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            continue
        if state != "Z":
            alive.add(pid)
    return alive


def start_and_kill(store: Path, signal_number: int) -> tuple[subprocess.Popen, set[int]]:
    """Start the batch, kill its process with ``signal_number`` a quarter of the way in, and
    return it with the processes that were below it and still run 10 s later."""
    process = subprocess.Popen([sys.executable, str(ROOT / "run.py"), *batch_argv(store)],
                               cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while lines_in(store) < GAMES // 4 and process.poll() is None:
            assert time.monotonic() < deadline, "the batch never got going"
            time.sleep(0.01)
        below = descendants(process.pid)
        assert below, "the batch has no worker processes"
        os.kill(process.pid, signal_number)
        process.wait(timeout=10)
        deadline = time.monotonic() + 10
        while running(below) and time.monotonic() < deadline:
            time.sleep(0.05)
        return process, running(below)
    finally:
        with contextlib.suppress(ProcessLookupError):  # whatever the outcome, leave none behind
            os.killpg(process.pid, signal.SIGKILL)


def test_the_workers_end_with_the_batch_however_it_is_killed(tmp_path):
    for signal_number in (signal.SIGTERM, signal.SIGKILL):
        _, left = start_and_kill(tmp_path / f"{signal_number}.jsonl", signal_number)
        assert not left, f"processes outlived the batch after signal {signal_number}: {left}"


def test_kill_9_then_resume_equals_an_uninterrupted_run(tmp_path, capsys):
    killed_store = tmp_path / "killed.jsonl"
    process, _ = start_and_kill(killed_store, signal.SIGKILL)
    assert process.returncode == -signal.SIGKILL, process.stderr.read().decode()
    survived = stored_games(killed_store)
    assert GAMES // 4 - 64 <= len(survived) < 2 * GAMES  # stopped midway, games kept

    assert main(batch_argv(killed_store)) == 0  # resume
    reference_store = tmp_path / "reference.jsonl"
    assert main(batch_argv(reference_store)) == 0
    capsys.readouterr()
    resumed = stored_games(killed_store)
    assert len(resumed) == 2 * GAMES
    assert resumed == stored_games(reference_store)
    assert all(resumed[key] == game for key, game in survived.items())

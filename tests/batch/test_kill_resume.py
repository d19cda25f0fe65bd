"""Killing a batch with SIGKILL mid-run, then resuming, gives the uninterrupted run's store."""

from __future__ import annotations

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


def test_kill_9_then_resume_equals_an_uninterrupted_run(tmp_path, capsys):
    killed_store = tmp_path / "killed.jsonl"
    process = subprocess.Popen([sys.executable, str(ROOT / "run.py"), *batch_argv(killed_store)],
                               cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while lines_in(killed_store) < GAMES // 4 and process.poll() is None:
            assert time.monotonic() < deadline, "the batch never got going"
            time.sleep(0.01)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    finally:
        try:  # the workers end themselves; make sure of it
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
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

"""Nothing outlives its game's owner: ``kill -9`` of ``play`` or SIGTERM of a batch leaves no
agent process within a few seconds (the processes are counted)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.containment.support import ROOT

AGENTS = Path(__file__).with_name("wing_agents.py")


def _descendants(root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as file:
                    fields = file.read().rpartition(")")[2].split()
            except OSError:
                continue
            if fields[0] != "Z":
                children.setdefault(int(fields[1]), []).append(int(name))
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _agents(pids: set[int]) -> set[int]:
    """Those of ``pids`` that still run an agent's process (not zombies)."""
    alive = set()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                line = file.read()
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as file:
                zombie = file.read().rpartition(")")[2].split()[0] == "Z"
        except OSError:
            continue
        if b"pacman.contained.child" in line and not zombie:
            alive.add(pid)
    return alive


@pytest.mark.parametrize(("argv", "how"), [
    (["play", "--games", "50", "--json"], signal.SIGKILL),
    (["batch", "-n", "50", "--workers", "2", "--no-store", "--no-progress"], signal.SIGTERM),
    (["batch", "-n", "50", "--workers", "1", "--no-store", "--no-progress"], signal.SIGKILL),
])
def test_no_agent_process_outlives_its_owner(argv, how):
    owner = subprocess.Popen([sys.executable, str(ROOT / "run.py"), *argv, "-p",
                              f"{AGENTS}:Spins", "--layout", "small_classic", "--max-moves",
                              "50"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        seen: set[int] = set()
        while time.monotonic() < deadline:
            seen = _agents(_descendants(owner.pid))
            if seen:
                break
            time.sleep(0.1)
        assert seen, "no agent process started"
        time.sleep(0.5)
        everything = _descendants(owner.pid)
        owner.send_signal(how)
        owner.wait(timeout=30)
        deadline = time.monotonic() + 5
        while _agents(everything) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _agents(everything)
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait()

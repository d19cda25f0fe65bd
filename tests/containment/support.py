"""Running the command line in a fresh process, and counting the processes a test leaves."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = Path(__file__).with_name("hostile_code.py")


def code(name: str) -> str:
    """``hostile_code.py:name`` as a command line names it."""
    return f"{HOSTILE}:{name}"


def run_program(*argv: str, timeout: float = 60, cwd: Path | None = None,
                env: dict[str, str] | None = None, **extra: Any) -> subprocess.CompletedProcess:
    """``pacman-arena ARGV`` in a new process (``run.py``), its output captured as text."""
    environment = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, str(ROOT / "run.py"), *argv], capture_output=True,
                          text=True, timeout=timeout, cwd=cwd or ROOT, env=environment,
                          stdin=subprocess.DEVNULL, **extra)


def _stat(pid: int) -> tuple[str, int] | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as file:
            fields = file.read().rpartition(")")[2].split()
    except OSError:
        return None
    return fields[0], int(fields[1])


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return file.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def live_processes(token: str | None = None) -> set[int]:
    """Processes alive now (not zombies) that descend from this one, other than
    multiprocessing's own servers, and any anywhere whose command line holds ``token``."""
    parents: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            stat = _stat(int(name))
            if stat is not None and stat[0] != "Z":
                parents[int(name)] = stat[1]
    found: set[int] = set()
    for pid in parents:
        ancestor = parents.get(pid)
        while ancestor is not None and ancestor not in (0, 1, os.getpid()):
            ancestor = parents.get(ancestor)
        ours = ancestor == os.getpid() and "multiprocessing." not in _cmdline(pid)
        if ours or token is not None and token in _cmdline(pid):
            found.add(pid)
    return found


def left_behind(before: set[int], token: str | None = None, wait: float = 5.0) -> set[int]:
    """The processes alive now that were not in ``before`` (waiting up to ``wait`` seconds
    for them to end)."""
    deadline = time.monotonic() + wait
    while True:
        extra = live_processes(token) - before
        if not extra or time.monotonic() > deadline:
            return extra
        time.sleep(0.05)


def error_lines(stderr: str) -> list[str]:
    """The lines of ``stderr`` other than the plain backend's one line of what it does not
    prevent."""
    return [line for line in stderr.strip().splitlines() if "not prevented" not in line]


def plain_cannot_prevent(words: str) -> None:
    """Under the plain backend, check that its one line names ``words`` and skip the test."""
    import pytest

    from pacman.contained.jail import PLAIN_LINE

    if os.environ.get("PACMAN_AGENT_JAIL") == "plain":
        assert words in PLAIN_LINE
        pytest.skip(f"the plain backend does not prevent this (its line says: {words})")

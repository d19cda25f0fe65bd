"""A real terminal for the display tests: a tmux pane of a fixed size, read back as shown."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


class Terminal:
    """A detached tmux session of ``columns`` x ``rows`` running one command."""

    def __init__(self, columns: int, rows: int, command: list[str], done: Path,
                 stdout: Path | None = None) -> None:
        self.socket = f"pacman-test-{uuid.uuid4().hex[:8]}"
        self.done = done
        line = " ".join(f"'{part}'" for part in command) + (f" > '{stdout}'" if stdout else "")
        # The pane stays open after the game (what a user would see), and a file says it ended.
        self.tmux("new-session", "-d", "-x", str(columns), "-y", str(rows), "-s", "game",
                  f"cd '{ROOT}' && {line}; echo $? > '{done}'; sleep 60")

    def tmux(self, *argv: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, "-f", os.devnull, *argv],
                              capture_output=True, text=True, check=True, timeout=20).stdout

    def wait_until_done(self, seconds: float = 60) -> int:
        """Wait for the command to end; its exit code."""
        deadline = time.monotonic() + seconds
        while not self.done.exists() or not self.done.read_text().strip():
            assert time.monotonic() < deadline, "the game did not end"
            time.sleep(0.1)
        return int(self.done.read_text())

    def screen(self) -> list[str]:
        """The lines on the screen now."""
        return self.tmux("capture-pane", "-p", "-t", "game").splitlines()

    def wait_for(self, pattern: str, seconds: float = 20) -> None:
        """Wait until a line on the screen matches the regular expression ``pattern``."""
        deadline = time.monotonic() + seconds
        while not any(re.search(pattern, line) for line in self.screen()):
            assert time.monotonic() < deadline, f"{pattern!r} never appeared"
            time.sleep(0.05)

    def press(self, key: str) -> None:
        """Type ``key`` as tmux names it (``q``, ``Escape``, ``C-c``)."""
        self.tmux("send-keys", "-t", "game", key)

    def scrolled(self) -> int:
        """Lines that left the top of the screen."""
        return int(self.tmux("display", "-p", "-t", "game", "#{history_size}"))

    def logical_lines(self) -> list[str]:
        """Every line written, with lines the terminal wrapped joined again."""
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "game").splitlines()

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def start_in_terminal(tmp_path: Path, columns: int, rows: int, *argv: str,
                      stdout: Path | None = None) -> Terminal:
    """``run.py ARGV`` started in a new terminal of ``columns`` x ``rows`` (its standard
    output sent to the file ``stdout`` if given)."""
    return Terminal(columns, rows, [sys.executable, "run.py", *argv], tmp_path / "done", stdout)


def play_in_terminal(tmp_path: Path, columns: int, rows: int, *argv: str) -> Terminal:
    """``run.py -t ARGV`` played to its end in a new terminal of ``columns`` x ``rows``."""
    terminal = start_in_terminal(tmp_path, columns, rows, "-t", "--frame-time", "0.005", *argv)
    try:
        terminal.wait_until_done()
    except BaseException:
        terminal.close()
        raise
    return terminal

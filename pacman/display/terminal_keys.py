"""Key presses read from a terminal while a game is drawn in it (``q`` or Escape to quit).

The terminal is put in cbreak mode (keys arrive one by one, unechoed; Ctrl-C still
interrupts) only while a game is shown, and restored afterwards. Where there is no terminal
(a pipe, a file, a system without ``termios``), no keys are read.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import sys
from typing import Any, TextIO

#: A key that sends an escape sequence (arrows, function keys): not a press of Escape.
_SEQUENCE = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|O.)")


def asks_to_quit(keys: str) -> bool:
    """Whether ``keys`` (text read from a terminal) hold ``q`` or a press of Escape."""
    plain = _SEQUENCE.sub("", keys)
    return "q" in plain.lower() or "\x1b" in plain


class TerminalKeys:
    """Reads key presses from ``stream`` (default: standard input) without waiting."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdin
        self._fd: int | None = None
        self._saved: Any = None

    def open(self) -> bool:
        """Start reading keys; ``False`` (and nothing changed) if the stream is no terminal."""
        try:
            import termios
            import tty

            fd = self.stream.fileno()
            if not os.isatty(fd):
                return False
            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)
        except (ImportError, AttributeError, OSError, ValueError):
            self._saved = None
            return False
        self._fd = fd
        return True

    @property
    def reading(self) -> bool:
        return self._fd is not None

    def wait(self, seconds: float) -> str:
        """The keys pressed within ``seconds`` (returns as soon as there are some)."""
        if self._fd is None:
            return ""
        try:
            ready, _, _ = select.select([self._fd], [], [], max(0.0, seconds))
            if not ready:
                return ""
            keys = os.read(self._fd, 64)
            while select.select([self._fd], [], [], 0.01)[0]:  # the rest of a sequence
                keys += os.read(self._fd, 64)
        except (OSError, ValueError):
            return ""
        return keys.decode("utf-8", "replace")

    def close(self) -> None:
        """Give the terminal back as it was."""
        if self._fd is not None and self._saved is not None:
            import termios

            with contextlib.suppress(OSError, termios.error):
                termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
        self._fd = self._saved = None

"""A one-line progress bar on stderr: games done, rate, time left.

On a terminal the line is redrawn in place at most ten times a second; into a file or pipe a
plain line is written at most every ten seconds, so logs stay short. The rate counts only games
played in this run (games found in the store on resume are done but cost nothing).
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Progress:
    """Counts finished games out of ``total``; ``done`` of them were finished before."""

    def __init__(self, total: int, done: int = 0, stream: TextIO | None = None,
                 width: int = 24) -> None:
        self.total = total
        self.done = done
        self.start_done = done
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.began = time.monotonic()
        self.last_drawn = -float("inf")
        isatty = getattr(self.stream, "isatty", None)
        self.interactive = bool(isatty and isatty())
        self.interval = 0.1 if self.interactive else 10.0
        self.draw(force=True)

    def line(self) -> str:
        """The progress line as it is drawn now."""
        elapsed = max(time.monotonic() - self.began, 1e-9)
        played = self.done - self.start_done
        rate = played / elapsed
        filled = int(self.width * self.done / self.total) if self.total else self.width
        bar = "#" * filled + "." * (self.width - filled)
        text = f"[{bar}] {self.done}/{self.total} games"
        if played:
            left = (self.total - self.done) / rate if rate > 0 else float("inf")
            text += f"  {rate:.1f} games/s  {_clock(elapsed)} elapsed  {_clock(left)} left"
        return text

    def draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.last_drawn < self.interval:
            return
        self.last_drawn = now
        if self.interactive:
            self.stream.write("\r" + self.line() + "\x1b[K")
        else:
            self.stream.write(self.line() + "\n")
        self.stream.flush()

    def advance(self, games: int = 1) -> None:
        self.done += games
        self.draw()

    def close(self) -> None:
        """Draw the final state and end the line."""
        self.draw(force=True)
        if self.interactive:
            self.stream.write("\n")
            self.stream.flush()

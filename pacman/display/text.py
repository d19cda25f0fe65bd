"""A terminal display: the maze as text, redrawn after every round of moves."""

from __future__ import annotations

import os
import sys
import textwrap
import time
from typing import Any, TextIO
from collections.abc import Sequence

from pacman.display.base import BaseDisplay
from pacman.display.controls import QUIT
from pacman.display.terminal_keys import TerminalKeys, asks_to_quit
from pacman.engine.game import GameInterrupted
from pacman.engine.state import GameState

_COLOURS = {"%": "\033[34m", ".": "\033[37m", "o": "\033[97m", "P": "\033[93m",
            "G": "\033[91m", "S": "\033[96m"}
_RESET = "\033[0m"
#: Rows kept free below a frame on a terminal: the line the cursor rests on and the result
#: line printed after the game, so that the frame never scrolls.
_SPARE_ROWS = 2


def terminal_size(stream: TextIO) -> tuple[int, int] | None:
    """``(columns, rows)`` of the terminal ``stream`` writes to, or ``None`` if it is not one."""
    try:
        size = os.get_terminal_size(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return None
    return (size.columns, size.lines) if size.columns > 0 and size.lines > 0 else None


def crop_span(length: int, keep: int, centre: int) -> tuple[int, int]:
    """The ``[start, end)`` of ``keep`` consecutive indices out of ``length``, as near to
    centred on ``centre`` as the edges allow (all of them if ``keep >= length``)."""
    if keep >= length:
        return 0, length
    start = min(max(0, centre - keep // 2), length - keep)
    return start, start + keep


def fit_lines(text: str, width: int | None) -> list[str]:
    """``text`` wrapped at word boundaries into lines of at most ``width`` characters
    (a word longer than the width is cut); one line if ``width`` is ``None``."""
    if width is None:
        return [text]
    return textwrap.wrap(text, width=max(1, width), break_long_words=True) or [""]


class TextDisplay(BaseDisplay):
    """Draws the maze with a status line; colours and in-place redraw on a terminal.

    ``frame_time`` is the pause after each drawn frame, in seconds. On a terminal each frame
    replaces the previous one and fits the terminal: status lines are wrapped to its width,
    and a maze wider or taller than the room left is shown cropped around Pacman (the status
    says which rows and columns are shown). Otherwise (a pipe, a file) frames are printed
    whole one after another. When :attr:`announce` is set, the end of a game calls it instead
    of printing a line (the play command prints its own result line, once).
    """

    def __init__(self, frame_time: float = 0.1, stream: TextIO | None = None,
                 every_move: bool = False) -> None:
        self.frame_time = max(0.0, frame_time)
        self.stream = stream or sys.stdout
        self.every_move = every_move
        self.interactive = bool(getattr(self.stream, "isatty", lambda: False)())
        self.agents: Sequence[str] = ()
        self.moves = 0
        #: Terminal rows the last frame took (what the next redraw moves up over).
        self._drawn_lines = 0
        self.request: str | None = None
        self.keys = TerminalKeys()

    def start(self, state: GameState, agents: Sequence[str]) -> None:
        self.agents = agents
        self.moves = 0
        self.request = None
        if self.interactive:
            self.keys.open()
        self._draw(state, "start")

    def update(self, state: GameState, move: Any) -> None:
        if move.agent == 0:
            self.moves += 1
        if self.every_move or state.turn == 0 or state.is_terminal:
            self._draw(state, f"move {self.moves}")

    def finish(self, state: GameState, result: Any) -> None:
        self.keys.close()
        if self.request == QUIT:  # the frame shows the moment of the quit
            self._draw(state, f"move {result.moves}", wait=False)
        self._drawn_lines = 0  # the frame stays; what follows goes below it
        if self.announce is not None:
            self.announce(result)
            return
        line = f"game over: {result.outcome}, score {result.score}, {result.moves} moves"
        if result.failure:
            line += f" ({result.failure.kind} by agent {result.failure.agent}: " \
                    f"{result.failure.message})"
        self.stream.write(line + "\n")
        self.stream.flush()

    def frame_lines(self, state: GameState, label: str,
                    size: tuple[int, int] | None) -> tuple[list[str], list[str]]:
        """One frame without colour: the maze rows (cropped around Pacman to fit ``size`` =
        ``(columns, rows)``; ``None`` for no limit) and the status lines (wrapped to fit)."""
        width = size[0] if size else None
        players = f"{' vs '.join(self.agents[:1])} vs {', '.join(self.agents[1:]) or 'no ghosts'}"
        status = (f"{label}  score {state.score}  food {state.food_count}"
                  + (f"  scared {max(state.scared_timers)}" if any(state.scared_timers) else ""))
        rows = state.render().split("\n")
        maze_width = max(len(row) for row in rows)
        cropped = ""
        if size is not None:
            room = (size[1] - _SPARE_ROWS - len(fit_lines(status, width))
                    - len(fit_lines(players, width)))
            if room < len(rows) or size[0] < maze_width:
                note = "maze cropped around Pacman: rows {}-{}, columns {}-{} shown"
                room -= len(fit_lines(note.format(*[999] * 4), width))
                x, y = state.layout.xy(state.pacman_cell)
                top, bottom = crop_span(len(rows), max(1, room), len(rows) - 1 - y)
                left, right = crop_span(maze_width, size[0], x)
                rows = [row[left:right] for row in rows[top:bottom]]
                cropped = note.format(top + 1, bottom, left + 1, right)
        lines = fit_lines(status, width) + fit_lines(players, width)
        return rows, lines + (fit_lines(cropped, width) if cropped else [])

    def close(self) -> None:
        self.keys.close()

    def _draw(self, state: GameState, label: str, wait: bool = True) -> None:
        size = terminal_size(self.stream) if self.interactive else None
        rows, status = self.frame_lines(state, label, size)
        hint = "  (q quits)"
        if self.keys.reading and (size is None or len(status[-1]) + len(hint) <= size[0]):
            status[-1] += hint
        if self.interactive:
            rows = ["".join(_COLOURS.get(c, "") + c + _RESET if c in _COLOURS else c
                            for c in row) for row in rows]
        if self.interactive:
            # Up over exactly the rows the last frame took; each line overwrites the old one
            # (erasing its rest), then what is left of the old frame below is cleared.
            up = f"\033[{self._drawn_lines}F" if self._drawn_lines else ""
            self.stream.write(up + "".join(line + "\033[K\n" for line in rows + status)
                              + "\033[J")
        else:
            self.stream.write("\n".join(rows + status) + "\n")
        self.stream.flush()
        self._drawn_lines = len(rows) + len(status)
        if wait:
            self._wait_for_keys()

    def _wait_for_keys(self) -> None:
        """Pause for :attr:`frame_time`, ending the game if ``q`` or Escape is pressed."""
        if not self.keys.reading:
            if self.frame_time:
                time.sleep(self.frame_time)
            return
        if asks_to_quit(self.keys.wait(self.frame_time)):
            self.request = QUIT
            raise GameInterrupted(QUIT)

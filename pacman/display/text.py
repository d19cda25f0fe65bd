"""A terminal display: the maze as text, redrawn after every round of moves."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO
from collections.abc import Sequence

from pacman.display.base import BaseDisplay
from pacman.state import GameState

_COLOURS = {"%": "\033[34m", ".": "\033[37m", "o": "\033[97m", "P": "\033[93m",
            "G": "\033[91m", "S": "\033[96m"}
_RESET = "\033[0m"


class TextDisplay(BaseDisplay):
    """Draws the maze with a status line; colours and in-place redraw on a terminal.

    ``frame_time`` is the pause after each drawn frame, in seconds. On a terminal each frame
    replaces the previous one; otherwise (a pipe, a file) frames are printed one after another.
    When :attr:`announce` is set, the end of a game calls it instead of printing a line (the play
    command prints its own result line, once).
    """

    def __init__(self, frame_time: float = 0.1, stream: TextIO | None = None,
                 every_move: bool = False) -> None:
        self.frame_time = max(0.0, frame_time)
        self.stream = stream or sys.stdout
        self.every_move = every_move
        self.interactive = bool(getattr(self.stream, "isatty", lambda: False)())
        self.agents: Sequence[str] = ()
        self.moves = 0
        self._drawn_lines = 0

    def start(self, state: GameState, agents: Sequence[str]) -> None:
        self.agents = agents
        self.moves = 0
        self._draw(state, "start")

    def update(self, state: GameState, move: Any) -> None:
        if move.agent == 0:
            self.moves += 1
        if self.every_move or state.turn == 0 or state.is_terminal:
            self._draw(state, f"move {self.moves}")

    def finish(self, state: GameState, result: Any) -> None:
        if self.announce is not None:
            self.announce(result)
            return
        line = f"game over: {result.outcome}, score {result.score}, {result.moves} moves"
        if result.failure:
            line += f" ({result.failure.kind} by agent {result.failure.agent}: " \
                    f"{result.failure.message})"
        self.stream.write(line + "\n")
        self.stream.flush()

    def _draw(self, state: GameState, label: str) -> None:
        maze = state.render()
        if self.interactive:
            maze = "".join(_COLOURS.get(c, "") + c + _RESET if c in _COLOURS else c for c in maze)
        status = (f"{label}  score {state.score}  food {state.food_count}"
                  + (f"  scared {max(state.scared_timers)}" if any(state.scared_timers) else "")
                  + f"  |  {' vs '.join(self.agents[:1])} vs {', '.join(self.agents[1:]) or 'no ghosts'}")
        frame = f"{maze}\n{status}\n"
        if self.interactive and self._drawn_lines:
            self.stream.write(f"\033[{self._drawn_lines}F\033[J")
        self.stream.write(frame)
        self.stream.flush()
        self._drawn_lines = frame.count("\n")
        if self.frame_time:
            time.sleep(self.frame_time)

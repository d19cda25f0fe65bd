"""What the window does between games and while a human plays: the parts of
:class:`pacman.display.window.WindowDisplay` about waiting for a person.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from pacman.display._pygame import pygame

from pacman.display.pacing import AUTO_ADVANCE
from pacman.engine.game import GameInterrupted
from pacman.engine.state import GameState

#: Keys that end the wait after a game.
CONTINUE_KEYS = (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_n)
#: Seconds the end of the last game stays up before the window closes by itself (unless
#: ``pause_at_end``): long enough to read the banner, and nobody has to be there to close it.
END_LINGER = 5.0


class WaitsForPeople:
    """Mixed into the window: the wait after a game, and a human player's moves.

    Uses the window's ``games_left``, ``pause_between``, ``pause_at_end``, ``linger``,
    ``events``, ``pump``,
    ``redraw``, ``tick``, ``_handle``, ``_process`` and ``_wait_note``.
    """

    # The window's parts used here, declared for readers and the type checker.
    games_left: int
    pause_between: bool
    pause_at_end: bool
    linger: float | None
    events: Any
    _wanted: Any
    pump: Callable[[], None]
    redraw: Callable[..., None]
    tick: Callable[..., Any]
    _handle: Callable[..., Any]
    _process: Callable[..., Any]

    def _wait_after_game(self) -> None:
        """Show the end of the game until a key ends it, or the pause: :data:`AUTO_ADVANCE`
        between games (unless ``pause_between``), :data:`END_LINGER` after the last one (unless
        ``pause_at_end``); ``linger``, when set, replaces both."""
        if self.games_left > 0:
            auto = None if self.pause_between else AUTO_ADVANCE
        else:
            auto = None if self.pause_at_end else END_LINGER
        limit = self.linger if self.linger is not None else auto
        waited_from = time.perf_counter()
        while limit is None or time.perf_counter() - waited_from < limit:
            left = None if limit is None else max(0.0, limit - (time.perf_counter() - waited_from))
            self._wait_note = self.next_hint(left)
            self.redraw()
            self.pump()
            while self.events:
                event = self.events.popleft()
                if event.type == pygame.KEYDOWN and event.key in CONTINUE_KEYS:
                    self._wait_note = ""
                    return
                if event.type == pygame.KEYDOWN and event.key == pygame.K_p:
                    limit = None
                    continue
                try:
                    self._handle(event)
                except GameInterrupted:
                    self._wait_note = ""
                    return
            self.tick(30)
        self._wait_note = ""

    def next_hint(self, seconds_left: float | None) -> str:
        """The keys at the end of a game: what comes next and how to get it."""
        if self.games_left > 0:
            then = (f"next game in {math.ceil(seconds_left)} s: space now, p wait"
                    if seconds_left is not None else "space: next game")
            return f"{then}   r: play it again   q: quit"
        if seconds_left is not None:
            return (f"closing in {math.ceil(seconds_left)} s: space or q now, p keep open"
                    "   r: play it again")
        return "space or q: close   r: play it again"

    # --- a human player ----------------------------------------------------------------------
    def human_joined(self) -> None:
        """From now until the end of the game, arrows and WASD steer Pacman."""
        self._human = True

    def human_action(self, state: GameState) -> str:
        """The keyboard player's move: the last direction pressed once it is legal, else the
        way he is going while that is legal, else Stop. Before the first key of a game the
        window waits for one."""
        self._human = True
        self.pump()
        self._process()
        while self._wanted is None:
            self.redraw("arrows or WASD to start")
            self.tick(30)
            self.pump()
            self._process()
        legal = state.legal_actions()
        if self._wanted in legal:
            self._heading = self._wanted
        return self._heading if self._heading in legal else "Stop"


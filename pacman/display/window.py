"""The pygame window: watch games with smooth movement, control them, play with the keyboard.

Importing this module imports pygame; :mod:`pacman.display` imports it only when the window is
asked for.

Keys
    ``space`` pause / resume · ``→`` (or ``.``) one move while paused · ``+`` / ``-`` faster /
    slower · ``s`` (or ``Tab``) search overlay · ``r`` restart with the same seed ·
    ``q``, ``Escape``, ``Ctrl+C`` or closing the window: quit with the result so far. While a human plays
    (the keyboard agent), arrows and WASD steer Pacman, so ``.`` steps and ``Tab`` toggles the
    overlay. At the end of a game the bar says what comes next: with more games to play the
    window goes on by itself after :data:`AUTO_ADVANCE` seconds (unless ``pause_between``),
    after the last game it closes by itself after ``END_LINGER`` seconds (unless
    ``pause_at_end``);
    ``space``, ``Enter`` or ``n`` goes on at once, ``p`` waits, ``r`` plays it again, ``q``
    quits. Replays have keys of their own (:mod:`pacman.display.replay_view`).

Timing
    The window draws once per round (Pacman's move and the ghosts' replies), moving every agent
    smoothly from its old cell to its new one over ``frame_time`` seconds at up to ``fps``
    frames per second; with ``frame_time`` 0 it draws each round once, as fast as the agents
    play. Keys are handled in the order they were pressed.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any
from collections.abc import Callable, Mapping, Sequence

from pacman.display import controls
from pacman.display._pygame import pygame
from pacman.display.banner import draw_end_banner
from pacman.display.overlay import HeatScale, SearchView, heat_map, search_view
from pacman.display.renderer import MAX_TILE, Renderer, Status
from pacman.display.statusbar import KEYS_HINT, LINES
from pacman.errors import ConfigurationError
from pacman.engine.game import GameInterrupted, Move
from pacman.engine.layout import Layout
from pacman.engine.state import GameState

from pacman.display.base import BaseDisplay
from pacman.display.people import WaitsForPeople
from pacman.display.replay_view import ReplayViewer
from pacman.display.slider import ROOM as SLIDER_ROOM
# Sizes and speeds live in pacing; the names callers knew from this module stay importable.
from pacman.display.pacing import (AUTO_ADVANCE, BASE_TILE, FASTER_KEYS, FASTEST,  # noqa: F401
                                   SLOW_THINK, SLOWER_KEYS, SLOWEST, SMALLEST_TILE, default_tile,
                                   faster, format_seconds, screen_size, slower)

_DIRECTION_KEYS = {
    pygame.K_UP: "North", pygame.K_w: "North",
    pygame.K_DOWN: "South", pygame.K_s: "South",
    pygame.K_RIGHT: "East", pygame.K_d: "East",
    pygame.K_LEFT: "West", pygame.K_a: "West",
}


#: The width a new window has at least, where the screen allows: a narrow maze's status bar
#: then holds the overlay's legend at a legible size (about 13 px instead of 7).
LEGEND_WIDTH = 700


def first_frame(layout: Layout, screen: tuple[int, int]) -> Renderer:
    """The renderer of a new window on a screen of ``screen`` pixels: the default cell size
    (:func:`~pacman.display.pacing.default_tile`), the frame widened to :data:`LEGEND_WIDTH`
    (within 80 % of the screen) when the maze is narrower, the maze centred."""
    tile = default_tile(layout, screen)
    width, height = Renderer.natural_size(layout, tile)
    wide = max(width, min(LEGEND_WIDTH, int(screen[0] * 0.8)))
    return Renderer(layout, tile, (wide, height))


class WindowDisplay(WaitsForPeople, BaseDisplay):
    """A resizable pygame window that shows games (the :class:`pacman.engine.game.Display` protocol).

    ``frame_time`` is the seconds one round takes on screen; ``zoom`` scales the cells
    (1.0 is 24 pixels; default: as large as fits the screen, at most 24); ``overlay`` starts
    with the search overlay shown; ``evaluation`` is the function whose heat map the overlay
    draws (``None``: no heat map); ``linger`` is how long the final position stays up after
    a game (``None``: between games, :data:`~pacman.display.pacing.AUTO_ADVANCE` unless
    ``pause_between``; after the last one, :data:`~pacman.display.people.END_LINGER` unless
    ``pause_at_end``, which wait for a key); ``fps`` caps the frame rate of animations.

    After each game, :attr:`request` tells the caller whether the user asked to restart or to
    quit (see :mod:`pacman.display.controls`). It reads a human player's keys
    (:meth:`human_input`); :meth:`close` closes it.
    """

    def __init__(self, frame_time: float = 0.1, zoom: float | None = None, *,
                 overlay: bool = False,
                 evaluation: Callable[[GameState], float] | None = None,
                 linger: float | None = None, fps: int = 60,
                 pause_between: bool = False, pause_at_end: bool = False) -> None:
        if zoom is not None and not 0 < zoom <= 5:
            raise ConfigurationError(f"--zoom must be above 0 and at most 5, got {zoom}")
        self.frame_time = max(0.0, frame_time)
        self.zoom = zoom
        self.overlay = overlay
        self.evaluation = evaluation
        self.linger = linger
        self.pause_between = pause_between
        self.pause_at_end = pause_at_end
        #: Games still to play after this one (set by the caller; 0: this is the last).
        self.games_left = 0
        #: Called with the result as soon as a game ends, before the window waits.
        self.announce: Callable[[Any], None] | None = None
        #: What the status bar says the window shows (a recording, a seed), set by the caller.
        self.label = ""
        self.fps = max(1, fps)
        self.paused = False
        self.request: str | None = None
        #: The state the last complete frame showed.
        self.shown: GameState | None = None
        self.moves = 0
        self.agents: Sequence[str] = ()
        self.outcome: str | None = None
        self.screen: pygame.Surface | None = None
        self.renderer: Renderer | None = None
        self._layout: Layout | None = None
        self._latest: GameState | None = None
        self._previous: GameState | None = None
        self._progress = 1.0
        self._view: SearchView | None = None
        #: (state, heat map, its scale) or (state, None, why there is none).
        self._heat: tuple[GameState, Mapping[int, float] | None, Any] | None = None
        self.facing = "East"
        #: Events read from pygame and not handled yet, oldest first.
        self.events: deque[Any] = deque()
        self._steps = 0
        self._human = False
        self._wanted: str | None = None
        self._heading: str | None = None
        self._clock: pygame.time.Clock | None = None
        self._think: float | None = None
        self._round_began: float | None = None
        self._round_seconds: deque[float] = deque(maxlen=10)
        self._wait_note = ""
        #: Where the end-of-game banner is drawn (``None`` while a game goes on).
        self.banner: pygame.Rect | None = None

    def human_input(self) -> WindowDisplay:
        """The window reads a human player's keys (:class:`~pacman.display.controls.HumanInput`)."""
        return self

    # --- the Display protocol ----------------------------------------------------------------
    def start(self, state: GameState, agents: Sequence[str]) -> None:
        self.open(state.layout)
        self.agents = list(agents)
        self.moves = 0
        self.outcome = None
        self.request = None
        self._steps = 0
        self._view = None
        self._heat = None
        self._wanted = self._heading = None
        self.facing = "East"
        self._latest = self.shown = state
        self._previous = None
        self._progress = 1.0
        self._think = None
        self._round_seconds.clear()
        self._round_began = time.perf_counter()
        self._wait_note = ""
        self.redraw(self.thinking_note())
        self._hold()

    def update(self, state: GameState, move: Move) -> None:
        before = self._latest
        self._latest = state
        if move.agent == 0:
            self.moves += 1
            self._think = move.seconds
            try:
                self._view = search_view(before, move.report) if before is not None else None
            except Exception:  # a foreign agent's malformed report must not stop the game
                self._view = None
        if state.turn != 0 and not state.is_terminal:
            return
        self._animate(self.shown, state)
        now = time.perf_counter()
        if self._round_began is not None:
            self._round_seconds.append(now - self._round_began)
        self._round_began = now
        if not state.is_terminal:
            self.redraw(self.thinking_note())
        self._hold()

    def thinking_note(self) -> str:
        """``thinking...`` before the first move and while moves take long, else nothing."""
        if self._human or (self._think is not None and self._think < SLOW_THINK):
            return ""
        return "pacman thinking..."

    def finish(self, state: GameState, result: Any) -> None:
        self.outcome = result.outcome
        self._human = False
        self._latest = self.shown = state
        self._previous = None
        if self.announce is not None:
            self.announce(result)
        if self.request is not None or result.outcome == "interrupted":  # a quit, Ctrl-C
            self.redraw()
            return
        self._wait_note = self.next_hint(None)
        self.redraw()
        self._wait_after_game()

    # --- window ------------------------------------------------------------------------------
    def open(self, layout: Layout) -> None:
        """Open the window for ``layout`` (or resize it when the maze changed)."""
        if self.screen is not None and self._layout is layout:
            return
        try:
            if not pygame.display.get_init():
                pygame.display.init()
            self._open(layout)
        except pygame.error as error:
            raise ConfigurationError(f"cannot open the game window ({error}); use "
                                     "--display text, or --display auto to fall back") from None

    def _open(self, layout: Layout) -> None:
        self._layout = layout
        if self.screen is not None:  # another maze in the same window: keep its size
            self.resize(self.screen.get_size())
        else:
            if self.zoom is not None:
                tile = max(4, min(MAX_TILE, round(BASE_TILE * self.zoom)))
                self.renderer = Renderer(layout, tile)
            else:
                self.renderer = first_frame(layout, screen_size())
            self.screen = pygame.display.set_mode(self.renderer.size, pygame.RESIZABLE)
        pygame.display.set_caption(f"pacman-arena: {layout.name}")
        self._clock = pygame.time.Clock()

    def minimum_size(self) -> tuple[int, int]:
        """The smallest window: the maze with cells of :data:`SMALLEST_TILE` pixels."""
        assert self._layout is not None
        return Renderer.natural_size(self._layout, SMALLEST_TILE)

    def resize(self, size: tuple[int, int]) -> None:
        """Fit the maze to a window of ``size`` pixels (as a user's resize does): the largest
        cells that fit, the maze centred. A size below :meth:`minimum_size` is raised to it
        (the window grows back) rather than drawing a thumbnail."""
        if self._layout is None:
            return
        least = self.minimum_size()
        size = (max(size[0], least[0]), max(size[1], least[1]))
        self.renderer = Renderer.fit(self._layout, size)
        if self.screen is None or self.screen.get_size() != self.renderer.size:
            self.screen = pygame.display.set_mode(self.renderer.size, pygame.RESIZABLE)

    def close(self) -> None:
        """Close the window."""
        if self.screen is not None:
            self.screen = None
            pygame.display.quit()

    def redraw(self, note: str = "") -> None:
        """Draw the current frame again (after a resize, a toggle, or to show a note)."""
        if self.shown is not None:
            self._draw(self.shown, self._previous, self._progress, note)

    def status(self, note: str = "") -> Status:
        """The status bar of the current frame."""
        notes = [note] if note else []
        if self.paused:
            notes.append("paused")
        notes.append(self.speed_note())
        if self._think is not None:
            notes.append(f"think {format_seconds(self._think)}")
        extra = [self.label] if self.label else []
        if self.overlay and self._wait_note:  # the legend keeps the third line
            extra.insert(0, self._wait_note)
        if self.overlay and self._heat is not None and self._heat[1] is None:
            extra.append(self._heat[2])
        hint = self._wait_note or ("arrows/WASD steer   . step   Tab overlay   q quit"
                                   if self._human else KEYS_HINT)
        view = self._view if self.overlay else None
        return Status(move=self.moves, agents=self.agents, outcome=self.outcome,
                      note="  ".join(notes), extra=extra, legend=self.heat_scale,
                      overlay=self.overlay, hint=hint,
                      paths=view is not None and any(len(p) > 1 for p in view.paths),
                      values=view.root_values if view is not None else None,
                      chosen=view.chosen if view is not None else None)

    def speed_note(self) -> str:
        """The speed set with +/- and, once measured, the real time per round."""
        text = "flat out" if self.frame_time == 0 else f"{self.frame_time:.2f} s/move"
        if self._round_seconds:
            real = sum(self._round_seconds) / len(self._round_seconds)
            text += f" (real {real:.2f})"
        return text

    def _draw(self, state: GameState, previous: GameState | None, progress: float,
              note: str = "") -> None:
        assert self.screen is not None and self.renderer is not None
        if state.directions[0] != "Stop":
            self.facing = state.directions[0]
        heat = self.heat_of(state) if self.overlay else None
        self.renderer.draw(self.screen, state, previous=previous, progress=progress,
                           status=self.status(note), facing=self.facing,
                           view=self._view if self.overlay else None, heat=heat)
        self.banner = None
        if self.outcome is not None and self.request != controls.RESTART:
            detail = f"score {state.score} in {self.moves} moves"
            if self._wait_note:  # what the keys do now: the banner covers the bar's hint
                detail += f"   {self._wait_note}"
            self.banner = draw_end_banner(self.screen, self.renderer, self.outcome, detail,
                            keep_clear=self.renderer.cell_rect(state.positions[0]),
                            lines=2 if self.overlay else LINES)
        pygame.display.flip()

    @property
    def heat_scale(self) -> HeatScale | None:
        """The scale of the last heat map (``None`` before the first one or if it failed)."""
        if self._heat is None or self._heat[1] is None:
            return None
        return self._heat[2]

    def heat_of(self, state: GameState) -> Mapping[int, float] | None:
        """The heat map of :attr:`evaluation` over ``state`` (cached for the last state), or
        ``None`` without an evaluation or if it failed."""
        if self.evaluation is None:
            return None
        if self._heat is None or self._heat[0] is not state:
            try:
                values = heat_map(state, self.evaluation)
            except Exception as error:  # a user's evaluation may fail; the game goes on
                self._heat = (state, None, f"heat map failed: {type(error).__name__}")
            else:
                self._heat = ((state, values, HeatScale.of(values, state.pacman_cell))
                              if values else (state, None, "heat map: no values"))
        return self._heat[1]

    def _animate(self, previous: GameState | None, state: GameState) -> None:
        began = time.perf_counter()
        if self.frame_time > 0 and previous is not None:
            while True:
                progress = (time.perf_counter() - began) / self.frame_time
                if progress >= 1.0:
                    break
                self.pump()
                if not self.paused:
                    self._process()
                self._draw(state, previous, progress)
                self.tick(self.fps)
        else:
            self.pump()
            if not self.paused:
                self._process()
        self.shown, self._previous, self._progress = state, None, 1.0
        self.redraw()

    def _hold(self) -> None:
        """Return when the game may go on: not paused, or paused with a step asked for."""
        while True:
            self.pump()
            self._process(stop_on_step=True)
            if not self.paused:
                return
            if self._steps:
                self._steps -= 1
                return
            self.redraw()
            self.tick(30)

    def tick(self, fps: int) -> None:
        """Wait so that frames come at most ``fps`` per second."""
        if self._clock is not None:
            self._clock.tick(fps)

    # --- events ------------------------------------------------------------------------------
    def pump(self) -> None:
        """Move pygame's waiting events to the end of :attr:`events`."""
        self.events.extend(pygame.event.get())

    def _process(self, stop_on_step: bool = False) -> None:
        """Handle waiting events in order; with ``stop_on_step``, stop after one that asked to
        step, so that keys pressed after it apply after that move."""
        while self.events:
            steps = self._steps
            self._handle(self.events.popleft())
            if stop_on_step and self._steps > steps:
                return

    def _handle(self, event: Any) -> None:
        if event.type == pygame.QUIT:
            self._end(controls.QUIT)
        elif event.type == pygame.VIDEORESIZE:
            self.resize(event.size)
            self.redraw()
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_c and getattr(event, "mod", 0) & pygame.KMOD_CTRL:
                self._end(controls.QUIT)  # Ctrl+C in the window: what it means in a terminal
            self._key(event.key)

    def _key(self, key: int) -> None:
        if key in (pygame.K_q, pygame.K_ESCAPE):
            self._end(controls.QUIT)
        elif key == pygame.K_r:
            self._end(controls.RESTART)
        elif self._human and key in _DIRECTION_KEYS:
            self._wanted = _DIRECTION_KEYS[key]
        elif key == pygame.K_SPACE:
            self.paused = not self.paused
            self.redraw()
        elif key in (pygame.K_RIGHT, pygame.K_PERIOD):
            if self.paused:
                self._steps += 1
        elif key in FASTER_KEYS:
            self.frame_time = faster(self.frame_time)
            self.redraw()
        elif key in SLOWER_KEYS:
            self.frame_time = slower(self.frame_time)
            self.redraw()
        elif key in (pygame.K_s, pygame.K_TAB):
            self.overlay = not self.overlay
            self.redraw()

    def _end(self, request: str) -> None:
        self.request = request
        raise GameInterrupted(request)

    # --- replays: a recorded game shown with scrubbing -------------------------------------
    # A replay's frame has a slider: its status bar is taller by the slider's strip
    # (:data:`pacman.display.slider.ROOM`), so the maze keeps its cell size and nothing is
    # drawn over it. :class:`~pacman.display.replay_view.ReplayViewer` changes the window
    # through these methods (it reads the window's public attributes and writes none).

    #: Whether the window's size includes the slider's strip (set by the first replay shown).
    _sized_for_slider = False

    def begin_replay(self, layout: Layout, agents: Sequence[str],
                     evaluation: Callable[[GameState], float] | None = None) -> None:
        """Open the window on ``layout`` to show a recorded game of ``agents``."""
        if evaluation is not None:
            self.evaluation = evaluation
        if self.screen is None:  # a new window: sized by the window for a game
            self._sized_for_slider = False
        self.open(layout)
        assert self.screen is not None and self.renderer is not None
        width, height = self.screen.get_size()
        if self._sized_for_slider:
            self.fit_replay(layout, (width, height))
        else:  # the window grows by the strip; the cells keep the size the window chose
            self.fit_replay(layout, (width, height + SLIDER_ROOM), largest=self.renderer.tile)
            self._sized_for_slider = True
        self.agents = list(agents)
        self.request = None

    def fit_replay(self, layout: Layout, size: tuple[int, int], largest: int = MAX_TILE
                   ) -> None:
        """Fit a replay of ``layout`` with its slider to a window of ``size`` pixels (as a
        user's resize does): the largest cells (up to ``largest``) that fit, the maze
        centred; a size too small for the smallest cells is raised to it."""
        least = Renderer.natural_size(layout, SMALLEST_TILE, slider=True)
        self.renderer = Renderer.fit(layout, (max(size[0], least[0]), max(size[1], least[1])),
                                     largest, slider=True)
        if self.screen is None or self.screen.get_size() != self.renderer.size:
            self.screen = pygame.display.set_mode(self.renderer.size, pygame.RESIZABLE)

    def draw_position(self, state: GameState, previous: GameState | None, progress: float,
                      status: Status) -> None:
        """Draw ``state`` (``progress`` of the way from ``previous`` when given), with the
        overlay if it is on; the caller flips the screen."""
        assert self.screen is not None and self.renderer is not None
        shown = previous if previous is not None else state
        self.shown = shown
        heat = self.heat_of(shown) if self.overlay else None
        if state.directions[0] != "Stop":
            self.facing = state.directions[0]
        self.renderer.draw(self.screen, state, previous=previous, progress=progress,
                           status=status, facing=self.facing, heat=heat)

    @property
    def heat_note(self) -> str | None:
        """Why the overlay shows no heat map (``None`` when it shows one, or is off)."""
        if self.overlay and self._heat is not None and self._heat[1] is None:
            return self._heat[2]
        return None

    def change_speed(self, quicker: bool) -> None:
        """One step faster (``quicker``) or slower."""
        self.frame_time = faster(self.frame_time) if quicker else slower(self.frame_time)

    def toggle_overlay(self) -> None:
        self.overlay = not self.overlay

    def end_replay(self, request: str | None) -> None:
        """The replay is over; ``request`` is what the user asked for (see :attr:`request`)."""
        self.request = request

    def show_replay(self, result: Any, states: Sequence[GameState],
                    evaluation: Callable[[GameState], float] | None = None) -> str | None:
        """Show a recorded game with scrubbing until the user moves on; returns
        :data:`~pacman.display.controls.QUIT` if the user quit, else ``None``."""
        viewer = ReplayViewer(self, states, result, evaluation=evaluation)
        return viewer.run()

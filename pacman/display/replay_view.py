"""Replays in the window, with scrubbing.

The viewer shows the states of a recorded game (from :func:`pacman.engine.game.replay_states`): the
position is an index into them, so every single agent move can be looked at.

Keys
    ``space`` play / pause · ``←`` / ``→`` one agent move back / forward · ``Home`` / ``End``
    first / last position · digits then ``Enter``: go to Pacman's move N (``Backspace``
    corrects) · ``+`` / ``-`` faster / slower · ``s`` (or ``Tab``) the heat-map overlay ·
    ``r`` back to the start · ``n`` next recording · ``q``, ``Escape`` or closing the window:
    stop.

Slider
    Above the status text, a track with a round knob where the replay is: press anywhere
    within :data:`pacman.display.slider.GRIP` pixels of the track to jump there, and drag to
    scrub (the knob turns Pacman's colour while held).
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any, Protocol
from collections.abc import Callable, Sequence

from pacman.display._pygame import pygame

from pacman.display import controls
from pacman.display.overlay import HeatScale
from pacman.display.renderer import Renderer, Status
from pacman.display.slider import Slider
from pacman.display.pacing import FASTER_KEYS, SLOWER_KEYS
from pacman.engine.layout import Layout
from pacman.engine.state import GameState

#: The keys of a replay, for the status bar.
REPLAY_KEYS = ("space play   left/right step   Home/End   digits+Enter go to move   n next   "
               "q quit")


class ReplayWindow(Protocol):
    """What the viewer reads of the window it shows a replay in, and the methods it changes
    the window through (:class:`pacman.display.window.WindowDisplay` is one); it writes no
    attribute."""

    frame_time: float
    fps: int
    overlay: bool
    label: str
    screen: Any
    renderer: Renderer | None
    events: deque[Any]

    @property
    def heat_note(self) -> str | None: ...
    @property
    def heat_scale(self) -> HeatScale | None: ...
    def begin_replay(self, layout: Layout, agents: Sequence[str],
                     evaluation: Callable[[GameState], float] | None = None) -> None: ...
    def fit_replay(self, layout: Layout, size: tuple[int, int], largest: int = ...) -> None: ...
    def draw_position(self, state: GameState, previous: GameState | None, progress: float,
                      status: Status) -> None: ...
    def change_speed(self, quicker: bool) -> None: ...
    def toggle_overlay(self) -> None: ...
    def end_replay(self, request: str | None) -> None: ...
    def tick(self, fps: int) -> None: ...
    def pump(self) -> None: ...


class ReplayViewer:
    """Shows ``states`` (initial state first) in ``window``; ``result`` supplies the agents'
    names and the outcome. :meth:`tick` handles the waiting events and draws one frame;
    :meth:`run` ticks until the user moves on."""

    def __init__(self, window: ReplayWindow, states: Sequence[GameState], result: Any, *,
                 evaluation: Callable[[GameState], float] | None = None,
                 playing: bool = True) -> None:
        if not states:
            raise ValueError("a replay needs at least its initial state")
        self.window = window
        self.states = states
        self.agents = [a.get("name", "?") if isinstance(a, dict) else str(a)
                       for a in getattr(result, "agents", [])]
        self.outcome = getattr(result, "outcome", None)
        self.seed = getattr(result, "seed", None)
        self.num_agents = states[0].num_agents
        self.position = 0
        self.playing = playing
        self.entry = ""
        self.done = False
        self.request: str | None = None
        self._dragging = False
        self._since = time.perf_counter()
        window.begin_replay(states[0].layout, self.agents, evaluation)

    # --- positions ---------------------------------------------------------------------------
    @property
    def last(self) -> int:
        return len(self.states) - 1

    @property
    def shown(self) -> GameState:
        """The state at the current position."""
        return self.states[self.position]

    def move_number(self, position: int) -> int:
        """Pacman's moves among the first ``position`` agent moves (he moves first)."""
        return (position + self.num_agents - 1) // self.num_agents

    def seek(self, position: int) -> None:
        """Go to ``position`` (clamped to the recording)."""
        self.position = max(0, min(self.last, position))
        self._since = time.perf_counter()

    def seek_move(self, move: int) -> None:
        """Go to the state after Pacman's ``move``-th move and the ghosts' replies."""
        self.seek(move * self.num_agents)

    # --- running -----------------------------------------------------------------------------
    def run(self) -> str | None:
        """Tick until the user moves on; :data:`controls.QUIT` if the user quit."""
        while not self.done:
            self.tick()
            self.window.tick(self.window.fps)
        return self.request

    def tick(self) -> None:
        """Handle the events waiting, advance if playing, draw one frame. Events after one
        that ends the viewer stay queued for whatever the window shows next."""
        events = self.window.events
        self.window.pump()
        while events and not self.done:
            self.handle(events.popleft())
        if self.done:
            return
        progress = 1.0
        if self.playing:
            if self.position >= self.last:
                self.playing = False
            else:
                per_move = self.window.frame_time / self.num_agents
                elapsed = time.perf_counter() - self._since
                if per_move <= 0 or elapsed >= per_move:
                    self.seek(self.position + 1)
                else:
                    progress = elapsed / per_move
        self.draw(progress)

    def draw(self, progress: float = 1.0) -> None:
        """Draw the current position; with ``progress`` < 1 while playing, the move to the
        next position that far along."""
        window = self.window
        assert window.screen is not None and window.renderer is not None
        if self.playing and progress < 1.0 and self.position < self.last:
            state, previous = self.states[self.position + 1], self.shown
        else:
            state, previous, progress = self.shown, None, 1.0
        window.draw_position(state, previous, progress, self.status())
        self._draw_slider(window.screen)
        pygame.display.flip()

    def status(self) -> Status:
        """The bar: Pacman's move of all his moves (the same count as ``move``; ghost
        replies within a round as ``+k``), play state, speed, and which game is shown."""
        notes = [self.progress_note(), "playing" if self.playing else "paused",
                 "flat out" if self.window.frame_time == 0
                 else f"{self.window.frame_time:.2f} s/move"]
        if self.entry:
            notes.append(f"go to move {self.entry}_")
        extra = [self.window.label or f"seed {self.seed}"]
        window = self.window
        if window.heat_note is not None:
            extra.append(window.heat_note)
        return Status(move=self.move_number(self.position), agents=self.agents,
                      outcome=self.outcome if self.position == self.last else None,
                      note="  ".join(notes), extra=extra, legend=window.heat_scale,
                      overlay=window.overlay, hint=REPLAY_KEYS)

    def progress_note(self) -> str:
        """``replay 50/139`` (Pacman's moves, as ``move`` counts them), ``+1`` when ghosts
        of that round have replied too."""
        move = self.move_number(self.position)
        total = self.move_number(self.last)
        within = self.position - max(0, (move - 1) * self.num_agents + 1) if move else 0
        return f"replay {move}/{total}" + (f" +{within}" if within > 0 else "")

    def slider(self) -> Slider:
        """The slider, in the strip the window's renderer keeps for it."""
        area = self.window.renderer.slider_area  # type: ignore[union-attr]
        assert area is not None, "the window was not fitted for a replay"
        return Slider(area)

    def slider_rect(self) -> pygame.Rect:
        """The slider's track."""
        return self.slider().track

    @property
    def fraction(self) -> float:
        """How far into the recording the current position is, from 0 to 1."""
        return self.position / max(1, self.last)

    def _draw_slider(self, surface: pygame.Surface) -> None:
        self.slider().draw(surface, self.fraction, held=self._dragging)

    # --- events ------------------------------------------------------------------------------
    def handle(self, event: Any) -> None:
        """Apply one pygame event."""
        if event.type == pygame.QUIT:
            self._stop(controls.QUIT)
        elif event.type == pygame.VIDEORESIZE:
            self.window.fit_replay(self.shown.layout, event.size)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.slider().grabs(event.pos):
                self._dragging = True
                self._seek_to_x(event.pos[0])
        elif event.type == pygame.MOUSEMOTION and self._dragging:
            self._seek_to_x(event.pos[0])
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._dragging = False
        elif event.type == pygame.KEYDOWN:
            self._key(event.key, getattr(event, "unicode", ""))

    def _seek_to_x(self, x: int) -> None:
        self.playing = False
        self.seek(round(self.slider().fraction_at(x) * self.last))

    def _key(self, key: int, char: str) -> None:
        if key in (pygame.K_q, pygame.K_ESCAPE):
            self._stop(controls.QUIT)
        elif key == pygame.K_n:
            self._stop(None)
        elif key == pygame.K_SPACE:
            if not self.playing and self.position >= self.last:
                self.seek(0)
            self.playing = not self.playing
            self._since = time.perf_counter()
        elif key == pygame.K_RIGHT:
            self.playing = False
            self.seek(self.position + 1)
        elif key == pygame.K_LEFT:
            self.playing = False
            self.seek(self.position - 1)
        elif key == pygame.K_HOME or key == pygame.K_r:
            self.seek(0)
        elif key == pygame.K_END:
            self.playing = False
            self.seek(self.last)
        elif char.isdigit() and len(self.entry) < 6:
            self.entry += char
        elif key == pygame.K_BACKSPACE:
            self.entry = self.entry[:-1]
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.entry:
                self.playing = False
                self.seek_move(int(self.entry))
                self.entry = ""
        elif key in FASTER_KEYS:
            self.window.change_speed(quicker=True)
        elif key in SLOWER_KEYS:
            self.window.change_speed(quicker=False)
        elif key in (pygame.K_s, pygame.K_TAB):
            self.window.toggle_overlay()

    def _stop(self, request: str | None) -> None:
        self.done = True
        self.request = request
        self.window.end_replay(request)

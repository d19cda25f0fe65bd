"""The window's side of a replay: the methods :class:`pacman.display.replay_view.ReplayViewer`
changes the window through (it reads the window's public attributes and writes none).

A replay's frame has a slider: its status bar is taller by the slider's strip
(:data:`pacman.display.slider.ROOM`), so the maze keeps its cell size and nothing is drawn
over it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from pacman.display._pygame import pygame
from pacman.display.pacing import SMALLEST_TILE, faster, slower
from pacman.display.slider import ROOM as SLIDER_ROOM
from pacman.display.renderer import MAX_TILE, Renderer, Status
from pacman.engine.layout import Layout
from pacman.engine.state import GameState

if TYPE_CHECKING:
    from pacman.display.window import WindowDisplay


class ShowsReplays:
    """Mixed into the window: a recorded game shown with scrubbing.

    Uses the window's ``open``, ``heat_of``, ``screen``, ``renderer``, ``overlay``,
    ``frame_time``, ``facing``, ``shown``, ``agents``, ``evaluation``, ``request`` and ``_heat``.
    """

    #: Whether the window's size includes the slider's strip (set by the first replay shown).
    _sized_for_slider = False

    # The window's parts used here, declared for readers and the type checker.
    open: Callable[[Layout], None]
    heat_of: Callable[[GameState], Any]
    screen: Any
    renderer: Renderer | None
    overlay: bool
    frame_time: float
    facing: str
    shown: GameState | None
    agents: Sequence[str]
    evaluation: Callable[[GameState], float] | None
    request: str | None
    _heat: Any

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
        from pacman.display.replay_view import ReplayViewer

        viewer = ReplayViewer(cast("WindowDisplay", self), states, result, evaluation=evaluation)
        return viewer.run()

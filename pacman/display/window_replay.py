"""The window's side of a replay: the methods :class:`pacman.display.replay_view.ReplayViewer`
changes the window through (it reads the window's public attributes and writes none).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from pacman.display.pacing import faster, slower
from pacman.display.renderer import Renderer, Status
from pacman.layout import Layout
from pacman.state import GameState

if TYPE_CHECKING:
    from pacman.display.window import WindowDisplay


class ShowsReplays:
    """Mixed into the window: a recorded game shown with scrubbing.

    Uses the window's ``open``, ``heat_of``, ``screen``, ``renderer``, ``overlay``,
    ``frame_time``, ``facing``, ``shown``, ``agents``, ``evaluation``, ``request`` and ``_heat``.
    """

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
        self.open(layout)
        self.agents = list(agents)
        self.request = None

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

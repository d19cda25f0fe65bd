"""Games, recordings and states in Jupyter, by IPython's rich display protocol.

:class:`pacman.engine.game.GameResult` and :class:`Recording` show as the web page player of
:mod:`pacman.display.html` (in an ``iframe``), :class:`pacman.engine.state.GameState` as a picture
drawn by the window's renderer. Nothing here needs a screen.

The engine knows nothing of notebooks: ``pacman/__init__.py``, imported inside IPython, tells
IPython's formatters to show the engine's objects with :func:`result_html` and :func:`state_png`
(by module and class name: this module loads when a notebook first shows one).
:class:`Recording` shows itself (``_repr_html_``).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from collections.abc import Iterator

from pacman.engine.game import GameResult, load_results
from pacman.engine.state import GameState

#: Cell size of state pictures in pixels.
PICTURE_TILE = 20
#: A recording shows at most this many players (a notebook holding hundreds would crawl).
MAX_PLAYERS = 12


def state_png(state: GameState, tile: int = PICTURE_TILE) -> bytes:
    """``state`` drawn as the window draws it, as PNG bytes."""
    from PIL import Image

    from pacman.display._pygame import pygame
    from pacman.display.renderer import Renderer, Status

    renderer = Renderer(state.layout, tile)
    surface = pygame.Surface(renderer.size)
    renderer.draw(surface, state, status=Status(outcome=state.outcome))
    picture = Image.frombytes("RGB", renderer.size, pygame.image.tobytes(surface, "RGB"))
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG")
    return buffer.getvalue()


def result_html(result: GameResult) -> str:
    """The player of ``result`` as an ``iframe`` fragment."""
    from pacman.display.html import iframe

    return iframe(result)


class Recording(Sequence[GameResult]):
    """The games of a recording file (``--record``), shown in a notebook as players."""

    def __init__(self, results: Sequence[GameResult], source: str = "") -> None:
        self.results = list(results)
        self.source = source

    @classmethod
    def load(cls, path: str) -> Recording:
        """Every game of the recording at ``path``."""
        return cls(load_results(path), source=str(path))

    def __len__(self) -> int:
        return len(self.results)

    def __getitem__(self, index):
        return self.results[index]

    def __iter__(self) -> Iterator[GameResult]:
        return iter(self.results)

    def __repr__(self) -> str:
        return f"Recording({self.source or 'games'!r}, {len(self.results)} games)"

    def _repr_html_(self) -> str:
        from html import escape

        shown = self.results[:MAX_PLAYERS]
        parts = [f"<p>{escape(self.source or 'recording')}: {len(self.results)} game"
                 f"{'s' if len(self.results) != 1 else ''}"
                 + (f", the first {MAX_PLAYERS} shown" if len(self.results) > MAX_PLAYERS
                    else "") + "</p>"]
        parts += [result_html(result) for result in shown]
        return "\n".join(parts)

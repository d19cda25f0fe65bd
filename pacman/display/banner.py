"""The end-of-game banner of the window: what happened, in large letters under the maze.

Drawn over the status bar of the last frame of a game (see
:class:`pacman.display.window.WindowDisplay`), so the end is not only a word in the status bar
and the maze's last position stays whole. Importing this module imports pygame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pacman.display import sprites
from pacman.display._pygame import pygame
from pacman.display.statusbar import LINES, render_text

if TYPE_CHECKING:
    from pacman.display.renderer import Renderer

#: The headline for each outcome (anything else: the outcome's name in capitals).
HEADLINES = {"win": "PACMAN WINS", "loss": "PACMAN IS CAUGHT", "move_limit": "MOVE LIMIT",
             "interrupted": "GAME STOPPED", "timeout": "TOO SLOW: TIMEOUT",
             "crash": "AN AGENT CRASHED", "illegal": "AN ILLEGAL MOVE"}
#: The headline's colour: Pacman's for a win, a ghost's red for a loss, else the text colour.
COLOURS = {"win": sprites.PACMAN, "loss": sprites.ghost_colour(1)}


def headline(outcome: str) -> str:
    """The banner's large line for ``outcome``."""
    return HEADLINES.get(outcome, outcome.replace("_", " ").upper())


def draw_end_banner(surface: pygame.Surface, renderer: Renderer, outcome: str,
                    detail: str, keep_clear: pygame.Rect | None = None,
                    lines: int = LINES) -> pygame.Rect:
    """Draw the banner for ``outcome`` (with the smaller line ``detail`` under it) below the
    maze, over the first ``lines`` lines of the status bar (the score, the agents; with the
    search overlay, 2 keeps its legend in sight), so that the board's last moment stays
    whole: the ghost that caught Pacman, the last dot. Returns the band's rectangle.
    ``keep_clear`` is accepted for callers that name Pacman's cell; the band never covers the
    maze."""
    bar = renderer.status_rect
    top = bar.top + renderer.slider_room
    bottom = bar.bottom if lines >= LINES else top + 5 + lines * renderer.font_size
    band = pygame.Rect(bar.left, top, bar.width, bottom - top)
    width = band.width
    small_size = max(13, min(20, band.height // 3))
    line = render_text(renderer, detail, sprites.STATUS_TEXT, small_size)
    if line.get_width() > width - 16:
        line = pygame.transform.smoothscale_by(line, (width - 16) / line.get_width())
    big = renderer.font_of(max(12, min(72, band.height - line.get_height() - 2)))
    title = big.render(headline(outcome), True, COLOURS.get(outcome, sprites.STATUS_TEXT))
    if title.get_width() > width - 16:  # a narrow frame: the headline shrinks to fit
        title = pygame.transform.smoothscale_by(title, (width - 16) / title.get_width())
    surface.fill(sprites.STATUS_BACKGROUND, band)
    gap = max(0, (band.height - title.get_height() - line.get_height()) // 2)
    surface.blit(title, ((width - title.get_width()) // 2, band.top + gap))
    surface.blit(line, ((width - line.get_width()) // 2, band.top + gap + title.get_height()))
    return band

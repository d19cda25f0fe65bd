"""The end-of-game banner of the window: what happened, in large letters across the maze.

Drawn over the last frame of a game (see :class:`pacman.display.window.WindowDisplay`), so the
end is not only a word in the status bar. Importing this module imports pygame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pacman.display import sprites
from pacman.display._pygame import pygame
from pacman.display.statusbar import render_text

if TYPE_CHECKING:
    from pacman.display.renderer import Renderer

#: The headline for each outcome (anything else: the outcome's name in capitals).
HEADLINES = {"win": "PACMAN WINS", "loss": "PACMAN IS CAUGHT", "move_limit": "MOVE LIMIT",
             "interrupted": "GAME STOPPED", "timeout": "TOO SLOW: TIMEOUT",
             "crash": "AN AGENT CRASHED", "illegal": "AN ILLEGAL MOVE"}
#: The headline's colour: Pacman's for a win, a ghost's red for a loss, else the text colour.
COLOURS = {"win": sprites.PACMAN, "loss": sprites.ghost_colour(1)}
#: Opacity of the band behind the banner (0-255): the maze stays visible through it.
BAND_ALPHA = 200


def headline(outcome: str) -> str:
    """The banner's large line for ``outcome``."""
    return HEADLINES.get(outcome, outcome.replace("_", " ").upper())


def draw_end_banner(surface: pygame.Surface, renderer: Renderer, outcome: str,
                    detail: str, keep_clear: pygame.Rect | None = None) -> pygame.Rect:
    """Draw the banner for ``outcome`` (with the smaller line ``detail`` under it) across the
    maze of ``renderer``, in its middle or, if that would cover ``keep_clear`` (Pacman's
    cell), nearer its top or bottom edge; returns the band's rectangle."""
    maze_top = renderer.origin[1]
    maze_height = renderer.layout.height * renderer.tile
    width = surface.get_width()
    big = renderer.font_of(max(18, min(72, width // 12, maze_height // 3)))
    small_size = max(14, min(32, width // 28))
    title = big.render(headline(outcome), True, COLOURS.get(outcome, sprites.STATUS_TEXT))
    if title.get_width() > width - 16:  # a narrow maze: the headline shrinks to fit
        scale = (width - 16) / title.get_width()
        title = pygame.transform.smoothscale_by(title, scale)
    line = render_text(renderer, detail, sprites.STATUS_TEXT, small_size)
    if line.get_width() > width - 16:
        line = pygame.transform.smoothscale_by(line, (width - 16) / line.get_width())
    height = title.get_height() + line.get_height() + 16
    places = [maze_top + (maze_height - height) // 2, maze_top, maze_top + maze_height - height]
    bands = [pygame.Rect(0, max(0, top), width, height) for top in places]
    band = next((b for b in bands if keep_clear is None or not b.colliderect(keep_clear)),
                bands[0])
    shade = pygame.Surface(band.size, pygame.SRCALPHA)
    shade.fill((*sprites.STATUS_BACKGROUND, BAND_ALPHA))
    surface.blit(shade, band.topleft)
    surface.blit(title, ((width - title.get_width()) // 2, band.top + 6))
    surface.blit(line, ((width - line.get_width()) // 2, band.top + 8 + title.get_height()))
    return band

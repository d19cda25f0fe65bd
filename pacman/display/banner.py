"""The end-of-game banner of the window: what happened, in large letters under the maze.

Drawn over the status bar of the last frame of a game (see
:class:`pacman.display.window.WindowDisplay`), so the end is not only a word in the status bar
and the maze's last position stays whole. Importing this module imports pygame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pacman.display import sprites
from pacman.display._pygame import pygame
from pacman.display.statusbar import LEGIBLE_SIZE, LINES, render_text

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
                    lines: int = LINES,
                    drawn: list[tuple[str, pygame.Rect, int]] | None = None) -> pygame.Rect:
    """Draw the banner for ``outcome`` (with the smaller line ``detail`` under it) below the
    maze, over the first ``lines`` lines of the status bar (the score, the agents; with the
    search overlay, 2 keeps its legend in sight), so that the board's last moment stays
    whole: the ghost that caught Pacman, the last dot. Returns the band's rectangle.

    ``detail`` is drawn at the status bar's font size, never smaller than
    :data:`~pacman.display.statusbar.LEGIBLE_SIZE`: where it is wider than the frame it wraps
    between its phrases (separated by three spaces) and the band takes as many more of the
    bar's lines as it needs. ``drawn``, when given, receives ``(text, rectangle, font size)``
    for each text drawn. ``keep_clear`` is accepted for callers that name Pacman's cell; the
    band never covers the maze."""
    bar = renderer.status_rect
    top = bar.top + renderer.slider_room
    width = bar.width
    size = max(LEGIBLE_SIZE, renderer.font_size)
    rows = _wrapped(renderer, detail, size, width - 16)
    detail_height = sum(r.get_height() for r in rows)
    headline_least = LEGIBLE_SIZE + 4
    taken = lines if lines < LINES else LINES
    while taken < LINES and (5 + taken * renderer.font_size
                             < detail_height + renderer.font_of(headline_least).get_height()):
        taken += 1
    bottom = bar.bottom if taken >= LINES else top + 5 + taken * renderer.font_size
    band = pygame.Rect(bar.left, top, width, bottom - top)
    big_size = max(headline_least, min(72, band.height - detail_height - 2))
    title = renderer.font_of(big_size).render(headline(outcome), True,
                                              COLOURS.get(outcome, sprites.STATUS_TEXT))
    while title.get_height() + detail_height > band.height and big_size > headline_least:
        big_size -= 1
        title = renderer.font_of(big_size).render(headline(outcome), True,
                                                  COLOURS.get(outcome, sprites.STATUS_TEXT))
    if title.get_width() > width - 16:  # a narrow frame: the headline shrinks to fit
        title = pygame.transform.smoothscale_by(title, (width - 16) / title.get_width())
    surface.fill(sprites.STATUS_BACKGROUND, band)
    gap = max(0, (band.height - title.get_height() - detail_height) // 2)
    y = band.top + gap
    placed = [(headline(outcome), title, big_size)] + [(t, r, size) for t, r in zip(
        _phrase_lines(renderer, detail, size, width - 16), rows)]
    for text, image, font_size in placed:
        rect = surface.blit(image, ((width - image.get_width()) // 2, y))
        if drawn is not None:
            drawn.append((text, rect, font_size))
        y += image.get_height()
    return band


def _phrase_lines(renderer: Renderer, detail: str, size: int, room: int) -> list[str]:
    """``detail`` in lines of at most ``room`` pixels at font ``size``, cut only between its
    phrases (three spaces apart); a phrase wider than ``room`` is a line of its own."""
    font = renderer.font_of(size)
    lines: list[str] = []
    for phrase in (p.strip() for p in detail.split("   ")):
        if not phrase:
            continue
        joined = f"{lines[-1]}   {phrase}" if lines else phrase
        if lines and font.size(joined)[0] <= room:
            lines[-1] = joined
        else:
            lines.append(phrase)
    return lines


def _wrapped(renderer: Renderer, detail: str, size: int, room: int) -> list[pygame.Surface]:
    return [render_text(renderer, line, sprites.STATUS_TEXT, size)
            for line in _phrase_lines(renderer, detail, size, room)]

"""The replay's slider: a track with a round knob, in a strip of its own at the top of the
status bar (the renderer reserves :data:`ROOM` pixels for it when asked, see
:class:`pacman.display.renderer.Renderer`).

The track is :data:`TRACK_HEIGHT` pixels high; a press within :data:`GRIP` pixels of it, above,
below or beyond its ends, grabs the knob. The strip is exactly the track and its grip, so a
press that grabs never lands on the maze or on the status text.
"""

from __future__ import annotations

from pacman.display._pygame import pygame

from pacman.display import sprites

#: Height of the track, radius of the knob, and how far from the track a press still grabs.
TRACK_HEIGHT = 8
KNOB_RADIUS = 9
GRIP = 10
#: The strip the slider takes at the top of the status bar: the track and its grip.
ROOM = TRACK_HEIGHT + 2 * GRIP
#: Space between the strip's sides and the ends of the track, beyond the knob's radius.
MARGIN = 8
#: The track's empty part; the played part is Pacman's colour; the knob, its ring while idle.
TRACK_EMPTY: sprites.Colour = (70, 70, 88)
KNOB: sprites.Colour = sprites.STATUS_TEXT
KNOB_RING: sprites.Colour = sprites.STATUS_BACKGROUND


class Slider:
    """The slider drawn in ``area`` (a strip :data:`ROOM` pixels high, as wide as the bar).

    Positions along it are fractions from 0 (the track's left end) to 1 (its right end).
    """

    def __init__(self, area: pygame.Rect) -> None:
        self.area = pygame.Rect(area)
        inset = MARGIN + KNOB_RADIUS
        self.track = pygame.Rect(self.area.left + inset,
                                 self.area.top + (self.area.height - TRACK_HEIGHT) // 2,
                                 max(1, self.area.width - 2 * inset), TRACK_HEIGHT)

    def x_of(self, fraction: float) -> int:
        """The x coordinate of the knob's centre at ``fraction`` (clamped to [0, 1])."""
        return self.track.left + round(max(0.0, min(1.0, fraction)) * (self.track.width - 1))

    def fraction_at(self, x: int) -> float:
        """The position under ``x``, clamped to [0, 1] (a press beyond an end is that end)."""
        return max(0.0, min(1.0, (x - self.track.left) / max(1, self.track.width - 1)))

    def grabs(self, point: tuple[int, int]) -> bool:
        """Whether a press at ``point`` takes hold of the slider: within :data:`GRIP` pixels
        of the track."""
        return self.track.inflate(2 * GRIP, 2 * GRIP).collidepoint(point)

    def knob(self, fraction: float) -> pygame.Rect:
        """The square around the knob at ``fraction``."""
        return pygame.Rect(self.x_of(fraction) - KNOB_RADIUS,
                           self.track.centery - KNOB_RADIUS, 2 * KNOB_RADIUS + 1,
                           2 * KNOB_RADIUS + 1)

    def draw(self, surface: pygame.Surface, fraction: float, held: bool = False) -> None:
        """Draw the track, filled up to ``fraction``, and the knob there (in Pacman's colour
        while ``held``)."""
        track = self.track
        radius = TRACK_HEIGHT // 2
        pygame.draw.rect(surface, TRACK_EMPTY, track, border_radius=radius)
        x = self.x_of(fraction)
        if x > track.left:
            pygame.draw.rect(surface, sprites.PACMAN, (track.left, track.top, x - track.left + 1,
                                                      track.height), border_radius=radius)
        centre = (x, track.centery)
        pygame.draw.circle(surface, KNOB_RING, centre, KNOB_RADIUS)
        pygame.draw.circle(surface, sprites.PACMAN if held else KNOB, centre, KNOB_RADIUS - 2)

"""The window's sizes and speeds: its default cell size, its smallest size, the speed steps of
the +/- keys, and how times are shown. No window is opened here.
"""

from __future__ import annotations

from pacman.display._pygame import pygame

from pacman.display.renderer import Renderer
from pacman.engine.layout import Layout

#: Cell size in pixels at zoom 1.
BASE_TILE = 24
#: The largest cell size the window picks by itself, and the share of the screen it fills.
LARGEST_TILE = 64
SCREEN_SHARE = 0.8
#: The smallest cell size the window can be shrunk to (a smaller window is enlarged again).
SMALLEST_TILE = 8
#: Seconds the end of a game stays up before the next game starts by itself.
AUTO_ADVANCE = 2.0
#: A think this long (seconds) shows "thinking" in the status bar while the next one runs.
SLOW_THINK = 0.2
#: The slowest and the fastest speed the +/- keys reach (seconds per round; 0 is flat out).
SLOWEST = 4.0
FASTEST = 0.005

#: Keys that shorten / lengthen the time a move takes on screen (the window's and the replays').
FASTER_KEYS = (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS)
SLOWER_KEYS = (pygame.K_MINUS, pygame.K_KP_MINUS, pygame.K_UNDERSCORE)


def faster(frame_time: float) -> float:
    """The next faster speed: half the time per round, then flat out (0)."""
    return 0.0 if frame_time / 2 < FASTEST else frame_time / 2


def slower(frame_time: float) -> float:
    """The next slower speed: twice the time per round (from flat out: 0.01 s), at most
    :data:`SLOWEST`."""
    return min(SLOWEST, max(0.01, frame_time * 2))


def screen_size() -> tuple[int, int]:
    """The desktop's size in pixels (1280x800 when it cannot be told)."""
    info = pygame.display.Info()
    return (info.current_w if info.current_w > 0 else 1280,
            info.current_h if info.current_h > 0 else 800)


def default_tile(layout: Layout, screen: tuple[int, int]) -> int:
    """The cell size of a new window: the largest (up to :data:`LARGEST_TILE`) whose frame
    fits :data:`SCREEN_SHARE` of the screen, and at least what makes the frame as wide as
    the status bar needs (no bars beside a small maze) when that fits too."""
    room = (int(screen[0] * SCREEN_SHARE), int(screen[1] * SCREEN_SHARE))
    return Renderer.fit(layout, room, largest=LARGEST_TILE).tile


def format_seconds(seconds: float) -> str:
    """``0.8 ms``, ``12 ms``, ``1.4 s``."""
    if seconds < 0.01:
        return f"{seconds * 1000:.1f} ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.1f} s"

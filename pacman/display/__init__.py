"""Displays draw states and never change them.

Every display follows :class:`pacman.engine.game.Display`: ``start(state, agents)`` before the first
move, ``update(state, move)`` after each move, ``finish(state, result)`` at the end. A display may
raise :class:`pacman.engine.game.GameInterrupted` to end the game early (a closed window, a quit key).
The displays here derive from :class:`pacman.display.base.BaseDisplay`, which declares the
optional hooks (requests, result announcements, replays, human input, closing).
"""

from __future__ import annotations

import os
import sys
from typing import Any

from pacman.display.base import BaseDisplay
from pacman.display.null import NullDisplay
from pacman.display.text import TextDisplay
from pacman.errors import ConfigurationError
from pacman.registry import Registry, suggest

#: Displays by the name ``--display`` takes; each called as ``factory(frame_time=..., **options)``
#: (``none`` with no arguments). The window is imported on first use: it needs pygame.
DISPLAYS: Registry[Any] = Registry("display")
DISPLAYS.register("window", "pacman.display.window:WindowDisplay", help="a graphical window")
DISPLAYS.register("text", "pacman.display.text:TextDisplay", help="drawn in the terminal")
DISPLAYS.register("none", "pacman.display.null:NullDisplay", help="nothing drawn")

#: What ``--display`` accepts: ``auto`` (a window if possible, else text) or a display's name.
DISPLAY_KINDS = ("auto", *DISPLAYS)


def screen_available() -> bool:
    """Whether a graphical window can be opened here (a desktop session, or a set SDL driver)."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return True
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def window_supported() -> bool:
    """Whether this installation has a graphical window display."""
    try:
        import pacman.display.window  # noqa: F401
    except ImportError:
        return False
    return True


def resolve_kind(kind: str) -> str:
    """The concrete display for ``kind``: ``auto`` means a window if possible, else text."""
    if kind not in DISPLAY_KINDS:
        raise ConfigurationError(f"unknown display {kind!r}{suggest(kind, DISPLAY_KINDS)}")
    if kind == "auto":
        return "window" if screen_available() and window_supported() else "text"
    if kind == "window" and not window_supported():
        raise ConfigurationError("the window needs pygame-ce, which is not installed "
                                 "(pip install pygame-ce); use --display text meanwhile")
    return kind


def make_display(kind: str, frame_time: float = 0.1, **options: Any) -> BaseDisplay:
    """A display object for ``kind`` (``auto``, ``window``, ``text`` or ``none``)."""
    concrete = resolve_kind(kind)
    factory = DISPLAYS[concrete]
    if concrete == "none":
        return factory()
    return factory(frame_time=frame_time, **options)


__all__ = ["BaseDisplay", "NullDisplay", "TextDisplay", "make_display", "resolve_kind", "DISPLAY_KINDS",
           "DISPLAYS"]

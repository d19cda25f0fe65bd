"""The display that shows nothing: the default for batches and tests."""

from __future__ import annotations

from pacman.display.base import BaseDisplay


class NullDisplay(BaseDisplay):
    """Accepts every call and draws nothing (every hook of :class:`BaseDisplay` as it is)."""

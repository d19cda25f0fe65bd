"""pygame, imported without its start-up banner: only the command line prints.

Every display module imports pygame from here; importing :mod:`pacman.display` itself never
imports pygame.
"""

from __future__ import annotations

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

__all__ = ["pygame"]

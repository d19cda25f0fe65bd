"""Argument types shared by the command modules: each turns bad text into one clear line."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

#: The longest pause between frames that a window or an animation accepts (a GIF stores
#: delays in hundredths of a second in 16 bits: at most 655.35 s).
MAX_FRAME_SECONDS = 600.0


def whole_number(minimum: int, what: str = "a whole number",
                 maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type accepting integers of at least ``minimum`` (and at most ``maximum``)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text[:40]!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"must be at most {maximum}, got {value}")
        return value

    return parse


def integer(text: str) -> int:
    """An argparse type accepting any integer (a seed, say)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text[:40]!r}") from None


def seconds(text: str) -> float:
    """An argparse type accepting a finite number of seconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text[:40]!r}") from None
    if not 0 <= value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a finite number, 0 or more, got {text[:40]}")
    return value


def time_limit(text: str) -> float | None:
    """An argparse type for a per-move time limit: a finite number of seconds, 0 or more (0:
    every move is late), or ``inf`` for no limit (``None``)."""
    if text.strip().lower() in ("inf", "+inf", "infinity", "+infinity"):
        return None
    return seconds(text)


def frame_seconds(text: str) -> float:
    """An argparse type for a pause between frames: :func:`seconds`, at most
    :data:`MAX_FRAME_SECONDS`."""
    value = seconds(text)
    if value > MAX_FRAME_SECONDS:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_FRAME_SECONDS:g} seconds, "
                                         f"got {text[:40]}")
    return value

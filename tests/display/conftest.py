"""Headless pygame for the display tests: SDL's dummy video driver, set per test only (other
test modules must keep seeing no screen), and no window or human input left behind.

SDL turns SIGINT and SIGTERM into a window-close event, which the window honours by quitting
cleanly; a test stuck waiting for a key would then pass when a timeout kills it. So SDL's
signal handlers are off here, and a watchdog fails any test that runs too long.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys

import pytest

WATCHDOG_SECONDS = 30


class DisplayTestHung(BaseException):
    """A display test waited too long (a BaseException: no game loop may swallow it)."""


def _hung(signum, frame):
    raise DisplayTestHung(f"display test still running after {WATCHDOG_SECONDS} s")


@pytest.fixture(autouse=True)
def headless(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_NO_SIGNAL_HANDLERS", "1")
    monkeypatch.setenv("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    watchdog = hasattr(signal, "SIGALRM")
    if watchdog:
        previous = signal.signal(signal.SIGALRM, _hung)
        signal.alarm(WATCHDOG_SECONDS)
    yield
    if watchdog:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    if "pacman.display.window" in sys.modules:
        from pacman.display._pygame import pygame

        pygame.display.quit()


@pytest.fixture
def window():
    """A window display that draws without pausing or lingering, closed after the test."""
    from pacman.display._pygame import pygame
    from pacman.display.window import WindowDisplay

    display = WindowDisplay(frame_time=0.0, linger=0.0)
    pygame.display.init()
    pygame.event.clear()
    yield display
    display.close()


@pytest.fixture
def x_display():
    """A virtual X display (Xvfb) for the real window; its ``DISPLAY`` name."""
    if not (shutil.which("Xvfb") and shutil.which("xdotool")):
        pytest.skip("needs Xvfb and xdotool")
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24",
                               "-nolisten", "tcp"], pass_fds=(write,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as numbers:
        number = numbers.readline().strip()
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)

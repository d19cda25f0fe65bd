"""The replay's slider in the real window under a virtual X display (Xvfb), grabbed with the
pointer as a user would (xdotool): a press a few pixels off the track seeks, a drag scrubs, the
knob is drawn where the replay is, and neither the maze nor the status text is drawn over."""

from __future__ import annotations

import os
import subprocess
import time

import pytest
from display_support import random_game

from pacman.display._pygame import pygame
from pacman.display.replay_view import ReplayViewer
from pacman.display.slider import KNOB
from pacman.engine.game import GameResult, replay_states


class Pointer:
    """The X server's pointer, moved and pressed with xdotool over one window."""

    def __init__(self, x_display: str, window_id: str) -> None:
        self.env = {**os.environ, "DISPLAY": x_display}
        self.window_id = window_id

    def xdotool(self, *argv: str) -> None:
        subprocess.run(["xdotool", *argv], env=self.env, check=True, timeout=10)

    def move(self, x: int, y: int) -> None:
        """To ``(x, y)`` in the window's pixels."""
        self.xdotool("mousemove", "--sync", "--window", self.window_id, str(x), str(y))


@pytest.fixture
def replay(monkeypatch, x_display):
    """A replay of a short game on smallClassic, paused at its start, in a window of its
    default size on the virtual display, and the pointer over that window."""
    from pacman.display.window import WindowDisplay

    monkeypatch.setenv("SDL_VIDEODRIVER", "x11")
    monkeypatch.setenv("DISPLAY", x_display)
    pygame.display.quit()
    pygame.display.init()
    assert pygame.display.get_driver() == "x11"
    result, _ = random_game("smallClassic", seed=12, max_moves=40)
    result = GameResult.from_json(result.to_json())
    window = WindowDisplay(frame_time=0.0, linger=0.0)
    viewer = ReplayViewer(window, list(replay_states(result)), result, playing=False)
    viewer.tick()
    pointer = Pointer(x_display, str(pygame.display.get_wm_info()["window"]))
    pointer.xdotool("windowmap", "--sync", pointer.window_id)
    yield viewer, pointer
    window.close()
    pygame.quit()  # every SDL subsystem lets go of the X server before it stops


def tick_until(viewer, done, seconds: float = 5.0) -> None:
    """Tick the viewer (reading the X server's events) until ``done()`` or time is up."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        viewer.tick()
        time.sleep(0.02)
    viewer.tick()


def test_a_real_press_off_the_track_seeks_and_a_drag_scrubs(replay):
    viewer, pointer = replay
    track = viewer.slider_rect()
    pointer.move(track.left + track.width // 2, track.top - 7)  # above the track
    pointer.xdotool("mousedown", "1")
    tick_until(viewer, lambda: viewer.position != 0)
    assert viewer.position == round(viewer.last * viewer.slider().fraction_at(
        track.left + track.width // 2))
    pointer.move(track.right - 1, track.bottom + 30)  # dragged off the strip: still held
    tick_until(viewer, lambda: viewer.position == viewer.last)
    pointer.xdotool("mouseup", "1")
    assert viewer.position == viewer.last
    pointer.move(track.left, track.centery)  # released: moving no longer seeks
    tick_until(viewer, lambda: viewer.position != viewer.last, seconds=0.5)
    assert viewer.position == viewer.last


def test_the_real_window_shows_the_knob_where_the_replay_is_over_neither_maze_nor_text(replay):
    viewer, pointer = replay
    track = viewer.slider_rect()
    pointer.move(track.left + track.width // 3, track.bottom + 6)  # below the track
    pointer.xdotool("click", "1")
    tick_until(viewer, lambda: viewer.position != 0)
    window, renderer = viewer.window, viewer.window.renderer
    shown = pygame.display.get_surface()
    knob = viewer.slider().knob(viewer.fraction)
    assert tuple(shown.get_at(knob.center))[:3] == KNOB
    row = [x for x in range(track.left, track.right)
           if tuple(shown.get_at((x, track.top - 3)))[:3] == KNOB]
    assert row and abs((row[0] + row[-1]) / 2 - knob.centerx) <= 1
    texts = [rect for _, rect in renderer.last_status]
    assert texts and not any(rect.colliderect(viewer.slider().area) for rect in texts)
    plain = pygame.Surface(renderer.size)
    renderer.draw(plain, viewer.shown, facing=window.facing)
    maze = pygame.Rect(0, 0, renderer.size[0], renderer.status_rect.top)
    assert pygame.image.tobytes(shown.subsurface(maze), "RGB") \
        == pygame.image.tobytes(plain.subsurface(maze), "RGB")

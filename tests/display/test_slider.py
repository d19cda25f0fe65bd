"""The slider's geometry, for any width of window: positions round-trip, a press grabs exactly
within GRIP pixels of the track, and the knob stays inside the slider's strip."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pacman.display._pygame import pygame
from pacman.display.renderer import MIN_WIDTH
from pacman.display.slider import GRIP, KNOB_RADIUS, ROOM, TRACK_HEIGHT, Slider

widths = st.integers(MIN_WIDTH, 3000)
tops = st.integers(0, 2000)


@given(widths, tops, st.floats(0, 1))
def test_a_fraction_comes_back_from_the_knobs_place(width, top, fraction):
    slider = Slider(pygame.Rect(0, top, width, ROOM))
    assert abs(slider.fraction_at(slider.x_of(fraction)) - fraction) <= 1 / (
        slider.track.width - 1)
    assert slider.area.contains(slider.knob(fraction))
    assert slider.track.height == TRACK_HEIGHT >= 6 and KNOB_RADIUS * 2 > TRACK_HEIGHT


@given(widths, tops, st.integers(-3 * GRIP, 3 * GRIP), st.integers(-3 * GRIP, 3 * GRIP))
def test_a_press_grabs_exactly_within_grip_of_the_track(width, top, dy, dx):
    """``dy`` pixels above (negative) or below the track, ``dx`` left of or right of it."""
    slider = Slider(pygame.Rect(0, top, width, ROOM))
    track = slider.track
    y = track.top + dy if dy < 0 else track.bottom - 1 + dy
    x = track.left + dx if dx < 0 else track.right - 1 + dx
    assert slider.grabs((track.centerx, y)) == (abs(dy) <= GRIP)
    assert slider.grabs((x, track.centery)) == (abs(dx) <= GRIP)
    assert slider.fraction_at(x) == (0.0 if dx < 0 else 1.0)  # beyond an end: that end

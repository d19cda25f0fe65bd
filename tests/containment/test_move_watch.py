"""The move watch of a contained agent's process: a move still running at its limit is said,
once, with the place its code was; a move that ends in time says nothing."""

from __future__ import annotations

import time

from pacman.contained.move_watch import LATE, MoveWatch


def _busy(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:  # the line the watch must name
        pass


def test_a_late_move_is_said_once_with_the_line_it_was_on():
    said: list[str] = []
    watch = MoveWatch(said.append)
    watch.arm(0.05)
    _busy(0.4)
    assert watch.disarm() is True  # its own answer is then not sent
    assert len(said) == 1
    lines = said[0].splitlines()
    assert lines[0] == "Traceback (most recent call last):" and lines[-1] == LATE
    assert "in _busy" in lines[-3] and lines[-2].strip() == (
        "while time.monotonic() < end:  # the line the watch must name")


def test_a_move_in_time_says_nothing_and_the_watch_serves_the_next_move():
    said: list[str] = []
    watch = MoveWatch(said.append)
    for _ in range(50):
        watch.arm(0.3)
        assert watch.disarm() is False
    watch.arm(None)  # no limit: not watched
    _busy(0.1)
    assert watch.disarm() is False and said == []
    watch.arm(0.05)
    _busy(0.3)
    assert watch.disarm() is True and len(said) == 1


def test_a_limit_of_years_is_watched_without_error():
    """A limit far past what a lock's wait takes (1e12 s) leaves the watch's thread alive:
    the next move, armed with a short limit, is still said late."""
    said: list[str] = []
    watch = MoveWatch(said.append)
    watch.arm(1e12)
    time.sleep(0.2)
    assert not watch.disarm()
    watch.arm(0.05)
    time.sleep(0.5)
    assert watch.disarm() and len(said) == 1

"""Hostile: looks for the assignment's hidden tests and reference answers."""

import gc
import glob
import os

from _native_student import MinimaxAgent as _Minimax, ReflexAgent as _Reflex

import pacman.grading

FOUND = []


def _snoop():
    folder = os.path.join(os.path.dirname(pacman.grading.__file__), "assignments")
    known = [os.path.join(folder, "default.toml")]  # the shipped name, even if it cannot be listed
    for path in known + glob.glob(os.path.join(folder, "*.toml")) + glob.glob("/work/**/*.toml", recursive=True)[:5]:
        with open(path) as handle:
            FOUND.append(handle.read())
    for obj in gc.get_objects():
        if type(obj).__name__ in ("Expected", "Assignment"):
            FOUND.append(obj)


class MinimaxAgent(_Minimax):
    def get_action(self, state):
        try:
            _snoop()
        except OSError:
            pass
        return super().get_action(state)


class ReflexAgent(_Reflex):
    def get_action(self, state):
        _snoop()
        return super().get_action(state)

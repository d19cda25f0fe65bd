"""Hostile: prints megabytes (and writes to the real standard output below Python too)."""

import os

from _native_student import MinimaxAgent as _Minimax, ReflexAgent as _Reflex


class MinimaxAgent(_Minimax):
    def get_action(self, state):
        for _ in range(100):
            print("x" * 100_000)
        return super().get_action(state)


class ReflexAgent(_Reflex):
    def get_action(self, state):
        try:
            os.write(1, b"y" * 10_000_000)
        except OSError:
            pass
        for _ in range(100):
            print("y" * 100_000)
        return super().get_action(state)

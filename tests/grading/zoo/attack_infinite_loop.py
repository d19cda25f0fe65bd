"""Hostile: never returns."""

from _native_student import MinimaxAgent as _Minimax, ReflexAgent as _Reflex


class MinimaxAgent(_Minimax):
    def get_action(self, state):
        while True:
            pass


class ReflexAgent(_Reflex):
    def get_action(self, state):
        n = 0
        while True:
            n += 1

"""Hostile: ends its own process with os._exit (no exception, no cleanup)."""

import os

from _native_student import MinimaxAgent as _Minimax, ReflexAgent as _Reflex


class MinimaxAgent(_Minimax):
    def get_action(self, state):
        os._exit(3)


class ReflexAgent(_Reflex):
    def get_action(self, state):
        os._exit(4)

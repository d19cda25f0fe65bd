"""Hostile: calls sys.exit while deciding."""

import sys

from _native_student import MinimaxAgent as _Minimax, ReflexAgent as _Reflex


class MinimaxAgent(_Minimax):
    def get_action(self, state):
        sys.exit("bye")


class ReflexAgent(_Reflex):
    def get_action(self, state):
        sys.exit(0)

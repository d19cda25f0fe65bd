"""Hostile: forks (a fork bomb if it could) and starts a shell."""

import os
import subprocess

from _native_student import MinimaxAgent as _Minimax, ReflexAgent as _Reflex


class MinimaxAgent(_Minimax):
    def get_action(self, state):
        while True:
            os.fork()


class ReflexAgent(_Reflex):
    def get_action(self, state):
        try:
            subprocess.run(["sh", "-c", "sleep 100 &"])
        except Exception:
            pass
        return super().get_action(state)

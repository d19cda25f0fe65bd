"""Hostile: tries to kill the process that started it (the grader), then plays on."""

import os
import signal

from _native_student import MinimaxAgent as _Minimax, ReflexAgent as _Reflex


def _kill_parent():
    try:
        os.kill(os.getppid(), signal.SIGKILL)
    except Exception:
        pass
    try:
        os.killpg(0, signal.SIGKILL)
    except Exception:
        pass


class MinimaxAgent(_Minimax):
    def get_action(self, state):
        _kill_parent()
        return super().get_action(state)


class ReflexAgent(_Reflex):
    def get_action(self, state):
        _kill_parent()
        return super().get_action(state)

"""Agents that misbehave on purpose, one way each; loaded by the tests as ``file.py:Name``.

Each plays a random legal move until its ``after``-th move (default: the first), then misbehaves.
"""

from __future__ import annotations

import os
import re
import signal
import sys


class _Base:
    def __init__(self, index=0, rng=None, *, after: int = 0):
        self.rng = rng
        self.after = after
        self.moves = 0

    def get_action(self, state):
        self.moves += 1
        if self.moves > self.after:
            return self.misbehave(state)
        return self.rng.choice(state.legal_actions())

    def misbehave(self, state):
        raise NotImplementedError


class CatchEverything(_Base):
    """Loops forever and swallows every exception, timeouts included."""

    def misbehave(self, state):
        while True:
            try:
                while True:
                    pass
            except BaseException:
                pass


class IgnoreAlarm(_Base):
    """Ignores SIGALRM, then sleeps for ever."""

    def misbehave(self, state):
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        while True:
            try:
                signal.pause()
            except BaseException:
                pass


class BlockAlarm(_Base):
    """Blocks SIGALRM and spins."""

    def misbehave(self, state):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGINT})
        while True:
            pass


class SpinInC(_Base):
    """Spends its move in one long C call that never checks for signals."""

    def misbehave(self, state):
        return sum(range(10 ** 12))


class RegexCatastrophe(_Base):
    """Catastrophic backtracking inside the regular expression engine."""

    def misbehave(self, state):
        re.match(r"(a+)+$", "a" * 64 + "b")
        return "Stop"


class RaiseGeneratorExit(_Base):
    def misbehave(self, state):
        raise GeneratorExit("bye")


class RaiseKeyboardInterrupt(_Base):
    def misbehave(self, state):
        raise KeyboardInterrupt


class RaiseSystemExit(_Base):
    def misbehave(self, state):
        sys.exit(3)


class HardExit(_Base):
    """Ends its whole process at once, without cleanup."""

    def misbehave(self, state):
        os._exit(7)


class KillItself(_Base):
    def misbehave(self, state):
        os.kill(os.getpid(), signal.SIGKILL)


class ReturnsGarbage(_Base):
    def misbehave(self, state):
        return object()


class ConstructorRaises:
    def __init__(self, index=0, rng=None):
        raise ValueError("cannot be built")

    def get_action(self, state):  # pragma: no cover - never built
        return "Stop"


class ConstructorExits:
    def __init__(self, index=0, rng=None):
        os._exit(5)

    def get_action(self, state):  # pragma: no cover - never built
        return "Stop"


class StartRaises(_Base):
    def start_game(self, state):
        raise RuntimeError("no start")


class StartHangs(_Base):
    def start_game(self, state):
        while True:
            try:
                signal.signal(signal.SIGALRM, signal.SIG_IGN)
                while True:
                    pass
            except BaseException:
                pass


class StatsUnserialisable(_Base):
    def __init__(self, index=0, rng=None, *, after: int = 10 ** 9):
        super().__init__(index, rng, after=after)

    def stats(self):
        return {"thing": object()}


class StatsRaises(_Base):
    def __init__(self, index=0, rng=None, *, after: int = 10 ** 9):
        super().__init__(index, rng, after=after)

    def stats(self):
        raise RuntimeError("no stats")


class StatsExits(_Base):
    def __init__(self, index=0, rng=None, *, after: int = 10 ** 9):
        super().__init__(index, rng, after=after)

    def stats(self):
        os._exit(4)


class EatsTheFood(_Base):
    """Plays randomly, and on its first move tries every way to empty the maze for later games."""

    def __init__(self, index=0, rng=None, *, after: int = 10 ** 9):
        super().__init__(index, rng, after=after)

    def get_action(self, state):
        layout = state.layout
        for name in ("food", "capsules"):
            for target in (layout, state):
                try:
                    object.__setattr__(target, name, 0)
                except Exception:
                    pass
        for value in list(vars(layout).values()) if hasattr(layout, "__dict__") else []:
            if isinstance(value, (list, dict, set)):
                try:
                    value.clear()
                except Exception:
                    pass
        return super().get_action(state)

"""Code from a user's file that attacks the program, one way each; loaded as ``file.py:name``.

Evaluations (functions of a state) and agents (classes). Nothing here runs at import.
"""

from __future__ import annotations

import os
import signal
import sys
import time

_REWIRED: list[bool] = []


def never_returns(state):
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    while True:
        pass


def interrupts(state):
    raise KeyboardInterrupt


def ends_the_process(state):
    os._exit(3)


def rewires_the_maze(state):
    """Reverses the order of Pacman's moves in every cell of the maze it is given, once."""
    layout = state.layout
    if not _REWIRED:
        _REWIRED.append(True)
        reversed_actions = tuple(tuple(reversed(a)) for a in layout.pacman_actions)
        object.__setattr__(layout, "pacman_actions", reversed_actions)
    return float(state.score)


class _Random:
    def __init__(self, index=0, rng=None):
        self.rng = rng

    def get_action(self, state):
        return self.rng.choice(state.legal_actions())


class Quiet(_Random):
    """Plays at random and does nothing else."""


class Chatty(_Random):
    """Prints on stdout as it thinks, without a line break."""

    def get_action(self, state):
        print("thinking...", end="")
        sys.stdout.flush()
        return super().get_action(state)


def _siblings() -> list[int]:
    """The processes with this one's parent, other than itself."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as file:
                fields = file.read().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == os.getppid():
            found.append(int(name))
    return found


class KillsSiblings(_Random):
    """On its first move, SIGKILLs every process that has its parent (the other agents'
    processes when all are forked from one server)."""

    def get_action(self, state):
        for pid in _siblings():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.2)
        return super().get_action(state)


class ForksAway(_Random):
    """On its first move, starts a grandchild in a session of its own that runs
    ``sleep TOKEN`` (``token`` option) and would outlive the game."""

    def __init__(self, index=0, rng=None, *, token: str = "3600"):
        super().__init__(index, rng)
        self.token = token
        self.started = False

    def get_action(self, state):
        if not self.started:
            self.started = True
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    os.execvp("sleep", ["sleep", self.token])
                os._exit(0)
        return super().get_action(state)


class Hoards(_Random):
    """Allocates three gigabytes on its first move."""

    def get_action(self, state):
        self.hoard = bytearray(3 * 1024 ** 3)
        return super().get_action(state)


class ChattyModel:
    """A ghost whose move distribution (uniform) prints as it is asked: a ghost model."""

    def __init__(self, index=0, rng=None):
        self.index = index
        self.rng = rng

    def distribution(self, state):
        print("modelling...", end="")
        legal = state.legal_actions(self.index)
        return {action: 1 / len(legal) for action in legal}

    def get_action(self, state):
        return self.rng.choice(list(self.distribution(state)))

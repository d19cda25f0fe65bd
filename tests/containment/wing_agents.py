"""Agents for the tests of the contained wing itself; loaded as ``wing_agents.py:Name``."""

from __future__ import annotations

import os
import random
import time


class GlobalRandom:
    """Plays with the process's own ``random`` module, as classic student code does."""

    def __init__(self, index=0, rng=None):
        self.index = index

    def get_action(self, state):
        return random.choice(sorted(state.legal_actions(self.index)))


class ReportsItsProcess(GlobalRandom):
    """Says which process it plays in (its stats: the process's start time and number)."""

    def stats(self):
        return {"pid": os.getpid(), "started": PROCESS_STARTED}


class CrashesOnce(ReportsItsProcess):
    """Raises at its first move of a process; plays after that."""

    def get_action(self, state):
        if not CRASHED:
            CRASHED.append(True)
            raise RuntimeError("once")
        return super().get_action(state)


class HugeStats(GlobalRandom):
    def stats(self):
        return {"blob": "x" * (20 << 20)}


class DeepStats(GlobalRandom):
    def stats(self):
        value: list = []
        for _ in range(100_000):
            value = [value]
        return {"deep": value}


class HugeMessage(GlobalRandom):
    def get_action(self, state):
        raise ValueError("y" * (40 << 20))


class _Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no words")


class RaisingStr(GlobalRandom):
    def get_action(self, state):
        raise _Unprintable()


class HoldsMemfd(GlobalRandom):
    """Holds 1 GB in a memory file, written a megabyte at a time."""

    def get_action(self, state):
        fd = os.memfd_create("hoard")
        chunk = b"m" * (1 << 20)
        for _ in range(1024):
            os.write(fd, chunk)
        HELD.append(fd)
        return super().get_action(state)


class Sleeps(GlobalRandom):
    """Thinks for a long time (so that its processes can be counted while a game runs)."""

    def get_action(self, state):
        time.sleep(0.5)
        return super().get_action(state)


class ReportsItsStates:
    """Records the class, maze and fields of the states it is given."""

    def __init__(self, index=0, rng=None):
        self.rng = rng

    def start_game(self, state):
        self.seen = []

    def get_action(self, state):
        self.seen.append([type(state).__name__, state.layout.name, state.layout.text,
                          list(state[1]), state[4], state[6], state[7]])
        return self.rng.choice(state.legal_actions())

    def stats(self):
        return {"seen": self.seen}


class UnencodableAction(GlobalRandom):
    def get_action(self, state):
        return "\ud800"


class Spins(GlobalRandom):
    """Never returns from its move, and never reads its pipe again."""

    def get_action(self, state):
        while True:
            pass


PROCESS_STARTED = time.time()
CRASHED: list[bool] = []
HELD: list[int] = []


class Lingers(GlobalRandom):
    """At its first move names itself ``mark`` and starts ``sleep MARK`` (a child in its own
    process group, not a new session); then thinks for ever, never reading its pipe again."""

    def __init__(self, index=0, rng=None, mark="lingers"):
        super().__init__(index, rng)
        self.mark = str(mark)

    def get_action(self, state):
        import subprocess

        with open("/proc/self/comm", "w") as comm:
            comm.write(self.mark[:15])
        subprocess.Popen(["sleep", self.mark], stdin=subprocess.DEVNULL)
        while True:
            time.sleep(1)

"""Agents for the tests of a contained process kept from one game to the next; loaded as
``reuse_agents.py:Name``. Each plays at random from its own generator; most also change their
process in one way on their first move. Nothing here runs at import but the counter.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time


#: How many agents this module has built since it was imported.
BUILT = [0]
_KEPT: list = []


class Remembers:
    """Counts the agents its module built (1 in a fresh module): a later game that saw an
    earlier one's module records another number. (The global generators are seeded afresh
    in every process: an agent that draws from them is not reproducible in any process.)"""

    def __init__(self, index=0, rng=None):
        BUILT[0] += 1
        self.rng = rng
        self.moves = 0

    def get_action(self, state):
        self.moves += 1
        return self.rng.choice(state.legal_actions())

    def stats(self):
        return {"built_in_module": BUILT[0]}


class _ChangesOnce(Remembers):
    def get_action(self, state):
        if self.moves == 0:
            self.change()
        return super().get_action(state)

    def change(self):
        raise NotImplementedError


class StartsThread(_ChangesOnce):
    def change(self):
        threading.Thread(target=time.sleep, args=(30,), daemon=True).start()


class LeavesProcess(_ChangesOnce):
    def change(self):
        _KEPT.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"]))


class SetsSignalHandler(_ChangesOnce):
    def change(self):
        signal.signal(signal.SIGUSR1, lambda *_: None)


class ChangesFolder(_ChangesOnce):
    def change(self):
        os.chdir(tempfile.gettempdir())


class SetsEnvironment(_ChangesOnce):
    def change(self):
        os.environ["REUSE_AGENTS_WAS_HERE"] = "1"


class KeepsFileOpen(_ChangesOnce):
    def change(self):
        _KEPT.append(open(os.devnull))  # noqa: SIM115 - kept open on purpose


class RebindsEngine(_ChangesOnce):
    def change(self):
        import pacman.outcome

        pacman.outcome.failure_message = lambda *a, **k: "patched"


class PatchesClass(_ChangesOnce):
    def change(self):
        from pacman.layout import Layout

        Layout.wall_grid = lambda self: []


class AddsNames(_ChangesOnce):
    """Adds names to a module and a class of the engine and rebinds one to the same object:
    none of that changes what a later game sees."""

    def change(self):
        import pacman.outcome
        from pacman.layout import Layout

        pacman.outcome.REUSE_AGENTS_NOTE = "here"
        pacman.outcome.failure_message = pacman.outcome.failure_message
        Layout.reuse_agents_note = "here"


class GrowsMemory(_ChangesOnce):
    def change(self):
        _KEPT.append(bytearray(700 * 1024 * 1024))


class Crashes(Remembers):
    def get_action(self, state):
        raise RuntimeError("no")


class Illegal(Remembers):
    def get_action(self, state):
        return 5


class ReportsItsStates(Remembers):
    """Records the class, maze and fields of the states it is given."""

    def start_game(self, state):
        self.seen = []

    def get_action(self, state):
        self.seen.append([type(state).__name__, state.layout.name, state.layout.text,
                          list(state[1]), state[4], state[6], state[7]])
        return super().get_action(state)

    def stats(self):
        return {"seen": self.seen}


class UnencodableAction(Remembers):
    def get_action(self, state):
        return "\ud800"


class ReportsItsProcess(Remembers):
    """Reports when its process started (the same number in a kept process)."""

    def stats(self):
        with open("/proc/self/stat", encoding="ascii") as file:
            started = int(file.read().rpartition(")")[2].split()[19])
        return {"built_in_module": BUILT[0], "process_started": started}


class ReportsItsCpus(Remembers):
    """Reports the CPUs it may run on at each move, and the CPU it last ran on."""

    def start_game(self, state):
        self.allowed = []

    def get_action(self, state):
        with open("/proc/self/stat", encoding="ascii") as file:
            ran_on = int(file.read().rpartition(")")[2].split()[36])
        self.allowed.append([sorted(os.sched_getaffinity(0)), ran_on])
        return super().get_action(state)

    def stats(self):
        return {"allowed": self.allowed}

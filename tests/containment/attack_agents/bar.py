"""Attacks the containment already stood against; they must keep failing."""

import ctypes
import json
import os
import signal
import sys
import threading
import time


def report(name, found):
    print(f"ATTACK {name} {json.dumps(found)}", file=sys.stderr, flush=True)


class RandomPlayer:
    def __init__(self, index=0, rng=None):
        self.rng = rng
        self.done = False

    def get_action(self, state):
        if not self.done:
            self.done = True
            self.attack()
        return self.rng.choice(state.legal_actions())


class ExhaustsFiles(RandomPlayer):
    """Opens files until it may open no more, keeps them, and plays on."""

    def attack(self):
        self.kept = []
        try:
            while len(self.kept) < 1_000_000:
                self.kept.append(os.open("/dev/null", os.O_RDONLY))
        except OSError:
            pass
        report("files_open", {"opened": len(self.kept)})


class ExhaustsThreads(RandomPlayer):
    """Starts threads until it may start no more (at most 3,000), and plays on."""

    def attack(self):
        started = 0
        stop = threading.Event()
        try:
            while started < 3000:
                threading.Thread(target=stop.wait, daemon=True).start()
                started += 1
        except (RuntimeError, MemoryError):
            pass
        report("threads", {"started": started})


def programs(mark):
    """The program's processes: its parent and whatever has ``mark`` on its command line."""
    found = {os.getppid()}
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != os.getpid():
            try:
                with open(f"/proc/{name}/cmdline", "rb") as file:
                    if mark.encode() in file.read():
                        found.add(int(name))
            except OSError:
                pass
    return sorted(found)


class AttacksTheProgram(RandomPlayer):
    """Traces, stops and kills its parent and every process running the program (whose
    command line holds ``mark``)."""

    def __init__(self, index=0, rng=None, mark="run.py"):
        super().__init__(index, rng)
        self.mark = str(mark)

    def attack(self):
        found = {"traced": [], "signalled": []}
        libc = ctypes.CDLL(None, use_errno=True)
        for pid in programs(self.mark):
            if pid <= 1:
                continue
            if libc.ptrace(16, pid, None, None) == 0:  # PTRACE_ATTACH
                found["traced"].append(pid)
            for sig in (signal.SIGSTOP, signal.SIGKILL):
                try:
                    os.kill(pid, sig)
                    found["signalled"].append(pid)
                except OSError:
                    pass
        time.sleep(0.3)
        report("program", found)


class FloodsStdout(RandomPlayer):
    """Prints 150 MB on stdout, through Python and below it."""

    def attack(self):
        line = "flood " * 1000 + "\n"
        for _ in range(12_500):
            sys.stdout.write(line)
        sys.stdout.flush()
        block = b"{" * (1024 * 1024)
        for _ in range(75):
            os.write(1, block)

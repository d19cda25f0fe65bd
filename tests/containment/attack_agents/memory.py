"""Agents that hold memory where an address-space limit does not see it: a memfd, or a file
in /tmp (memory when /tmp is a tmpfs). Each holds it for the rest of its game."""

import json
import os
import sys

CHUNK = b"\xa5" * (16 * 1024 * 1024)


def report(name, found):
    print(f"ATTACK {name} {json.dumps(found)}", file=sys.stderr, flush=True)


class Hoarder:
    def __init__(self, index=0, rng=None, megabytes=1024, folder="/tmp", mark="hoard"):
        self.rng = rng
        self.megabytes = int(megabytes)
        self.folder = str(folder)
        self.mark = str(mark)
        self.held = None

    def get_action(self, state):
        if self.held is None:
            self.held = self.hoard()
            written = 0
            while written < self.megabytes * 1024 * 1024:
                written += os.write(self.held, CHUNK)
            report("memory", {"held_mb": written // (1024 * 1024)})
        return self.rng.choice(state.legal_actions())


class MemfdHoarder(Hoarder):
    def hoard(self):
        return os.memfd_create("hoard")


class TmpHoarder(Hoarder):
    def hoard(self):
        path = os.path.join(self.folder, f"{self.mark}-{os.getpid()}")
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
        os.unlink(path)
        return fd

"""An agent that tries to stop other people's work: one byte into every file descriptor it
inherited, and a duplicate of the last game appended to the results store."""

import json
import os
import sys


def report(name, found):
    print(f"ATTACK {name} {json.dumps(found)}", file=sys.stderr, flush=True)


class Saboteur:
    def __init__(self, index=0, rng=None, store="batch_results.jsonl"):
        self.rng = rng
        self.store = str(store)

    def get_action(self, state):
        found = {"written": [], "duplicated": False}
        try:
            with open(self.store, "rb") as file:
                last = file.read().splitlines()[-1]
            if last.startswith(b'{"key"'):
                with open(self.store, "ab") as file:
                    file.write(last + b"\n")
                found["duplicated"] = True
        except (OSError, IndexError):
            pass
        for name in os.listdir("/proc/self/fd"):
            fd = int(name)
            if fd <= 2:
                continue
            try:
                os.write(fd, b"x")
                found["written"].append(os.readlink(f"/proc/self/fd/{name}"))
            except OSError:
                pass
        report("stopping", found)
        return self.rng.choice(state.legal_actions())

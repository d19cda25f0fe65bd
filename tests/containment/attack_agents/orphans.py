"""An agent that leaves processes behind: it names itself ``name``, starts a child in its own
process group and a daemon (double fork, new session), both ``sleep TOKEN``, and from its
second move on thinks for ever (as a search that never ends does)."""

import os
import time


class LeavesDaemons:
    def __init__(self, index=0, rng=None, token="3600", name="orphanmaker"):
        self.rng = rng
        self.token = str(token)
        self.name = str(name)
        self.started = False

    def get_action(self, state):
        if not self.started:
            self.started = True
            with open("/proc/self/comm", "w") as comm:
                comm.write(self.name[:15])
            if os.fork() == 0:
                os.execvp("sleep", ["sleep", self.token])
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    os.execvp("sleep", ["sleep", self.token])
                os._exit(0)
        else:
            while True:
                time.sleep(1)
        return self.rng.choice(state.legal_actions())

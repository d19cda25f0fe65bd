"""The game's side of one contained agent process, and the processes kept for later games.

A :class:`ContainedProcess` starts ``python -m pacman.contained.child`` under the backend of
:mod:`pacman.contained.jail`, waits for its ``hello`` (sent before any of the agent's code
runs: a process that ends or stays silent before it is a :class:`ContainmentError`), sends it
the agent's spec, and then asks it questions one at a time. Whatever goes wrong after the
``hello`` (no answer in time, a malformed answer, a process that ended) is an
:class:`~pacman.engine.outcome.AgentFailure` of the agent, and the process is killed with everything
in it (its namespace under bubblewrap, its process group without).

Inside :func:`keep_processes` (``play``, a batch worker, a chunk of games on Dask), a process
whose game went without a failure of its agent waits for the next game of the same spec
instead of ending; :data:`MAX_IDLE` wait at most.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import select
import signal
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import Any

from pacman.contained import jail
from pacman.contained.jail import ContainmentError
from pacman.contained.protocol import MAX_ANSWER, decode_answer, read_frame, write_frame
from pacman.engine.outcome import AgentFailure, Outcome

#: Seconds a process may take to start (Python, the engine) before it runs the agent's code.
STARTUP_SECONDS = 30.0
#: The most processes waiting idle at once (the oldest ends first).
MAX_IDLE = 8


class ContainedProcess:
    """One child process serving one agent spec (see the module docstring).

    ``request`` is ``(name, role, raw_options)``; ``binds`` and ``imports`` the agent's own
    files and the folders its modules come from; ``folder`` where it runs."""

    def __init__(self, request: tuple[str, str, dict[str, str]], binds: list[Path],
                 imports: list[Path], folder: Path) -> None:
        self.memory = jail.memory_mb()
        self.kind = jail.backend()
        argv = [sys.executable, "-P", "-m", "pacman.contained.child", self.kind, str(self.memory)]
        view = jail.View(shown=(*_package_views(), *binds), folder=folder)
        self.process = jail.start(self.kind, argv, view, _environment(self.kind, imports),
                                  self.memory, unprivileged=self.kind == "plain",
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.process.stdin is not None and self.process.stdout is not None
        self._in, self._out = self.process.stdin.fileno(), self.process.stdout.fileno()
        self._poll = select.poll()
        self._poll.register(self._out, select.POLLIN)
        self.healthy = True
        try:
            status, _ = self._answer(STARTUP_SECONDS, "starting")
        except AgentFailure as failure:
            self.kill()
            why = (self._exit_words() if self.process.returncode is not None
                   else failure.message)
            raise ContainmentError(f"cannot start a contained agent's process: {why}") from None
        if status != "hello":
            self.kill()
            raise ContainmentError(f"cannot start a contained agent's process (said {status!r})")
        self._write(pickle.dumps(request), "loading the agent")
        with _LOCK:
            _ALL.add(self)

    def loaded(self, seconds: float) -> tuple[str, Any]:
        """The answer to loading the agent: ``ready``, ``refused`` (a wrong name or option)
        or ``error``; :class:`AgentFailure` (the process killed) if it gives none in time."""
        try:
            return self._answer(seconds, "loading the agent")
        except BaseException:
            self.kill()
            raise

    def _exit_words(self) -> str:
        code = self.process.poll()
        limit = f"; memory limit {self.memory} MB" if self.memory else ""
        return f"it ended before running the agent's code (exit code {code}{limit})"

    def _write(self, body: bytes, method: str) -> None:
        try:
            write_frame(self._in, body)
        except OSError:
            raise self._ended(method) from None

    def ask(self, body: bytes, seconds: float | None, method: str,
            answer: bool = True) -> tuple[str, Any]:
        """Send one request and return ``(status, value)`` (``("ok", None)`` without
        ``answer``); raises :class:`AgentFailure` and kills the process when the agent fails
        to answer. Any exception while waiting (the game's own timer) kills it too."""
        try:
            self._write(body, method)
            return self._answer(seconds, method) if answer else ("ok", None)
        except BaseException:
            self.kill()
            raise

    def _answer(self, seconds: float | None, method: str) -> tuple[str, Any]:
        deadline = None if seconds is None else time.monotonic() + seconds
        while True:
            # at most a day a poll: a far deadline (a limit of years) is more than poll() takes
            wait = -1 if deadline is None else max(0, min(int((deadline - time.monotonic()) * 1000),
                                                          86_400_000))
            if self._poll.poll(wait):
                break
            if deadline is not None and time.monotonic() >= deadline:
                self.kill()
                raise AgentFailure(Outcome.TIMEOUT, f"{method} did not return within "
                                                    f"{seconds:.2f} s; its process was killed")
        try:
            body = read_frame(self._out, MAX_ANSWER)
        except (EOFError, OSError):
            raise self._ended(method) from None
        except ValueError as error:
            self.kill()
            raise AgentFailure(Outcome.CRASH, f"{method}: the agent's process sent a "
                                              f"malformed answer ({error})") from None
        try:
            return decode_answer(body)
        except (ValueError, UnicodeDecodeError):
            self.kill()
            raise AgentFailure(Outcome.CRASH, f"{method}: the agent's process sent a "
                                              "malformed answer") from None

    def _ended(self, method: str) -> AgentFailure:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=2)
        code = self.process.returncode
        self.kill()
        if code is not None and self.kind == "bwrap" and code > 128:
            code = 128 - code  # bwrap ends with 128 + the signal that killed its command
        if code is not None and code < 0:
            how = f"was killed by signal {-code} ({_signal_name(-code)})"
            if -code == signal.SIGXFSZ and self.memory:
                how += f": a file went past its memory limit of {self.memory} MB"
            elif -code in (signal.SIGKILL, signal.SIGSEGV, signal.SIGBUS) and self.memory:
                how += f"; perhaps for want of memory (its memory limit is {self.memory} MB)"
        else:
            how = f"exited with code {code}"
        return AgentFailure(Outcome.CRASH, f"{method}: the agent's process {how}")

    def alive(self) -> bool:
        return self.healthy and self.process.poll() is None

    def kill(self) -> None:
        """End the process and all it started, and reap it. Safe to call twice."""
        self.healthy = False
        if self.process.returncode is None:
            with contextlib.suppress(OSError):
                os.killpg(self.process.pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                self.process.kill()
        for stream in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        with contextlib.suppress(subprocess.TimeoutExpired, OSError):
            self.process.wait(timeout=5)
        _ALL.discard(self)


def _package_views() -> list[Path]:
    """The installed ``pacman`` package, and what its links point to (its agents)."""
    import pacman

    package = Path(pacman.__file__).resolve().parent
    return [package, *(Path(folder, name).resolve() for folder, dirs, files in os.walk(package)
                       for name in dirs + files if Path(folder, name).is_symlink())]


#: Numeric libraries kept to one thread in an agent's process; no bytecode written.
_QUIET = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1"}


def _environment(kind: str, imports: list[Path]) -> dict[str, str]:
    """An agent process's environment: under bubblewrap a few plain settings, under the plain
    backend the caller's; the agent's modules importable either way."""
    if kind == "plain":
        env = {**os.environ, **_QUIET}
    else:
        env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp", **_QUIET,
               "LANG": "C.UTF-8"}
    path = [*map(str, imports), *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])]
    if path:
        env["PYTHONPATH"] = ":".join(path)
    return env


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return "unknown"


# --- processes kept for the next game --------------------------------------------------------
_LOCK = threading.RLock()
_IDLE: OrderedDict[tuple[Hashable, int], ContainedProcess] = OrderedDict()
_ALL: set[ContainedProcess] = set()
_SCOPES = [0]
_SERIAL = [0]


def keeping() -> bool:
    """Whether a :func:`keep_processes` scope is open."""
    return _SCOPES[0] > 0


def take(key: Hashable) -> ContainedProcess | None:
    """An idle live process kept for ``key`` (no longer idle), or ``None``."""
    with _LOCK:
        for slot in list(_IDLE):
            if slot[0] == key:
                process = _IDLE.pop(slot)
                if process.alive():
                    return process
                process.kill()
    return None


def keep(key: Hashable, process: ContainedProcess) -> None:
    """Keep ``process`` for ``key`` when a scope is open, else end it."""
    if not keeping() or not process.alive():
        process.kill()
        return
    with _LOCK:
        _SERIAL[0] += 1
        _IDLE[(key, _SERIAL[0])] = process
        while len(_IDLE) > MAX_IDLE:
            _IDLE.popitem(last=False)[1].kill()


def end_idle() -> None:
    """End every idle process."""
    with _LOCK:
        idle = list(_IDLE.values())
        _IDLE.clear()
    for process in idle:
        process.kill()


@contextlib.contextmanager
def keep_processes() -> Iterator[None]:
    """A scope in which contained processes are kept from one game to the next of the same
    spec; the idle ones end with the outermost scope."""
    with _LOCK:
        _SCOPES[0] += 1
    try:
        yield
    finally:
        with _LOCK:
            _SCOPES[0] -= 1
            last = _SCOPES[0] == 0
        if last:
            end_idle()


def keep_for_this_process() -> None:
    """Keep processes for as long as this program runs (a batch worker's whole life)."""
    with _LOCK:
        _SCOPES[0] += 1


@atexit.register
def _end_all() -> None:
    for process in list(_ALL):
        process.kill()

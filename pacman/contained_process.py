"""The game's side of a contained child process: start it, talk to it, end it and all it started.

A :class:`ContainedProcess` runs a function of :mod:`pacman.agent_child` (an agent, or a probe
of an agent's name) in the process tree that module describes, in new namespaces where the
system allows (:mod:`pacman.namespaces`). Two kinds of failure are kept apart:

* :class:`ContainmentError` (a :class:`~pacman.errors.PacmanError`): the environment could
  not give the child what it needs (no pipe or file descriptor, no process, a fork server
  that cannot start, a child that ends before it runs any of the agent's code, for example
  for want of memory). The program stops with one line and exit code 2; nothing is recorded.
* :class:`AgentFailure`: the agent's code failed (an exception, a process that ends, an
  answer too late or malformed). It becomes that agent's outcome in the game.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import resource
import select
import signal
import sys
from typing import Any
from collections.abc import Callable

from pacman.errors import PacmanError
from pacman.outcome import Outcome

#: Seconds a contained process may take to start, on top of any time limit.
STARTUP_SECONDS = 30.0
#: The memory (address space) a contained agent may use, in megabytes, unless
#: ``PACMAN_AGENT_MEMORY_MB`` (``--agent-memory``) says otherwise; 0 is no limit.
DEFAULT_MEMORY_MB = 2048
MEMORY_ENVIRONMENT = "PACMAN_AGENT_MEMORY_MB"

#: Modules every process started from the fork server has loaded already: the program's main
#: module (else every child would import it again), the game, the batch worker and the agents
#: most games name (the catalogs load their entries lazily).
PRELOAD = ["__main__", "pacman.sandboxed_agent", "pacman.agent_child", "pacman.lineup",
           "pacman.batch.runner", "pacman.agents.search_agents", "pacman.agents.ghosts", "pacman.agents.evaluation",
           "pacman.agents.basic", "pacman.fork_server_ready"]

_WARNED: list[bool] = []
FALLBACK_LINE = ("contained agents run without their own namespaces here ({why}): an agent "
                 "can signal or trace other processes of this user, and processes it starts "
                 "in a new session may outlive the game")


class ContainmentError(PacmanError):
    """The environment cannot run a contained agent (see the module docstring)."""


class AgentFailure(Exception):
    """The agent in a child process failed: ``kind`` is ``Outcome.CRASH`` or ``TIMEOUT``."""

    def __init__(self, kind: Outcome, message: str, trace: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.trace = trace


def agent_memory_mb() -> int:
    """The memory limit of contained agents in megabytes (0: none)."""
    text = os.environ.get(MEMORY_ENVIRONMENT, "").strip()
    if not text:
        return DEFAULT_MEMORY_MB
    try:
        value = int(text)
    except ValueError:
        raise ContainmentError(f"{MEMORY_ENVIRONMENT} must be a whole number of megabytes, "
                               f"got {text!r}") from None
    if value < 0:
        raise ContainmentError(f"{MEMORY_ENVIRONMENT} must be 0 (no limit) or more, got {value}")
    return value


#: File descriptors a process must be allowed (``ulimit -n``) to start contained processes: the
#: fork server passes five per process, and pipes, the maze and the agent's files need more.
MIN_DESCRIPTORS = 64


def check_descriptors(what: str = "a contained agent") -> None:
    """Raise :class:`ContainmentError` when this process may not open enough files to start
    ``what`` (below that, the fork server itself fails with a traceback)."""
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        in_use = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else 0
    except (OSError, ValueError):
        return
    if soft != resource.RLIM_INFINITY and soft - in_use < MIN_DESCRIPTORS:
        raise ContainmentError(f"cannot start {what}: this process may open only "
                               f"{soft} files (ulimit -n) and has {in_use} open; it needs "
                               f"{MIN_DESCRIPTORS} more")


def process_context() -> Any:
    """How this program starts processes (agents' and batch workers'): ``forkserver``, whose
    server has loaded the game and the agent catalog once, or ``spawn`` where there is none.
    Never a plain ``fork`` of the calling process, which may run threads."""
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


class ContainedProcess:
    """One contained child running ``work(conn, setup, *args)`` (see the module docstring).

    Construction starts it and waits (``startup`` seconds at most) until it is ready to run
    the agent's code; a failure there raises :class:`ContainmentError`."""

    def __init__(self, work: Callable[..., None], args: tuple, name: str,
                 startup: float) -> None:
        from pacman.agent_child import supervise

        self.init_pid: int | None = None
        self.isolated = False
        self._pidfd: int | None = None
        check_descriptors()
        setup = {"cwd": os.getcwd(), "memory_mb": agent_memory_mb()}
        self.memory_mb = setup["memory_mb"]
        context = process_context()
        try:
            self._conn, child_conn = context.Pipe(duplex=True)
        except OSError as error:
            raise ContainmentError(f"cannot start a contained agent: no pipe ({error})") from None
        self._process = context.Process(target=supervise, name=name, daemon=True,
                                        args=(child_conn, setup, work, args))
        try:
            _start_from_any_process(self._process)
        except Exception as error:  # the fork server or the process could not start
            self._conn.close()
            raise ContainmentError(f"cannot start a contained agent's process "
                                   f"({type(error).__name__}: {error})") from None
        finally:
            child_conn.close()
        started = self._setup_message(startup, "started")
        self.init_pid, self.isolated = int(started["pid"]), bool(started["isolated"])
        self._pidfd = _child_handle(self.init_pid, self._process.pid)
        if not self.isolated and not _WARNED:
            _WARNED.append(True)
            from pacman.namespaces import ENVIRONMENT, namespaces_wanted

            why = ("the system refused them" if namespaces_wanted()
                   else f"turned off by {ENVIRONMENT}" if sys.platform == "linux"
                   else "not Linux")
            print(f"warning: {FALLBACK_LINE.format(why=why)}", file=sys.stderr)
        self._setup_message(startup, "ready")

    def _setup_message(self, seconds: float, wanted: str) -> Any:
        """Wait for the setup message ``wanted``; anything else is the environment's failure."""
        raw = None
        try:
            ready = self._conn.poll(seconds)
            raw = self._conn.recv_bytes(1 << 16) if ready else None
            message = json.loads(raw.decode("utf-8")) if raw is not None else None
        except (EOFError, OSError, ValueError, UnicodeDecodeError):
            message = None
        if isinstance(message, dict) and message.get("status") == wanted:
            return message.get("value") or {}
        detail = (message.get("value") if isinstance(message, dict)
                  and message.get("status") == "environment" else None)
        self.close()
        code = self._process.exitcode
        if detail is None:
            detail = (f"it did not start within {seconds:.0f} s" if raw is None and code is None
                      else f"it ended before running the agent's code (exit code {code}"
                      + (f"; memory limit {self.memory_mb} MB" if self.memory_mb else "") + ")")
        raise ContainmentError(f"cannot start a contained agent's process: {detail}")

    def send(self, data: bytes, method: str) -> None:
        try:
            self._conn.send_bytes(data)
        except (OSError, ValueError):
            raise self._ended(method) from None

    def answer(self, seconds: float | None, method: str) -> tuple[str, Any]:
        """The next ``(status, value)`` from the child within ``seconds`` (``None``: no
        limit); :class:`AgentFailure` if it is late, malformed or the process ended."""
        try:
            ready = self._conn.poll(seconds)
        except (OSError, ValueError):
            raise self._ended(method) from None
        if not ready:
            self.close()
            raise AgentFailure(Outcome.TIMEOUT, f"{method} did not return within {seconds:.2f} s; "
                                                "its process was killed")
        try:
            raw = self._conn.recv_bytes(1 << 24)
        except (EOFError, OSError):
            raise self._ended(method) from None
        try:
            reply = json.loads(raw.decode("utf-8"))
            return str(reply["status"]), reply["value"]
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            self.close()
            raise AgentFailure(Outcome.CRASH, f"{method}: the agent's process sent a malformed "
                                              "answer") from None

    def _ended(self, method: str) -> AgentFailure:
        self._process.join(timeout=1)
        code = self._process.exitcode
        self.close()
        how = (f"was killed by signal {-code}" if code is not None and code < 0
               else f"exited with code {code}")
        return AgentFailure(Outcome.CRASH, f"{method}: the agent's process {how}")

    def close(self, grace: float = 0.0) -> None:
        """End the child and every process it started, and wait until they are gone. Safe
        to call twice. With ``grace``, the child is first asked to end by closing its pipe
        and given that many seconds (so its processes end, and are counted, normally)."""
        process = self._process
        if grace > 0 and process.exitcode is None:
            with contextlib.suppress(OSError):
                self._conn.close()
            with contextlib.suppress(OSError, ValueError, AssertionError):
                process.join(timeout=grace)
        if self._pidfd is not None:  # the namespace's init: its end ends the namespace
            with contextlib.suppress(OSError, AttributeError):
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
        elif self.init_pid is not None and not self.isolated:
            with contextlib.suppress(OSError):
                os.killpg(self.init_pid, signal.SIGKILL)
        if self.init_pid is not None and process.exitcode is None:
            # the supervisor ends on its own once the init has (and reaps it, so that the
            # processes' CPU time is counted); killed if it does not
            with contextlib.suppress(OSError, ValueError, AssertionError):
                process.join(timeout=1)
        if process.pid is not None and process.exitcode is None:
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(OSError, ValueError):
                process.kill()
        with contextlib.suppress(OSError, ValueError, AssertionError):
            process.join(timeout=5)
        if self._pidfd is not None:
            with contextlib.suppress(OSError, ValueError):
                select.select([self._pidfd], [], [], 5)
                os.close(self._pidfd)
            self._pidfd = None
        with contextlib.suppress(OSError):
            self._conn.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()


def _child_handle(pid: int, parent: int | None) -> int | None:
    """A pidfd for the supervisor's child ``pid``, or ``None``. It is checked after opening
    that ``pid`` is still ``parent``'s child: a process number is not reused while its parent
    has not reaped it, so the handle cannot be another process's that took the number."""
    try:
        handle = os.pidfd_open(pid)
    except (OSError, AttributeError):
        return None
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as file:
            ppid = int(file.read().rpartition(")")[2].split()[1])
    except (OSError, ValueError, IndexError):
        ppid = None
    if ppid != parent:
        os.close(handle)
        return None
    return handle


def _start_from_any_process(process: Any) -> None:
    """Start ``process`` even from a daemonic process (cluster workers are daemonic, and
    :mod:`multiprocessing` refuses children there because it could not join them at exit;
    the child here is joined or killed by :meth:`ContainedProcess.close`, and killed by the
    kernel if its parent dies)."""
    config = getattr(multiprocessing.current_process(), "_config", {})
    daemonic = config.get("daemon", False)
    config["daemon"] = False
    try:
        process.start()
    finally:
        if daemonic:
            config["daemon"] = True

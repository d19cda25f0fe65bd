"""The grader's side of isolation: a submission's worker process, its limits, and its failures.

A :class:`Worker` is a fresh interpreter running :mod:`pacman.grading.worker`, started by the
same boundary as a file's agent (:mod:`pacman.contained.jail`): under bubblewrap where it works
(own user, PID, IPC and network namespaces, a read-only view of the runtime, the worker's own
modules (:data:`pacman.grading.policy.WORKER_MODULES`) and the submission, a private ``/tmp``),
otherwise as a plain child process in a new temporary directory; in its own session, as the
unprivileged user when the grader is root, with an environment of its own, its output sent to
a file, and the resource limits of :class:`Limits`.

Requests whose answer needs objects only the grader may hold are served here while the worker
runs (:mod:`pacman.grading.state_server`):

* ``{"cmd": "tree", "tree": DATA, "agents": N, "budget": B, ...}``: the tree stays here; the
  worker gets its root's handle, and every successor and evaluation is a call answered and
  recorded here. The answer has the worker's ``action``, ``value`` and ``error`` and the
  grader's record: ``generated``, ``evaluated``, ``terminal_expansions`` (a node-budget overrun
  is the ``error``, whatever the worker says);
* ``{"cmd": "game", "search": NAME, ...}`` then ``{"cmd": "move", ...}``: the grader's own
  search (:data:`pacman.agents.catalog.PACMAN_AGENTS`) plays here and asks the worker for the
  submission's evaluation of the states it reaches (``evaluate``, in batches);
* ``{"cmd": "position", "root": INFO, ...}`` with a
  :class:`~pacman.grading.position_server.PositionServer`: a real position stays here; the
  answer has the worker's ``action`` and ``error`` and the server's count ``explored``.

Each request waits at
most its own time limit (the per-move or per-tree limit) and never past the worker's deadline
(the per-test wall limit). A worker that overruns, dies (``os._exit``, the CPU limit, a crash of
the interpreter) or answers nonsense is killed with its whole process group, and the request
raises :class:`WorkerFailure` with one clear sentence; the grader turns that into a failed test
and goes on.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pipe
from pathlib import Path
from typing import Any

from pacman.contained import jail
from pacman.errors import PacmanError
from pacman.grading.cpu_clock import cpu_seconds, process_tree
from pacman.engine.json_lines import load_json
from pacman.grading.library_caches import cache_files, place_caches, private_environment
from pacman.grading.policy import PROJECT, project_views
from pacman.grading.remote_search import SearchPlayer
from pacman.grading.state_server import StateServer, TreeServer
from pacman.grading.student_traceback import WHERE_MARK
from pacman.grading.tree_tests import LayeredTree
from pacman.grading.uploads import inspect_upload, stage

_ASSIGNMENTS = Path(__file__).resolve().parent / "assignments"
#: Largest answer accepted from a worker (bytes).
MAX_ANSWER = 8 * 1024 * 1024
#: Deepest nesting of lists and objects accepted in an answer (the protocol needs 4).
MAX_DEPTH = 32
#: Seconds a request's time limit grows per call the grader serves (the round trip is the
#: grader's cost, not the submission's; a loaded machine makes it milliseconds), up to
#: :data:`MAX_EXTENSION` times the limit and never past the test's wall limit.
CALL_ALLOWANCE = 0.02
MAX_EXTENSION = 4.0
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

    memory_mb: int = 512
    cpu_seconds: float = 60.0
    wall_seconds: float = 60.0
    output_chars: int = 1_000_000
    node_budget: int | None = None


@dataclass(frozen=True)
class JailStatus:
    """Whether workers run under bubblewrap (``jailed``), and one line saying so."""

    jailed: bool
    line: str


def jail_status() -> JailStatus:
    """The boundary workers get (:func:`pacman.contained.jail.backend`, bubblewrap run as the
    unprivileged user), in one line for the report."""
    if jail.backend(unprivileged=True, warn=False) == "bwrap":
        return JailStatus(True, "sandbox: bubblewrap (own user, PID, IPC and network namespaces, "
                                "read-only view of the submission and the runtime)")
    if os.environ.get(jail.JAIL_ENVIRONMENT, "").strip() == "plain":
        why = f"bubblewrap turned off by {jail.JAIL_ENVIRONMENT}=plain"
    else:
        why = f"bubblewrap cannot run here: {jail.bwrap_refusal(True)}"
    return JailStatus(False, f"sandbox: process limits only ({why}); the operating system "
                             "does not isolate submissions")


def workers_run_as_root() -> bool:
    """Whether the grader is root and its workers cannot drop to the unprivileged user."""
    return os.geteuid() == 0 and not jail.unprivileged_user()


def identity_line() -> str:
    """Which user workers run as, for the report's sandbox line."""
    if os.geteuid() != 0:
        return "as the grader's own user"
    user = jail.unprivileged_user()
    if not user:
        return (f"as root (the user {os.environ.get(jail.USER_ENVIRONMENT) or 'nobody'} cannot "
                f"run {sys.executable}: install Python where every user can read it)")
    return f"as the unprivileged user {user['user']}"


class WorkerFailure(PacmanError):
    """The worker did not answer: ``kind`` is ``timeout``, ``died`` or ``protocol``."""

    def __init__(self, kind: str, message: str, place: str = "") -> None:
        super().__init__(f"{message} {place}" if place else message)
        self.kind = kind
        #: where the submission's code was at a timeout (``in multiAgents.py line 50, in
        #: getAction``), or ``""``
        self.place = place


def decode_answer(data: bytes) -> dict[str, Any]:
    """A worker's answer: a JSON object nested at most :data:`MAX_DEPTH` deep. Raises
    ``ValueError`` for anything else (bad JSON or text, another type, deeper nesting, nesting
    deep enough to exhaust the decoder's recursion), never another exception."""
    try:
        reply = load_json(data, MAX_ANSWER, MAX_DEPTH)
    except ValueError as error:
        raise ValueError(f"not a JSON answer ({error})") from None
    if not isinstance(reply, dict):
        raise ValueError("not a JSON object")
    return reply


class Worker:
    """One sandboxed process for one submission (see the module docstring); ``readable``
    lists the folders it may read besides the interpreter's and the project's code.

    When the grader is root, the worker runs as the unprivileged user
    (:func:`~pacman.contained.jail.unprivileged_user`) and ``submission`` (a file or folder), if
    given, is copied into the worker's own folder, which it may read instead of ``readable``:
    :attr:`submission_path` is the path the worker loads, and paths of the copy in its answers
    are turned back into the original's."""

    def __init__(self, limits: Limits, readable: Sequence[Path] = (),
                 submission: Path | None = None) -> None:
        self.limits = limits
        self.extra_readable = [str(Path(p).resolve()) for p in readable]
        self.folder = tempfile.TemporaryDirectory(prefix="pacman-grade-")
        self.log_path = Path(self.folder.name) / "output.log"
        self.kind = jail.backend(unprivileged=True, warn=False)
        self.identity = jail.unprivileged_user()
        self._staged: tuple[Path, Path] | None = None
        self._renames: list[tuple[bytes, bytes]] = []
        if self.identity:
            self._stage(submission)
        self.search: SearchPlayer | None = None
        self._cpu_pids: list[int] | None = None
        parent_end, child_end = Pipe(duplex=True)
        self.connection = parent_end
        # the worker's own folder: home, configuration and caches of what the submission
        # imports (matplotlib's font list, built once by the grader)
        jailed = self.kind == "bwrap"
        private = "/tmp" if jailed else self.folder.name
        if not jailed:
            owner = (self.identity["user"], self.identity["group"]) if self.identity else None
            place_caches(Path(private), owner)
        config = {"memory_mb": limits.memory_mb, "cpu_seconds": limits.cpu_seconds,
                  "output_chars": limits.output_chars, "readable": self._readable(private),
                  "forbidden": [str(_ASSIGNMENTS)], "jailed": jailed, "private": private}
        argv = [sys.executable, "-I", "-c", _BOOT.format(root=str(PROJECT)),
                str(child_end.fileno()), json.dumps(config)]
        package = PROJECT / "pacman"  # installed among the runtime: shown file by file
        inside = any(package.is_relative_to(root) for root in jail.runtime_roots())
        view = jail.View(shown=(*project_views(), *map(Path, self.extra_readable)),
                         hidden=(package,) if inside else (),
                         files=cache_files(private) if jailed else (), folder=Path(private))
        environment = {"PATH": os.defpath, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
                       "MKL_NUM_THREADS": "1", **private_environment(private)}
        self.deadline = time.monotonic() + limits.wall_seconds
        self.started = time.monotonic()
        with open(self.log_path, "wb") as log:
            self.process = jail.start(self.kind, argv, view, environment, limits.memory_mb,
                                      unprivileged=True, pass_fds=(child_end.fileno(),),
                                      stdin=subprocess.DEVNULL, stdout=log,
                                      stderr=subprocess.STDOUT)
        child_end.close()
        self.alive = True

    def _stage(self, submission: Path | None) -> None:
        """The worker's folder becomes its user's; the submission is copied into it."""
        identity = (self.identity["user"], self.identity["group"])
        os.chown(self.folder.name, *identity)
        if submission is None:
            return
        original = Path(submission).resolve()
        staged_root = Path(self.folder.name) / "submission"
        staged_root.mkdir()
        # regular files only, no link followed, each at most the cap; the copy is the
        # worker's user's alone (the grader, as root, could read what that user may not)
        staged = stage(inspect_upload(original), staged_root, identity)
        os.chown(staged_root, *identity)
        os.chmod(staged_root, 0o500)
        self._staged = (original, staged)
        self.extra_readable = [str(staged_root)]
        for old, new in ((staged_root, original.parent), (staged, original)):
            self._renames.insert(0, (json.dumps(str(old))[1:-1].encode(),
                                     json.dumps(str(new))[1:-1].encode()))

    def staged(self, path: Path) -> Path:
        """The path the worker reads for ``path`` (its copy, if the submission was copied)."""
        if self._staged is None:
            return path
        original, staged = self._staged
        resolved = Path(path).resolve()
        if resolved == original:
            return staged
        return staged / resolved.relative_to(original) if resolved.is_relative_to(original) else path

    def _readable(self, private: str) -> list[str]:
        return sorted({*map(str, jail.runtime_roots()), *map(str, project_views()), private,
                       *self.extra_readable})

    def request(self, message: dict[str, Any], timeout: float,
                server: StateServer | None = None) -> dict[str, Any]:
        """Send ``message``; wait up to ``timeout`` seconds (and not past the test's wall
        limit) for the answer, serving the worker's calls meanwhile (see the module
        docstring); ``server``, if given, answers them and completes the answer (its
        :meth:`~pacman.grading.state_server.StateServer.finish`). Raises
        :class:`WorkerFailure` when there is none."""
        if server is not None:
            return server.finish(self.exchange(message, timeout, server))
        if message.get("cmd") == "tree":
            tree = LayeredTree(message["tree"], message.get("agents"))
            server = TreeServer(tree, message.get("budget"))
            sent = {k: v for k, v in message.items() if k not in ("tree", "agents", "budget")}
            return server.finish(self.exchange({**sent, "root": server.root()}, timeout, server))
        if message.get("cmd") == "game":
            self.search = None
            reply = self.exchange(message, timeout)
            if message.get("search") and not reply.get("error") and not reply.get("failed"):
                self.search = SearchPlayer(self, message)
            return reply
        if message.get("cmd") == "move" and self.search is not None:
            return self.search.move(message, timeout)
        return self.exchange(message, timeout)

    def exchange(self, message: dict[str, Any], timeout: float,
                 server: StateServer | None = None) -> dict[str, Any]:
        """One request to the worker and its answer, calls served by ``server`` meanwhile."""
        if not self.alive:
            raise WorkerFailure("died", "the submission's process is no longer running")
        remaining = self.deadline - time.monotonic()
        until = time.monotonic() + max(0.0, min(timeout, remaining))
        latest = min(self.deadline, until + MAX_EXTENSION * timeout)
        try:
            # the worker says where the submission's code is a moment before the limit (said
            # at the limit, it would race the kill), then every half second
            left = max(0.0, until - time.monotonic())
            told = {**message, "where_after": left - min(0.25, 0.2 * left)}
            self.connection.send_bytes(json.dumps(told).encode())
            while True:
                if not self.connection.poll(max(0.0, until - time.monotonic())):
                    self.kill()
                    place = self.student_place()
                    if self.deadline - until <= 1e-3:  # the wall limit came first
                        raise WorkerFailure("timeout", "the test ran out of time (limit "
                                            f"{_seconds(self.limits.wall_seconds)} for the whole "
                                            "test)", place)
                    raise WorkerFailure("timeout", f"no answer within {_seconds(timeout)}", place)
                reply = self._decode(self.connection.recv_bytes(MAX_ANSWER))
                if "call" not in reply:
                    return reply
                answer = server.answer(reply) if server is not None else {
                    "raise": ["GraderError", "no call is served during this request"]}
                if answer is not None:  # None: a one-way call, nothing to send back
                    until = min(latest, until + CALL_ALLOWANCE)
                    self.connection.send_bytes(json.dumps(answer).encode())
        except (EOFError, OSError, BrokenPipeError):
            raise WorkerFailure("died", self._death()) from None
        except WorkerFailure:
            raise
        except BaseException:  # interrupted mid-exchange: the pipe is out of step
            self.kill()
            raise

    def _decode(self, data: bytes) -> dict[str, Any]:
        for old, new in self._renames:
            data = data.replace(old, new)
        try:
            reply = decode_answer(data)
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

    def cpu_seconds(self) -> float | None:
        """CPU seconds the worker (and every process under it) has used so far, or ``None``
        where the system cannot tell (:mod:`pacman.grading.cpu_clock`)."""
        if not self.alive:
            return None
        if self._cpu_pids is None:
            self._cpu_pids = process_tree(self.process.pid)
            if self._cpu_pids is None:
                return None
        return cpu_seconds(self._cpu_pids)

    def output(self, limit: int = 2000) -> str:
        """What the process wrote to its real standard output (below the Python level; the
        worker's lines of where the submission was left out)."""
        try:
            with open(self.log_path, "rb") as log:
                text = log.read(limit + 64 * 1024).decode(errors="replace")
        except OSError:
            return ""
        return re.sub(f"\n?{WHERE_MARK}[^\n]*\n", "", text)[:limit]

    def student_place(self) -> str:
        """The last place the worker said the submission's code was (``in multiAgents.py
        line 50, in getAction``), or ``""``: read from the end of its log."""
        try:
            with open(self.log_path, "rb") as log:
                log.seek(max(0, os.path.getsize(self.log_path) - 4096))
                tail = log.read().decode(errors="replace")
        except OSError:
            return ""
        places = [line[len(WHERE_MARK):] for line in tail.split("\n") if line.startswith(WHERE_MARK)]
        return places[-1][:200] if places else ""

    def kill(self) -> None:
        """Kill the worker and every process of its group."""
        if not self.alive:
            return
        self.alive = False
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
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
    return f"{round(value, 1):g} s" if math.isfinite(value) else "no limit"

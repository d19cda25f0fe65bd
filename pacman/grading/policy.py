"""What a submission's code may do inside its worker: grading policy, put up by the worker in
its own process before any submission code runs.

The boundary around the worker's process is :mod:`pacman.contained.jail` (bubblewrap, or a plain
process as an unprivileged user, with resource limits), the same as around a file's agent. What
is here is not that boundary but the rules of a graded test, which hold on either backend:

* :func:`block_project_imports`: importing the project's agents, evaluations, grader,
  experiments, ... raises ``ImportError`` (a finder first on ``sys.meta_path``; the audit hook of
  :func:`install_audit_hook` also refuses to open their files). Allowed: the engine's state
  API, the classic-API layer, :mod:`pacman.agents.base`, and the worker's own modules
  (:data:`ALLOWED_MODULES`; :data:`WORKER_MODULES` are their files, what the worker is shown);
* :func:`disarm_process_calls`: ``os.pidfd_open``, ``signal.pidfd_send_signal`` and
  ``_posixsubprocess.fork_exec`` (which no audit event covers) raise ``PermissionError``;
* :func:`install_audit_hook`: Python's audit events for processes, signals, ``ctypes``,
  sockets, limit changes, file writes and reads outside the allowed folders raise
  ``PermissionError`` and are reported to the grader, which fails the test: a submission that
  tries is told so in its report, whether or not the boundary would have stopped it.
"""

from __future__ import annotations

import errno
import importlib.abc
import os
import sys
from pathlib import Path
from typing import Any
from collections.abc import Callable

#: Project modules a submission may import (and their submodules, for packages marked ``.*``).
ALLOWED_MODULES = frozenset({
    "pacman", "pacman.agents", "pacman.agents.base", "pacman.compat", "pacman.contained",
    "pacman.contained.jail", "pacman.engine",
    "pacman.engine.agent_stats", "pacman.engine.directions", "pacman.engine.distances",
    "pacman.engine.files", "pacman.engine.game", "pacman.engine.game_loop",
    "pacman.engine.json_lines", "pacman.engine.layout", "pacman.engine.maze_reader",
    "pacman.engine.move_tables", "pacman.engine.outcome", "pacman.engine.recording",
    "pacman.engine.rules", "pacman.engine.state", "pacman.errors", "pacman.grading",
    "pacman.grading.policy", "pacman.grading.remote_state", "pacman.grading.state_api",
    "pacman.grading.student_traceback", "pacman.grading.worker", "pacman.lineup",
    "pacman.lineup.options", "pacman.lineup.plugins", "pacman.registry", "pacman.version",
})
#: Project packages a submission may import whole (every submodule).
ALLOWED_PACKAGES = ("pacman.compat.",)
_GUARDED_ROOTS = ("pacman",)
#: The project's root folder (the one holding the ``pacman`` package).
PROJECT = Path(__file__).resolve().parents[2]


def _module_file(name: str) -> str:
    """The file (or, for a package allowed whole, the folder) of the project module ``name``,
    relative to the project root."""
    path = name.replace(".", "/")
    if name + "." in ALLOWED_PACKAGES:
        return path
    return f"{path}/__init__.py" if (PROJECT / path).is_dir() else f"{path}.py"


#: The project's files a worker is shown and may import (paths relative to the project
#: root): those of :data:`ALLOWED_MODULES`.
WORKER_MODULES = tuple(_module_file(name) for name in sorted(ALLOWED_MODULES))


def project_views() -> list[Path]:
    """The project's files and folders a worker is shown (:data:`WORKER_MODULES`)."""
    return [PROJECT / m for m in WORKER_MODULES if (PROJECT / m).exists()]


def module_allowed(name: str) -> bool:
    """Whether a submission may import the module ``name`` (see :data:`ALLOWED_MODULES`)."""
    return (name.partition(".")[0] not in _GUARDED_ROOTS or name in ALLOWED_MODULES
            or name.startswith(ALLOWED_PACKAGES))


class ProjectImportBlocker(importlib.abc.MetaPathFinder):
    """Refuses the project's modules a submission may not use (see the module docstring)."""

    def __init__(self, report: Callable[[str], None]) -> None:
        self.report = report

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if module_allowed(name):
            return None
        message = (f"blocked by the grader: importing {name} (the project's agents, evaluations "
                   "and grader are not available to submissions)")
        self.report(message)
        raise ImportError(message, name=name)


def block_project_imports(report: Callable[[str], None]) -> None:
    """Install :class:`ProjectImportBlocker` and forget project modules already imported that
    a submission may not use (the worker itself imports none)."""
    sys.meta_path.insert(0, ProjectImportBlocker(report))
    for name in [n for n in sys.modules if n.partition(".")[0] in _GUARDED_ROOTS]:
        if not module_allowed(name):
            del sys.modules[name]


def disarm_process_calls(report: Callable[[str], None]) -> None:
    """Replace the process calls no audit event covers by ones that refuse (and report)."""
    import signal
    import subprocess

    posix_subprocess: Any
    try:
        import _posixsubprocess as posix_subprocess
    except ImportError:  # not a POSIX system
        posix_subprocess = None

    def refuse(what: str) -> Callable[..., Any]:
        def refused(*args: Any, **kwargs: Any) -> Any:
            message = f"blocked by the grader: {what}"
            report(message)
            raise PermissionError(message)
        return refused

    targets = [(os, "pidfd_open", "sending a signal (os.pidfd_open)"),
               (sys.modules.get("posix"), "pidfd_open", "sending a signal (os.pidfd_open)"),
               (signal, "pidfd_send_signal", "sending a signal (signal.pidfd_send_signal)"),
               (sys.modules.get("_signal"), "pidfd_send_signal",
                "sending a signal (signal.pidfd_send_signal)"),
               (posix_subprocess, "fork_exec", "starting a process (_posixsubprocess.fork_exec)"),
               (subprocess, "_fork_exec", "starting a process (_posixsubprocess.fork_exec)")]
    for module, name, what in targets:
        if module is not None and hasattr(module, name):
            setattr(module, name, refuse(what))


_BLOCKED = {
    "os.system": "running a shell command", "os.fork": "forking", "os.forkpty": "forking",
    "os.posix_spawn": "starting a process", "os.spawn": "starting a process",
    "os.exec": "replacing the process", "subprocess.Popen": "starting a process",
    "os.kill": "sending a signal", "os.killpg": "sending a signal",
    "signal.pthread_kill": "sending a signal", "ctypes.dlopen": "loading native code",
    "ctypes.dlsym": "loading native code", "ctypes.call_function": "calling native code",
    "socket.__new__": "opening a socket", "resource.setrlimit": "changing resource limits",
    "resource.prlimit": "changing resource limits", "os.remove": "deleting files",
    "os.rename": "renaming files", "os.rmdir": "deleting folders", "os.mkdir": "creating folders",
    "os.chmod": "changing permissions", "os.truncate": "truncating files",
    "os.symlink": "creating links", "os.link": "creating links", "shutil.rmtree": "deleting files",
    "os.setuid": "changing user", "os.chdir": "changing folder",
}


def install_audit_hook(readable: list[str], forbidden: list[str],
                       report: Callable[[str], None], private: str | None = None) -> None:
    """An audit hook (it cannot be removed) refusing processes, signals, native code, sockets,
    limit changes, file writes, and reads outside ``readable`` or inside ``forbidden``: each
    attempt is reported and raises ``PermissionError`` in the code that made it. Inside the
    worker's ``private`` folder, creating folders and writing files raise ``PermissionError``
    without a report, as a read-only folder would: libraries try to make their cache folders
    there on import (and go on without), and that is not an attempt to escape; nothing is
    written there, so the folder cannot fill the disk under either backend."""

    def hook(event: str, args: tuple) -> None:
        if (private is not None and event in _PRIVATE_EVENTS and _inside_private(args, private)
                and not any(_inside_private(args, folder) for folder in forbidden)):
            # (a project under /tmp puts its hidden tests inside the worker's /tmp)
            if event == "os.mkdir" or _writing(args):
                raise PermissionError(errno.EPERM, "the worker's folder is read-only",
                                      os.fsdecode(args[0]))
            return
        what = _BLOCKED.get(event)
        if what is None and event == "open":
            what = _open_violation(args, readable, forbidden)
        if what is not None:
            message = f"blocked by the grader: {what} ({event})"
            report(message)
            raise PermissionError(message)

    sys.addaudithook(hook)


_PRIVATE_EVENTS = frozenset({"open", "os.mkdir"})


def _inside_private(args: tuple, private: str) -> bool:
    path = args[0] if args else None
    if not isinstance(path, (str, bytes, os.PathLike)):
        return False
    try:
        real = os.path.realpath(os.fsdecode(path))
    except (TypeError, ValueError):
        return False
    return real == private or real.startswith(private.rstrip(os.sep) + os.sep)


def _writing(args: tuple) -> bool:
    """Whether the ``open`` event's arguments open for writing."""
    _path, mode, flags = (tuple(args) + (None, None, None))[:3]
    return bool((isinstance(mode, str) and any(c in mode for c in "wax+"))
                or (isinstance(flags, int) and flags & _WRITE_FLAGS))


_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


def _open_violation(args: tuple, readable: list[str], forbidden: list[str]) -> str | None:
    path = args[0] if args else None
    if isinstance(path, int):
        return None
    if path is None:
        return "opening a file"
    writing = _writing(args)
    try:
        real = os.path.realpath(os.fsdecode(path))
    except (TypeError, ValueError):
        return "opening a file"
    if real == os.devnull:
        return None
    if writing:
        return f"writing the file {os.fsdecode(path)}"
    if any(real == f or real.startswith(f + os.sep) for f in forbidden) or real.endswith(".toml"):
        return f"reading the file {os.fsdecode(path)}"
    if any(real == r or real.startswith(r + os.sep) for r in readable):
        return None
    return f"reading the file {os.fsdecode(path)}"

"""The operating-system boundary around a submission's worker: bubblewrap where it works.

:func:`jail_status` says once per process whether workers run under bubblewrap (``bwrap``):
it must be on ``PATH`` (or at ``/usr/bin/bwrap``) and able to start a process in new
namespaces here, and ``PACMAN_GRADING_JAIL`` must not be ``none`` (the tests use it to force the
fallback). :func:`jail_command` wraps the worker's command line:

* new PID, IPC, UTS and network namespaces (and cgroup where supported): the worker sees no
  other process, cannot signal the grader, cannot reach the network;
* a file system of nothing but read-only views of the Python runtime, the submission's folder,
  and the engine's modules a worker needs (state, rules, maze, game loop, the classic-API layer
  and the worker itself; see :data:`WORKER_MODULES`); the project's agents, evaluations,
  grader and assignments are not there. A private ``/tmp`` is its working folder; ``/proc`` is
  the new PID namespace's own;
* ``--die-with-parent`` and ``--new-session``: when the grader kills the worker (or dies), the
  namespace's first process dies and the kernel kills every process left in it.

Without bubblewrap the worker runs as a plain child process with the same in-process defences
(:mod:`pacman.grading.worker`); :func:`jail_status` says so in one line.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
#: The project's files a worker may import (paths relative to the project root).
WORKER_MODULES = (
    "pacman/__init__.py", "pacman/errors.py", "pacman/outcome.py", "pacman/directions.py", "pacman/layout.py",
    "pacman/state.py", "pacman/rules.py", "pacman/game.py", "pacman/plugins.py",
    "pacman/options.py", "pacman/registry.py", "pacman/distances.py", "pacman/maze_reader.py",
    "pacman/move_tables.py", "pacman/game_loop.py", "pacman/recording.py", "pacman/files.py",
    "pacman/agent_stats.py", "pacman/compat", "pacman/grading/__init__.py",
    "pacman/grading/worker.py", "pacman/grading/remote_state.py", "pacman/grading/state_api.py",
    "pacman/grading/confinement.py", "pacman/grading/student_traceback.py",
    "pacman/agents/__init__.py", "pacman/agents/base.py",
)
#: Set to ``none`` to run workers without bubblewrap (the fallback).
ENVIRONMENT = "PACMAN_GRADING_JAIL"
#: The user that runs workers when the grader is root (a name or a number; default ``nobody``).
USER_ENVIRONMENT = "PACMAN_GRADING_USER"


@dataclass(frozen=True)
class JailStatus:
    """Whether workers run under bubblewrap (``jailed``), the binary, and one line saying so."""

    jailed: bool
    bwrap: str | None
    line: str


def jail_status() -> JailStatus:
    """The boundary workers get in this process (see the module docstring)."""
    if os.environ.get(ENVIRONMENT, "").strip().lower() in ("none", "off", "0", "no"):
        return JailStatus(False, None, f"sandbox: process limits only (bubblewrap turned off by "
                                       f"{ENVIRONMENT}); the operating system does not isolate "
                                       "submissions")
    return _probe()


def worker_identity() -> tuple[int, int] | None:
    """The (uid, gid) a worker runs as: when the grader is root, the user named by
    ``PACMAN_GRADING_USER`` (default ``nobody``), so that no submission runs as the
    administrator and the kernel's permissions keep it from the grader's files. ``None`` when
    the grader is not root (its workers are as unprivileged as it is), or when that user cannot
    run this Python (an interpreter under ``/root``): then workers run as root and
    :func:`jail_status` says so."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    return _usable_identity(os.environ.get(USER_ENVIRONMENT, "").strip() or "nobody")


@functools.lru_cache(maxsize=4)
def _usable_identity(name: str) -> tuple[int, int] | None:
    import grp
    import pwd

    try:
        entry = pwd.getpwuid(int(name)) if name.isdigit() else pwd.getpwnam(name)
        identity = entry.pw_uid, entry.pw_gid
    except (KeyError, ValueError):
        try:
            identity = 65534, grp.getgrnam("nogroup").gr_gid
        except KeyError:
            identity = 65534, 65534
    try:
        done = subprocess.run([sys.executable, "-I", "-c", "pass"], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/",
                              timeout=20, check=False, user=identity[0], group=identity[1],
                              extra_groups=[])
    except (OSError, subprocess.SubprocessError):
        return None
    return identity if done.returncode == 0 else None


def identity_line() -> str:
    """Which user workers run as, for the report's sandbox line."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "as the grader's own user"
    identity = worker_identity()
    if identity is None:
        return (f"as root (the user {os.environ.get(USER_ENVIRONMENT) or 'nobody'} cannot run "
                f"{sys.executable}: install Python where every user can read it)")
    return f"as the unprivileged user {identity[0]}"


def identity_options() -> dict[str, object]:
    """Keyword arguments of :class:`subprocess.Popen` that start a process as
    :func:`worker_identity` (none when the grader is not root)."""
    identity = worker_identity()
    if identity is None:
        return {}
    return {"user": identity[0], "group": identity[1], "extra_groups": []}


@functools.lru_cache(maxsize=1)
def _probe() -> JailStatus:
    bwrap = shutil.which("bwrap") or ("/usr/bin/bwrap" if os.access("/usr/bin/bwrap", os.X_OK) else None)
    if sys.platform != "linux" or bwrap is None:
        return JailStatus(False, None, "sandbox: process limits only (bubblewrap is not installed); "
                                       "the operating system does not isolate submissions")
    command = jail_command(bwrap, [sys.executable, "-I", "-c", "pass"], [])
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=20, check=False, cwd="/",
                              **identity_options())  # type: ignore[call-overload]
        problem = done.stderr.decode(errors="replace").strip().splitlines()[-1:] if done.returncode else None
    except (OSError, subprocess.TimeoutExpired) as error:
        problem = [str(error)]
    if problem is not None:
        reason = (problem or ["it failed"])[0][:120]
        return JailStatus(False, None, f"sandbox: process limits only (bubblewrap cannot run "
                                       f"here: {reason}); the operating system does not isolate "
                                       "submissions")
    return JailStatus(True, bwrap, "sandbox: bubblewrap (own PID, IPC and network namespaces, "
                                   "read-only view of the submission and the runtime)")


def runtime_roots() -> list[str]:
    """Folders of the Python runtime: the interpreter's prefixes and its import path."""
    project = str(PROJECT)
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
             str(Path(sys.executable).parent), str(Path(os.path.realpath(sys.executable)).parent)}
    # import-path entries of the project (its root, its tests) are not the runtime
    roots.update(p for p in sys.path if p and os.path.isdir(p)
                 and not _inside(os.path.realpath(p), project)
                 and not _inside(project, os.path.realpath(p)))
    return _outermost(roots)


def project_views() -> list[str]:
    """The project's files and folders a worker may read (:data:`WORKER_MODULES`)."""
    return [str(PROJECT / m) for m in WORKER_MODULES if (PROJECT / m).exists()]


def hidden_views() -> list[str]:
    """The project's packages whose other files a worker must not see."""
    return [str(PROJECT / "pacman")]


def jail_command(bwrap: str, argv: list[str], readable: list[str]) -> list[str]:
    """``argv`` under bubblewrap with the views of the module docstring plus ``readable``
    (the submission's folder), each at its own path, read-only."""
    command = [bwrap, "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net",
               "--unshare-cgroup-try", "--die-with-parent", "--new-session",
               "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--chdir", "/tmp",
               "--hostname", "grading", "--setenv", "HOME", "/tmp"]
    if os.geteuid() == 0:
        command += ["--cap-drop", "ALL"]
    for link in ("bin", "lib", "lib64", "sbin"):
        if os.path.islink(f"/{link}"):
            command += ["--symlink", os.readlink(f"/{link}"), f"/{link}"]
    runtime = runtime_roots()
    for root in _outermost(["/usr", *runtime]):
        command += ["--ro-bind", root, root]
    for hidden in hidden_views():  # an installed project inside the runtime: hide the rest
        if any(_inside(hidden, r) for r in runtime):
            command += ["--tmpfs", hidden]
    for view in [*project_views(), *readable]:
        command += ["--ro-bind", view, view]
    return [*command, *argv]


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _outermost(paths: set[str] | list[str]) -> list[str]:
    ordered = sorted({os.path.realpath(p) for p in paths} | set(paths), key=len)
    kept: list[str] = []
    for p in ordered:
        if os.path.exists(p) and not any(_inside(p, k) for k in kept):
            kept.append(p)
    return sorted(kept)

"""How a contained process is started: the backend, its command line, its user and its limits.

One boundary for every stranger's code the program runs: a file's agent
(:mod:`pacman.contained.process`) and a grading worker (:mod:`pacman.grading.sandbox`) both
start here. Two backends (``PACMAN_AGENT_JAIL``):

* ``bwrap`` (the default where bubblewrap runs): new user, PID, IPC, network, UTS and cgroup
  namespaces, a new session, killed when its parent dies, an empty environment but for what
  the caller names, a file system holding only the system's libraries, the Python installation
  and what the caller shows (all read-only), fresh ``/proc`` and ``/dev`` and a private
  ``/tmp`` bounded by the memory limit (:func:`command`).
* ``plain``: a child process in its own session and process group; one line on stderr says
  what it does not prevent.

Either runs as :func:`unprivileged_user` when the caller asks and this program is root. In the
process itself, before any stranger's code runs, :func:`apply_limits` sets the resource limits.
"""

from __future__ import annotations

import functools
import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacman.errors import PacmanError

JAIL_ENVIRONMENT = "PACMAN_AGENT_JAIL"
MEMORY_ENVIRONMENT = "PACMAN_AGENT_MEMORY_MB"
#: The user (a name or a number; default ``nobody``) contained processes run as under root.
USER_ENVIRONMENT = "PACMAN_AGENT_USER"
#: Megabytes of memory (address space, any one file, the private ``/tmp``) per agent process.
DEFAULT_MEMORY_MB = 2048
#: Open files and processes (threads count) a contained process may have.
MAX_FILES = 256
MAX_PROCESSES = 256
#: The user a process has inside bubblewrap's user namespace (``nobody``).
NOBODY = 65534
#: Megabytes the private ``/tmp`` holds beyond the memory limit: one file past that limit is
#: the limit's failure, not a full ``/tmp``.
TMP_SLACK_MB = 16
PLAIN_LINE = ("warning: bubblewrap is not usable here ({why}); contained agents run as plain "
              "processes{user}, and these are not prevented: reading any file and /tmp that "
              "user can read, connecting to the network and to local sockets, processes an "
              "agent starts in a new session outliving the game, and signalling other "
              "processes of the same user")


class ContainmentError(PacmanError):
    """The environment cannot run a contained process (no process, no namespaces, no memory
    for the child): the program's one-line error, never an agent's outcome."""


@dataclass(frozen=True)
class View:
    """What a process sees under bubblewrap besides the system and the Python runtime, and
    where it runs. ``shown``: files and folders bound read-only at their own paths (after
    ``hidden``); ``hidden``: folders of the runtime emptied (a tmpfs over each); ``files``:
    ``(source, path)`` pairs, each file bound read-only at ``path`` (in the private ``/tmp``);
    ``folder``: where it runs (under ``plain`` too)."""

    shown: tuple[Path, ...] = ()
    hidden: tuple[Path, ...] = ()
    files: tuple[tuple[Path, Path], ...] = ()
    folder: Path = Path("/tmp")


def memory_mb() -> int:
    """The memory limit of each contained agent process in megabytes (0: none)."""
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


def backend(unprivileged: bool = False, warn: bool = True) -> str:
    """``bwrap`` or ``plain``: the one asked for by ``PACMAN_AGENT_JAIL``, else ``bwrap`` when
    it runs here (as :func:`unprivileged_user`, with ``unprivileged``). Falling back prints
    the plain backend's line once, with ``warn``."""
    wanted = os.environ.get(JAIL_ENVIRONMENT, "").strip()
    if wanted not in ("", "bwrap", "plain"):
        raise ContainmentError(f"{JAIL_ENVIRONMENT} must be 'bwrap' or 'plain', got {wanted!r}")
    if wanted == "plain":
        if warn:
            _warn_plain(f"{JAIL_ENVIRONMENT}=plain")
        return "plain"
    why = bwrap_refusal(unprivileged)
    if why is None:
        return "bwrap"
    if wanted == "bwrap":
        raise ContainmentError(f"{JAIL_ENVIRONMENT}=bwrap but bubblewrap cannot run here ({why})")
    if warn:
        _warn_plain(why)
    return "plain"


@functools.lru_cache(maxsize=1)
def _warn_plain(why: str) -> None:
    import multiprocessing

    if multiprocessing.parent_process() is not None:
        return  # a batch's worker: the program's own process says it, once
    user = ("" if os.geteuid() != 0 else " as user nobody" if unprivileged_user()
            else " as root (user nobody cannot run this Python, so nothing of root's is out of "
                 "reach either: its files, the terminal, its other processes)")
    print(PLAIN_LINE.format(why=why, user=user), file=sys.stderr)


@functools.lru_cache(maxsize=2)
def bwrap_refusal(unprivileged: bool = False) -> str | None:
    """Why bubblewrap cannot start a process here (run as :func:`unprivileged_user`, with
    ``unprivileged``), or ``None`` when it can."""
    bwrap = shutil.which("bwrap")
    if bwrap is None or sys.platform != "linux":
        return "no bwrap command"
    user = unprivileged_user() if unprivileged else {}
    try:
        done = subprocess.run([bwrap, "--unshare-all", "--die-with-parent", "--ro-bind", "/",
                               "/", "true"], capture_output=True, timeout=30, cwd="/",
                              stdin=subprocess.DEVNULL, **user)
    except (OSError, subprocess.SubprocessError) as error:
        return f"bwrap: {error}"
    if done.returncode != 0:
        lines = done.stderr.decode(errors="replace").strip().splitlines()
        return lines[-1][:200] if lines else f"bwrap exited with code {done.returncode}"
    return None


@functools.lru_cache(maxsize=4)
def _usable_user(name: str) -> tuple[int, int] | None:
    import grp
    import pwd

    try:
        entry = pwd.getpwuid(int(name)) if name.isdigit() else pwd.getpwnam(name)
        identity = entry.pw_uid, entry.pw_gid
    except (KeyError, ValueError):
        try:
            identity = NOBODY, grp.getgrnam("nogroup").gr_gid
        except KeyError:
            identity = NOBODY, NOBODY
    try:
        done = subprocess.run([sys.executable, "-I", "-c", "pass"], stdin=subprocess.DEVNULL,
                              capture_output=True, cwd="/", timeout=30, check=False,
                              user=identity[0], group=identity[1], extra_groups=[])
    except (OSError, subprocess.SubprocessError):
        return None
    return identity if done.returncode == 0 else None


def unprivileged_user() -> dict[str, Any]:
    """``subprocess.Popen`` arguments that start a process as the unprivileged user when this
    program runs as root: ``PACMAN_AGENT_USER`` (default ``nobody``), so that the kernel's
    permissions keep root's files from it. None when this program is not root (its processes
    are as unprivileged as it is), or when that user cannot run this Python (an interpreter
    under ``/root``): the caller then says that the code runs as root."""
    if os.geteuid() != 0:
        return {}
    identity = _usable_user(os.environ.get(USER_ENVIRONMENT, "").strip() or "nobody")
    if identity is None:
        return {}
    return {"user": identity[0], "group": identity[1], "extra_groups": []}


def runtime_roots() -> list[Path]:
    """The system's libraries and the Python installation (its prefixes and its
    ``site-packages``): what every contained process is shown."""
    roots = [Path(p) for p in ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin",
                               "/etc/ld.so.cache")]
    roots += [Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix,
                                sys.base_exec_prefix)]
    roots += [Path(sys.executable).parent, Path(os.path.realpath(sys.executable)).parent]
    roots += [Path(p) for p in sys.path if p and ("site-packages" in p or "dist-packages" in p)]
    return [r for r in dict.fromkeys(roots) if r.exists()]


def _outermost(paths: Iterable[Path]) -> list[Path]:
    kept: list[Path] = []
    for path in sorted(dict.fromkeys(paths), key=lambda p: len(p.parts)):
        if not any(path.is_relative_to(k) for k in kept):
            kept.append(path)
    return kept


def command(kind: str, argv: list[str], view: View, environment: Mapping[str, str],
            memory: int) -> list[str]:
    """``argv`` as ``kind`` runs it: unchanged under ``plain``; under ``bwrap``, wrapped as
    the module docstring says, with ``view`` and ``environment`` (the whole environment)."""
    if kind == "plain":
        return argv
    bwrap = shutil.which("bwrap") or "bwrap"
    args = [bwrap, "--unshare-all", "--new-session", "--die-with-parent", "--clearenv",
            "--uid", str(NOBODY), "--gid", str(NOBODY), "--proc", "/proc", "--dev", "/dev"]
    if memory:
        args += ["--size", str((memory + TMP_SLACK_MB) << 20)]
    args += ["--tmpfs", "/tmp"]  # before the binds: a shown folder may be under /tmp
    links = [Path(p) for p in ("/lib", "/lib64", "/lib32", "/bin", "/sbin")]
    for root in _outermost(runtime_roots()):
        if root in links and root.is_symlink():
            args += ["--symlink", os.readlink(root), str(root)]
        else:
            args += ["--ro-bind", str(root), str(root)]
    for folder in view.hidden:
        args += ["--tmpfs", str(folder)]
    for shown in dict.fromkeys(view.shown):
        if shown.exists():
            args += ["--ro-bind", str(shown), str(shown)]
    for source, place in view.files:
        args += ["--ro-bind", str(source), str(place)]
    args += ["--chdir", str(view.folder)]
    for name, value in environment.items():
        args += ["--setenv", name, value]
    return [*args, "--", *argv]


def start(kind: str, argv: list[str], view: View, environment: Mapping[str, str], memory: int,
          unprivileged: bool, **popen: Any) -> subprocess.Popen[bytes]:
    """Start ``argv`` under ``kind`` (:func:`command`) in a session and process group of its
    own, as :func:`unprivileged_user` with ``unprivileged``; ``popen``: its pipes and files.
    Raises :class:`ContainmentError` when it cannot start."""
    user = unprivileged_user() if unprivileged else {}
    where: dict[str, Any] = ({"cwd": view.folder, "env": dict(environment)} if kind == "plain"
                             else {"cwd": "/"})
    try:
        return subprocess.Popen(command(kind, argv, view, environment, memory),
                                start_new_session=True, **where, **user, **popen)
    except (OSError, subprocess.SubprocessError) as error:
        raise ContainmentError(f"cannot start a contained process ({error})") from None


def apply_limits(memory: int, file_mb: int | None = None, processes: int = MAX_PROCESSES,
                 cpu_seconds: int | None = None) -> None:
    """Set this process's limits (called in the contained process before any stranger's
    code): ``memory`` megabytes of address space (0: none), ``file_mb`` of any one file
    (default: ``memory``), ``processes`` of its user (threads count), ``cpu_seconds`` of CPU
    (a hard limit two seconds later), 256 open files, no core files."""
    file_mb = memory if file_mb is None else file_mb
    wanted = [(resource.RLIMIT_NOFILE, MAX_FILES, MAX_FILES), (resource.RLIMIT_CORE, 0, 0),
              (resource.RLIMIT_NPROC, processes, processes)]
    if memory:
        wanted.append((resource.RLIMIT_AS, memory << 20, memory << 20))
    if file_mb:
        wanted.append((resource.RLIMIT_FSIZE, file_mb << 20, file_mb << 20))
    if cpu_seconds is not None:
        wanted.append((resource.RLIMIT_CPU, cpu_seconds, cpu_seconds + 2))
    for which, soft, hard in wanted:
        _old, ceiling = resource.getrlimit(which)
        if ceiling != resource.RLIM_INFINITY:
            soft, hard = min(soft, ceiling), min(hard, ceiling)
        resource.setrlimit(which, (soft, hard))

"""How a contained agent's process is started: the backend, its command line and its limits.

Two backends (``PACMAN_AGENT_JAIL``):

* ``bwrap`` (the default where bubblewrap runs): the child runs under ``bwrap`` in new user,
  PID, IPC, network, UTS and mount namespaces, in a new session, killed when its parent
  dies, with an empty environment and a file system holding only the Python installation,
  the installed ``pacman`` package and the agent's own files (all read-only), fresh ``/proc``
  and ``/dev`` and a private ``/tmp`` bounded by the memory limit.
* ``plain``: a child process in its own session and process group, as user ``nobody`` when
  this program runs as root; one line on stderr says what it does not prevent.

Both set the same resource limits in the child (:func:`apply_limits`) before any of the
agent's code runs.
"""

from __future__ import annotations

import functools
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

from pacman.errors import PacmanError

JAIL_ENVIRONMENT = "PACMAN_AGENT_JAIL"
MEMORY_ENVIRONMENT = "PACMAN_AGENT_MEMORY_MB"
#: Megabytes of memory (address space, any one file, the private ``/tmp``) per agent process.
DEFAULT_MEMORY_MB = 2048
#: Open files and processes (threads count) a contained agent may have.
MAX_FILES = 256
MAX_PROCESSES = 256
#: The user a plain child runs as when this program runs as root.
NOBODY = 65534
PLAIN_LINE = ("warning: bubblewrap is not usable here ({why}); contained agents run as plain "
              "processes{user}, and these are not prevented: reading any file and /tmp that "
              "user can read, connecting to the network and to local sockets, processes an "
              "agent starts in a new session outliving the game, and signalling other "
              "processes of the same user")


class ContainmentError(PacmanError):
    """The environment cannot run a contained agent (no process, no namespaces, no memory
    for the child): the program's one-line error, never an agent's outcome."""


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


def backend() -> str:
    """``bwrap`` or ``plain``: the one asked for by ``PACMAN_AGENT_JAIL``, else ``bwrap`` when
    it runs here. Falling back prints the plain backend's line once."""
    wanted = os.environ.get(JAIL_ENVIRONMENT, "").strip()
    if wanted not in ("", "bwrap", "plain"):
        raise ContainmentError(f"{JAIL_ENVIRONMENT} must be 'bwrap' or 'plain', got {wanted!r}")
    if wanted == "plain":
        _warn_plain(f"{JAIL_ENVIRONMENT}=plain")
        return "plain"
    why = _bwrap_refusal()
    if why is None:
        return "bwrap"
    if wanted == "bwrap":
        raise ContainmentError(f"{JAIL_ENVIRONMENT}=bwrap but bubblewrap cannot run here ({why})")
    _warn_plain(why)
    return "plain"


@functools.lru_cache(maxsize=1)
def _warn_plain(why: str) -> None:
    user = ("" if os.geteuid() != 0 else " as user nobody" if plain_user()
            else " as root (user nobody cannot run this Python, so nothing of root's is out of "
                 "reach either: its files, the terminal, its other processes)")
    print(PLAIN_LINE.format(why=why, user=user), file=sys.stderr)


@functools.lru_cache(maxsize=1)
def _bwrap_refusal() -> str | None:
    """Why bubblewrap cannot start a process here, or ``None`` when it can."""
    if shutil.which("bwrap") is None:
        return "no bwrap command"
    try:
        done = subprocess.run(["bwrap", "--unshare-all", "--die-with-parent", "--ro-bind", "/",
                               "/", "true"], capture_output=True, timeout=30,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap: {error}"
    if done.returncode != 0:
        return done.stderr.decode(errors="replace").strip().splitlines()[-1:][0] \
            if done.stderr.strip() else f"bwrap exited with code {done.returncode}"
    return None


def _read_only_roots(agent_paths: list[Path]) -> list[Path]:
    """What the jail shows: the system's libraries, the Python installation, the installed
    ``pacman`` package and the agent's own files."""
    import pacman

    roots = [Path(p) for p in ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/etc/ld.so.cache")]
    package = Path(pacman.__file__).resolve().parent
    roots += [Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).parent, package]
    # the package's links to folders beside it (its agents), seen at their own place
    roots += [Path(folder, name).resolve() for folder, dirs, files in os.walk(package)
              for name in dirs + files if Path(folder, name).is_symlink()]
    roots += [Path(p) for p in sys.path if p and "site-packages" in p]
    roots += agent_paths
    return [r for r in dict.fromkeys(roots) if r.exists()]


def command(kind: str, binds: list[Path], imports: list[Path], folder: Path,
            memory: int) -> list[str]:
    """The command line that starts the child (``python -m pacman.contained.child``):
    ``binds`` are the agent's own files and folders (shown read-only), ``imports`` the folders
    its modules are imported from, ``folder`` where it runs."""
    python = [sys.executable, "-P", "-m", "pacman.contained.child", kind, str(memory)]
    if kind == "plain":
        return python
    args = ["bwrap", "--unshare-all", "--new-session", "--die-with-parent", "--clearenv",
            "--uid", str(NOBODY), "--gid", str(NOBODY), "--proc", "/proc", "--dev", "/dev"]
    if memory:  # a little over the file limit: one file past it is the limit's crash
        args += ["--size", str((memory + 16) << 20)]
    args += ["--tmpfs", "/tmp"]  # before the binds: an agent's folder may be under /tmp
    for root in _read_only_roots(binds):
        if root.is_symlink() and str(root) in ("/lib", "/lib64", "/lib32", "/bin"):
            args += ["--symlink", os.readlink(root), str(root)]
        else:
            args += ["--ro-bind", str(root), str(root)]
    args += ["--chdir", str(folder)]
    for name, value in (("PATH", "/usr/bin:/bin"), ("HOME", "/tmp"), ("TMPDIR", "/tmp"),
                        *_QUIET.items(), ("LANG", "C.UTF-8")):
        args += ["--setenv", name, value]
    if imports:
        args += ["--setenv", "PYTHONPATH", ":".join(map(str, imports))]
    return [*args, "--", *python]


#: Numeric libraries kept to one thread in an agent's process; no bytecode written.
_QUIET = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1"}


def plain_environment(imports: list[Path]) -> dict[str, str]:
    """The environment of a plain child: the caller's, with the agent's modules importable."""
    env = {**os.environ, **_QUIET}
    if imports:
        env["PYTHONPATH"] = ":".join([*map(str, imports), env.get("PYTHONPATH", "")]).rstrip(":")
    return env


@functools.lru_cache(maxsize=1)
def plain_user() -> dict[str, object]:
    """``subprocess.Popen`` arguments that make a plain child run as ``nobody`` under root
    (none when this program is not root, or when ``nobody`` cannot run this Python)."""
    if os.geteuid() != 0:
        return {}
    switch: dict[str, object] = {"user": NOBODY, "group": NOBODY, "extra_groups": []}
    try:
        subprocess.run([sys.executable, "-c", "import pacman"], check=True, timeout=30,
                       capture_output=True, cwd="/", **switch)  # type: ignore[call-overload]
    except (OSError, subprocess.SubprocessError):
        return {}
    return switch


def apply_limits(memory: int) -> None:
    """Set this process's limits (called by the child before any of the agent's code):
    ``memory`` megabytes of address space and of any one file (0: neither), open files,
    processes, no core files."""
    wanted = [(resource.RLIMIT_NOFILE, MAX_FILES), (resource.RLIMIT_CORE, 0),
              (resource.RLIMIT_NPROC, MAX_PROCESSES)]
    if memory:
        wanted += [(resource.RLIMIT_AS, memory << 20), (resource.RLIMIT_FSIZE, memory << 20)]
    for which, value in wanted:
        _soft, hard = resource.getrlimit(which)
        limit = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(which, (limit, limit))

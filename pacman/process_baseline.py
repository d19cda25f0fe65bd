"""What a contained agent's process was before its first game, and what a game changed since.

A contained process may play several games of one condition in turn
(:mod:`pacman.contained_pool`), each with a fresh agent object. So that no game can change
the result of a later one, the process (:func:`pacman.agent_child.serve_agent`) takes a
:class:`Baseline` before its first game and calls :meth:`Baseline.after_game` after each:

* **reset**: the modules the agent's code loaded from outside the Python installation and
  this program (its files, their helper files) are forgotten, so the next game's agent
  imports them afresh, as a new process would; the global generators are put back as a new
  process would find them (``random`` reseeded from the system, NumPy's restored);
* **checked**: threads, processes in the namespace, signal handlers, the signal mask and
  timers, the folder, the environment, open files, resource limits, ``sys`` hooks, the
  builtins, the top-level names of every module and class loaded before the first game, and
  the memory in use. Any difference is listed; the game's side then ends the process and the
  next game starts a fresh one.

What is not seen: a change inside an object (a list or dict in a module, an attribute of an
instance) rather than a name rebound. Only the agent's own later games in the same condition
could see such a change; ``PACMAN_AGENT_REUSE=0`` gives every game a fresh process.
"""

from __future__ import annotations

import builtins
import contextlib
import gc
import os
import random
import resource
import signal
import sys
import sysconfig
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

#: Growth of the address space (megabytes) past which a process is not kept for another
#: game, as a share of its memory limit (or of 2048 MB without one): a later game must not
#: run out of memory because of an earlier one.
GROWTH_SHARE = 0.25
_UNLIMITED_BASE_MB = 2048
#: This program's packages: their classes are compared too. ``pacman.agents`` is named for its
#: folder: in a source checkout it is ``agents/``, linked from ``pacman/agents``.
_OWN_PACKAGES = ("pacman", "pacman.agents")

_RLIMITS = [getattr(resource, name) for name in dir(resource) if name.startswith("RLIMIT_")]
_TIMERS = [getattr(signal, name) for name in ("ITIMER_REAL", "ITIMER_VIRTUAL", "ITIMER_PROF")
           if hasattr(signal, name)]


def _installed_folders() -> tuple[str, ...]:
    """Folders whose modules are the installation's or this program's: kept across games."""
    paths = sysconfig.get_paths()
    folders = {paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")
               if key in paths}
    for package in _OWN_PACKAGES:
        where = getattr(sys.modules.get(package), "__file__", None)
        if isinstance(where, str):
            folders.add(str(Path(where).resolve().parent))
    return tuple(sorted(str(Path(folder).resolve()) + os.sep for folder in folders))


def _open_files() -> frozenset[str]:
    with contextlib.suppress(OSError):
        return frozenset(os.listdir("/proc/self/fd"))
    return frozenset()


def _thread_count() -> int:
    with contextlib.suppress(OSError):
        return len(os.listdir("/proc/self/task"))
    return threading.active_count()


def _other_processes() -> list[str]:
    """Processes of this PID namespace other than its first one and this one (the namespace's
    ``/proc`` lists only its own)."""
    own = str(os.getpid())
    with contextlib.suppress(OSError):
        return [name for name in os.listdir("/proc") if name.isdigit() and name not in ("1", own)]
    return []


def _address_space_mb() -> float:
    with contextlib.suppress(OSError, ValueError, IndexError):
        with open("/proc/self/statm", encoding="ascii") as file:
            pages = int(file.read().split()[0])
        return pages * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)
    return 0.0


def _signals() -> dict[int, Any]:
    handlers: dict[int, Any] = {}
    for number in signal.valid_signals():
        with contextlib.suppress(OSError, ValueError):
            handlers[number] = signal.getsignal(number)
    return handlers


def _environment() -> dict[Any, Any]:
    data = getattr(os.environ, "_data", None)  # CPython's encoded copy: cheaper to compare
    return dict(data) if isinstance(data, dict) else dict(os.environ)


def _process_settings() -> dict[str, Any]:
    """Settings of the process compared by value."""
    mask = os.umask(0)
    os.umask(mask)
    settings: dict[str, Any] = {
        "folder": os.getcwd(), "environment": _environment(), "umask": mask,
        "signal mask": signal.pthread_sigmask(signal.SIG_BLOCK, []),
        "timers": [signal.getitimer(timer) for timer in _TIMERS],
        "resource limits": [resource.getrlimit(limit) for limit in _RLIMITS],
        "process group": (os.getpgid(0), os.getsid(0)),
        "recursion limit": sys.getrecursionlimit(),
        "switch interval": sys.getswitchinterval(),
        "garbage collector": (gc.isenabled(), gc.get_threshold()),
        "search path": list(sys.path),
    }
    return settings


def _sys_hooks() -> dict[str, Any]:
    """Objects of ``sys`` compared by identity."""
    return {"trace": sys.gettrace(), "profile": sys.getprofile(),
            "stdin": sys.stdin, "stdout": sys.stdout, "stderr": sys.stderr,
            "excepthook": sys.excepthook, "displayhook": sys.displayhook,
            "meta_path": list(sys.meta_path), "path_hooks": list(sys.path_hooks),
            "thread trace": threading.gettrace(), "thread profile": threading.getprofile()}


_Names = tuple[Any, tuple[str, ...], tuple[Any, ...]]


def _names_of(owner: Any) -> _Names:
    names = vars(owner)
    return owner, tuple(names), tuple(names.values())


def _namespaces() -> dict[str, _Names]:
    """The top-level names of every loaded module, and of the classes this program defines,
    with what they are bound to."""
    found = {"builtins": _names_of(builtins)}
    for name, module in list(sys.modules.items()):
        if not isinstance(module, ModuleType):
            continue
        with contextlib.suppress(Exception):
            found[f"module {name}"] = _names_of(module)
            if name.partition(".")[0] not in _OWN_PACKAGES:
                continue
            for value in vars(module).values():
                if isinstance(value, type) and value.__module__ == name:
                    found[f"class {name}.{value.__qualname__}"] = _names_of(value)
    return found


def _unchanged(owner: Any, keys: tuple[str, ...], values: tuple[Any, ...]) -> bool:
    """Whether the names ``keys`` are still the first names of ``owner``, bound to the same
    (or equal) ``values``; names added after them are not a change (a submodule imported
    later is one). Compared as tuples: identical objects cost a pointer comparison."""
    try:
        names = vars(owner)
        count = len(keys)
        return tuple(names)[:count] == keys and tuple(names.values())[:count] == values
    except Exception:  # noqa: BLE001 - a value whose comparison fails (an array) was replaced
        return False


class Baseline:
    """The state of this process before its first game (see the module docstring)."""

    def __init__(self, memory_mb: int | None) -> None:
        self.modules = dict(sys.modules)
        self.installed = _installed_folders()
        self.signals = _signals()
        self.settings = _process_settings()
        self.hooks = _sys_hooks()
        self.namespaces = _namespaces()
        self.files = _open_files()
        self.threads = _thread_count()
        self.address_space = _address_space_mb()
        self.growth_mb = GROWTH_SHARE * (memory_mb or _UNLIMITED_BASE_MB)
        # NumPy's global generator as every process forked from the server finds it (when
        # loaded there; else each process seeds it afresh when it first loads it)
        numpy_random = sys.modules.get("numpy.random")
        self.numpy_random = (numpy_random.get_state() if numpy_random is not None
                             and hasattr(numpy_random, "get_state") else None)

    def after_game(self) -> list[str]:
        """Reset what a new process would have afresh; return what else changed since the
        baseline (empty: the process may play another game)."""
        if self._forget_agent_modules():
            gc.collect()  # modules sit in reference cycles; their open files close with them
        random.seed()  # as every process forked from the server is
        numpy_random = sys.modules.get("numpy.random")
        if numpy_random is not None and self.numpy_random is not None:
            with contextlib.suppress(Exception):  # a replaced generator is seen below
                numpy_random.set_state(self.numpy_random)
        return self.changes()

    def _forget_agent_modules(self) -> bool:
        """Forget the modules loaded since the baseline from outside the installation and
        this program; ``True`` if there were any."""
        new = [name for name in list(sys.modules) if name not in self.modules]
        forgotten = [name for name in new if not self._installed(sys.modules[name])]
        for name in forgotten:
            del sys.modules[name]
        return bool(forgotten)

    def _installed(self, module: Any) -> bool:
        where = getattr(module, "__file__", None)
        if not isinstance(where, str):  # built into the interpreter, or made by code
            origin = getattr(getattr(module, "__spec__", None), "origin", None)
            return origin in ("built-in", "frozen")
        with contextlib.suppress(OSError, ValueError):
            return str(Path(where).resolve()).startswith(self.installed)
        return False

    def changes(self) -> list[str]:
        """What differs from the baseline, one short phrase each."""
        found = []
        if _thread_count() > self.threads:
            found.append("threads still running")
        if _other_processes():
            found.append("processes still running")
        if _signals() != self.signals:
            found.append("signal handlers")
        settings = _process_settings()
        found += [name for name, value in self.settings.items() if settings[name] != value]
        hooks = _sys_hooks()
        found += [f"sys {name}" for name, value in self.hooks.items()
                  if hooks[name] is not value and hooks[name] != value]
        found += [name for name, (owner, keys, values) in self.namespaces.items()
                  if not _unchanged(owner, keys, values)]
        found += [f"module {name} replaced" for name, module in self.modules.items()
                  if sys.modules.get(name) is not module]
        if _open_files() - self.files:
            found.append("files left open")
        if _address_space_mb() - self.address_space > self.growth_mb:
            found.append(f"memory grew by more than {self.growth_mb:.0f} MB")
        return found

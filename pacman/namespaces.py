"""The Linux calls that put a contained agent where it cannot reach other processes.

:func:`enter_new_namespaces` (called by the agent's supervisor, a single-threaded process)
makes the next process it forks the first process (``init``) of a new PID namespace with its
own mount namespace (and its own user namespace when not run by root). That ``init``
(:func:`become_namespace_init`) mounts a ``/proc`` that shows only its namespace and gives up
every capability, so neither it nor anything it starts can signal, trace or look at a process
outside: process numbers outside the namespace do not exist in it. When the ``init`` ends,
the kernel kills every process left in the namespace, whatever session or parent it chose.

Why not bubblewrap here (the grader uses it): bubblewrap starts a new interpreter, which then
imports the engine, about 0.3 s per agent and game on a loaded machine; these calls work on a
process forked from a server that has the engine loaded already (a few milliseconds).

Every function returns ``False`` (or does nothing) where the system refuses; the caller
then says in one line what is not prevented.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import sys
from typing import Any

_CLONE_NEWNS = 0x00020000
_CLONE_NEWUSER = 0x10000000
_CLONE_NEWPID = 0x20000000
_MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 2, 4, 8
_MS_REC, _MS_PRIVATE = 0x4000, 0x40000
_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_CAPBSET_DROP = 24
_PR_SET_NO_NEW_PRIVS = 38
_CAP_VERSION_3 = 0x20080522
#: Set to ``none`` to run contained agents without namespaces (the fallback; for tests).
ENVIRONMENT = "PACMAN_AGENT_JAIL"


def _libc() -> Any:
    return ctypes.CDLL(None, use_errno=True)


def namespaces_wanted() -> bool:
    """Whether to try namespaces at all: Linux, and not turned off by :data:`ENVIRONMENT`."""
    off = os.environ.get(ENVIRONMENT, "").strip().lower() in ("none", "off", "0", "no")
    return sys.platform == "linux" and not off


def enter_new_namespaces() -> bool:
    """Make the next child of this (single-threaded) process the ``init`` of new PID and
    mount namespaces; ``True`` if the system allowed it."""
    if not namespaces_wanted():
        return False
    try:
        libc = _libc()
        uid, gid = os.geteuid(), os.getegid()
        flags = _CLONE_NEWPID | _CLONE_NEWNS
        if uid != 0:
            flags |= _CLONE_NEWUSER
        if libc.unshare(flags) != 0:
            return False
        if uid != 0:  # keep our own user and group numbers inside the new user namespace
            _write("/proc/self/setgroups", "deny")
            _write("/proc/self/uid_map", f"{uid} {uid} 1")
            _write("/proc/self/gid_map", f"{gid} {gid} 1")
        return True
    except (OSError, AttributeError):
        return False


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="ascii") as file:
        file.write(text)


def become_namespace_init() -> bool:
    """In the first process of the new namespaces: a private ``/proc`` of this namespace, no
    capabilities, and not traceable. ``True`` if ``/proc`` was replaced."""
    mounted = False
    try:
        libc = _libc()
        libc.mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None)
        mounted = libc.mount(b"proc", b"/proc", b"proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC,
                             None) == 0
    except (OSError, AttributeError):
        pass
    drop_privileges()
    return mounted


def drop_privileges() -> None:
    """No capabilities (none can come back: no new privileges, empty bounding set) and not
    dumpable, so that a process of the same user cannot trace this one."""
    try:
        libc = _libc()
        for capability in range(64):
            libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0)
        libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        header = (ctypes.c_uint32 * 2)(_CAP_VERSION_3, 0)
        data = (ctypes.c_uint32 * 6)()
        libc.capset(header, data)
        libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def die_with_parent(signal_number: int, parent: int | None = None) -> None:
    """Receive ``signal_number`` when the parent ends; end now if the parent (``parent``,
    as this process sees its number) already has."""
    with contextlib.suppress(OSError, AttributeError):
        _libc().prctl(_PR_SET_PDEATHSIG, signal_number, 0, 0, 0)
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def limit_memory(megabytes: int | None) -> None:
    """At most ``megabytes`` of address space for this process and its children (``None``
    or 0: no limit). Soft and hard alike, so a process without privileges cannot raise it."""
    if not megabytes:
        return
    size = megabytes * 1024 * 1024
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

"""Defences a worker puts up in its own process before any submission code runs.

These hold with and without bubblewrap (:mod:`pacman.grading.jail`):

* :func:`block_project_imports`: importing the project's agents, evaluations, grader,
  experiments, ... raises ``ImportError`` (a finder first on ``sys.meta_path``; the audit hook of
  :func:`install_audit_hook` also refuses to open their files). Allowed: the engine's state
  API, the classic-API layer, :mod:`pacman.agents.base`, and the worker's own modules;
* :func:`disarm_process_calls`: ``os.pidfd_open``, ``signal.pidfd_send_signal`` and
  ``_posixsubprocess.fork_exec`` (which no audit event covers) raise ``PermissionError``;
* :func:`install_syscall_filter` (Linux, x86-64 and arm64): a seccomp filter, which no code in
  the process can remove, makes the kernel refuse new processes (fork, vfork, clone without
  ``CLONE_THREAD``), exec, every signal (kill, tkill, tgkill, pidfd), ptrace, writing another
  process's memory, creating, writing, renaming or deleting files, and the administrator's
  calls (mount, namespaces, modules, reboot, clocks): the call fails with ``EPERM``. Threads
  still start;
* :func:`install_audit_hook`: Python's audit events for processes, signals, ``ctypes``,
  sockets, limit changes, file writes and reads outside the allowed folders raise
  ``PermissionError`` and are reported to the grader.
"""

from __future__ import annotations

import ctypes
import errno
import importlib.abc
import os
import platform
import struct
import sys
from typing import Any
from collections.abc import Callable

#: Project modules a submission may import (and their submodules, for packages marked ``.*``).
ALLOWED_MODULES = frozenset({
    "pacman", "pacman.agents", "pacman.agents.base", "pacman.compat", "pacman.engine",
    "pacman.engine.agent_stats", "pacman.engine.directions", "pacman.engine.distances",
    "pacman.engine.files", "pacman.engine.game", "pacman.engine.game_loop",
    "pacman.engine.json_lines", "pacman.engine.layout", "pacman.engine.maze_reader",
    "pacman.engine.move_tables", "pacman.engine.outcome", "pacman.engine.recording",
    "pacman.engine.rules", "pacman.engine.state", "pacman.errors", "pacman.grading",
    "pacman.grading.confinement", "pacman.grading.remote_state", "pacman.grading.state_api",
    "pacman.grading.student_traceback", "pacman.grading.worker", "pacman.lineup",
    "pacman.lineup.options", "pacman.lineup.plugins", "pacman.registry", "pacman.version",
})
#: Project packages a submission may import whole (every submodule).
ALLOWED_PACKAGES = ("pacman.compat.",)
_GUARDED_ROOTS = ("pacman",)


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


# --- the system-call filter ------------------------------------------------------------------

_ARCHES = {  # machine: (AUDIT_ARCH, refused calls, open-like calls -> index of their flags)
    "x86_64": (0xC000003E,
               {"fork": 57, "vfork": 58, "execve": 59, "execveat": 322, "kill": 62, "tkill": 200,
                "tgkill": 234, "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297,
                "pidfd_send_signal": 424, "pidfd_open": 434, "pidfd_getfd": 438, "ptrace": 101,
                "process_vm_writev": 311, "creat": 85, "unlink": 87,
                "unlinkat": 263, "rename": 82, "renameat": 264, "renameat2": 316,
                "truncate": 76, "chmod": 90, "fchmodat": 268, "mkdir": 83, "mkdirat": 258,
                "rmdir": 84, "link": 86, "linkat": 265, "symlink": 88, "symlinkat": 266,
                "openat2": 437, "open_by_handle_at": 304, "setsid": 112, "setpgid": 109,
                "mount": 165, "umount2": 166, "reboot": 169, "init_module": 175,
                "finit_module": 313, "delete_module": 176, "unshare": 272, "setns": 308,
                "chown": 92, "fchownat": 260, "lchown": 94, "swapon": 167, "kexec_load": 246,
                "bpf": 321, "perf_event_open": 298, "sethostname": 170, "settimeofday": 164,
                "clock_settime": 227, "pivot_root": 155, "chroot": 161, "mknod": 133,
                "mknodat": 259},
               {"open": (2, 1), "openat": (257, 2)}, 56),
    "aarch64": (0xC00000B7,
                {"execve": 221, "execveat": 281, "kill": 129, "tkill": 130, "tgkill": 131,
                 "rt_sigqueueinfo": 138, "rt_tgsigqueueinfo": 240, "pidfd_send_signal": 424,
                 "pidfd_open": 434, "pidfd_getfd": 438, "ptrace": 117, "process_vm_writev": 271,
                 "unlinkat": 35, "renameat": 38, "renameat2": 276,
                 "truncate": 45, "fchmodat": 53, "mkdirat": 34, "linkat": 37, "symlinkat": 36,
                 "openat2": 437, "open_by_handle_at": 265, "setsid": 157, "setpgid": 154,
                 "mount": 40, "umount2": 39, "reboot": 142, "init_module": 105,
                 "finit_module": 273, "delete_module": 106, "unshare": 97, "setns": 268,
                 "fchownat": 54, "swapon": 224, "kexec_load": 104, "bpf": 280,
                 "perf_event_open": 241, "sethostname": 161, "settimeofday": 170,
                 "clock_settime": 112, "pivot_root": 41, "chroot": 51, "mknodat": 33},
                {"openat": (56, 2)}, 220),
}
_CLONE_THREAD = 0x00010000
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_ALLOW, _KILL = 0x7FFF0000, 0x80000000
_DENY = 0x00050000 | errno.EPERM
_NOT_IMPLEMENTED = 0x00050000 | errno.ENOSYS
_CLONE3 = 435  # the same number on both processors
_LD, _JEQ, _JSET, _RET = 0x20, 0x15, 0x45, 0x06


def _filter_program(arch: int, refused: dict[str, int], opens: dict[str, tuple[int, int]],
                    clone: int) -> list[tuple[int, int, int, int]]:
    """The BPF program: (code, jump if true, jump if false, constant) per instruction."""
    prog = [(_LD, 0, 0, 4), (_JEQ, 1, 0, arch), (_RET, 0, 0, _DENY), (_LD, 0, 0, 0)]
    if arch == 0xC000003E:  # the x32 ABI numbers its calls from 0x40000000: refuse them all
        prog += [(0x35, 0, 1, 0x40000000), (_RET, 0, 0, _DENY)]  # JGE
    for number in sorted(set(refused.values())):
        prog += [(_JEQ, 0, 1, number), (_RET, 0, 0, _DENY)]
    # clone3 keeps its flags in memory a filter cannot read: "not implemented" makes the C
    # library fall back to clone, whose flags it can; clone without CLONE_THREAD is a process
    prog += [(_JEQ, 0, 1, _CLONE3), (_RET, 0, 0, _NOT_IMPLEMENTED)]
    prog += [(_JEQ, 0, 4, clone), (_LD, 0, 0, 16), (_JSET, 1, 0, _CLONE_THREAD),
             (_RET, 0, 0, _DENY), (_RET, 0, 0, _ALLOW)]
    for number, flags_arg in opens.values():
        prog += [(_LD, 0, 0, 0), (_JEQ, 0, 4, number), (_LD, 0, 0, 16 + 8 * flags_arg),
                 (_JSET, 0, 1, _WRITE_FLAGS), (_RET, 0, 0, _DENY), (_RET, 0, 0, _ALLOW)]
    return prog + [(_RET, 0, 0, _ALLOW)]


def install_syscall_filter() -> bool:
    """Install the filter of the module docstring; ``False`` where it is not available (not
    Linux, another processor, or the kernel refuses)."""
    machine = platform.machine()
    if sys.platform != "linux" or machine not in _ARCHES:
        return False
    arch, refused, opens, clone = _ARCHES[machine]
    program = _filter_program(arch, refused, opens, clone)
    code = b"".join(struct.pack("HBBI", *instruction) for instruction in program)
    buffer = ctypes.create_string_buffer(code, len(code))

    class _Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = _Program(len(program), ctypes.addressof(buffer))
    libc = ctypes.CDLL(None, use_errno=True)
    prctl = libc.prctl
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
    if prctl(38, 1, None, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
        return False
    return prctl(22, 2, ctypes.addressof(fprog), 0, 0) == 0  # PR_SET_SECCOMP, FILTER


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
    worker's ``private`` folder, creating folders and writing files is left to the kernel
    (which the system-call filter has told to refuse it): libraries make their cache folders
    there on import, and that is not an attempt to escape."""

    def hook(event: str, args: tuple) -> None:
        if (private is not None and event in _PRIVATE_EVENTS and _inside_private(args, private)
                and not any(_inside_private(args, folder) for folder in forbidden)):
            return  # (a project under /tmp puts its hidden tests inside the worker's /tmp)
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


def _open_violation(args: tuple, readable: list[str], forbidden: list[str]) -> str | None:
    path, mode, flags = (tuple(args) + (None, None, None))[:3]
    if isinstance(path, int):
        return None
    writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
        isinstance(flags, int) and flags & _WRITE_FLAGS)
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

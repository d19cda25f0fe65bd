"""CPU time of a worker and every process under it, read from ``/proc`` (Linux).

A game's thinking time is charged in CPU seconds where they can be read, so that a slow agent's
grade does not depend on how loaded the grading machine is (wall time grows with load; the CPU
time an agent needs for a move does not). :func:`process_tree` finds the processes once (the
worker's bubblewrap, its init and the interpreter; a worker cannot start more), and
:func:`cpu_seconds` reads only their ``stat`` files, twice a move. Where ``/proc`` cannot say
(not Linux, a kernel without ``/proc/PID/task/TID/children``), both give ``None`` and the caller
falls back to wall time.
"""

from __future__ import annotations

import os

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_tree(pid: int) -> list[int] | None:
    """Process ``pid`` and its descendants alive now, or ``None`` when ``/proc`` cannot tell."""
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        if current in found:
            continue
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            if current == pid:
                return None
            continue  # ended meanwhile
        found.append(current)
        for task in tasks:
            try:
                with open(f"/proc/{current}/task/{task}/children") as handle:
                    pending.extend(int(child) for child in handle.read().split())
            except FileNotFoundError:
                if current == pid and not os.path.exists(f"/proc/{current}/task/{task}"):
                    continue
                if current == pid:
                    return None  # the kernel does not list children
            except (OSError, ValueError):
                continue
    return found


def cpu_seconds(pids: list[int]) -> float | None:
    """User and system CPU seconds of the processes ``pids`` (and of the children they have
    waited for), or ``None`` when one of them cannot be read (it ended)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as handle:
                fields = handle.read().rpartition(b")")[2].split()
            total += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
        except (OSError, ValueError, IndexError):
            return None
    return total / _TICKS


def tree_cpu_seconds(pid: int) -> float | None:
    """CPU seconds of process ``pid`` and its descendants (one walk of the tree)."""
    pids = process_tree(pid)
    return None if pids is None else cpu_seconds(pids)

"""CPU time of a worker and every process under it, read from ``/proc`` (Linux).

A game's thinking time is charged in CPU seconds where they can be read, so that a slow agent's
grade does not depend on how loaded the grading machine is (wall time grows with load; the CPU
time an agent needs for a move does not). Where ``/proc`` cannot say (not Linux, a kernel without
``/proc/PID/task/TID/children``), :func:`tree_cpu_seconds` gives ``None`` and the caller falls
back to wall time.
"""

from __future__ import annotations

import os
from pathlib import Path

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def tree_cpu_seconds(pid: int) -> float | None:
    """User and system CPU seconds of process ``pid`` and its descendants (those alive now and
    the children they have waited for), or ``None`` when ``/proc`` cannot tell."""
    total, pending, seen = 0, [pid], set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            text = Path(f"/proc/{current}/stat").read_text()
            fields = text.rpartition(")")[2].split()
            total += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
            tasks = os.listdir(f"/proc/{current}/task")
        except (OSError, ValueError, IndexError):
            if current == pid:
                return None
            continue  # ended meanwhile
        for task in tasks:
            try:
                children = Path(f"/proc/{current}/task/{task}/children").read_text().split()
            except FileNotFoundError:
                if current == pid:
                    return None  # the kernel does not list children
                continue
            except OSError:
                continue
            pending.extend(int(child) for child in children)
    return total / _TICKS

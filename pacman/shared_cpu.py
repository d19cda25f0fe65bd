"""One CPU for a game and its contained agents while the game lasts.

A contained agent thinks while its game waits for the answer, and the game plays while the agent
waits for the next state: the two processes never run at once. On two CPUs every hand-over
wakes an idle one, on a virtual machine a halted one, with cold caches. Measured with
``python bench/bench_contained.py`` on an idle 2-core machine, a kept agent's alpha-beta game
took 1.92-1.98 times the built-in game's time with the processes free to move, and 1.57-1.64
times with both on one CPU. So while a game has contained agents, its thread and their processes
run on the CPU the game was on when it began (:func:`pin_game` in the game's thread,
:func:`pin_agent` in the agent's process); the game's thread gets its former CPUs back when its
last contained agent closes. Where CPU affinity cannot be set, nothing is pinned and nothing
else changes.
"""

from __future__ import annotations

import contextlib
import os
import threading


class _Pin(threading.local):
    """This thread's pin (CPU affinity is a thread's, and games may run in threads): how many
    contained agents hold it, the CPUs the thread had before."""

    holders = 0
    former: set[int] | None = None
    cpu: int | None = None


_pin = _Pin()


def current_cpu() -> int | None:
    """The CPU this thread last ran on (``/proc/thread-self/stat``), or ``None`` where
    unknown."""
    for where in ("/proc/thread-self/stat", "/proc/self/stat"):
        try:
            with open(where, encoding="ascii", errors="replace") as stat:
                return int(stat.read().rpartition(")")[2].split()[36])
        except (OSError, ValueError, IndexError):
            continue
    return None


def pin_game() -> int | None:
    """Pin this thread to its current CPU for a contained agent's game and return that CPU
    (``None``: nothing pinned). Calls nest, one per contained agent: the first pins, and each
    is matched by one :func:`unpin_game`."""
    if _pin.holders == 0:
        _pin.former = _pin.cpu = None
        cpu = current_cpu()
        with contextlib.suppress(AttributeError, OSError):
            former = os.sched_getaffinity(0)
            if cpu is not None and cpu in former and len(former) > 1:
                os.sched_setaffinity(0, {cpu})
                _pin.former, _pin.cpu = former, cpu
    _pin.holders += 1
    return _pin.cpu


def unpin_game() -> None:
    """End one :func:`pin_game`; the last gives the thread its former CPUs back."""
    if _pin.holders == 0:
        return
    _pin.holders -= 1
    if _pin.holders == 0 and _pin.former is not None:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, _pin.former)
        _pin.former = _pin.cpu = None


def pin_agent(cpu: int | None) -> None:
    """In a contained agent's process: run on ``cpu``, its game's (nothing when ``None`` or
    when the system refuses)."""
    if cpu is not None:
        with contextlib.suppress(AttributeError, OSError, ValueError):
            os.sched_setaffinity(0, {cpu})

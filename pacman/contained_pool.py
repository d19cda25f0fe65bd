"""Keeping a contained agent's process for the next game of the same condition.

Starting an agent's contained processes and ending them costs more than a whole game of
most agents (:mod:`pacman.agent_child`); a process forked afresh also pays again for every
page of the fork server's memory it writes to. Within :func:`reused_processes` (``play``
plays its games in one; a batch each chunk of games, or all of them with one worker), a
contained agent's process that ended its game cleanly is kept, and the next game of the
same agent with the same options, maze and folder gets a fresh agent object in it instead
of a new process.

Guarantees (each game is what it would be in a fresh process):

* the process is kept only if its game had no failure of that agent (a crash, timeout,
  illegal move, malformed answer) and the game was not interrupted; otherwise its
  namespace is ended as before and the next game starts a new one;
* after each game the process forgets the agent's own modules and is compared with itself
  before its first game (:mod:`pacman.process_baseline`): a thread or process left running,
  a signal handler, the folder, the environment, an open file, a rebound name of a loaded
  module, more memory, and the process is ended instead of kept;
* every kept process is ended when the scope ends (the batch's chunk), or when more than
  :data:`MAX_IDLE` wait; ``PACMAN_AGENT_REUSE=0`` turns reuse off.

Outside the scope every game starts and ends its own processes.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from typing import Any

#: The most idle processes kept at once (the oldest is ended first).
MAX_IDLE = 8
REUSE_ENVIRONMENT = "PACMAN_AGENT_REUSE"

class _Scopes(threading.local):
    """The open scopes of one thread (each thread plays its own games)."""

    def __init__(self) -> None:
        self.pools: list[ProcessPool] = []


_SCOPES = _Scopes()


def reuse_wanted() -> bool:
    """Whether reuse is on (``PACMAN_AGENT_REUSE`` is not ``0``, ``no`` or ``off``)."""
    return os.environ.get(REUSE_ENVIRONMENT, "").strip().lower() not in ("0", "no", "off")


class ProcessPool:
    """Idle contained processes by key (see the module docstring)."""

    def __init__(self, size: int = MAX_IDLE) -> None:
        self.size = size
        self._idle: OrderedDict[tuple[Hashable, int], Any] = OrderedDict()
        self._serial = 0
        #: how many games started in a kept process, and how many in a new one
        self.reused = self.started = 0

    def __len__(self) -> int:
        """How many processes wait idle."""
        return len(self._idle)

    def processes(self) -> list[Any]:
        """The idle processes, oldest first."""
        return list(self._idle.values())

    def take(self, key: Hashable) -> Any | None:
        """An idle process for ``key`` (it is no longer idle), or ``None``."""
        for slot in self._idle:
            if slot[0] == key:
                self.reused += 1
                return self._idle.pop(slot)
        self.started += 1
        return None

    def keep(self, key: Hashable, process: Any) -> None:
        """Keep ``process`` idle for ``key``; the oldest idle process ends past the limit."""
        self._serial += 1
        self._idle[(key, self._serial)] = process
        while len(self._idle) > self.size:
            _, oldest = self._idle.popitem(last=False)
            oldest.close(grace=0.5)

    def close(self) -> None:
        """End every idle process (and all they started), waiting until they are gone."""
        while self._idle:
            _, process = self._idle.popitem(last=False)
            process.close(grace=0.5)


def current_pool() -> ProcessPool | None:
    """The pool of the innermost :func:`reused_processes` scope, or ``None``."""
    return _SCOPES.pools[-1] if _SCOPES.pools else None


@contextlib.contextmanager
def reused_processes() -> Iterator[ProcessPool | None]:
    """A scope in which contained agents' processes are kept from one game to the next (see
    the module docstring); yields its pool, or ``None`` when reuse is off. Inside a scope
    already open, the outer one is used."""
    if _SCOPES.pools or not reuse_wanted():
        yield current_pool()
        return
    pool = ProcessPool()
    _SCOPES.pools.append(pool)
    try:
        yield pool
    finally:
        _SCOPES.pools.remove(pool)
        pool.close()

"""Agents from files and modules play in a contained process of their own, which the game can
always kill, with everything it started.

Why
    An agent loaded from a file (``path.py:Name``) or a module (``module:attr``), or a built-in
    agent given an evaluation or ghost model from one, is code the program does not know. In
    the game's own process such code can defeat any time limit (catch every exception in a
    loop, ignore or block ``SIGALRM``, spend a minute inside one C call), end the process
    (``os._exit``), or change objects later games share. Only the operating system can stop
    that reliably, so each such agent gets contained processes per game
    (:mod:`pacman.contained_process`, :mod:`pacman.agent_child`): its own PID namespace where
    the system allows, its stdout sent to stderr, a memory limit.

Protocol
    The child receives the agent's name, options, index and generator, and the maze text; it
    builds the agent and then answers requests (``start``, ``move``, ``report``, ``stats``)
    one at a time. The game sends states pickled, with the maze sent once and referred to
    afterwards. The child answers in JSON only, so nothing the agent controls is ever
    unpickled by the game.

Failures
    Every way the agent can fail becomes an :class:`AgentFailure` with the game's outcome kind:
    an answer later than the deadline (the child is killed: ``timeout``), an exception of any
    kind in the agent, ``KeyboardInterrupt`` and ``SystemExit`` included, or a process that
    ends (``crash``), an answer that is not JSON (``crash``; an action that is not a string is
    ``illegal`` in the game loop). A failure of the environment is a
    :class:`ContainmentError` instead, never the agent's outcome.
"""

from __future__ import annotations

import io
import os
import pickle
import random
from typing import Any

from pacman.agent_child import LAYOUT_ID, STATE_MESSAGE, serve_agent
from pacman.contained_pool import current_pool
from pacman.contained_process import (STARTUP_SECONDS, AgentFailure, ContainedProcess,
                                      ContainmentError, agent_memory_mb, process_context)
from pacman.layout import Layout
from pacman.outcome import Outcome
from pacman.shared_cpu import pin_game, unpin_game
from pacman.state import GameState

__all__ = ["AgentFailure", "ContainmentError", "NotAnAction", "SandboxedAgent",
           "build_seconds", "process_context"]


#: Seconds a process has after its game to reset itself and say whether it may play again.
END_SECONDS = 5.0


def build_seconds(time_limit: float | None) -> float:
    """How long a contained agent may take to start and be built: its move limit plus five
    seconds when there is a limit (a hang at import ends soon), else :data:`STARTUP_SECONDS`."""
    return STARTUP_SECONDS if time_limit is None else time_limit + 5.0


class _StatePickler(pickle.Pickler):
    """Pickles states with the game's maze replaced by a reference (the child has it)."""

    def __init__(self, file: Any, layout: Layout) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.layout = layout

    def persistent_id(self, obj: Any) -> str | None:
        return LAYOUT_ID if obj is self.layout else None


class NotAnAction:
    """What the child's agent returned instead of an action name, shown by its ``repr``."""

    def __init__(self, shown: str) -> None:
        self.shown = shown

    def __repr__(self) -> str:
        return self.shown


class SandboxedAgent:
    """The game's side of an agent playing in a contained child process.

    ``request`` is ``(name, role, raw_options)``: the child resolves the agent as
    :func:`pacman.lineup.agent_spec` does. Construction starts the child (or takes one kept
    from an earlier game, :mod:`pacman.contained_pool`) and waits until the agent is built
    (raising :class:`AgentFailure` if it is not, :class:`ContainmentError` if the
    environment cannot start it). Every method raises :class:`AgentFailure` for a failure of
    the agent; call :meth:`close` when the game ends.
    """

    def __init__(self, request: tuple[str, str, dict[str, str]], index: int,
                 rng: random.Random, layout: Layout, time_limit: float | None) -> None:
        self.layout = layout
        self.time_limit = time_limit
        self.misbehaved = False
        self._buffer = io.BytesIO()  # one pickler per agent for requests other than states
        self._pickler = _StatePickler(self._buffer, layout)
        name, role, raw = request
        maze = (layout.text, layout.name, layout.source)
        self._key = (name, role, tuple(sorted(raw.items())), maze, os.getcwd(),
                     agent_memory_mb())
        self._pool = current_pool()
        child = self._pool.take(self._key) if self._pool is not None else None
        if child is not None and not child.alive():  # ended while idle: not the agent's game
            child.close()
            child = None
        if child is None:
            child = ContainedProcess(serve_agent, (request, maze), f"agent-{index}",
                                     STARTUP_SECONDS)
        self._child: ContainedProcess | None = child
        self._pinned = True
        cpu = pin_game()  # the game and its agent share a CPU (see pacman.shared_cpu)
        try:
            self._ask("game", (index, rng, self._pool is not None, cpu), "building the agent",
                      build_seconds(time_limit))
        except BaseException:
            self.close()
            raise

    # -- requests -------------------------------------------------------------------------
    def start_game(self, state: Any) -> None:
        self._ask("start", state, "start_game")

    def get_action(self, state: Any) -> Any:
        return self._ask("move", state, "get_action")

    def last_report(self) -> Any:
        return self._ask("report", None, "last_report")

    def stats(self) -> Any:
        return self._ask("stats", None, "stats")

    def _ask(self, what: str, value: Any, method: str, seconds: float | None = None) -> Any:
        child = self._child
        if child is None:
            raise AgentFailure(Outcome.CRASH, f"{method}: the agent's process was ended")
        if isinstance(value, GameState) and value.layout is self.layout:
            # the hot path: the state's fields without the maze, by the C pickler alone
            data = STATE_MESSAGE + pickle.dumps((what, type(value), value[1:]),
                                                pickle.HIGHEST_PROTOCOL)
        else:
            self._buffer.seek(0)
            self._buffer.truncate()
            self._pickler.clear_memo()
            self._pickler.dump((what, value))
            data = self._buffer.getvalue()
        if seconds is None and self.time_limit is not None:
            seconds = self.time_limit + _grace(self.time_limit)
        try:
            child.send(data, method)
            return self._result(child, seconds, method)
        except AgentFailure:
            self.misbehaved = True
            raise

    def _result(self, child: ContainedProcess, seconds: float | None, method: str) -> Any:
        status, value = child.answer(seconds, method)
        if status == "ok":
            return value
        if status == "illegal":
            self.misbehaved = True
            return NotAnAction(str(value))
        message, trace = (value if isinstance(value, list) and len(value) == 2
                          else (str(value), ""))
        raise AgentFailure(Outcome.CRASH, str(message), str(trace))

    def close(self, reuse: bool = False) -> None:
        """End the agent's game. With ``reuse`` (the game ended without a failure of this
        agent), inside a :func:`~pacman.contained_pool.reused_processes` scope and with
        namespaces, the process is kept for the next game if it is as it was before its
        first game; otherwise it ends with everything it started (within half a second: it
        ends itself when its pipe closes, else it is killed). Safe to call twice."""
        if getattr(self, "_pinned", False):
            self._pinned = False
            unpin_game()
        child = getattr(self, "_child", None)
        if child is None:
            return
        if reuse and not self.misbehaved and self._pool is not None and child.isolated:
            try:
                changed = self._ask("end", None, "ending the game", END_SECONDS)
            except AgentFailure:
                changed = None
            if changed == [] and self._child is not None:
                self._child = None
                self._pool.keep(self._key, child)
                return
        self._child = None
        child.close(grace=0.5)


def _grace(limit: float) -> float:
    """Extra time before a late agent is killed: one second, as for agents in the game's
    process (a move that returns late but within it is a timeout all the same)."""
    return 1.0

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
import pickle
import random
from typing import Any

from pacman.agent_child import LAYOUT_ID, serve_agent
from pacman.contained_process import (STARTUP_SECONDS, AgentFailure, ContainedProcess,
                                      ContainmentError, process_context)
from pacman.layout import Layout
from pacman.outcome import Outcome

__all__ = ["AgentFailure", "ContainmentError", "NotAnAction", "SandboxedAgent",
           "build_seconds", "process_context"]


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
    :func:`pacman.lineup.agent_spec` does. Construction starts the child and waits until the
    agent is built (raising :class:`AgentFailure` if it is not, :class:`ContainmentError` if
    the environment cannot start it). Every method raises :class:`AgentFailure` for a
    failure of the agent; call :meth:`close` when the game ends.
    """

    def __init__(self, request: tuple[str, str, dict[str, str]], index: int,
                 rng: random.Random, layout: Layout, time_limit: float | None) -> None:
        self.layout = layout
        self.time_limit = time_limit
        self._buffer = io.BytesIO()  # one pickler per agent: a move's request costs less
        self._pickler = _StatePickler(self._buffer, layout)
        seconds = build_seconds(time_limit)
        self._child = ContainedProcess(
            serve_agent, (request, index, rng, (layout.text, layout.name, layout.source)),
            f"agent-{index}", STARTUP_SECONDS)
        self._result(seconds, "building the agent")

    # -- requests -------------------------------------------------------------------------
    def start_game(self, state: Any) -> None:
        self._ask("start", state, "start_game")

    def get_action(self, state: Any) -> Any:
        return self._ask("move", state, "get_action")

    def last_report(self) -> Any:
        return self._ask("report", None, "last_report")

    def stats(self) -> Any:
        return self._ask("stats", None, "stats")

    def _ask(self, what: str, state: Any, method: str) -> Any:
        self._buffer.seek(0)
        self._buffer.truncate()
        self._pickler.clear_memo()
        self._pickler.dump((what, state))
        self._child.send(self._buffer.getvalue(), method)
        deadline = None if self.time_limit is None else self.time_limit + _grace(self.time_limit)
        return self._result(deadline, method)

    def _result(self, seconds: float | None, method: str) -> Any:
        status, value = self._child.answer(seconds, method)
        if status == "ok":
            return value
        if status == "illegal":
            return NotAnAction(str(value))
        message, trace = (value if isinstance(value, list) and len(value) == 2
                          else (str(value), ""))
        raise AgentFailure(Outcome.CRASH, str(message), str(trace))

    def close(self) -> None:
        """End the child and anything it started (within half a second: the child ends
        itself when its pipe closes, else it is killed). Safe to call twice."""
        child = getattr(self, "_child", None)
        if child is not None:
            child.close(grace=0.5)


def _grace(limit: float) -> float:
    """Extra time before a late agent is killed: one second, as for agents in the game's
    process (a move that returns late but within it is a timeout all the same)."""
    return 1.0

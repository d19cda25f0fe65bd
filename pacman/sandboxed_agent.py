"""Agents from files and modules play in a process of their own, which the game can always kill.

Why
    An agent loaded from a file (``path.py:Name``) or a module (``module:attr``) is code the
    program does not know. In the game's own process such an agent can defeat any time limit
    (catch every exception in a loop, ignore or block ``SIGALRM``, spend a minute inside one C
    call), end the process (``os._exit``), or change objects later games share. Only the
    operating system can stop that reliably, so each such agent gets a child process per game.

Protocol
    The child is started with ``forkserver`` (``spawn`` where that does not exist): never a
    plain ``fork`` of a process that may run threads. It receives the agent's name, options,
    index and generator, and the maze text; it builds the agent and then answers requests
    (``start``, ``move``, ``report``, ``stats``) one at a time. The game sends states
    pickled, with the maze sent once and referred to afterwards. The child answers in JSON
    only, so nothing the agent controls is ever unpickled by the game.

Failures
    Every way the agent can fail becomes an :class:`AgentFailure` with the game's outcome kind:
    an answer later than the deadline (the child is killed: ``timeout``), an exception of any
    kind in the agent, ``KeyboardInterrupt`` and ``SystemExit`` included, or a process that
    ends (``crash``), an answer that is not JSON (``crash``; an action that is not a string is
    ``illegal`` in the game loop). The child ignores Ctrl-C (the user's Ctrl-C is the game's
    to handle), lives in a process group of its own that is killed as a whole, and is killed
    by the kernel when the process that forked it ends (Linux).
"""

from __future__ import annotations

import contextlib
import io
import json
import multiprocessing
import os
import pickle
import random
import signal
import traceback
from typing import Any

from pacman.layout import Layout, parse_layout
from pacman.outcome import Outcome

#: Seconds an agent's process may take to start and build the agent, on top of any limit.
STARTUP_SECONDS = 30.0
_LAYOUT_ID = "game-layout"


class AgentFailure(Exception):
    """The agent in a child process failed: ``kind`` is ``Outcome.CRASH`` or ``TIMEOUT``."""

    def __init__(self, kind: Outcome, message: str, trace: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.trace = trace


#: Modules every process started from the fork server has loaded already: the game, the batch
#: worker and the agents most games name (the catalogs load their entries lazily).
PRELOAD = ["pacman.sandboxed_agent", "pacman.lineup", "pacman.batch.runner",
           "agents.search_agents", "agents.ghosts", "agents.evaluation"]


def process_context() -> Any:
    """How this program starts processes (agents' and batch workers'): ``forkserver``, whose
    server has loaded the game and the agent catalog once, or ``spawn`` where there is none.
    Never a plain ``fork`` of the calling process, which may run threads."""
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


class _StatePickler(pickle.Pickler):
    """Pickles states with the game's maze replaced by a reference (the child has it)."""

    def __init__(self, file: Any, layout: Layout) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.layout = layout

    def persistent_id(self, obj: Any) -> str | None:
        return _LAYOUT_ID if obj is self.layout else None


class _StateUnpickler(pickle.Unpickler):
    def __init__(self, file: Any, layout: Layout) -> None:
        super().__init__(file)
        self.layout = layout

    def persistent_load(self, pid: Any) -> Layout:
        if pid != _LAYOUT_ID:
            raise pickle.UnpicklingError(f"unknown reference {pid!r}")
        return self.layout


class NotAnAction:
    """What the child's agent returned instead of an action name, shown by its ``repr``."""

    def __init__(self, shown: str) -> None:
        self.shown = shown

    def __repr__(self) -> str:
        return self.shown


class SandboxedAgent:
    """The game's side of an agent playing in a child process.

    ``request`` is ``(name, role, raw_options)``: the child resolves the agent as
    :func:`pacman.lineup.agent_spec` does. Construction starts the child and waits until the
    agent is built (raising :class:`AgentFailure` if it is not). Every method raises
    :class:`AgentFailure` for a failure of the agent; call :meth:`close` when the game ends.
    """

    def __init__(self, request: tuple[str, str, dict[str, str]], index: int,
                 rng: random.Random, layout: Layout, time_limit: float | None) -> None:
        self.layout = layout
        self.time_limit = time_limit
        context = process_context()
        self._conn, child_conn = context.Pipe(duplex=True)
        self._process = context.Process(
            target=_child_main, name=f"agent-{index}", daemon=True,
            args=(child_conn, request, index, rng, (layout.text, layout.name, layout.source)))
        _start_from_any_process(self._process)
        child_conn.close()
        self._answer(STARTUP_SECONDS + (time_limit or 0), "building the agent")

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
        buffer = io.BytesIO()
        _StatePickler(buffer, self.layout).dump((what, state))
        try:
            self._conn.send_bytes(buffer.getvalue())
        except (OSError, ValueError):
            raise self._ended(method) from None
        deadline = None if self.time_limit is None else self.time_limit + _grace(self.time_limit)
        return self._answer(deadline, method)

    def _answer(self, seconds: float | None, method: str) -> Any:
        try:
            ready = self._conn.poll(seconds)
        except (OSError, ValueError):
            raise self._ended(method) from None
        if not ready:
            self.close()
            raise AgentFailure(Outcome.TIMEOUT, f"{method} did not return within {seconds:.2f} s; "
                                                "its process was killed")
        try:
            raw = self._conn.recv_bytes(1 << 24)
        except (EOFError, OSError):
            raise self._ended(method) from None
        try:
            reply = json.loads(raw.decode("utf-8"))
            status, value = reply["status"], reply["value"]
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            self.close()
            raise AgentFailure(Outcome.CRASH, f"{method}: the agent's process sent a malformed "
                                              "answer") from None
        if status == "ok":
            return value
        if status == "illegal":
            return NotAnAction(str(value))
        message, trace = (value if isinstance(value, list) and len(value) == 2
                          else (str(value), ""))
        raise AgentFailure(Outcome.CRASH, str(message), str(trace))

    def _ended(self, method: str) -> AgentFailure:
        self._process.join(timeout=1)
        code = self._process.exitcode
        self.close()
        how = (f"was killed by signal {-code}" if code is not None and code < 0
               else f"exited with code {code}")
        return AgentFailure(Outcome.CRASH, f"{method}: the agent's process {how}")

    def close(self) -> None:
        """End the child (and anything it started) now. Safe to call twice."""
        process = self._process
        if process.pid is not None and process.exitcode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
                os.killpg(process.pid, signal.SIGKILL)
            process.kill()
            process.join(timeout=5)
        with contextlib.suppress(OSError):
            self._conn.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()


def _start_from_any_process(process: Any) -> None:
    """Start ``process`` even from a daemonic process (cluster workers are daemonic, and
    :mod:`multiprocessing` refuses children there because it could not join them at exit;
    the child here is joined or killed by :meth:`SandboxedAgent.close`, and killed by the
    kernel if its parent dies)."""
    config = getattr(multiprocessing.current_process(), "_config", {})
    daemonic = config.get("daemon", False)
    config["daemon"] = False
    try:
        process.start()
    finally:
        if daemonic:
            config["daemon"] = True


def _grace(limit: float) -> float:
    """Extra time before a late agent is killed: one second, as for agents in the game's
    process (a move that returns late but within it is a timeout all the same)."""
    return 1.0


# --- the child's side ------------------------------------------------------------------------
def _contain_child() -> None:
    """A process group of its own, Ctrl-C ignored, killed when its parent ends (Linux)."""
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _reply(conn: Any, status: str, value: Any) -> None:
    try:
        text = json.dumps({"status": status, "value": value})
    except (TypeError, ValueError) as error:
        text = json.dumps({"status": "error",
                           "value": [f"returned a value that is not plain data "
                                     f"({error})", ""]})
    conn.send_bytes(text.encode("utf-8"))


def _failure_value(error: BaseException, method: str) -> list[str]:
    from pacman.game import failure_message

    return [failure_message(method, error), traceback.format_exc()]


def _child_main(conn: Any, request: tuple[str, str, dict[str, str]], index: int,
                rng: random.Random, maze: tuple[str, str, str]) -> None:
    _contain_child()
    try:
        _serve(conn, request, index, rng, maze)
    except (OSError, EOFError):  # the game is gone or has given up on this agent
        pass
    finally:
        os._exit(0)


def _serve(conn: Any, request: tuple[str, str, dict[str, str]], index: int,
           rng: random.Random, maze: tuple[str, str, str]) -> None:
    """Build the agent, then answer the game's requests until the pipe closes."""
    try:
        from pacman.lineup import agent_spec

        layout = parse_layout(maze[0], name=maze[1], source=maze[2])
        name, role, raw = request
        agent = agent_spec(name, role, raw, isolate=False).build(index, rng)
    except BaseException as error:  # every failure of the agent is the game's to record
        _reply(conn, "error", _failure_value(error, "building the agent"))
        return
    _reply(conn, "ok", None)
    methods = {"start": "start_game", "move": "get_action", "report": "last_report",
               "stats": "stats"}
    while True:
        try:
            what, state = _StateUnpickler(io.BytesIO(conn.recv_bytes()), layout).load()
        except (EOFError, OSError):
            return
        method = methods[what]
        try:
            function = getattr(agent, method, None)
            if what == "move":
                value = agent.get_action(state)
                if not isinstance(value, str):
                    _reply(conn, "illegal", repr(value)[:200])
                    continue
            elif what == "start":
                if callable(function):
                    function(state)
                value = None  # what start_game returns is not the game's business
            else:
                value = function() if callable(function) else None
        except BaseException as error:
            _reply(conn, "error", _failure_value(error, method))
            continue
        _reply(conn, "ok", value)

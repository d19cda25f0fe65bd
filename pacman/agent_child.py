"""The child's side of a contained agent: a supervisor, a namespace ``init``, and the agent.

The game starts the supervisor (:func:`supervise`) from its fork server. The supervisor
sends its stdout to stderr, moves to the game's folder, enters new namespaces
(:mod:`pacman.namespaces`), sets the memory limit, and forks the ``init`` of those
namespaces, which forks the process that runs the work (building and serving an agent, or
probing a name). Three processes, because the ``init`` of a PID namespace cannot be killed
from inside it (an agent that kills itself must still be seen to die), and because when it
ends the kernel ends everything the agent started.

Messages (JSON ``{"status", "value"}`` on the game's pipe): the supervisor sends
``started`` (the ``init``'s process number and whether namespaces were made), the worker
``ready`` before it runs any of the agent's code, then its answers. A process that ends
before ``ready`` is a failure of the environment, not of the agent.

An agent's worker (:func:`serve_agent`) plays one game per ``game`` request, with a fresh
agent, until the pipe closes; ``end`` closes a game and answers what it changed in the
process (:mod:`pacman.process_baseline`), so that the game's side may keep the process for
the next game (:mod:`pacman.contained_pool`). A move costs two short messages: the state's
fields without the maze (:data:`STATE_MESSAGE`), and the action's name
(:data:`ACTION_PREFIX`); the game never unpickles what the child sends.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import pickle
import random
import signal
import struct
import traceback
from typing import Any
from collections.abc import Callable

from pacman.layout import Layout, parse_layout
from pacman.outcome import failure_message
from pacman.shared_cpu import pin_agent
from pacman.namespaces import (become_namespace_init, die_with_parent, drop_privileges,
                               enter_new_namespaces, limit_memory)

LAYOUT_ID = "game-layout"
#: The first byte of an answer that is an action (the rest: its name in UTF-8); any other
#: answer is JSON (which starts with ``{``).
ACTION_PREFIX = b"="
#: The first byte of a request that is a state sent as its fields without the maze (a
#: request pickled whole starts with pickle's protocol byte, 0x80).
STATE_MESSAGE = b"S"


class StateUnpickler(pickle.Unpickler):
    """Unpickles the game's states with the maze reference replaced by the child's maze."""

    def __init__(self, file: Any, layout: Layout | None) -> None:
        super().__init__(file)
        self.layout = layout

    def persistent_load(self, pid: Any) -> Layout:
        if pid != LAYOUT_ID or self.layout is None:
            raise pickle.UnpicklingError(f"unknown reference {pid!r}")
        return self.layout


def _request(raw: bytes, layout: Layout | None) -> tuple[str, Any]:
    """A request from the game: ``(what, value)``."""
    if raw[:1] == STATE_MESSAGE:  # a state's fields without the maze (see SandboxedAgent)
        what, kind, fields = pickle.loads(raw[1:])
        return what, kind((layout, *fields))
    return StateUnpickler(io.BytesIO(raw), layout).load()


def reply(conn: Any, status: str, value: Any) -> None:
    """Send one message: an action as :data:`ACTION_PREFIX` and its name, anything else as
    JSON; a value that is not plain data becomes an error message."""
    if status == "ok" and type(value) is str:
        with contextlib.suppress(UnicodeEncodeError):  # else JSON escapes it
            conn.send_bytes(ACTION_PREFIX + value.encode("utf-8"))
            return
    try:
        text = json.dumps({"status": status, "value": value})
    except (TypeError, ValueError) as error:
        text = json.dumps({"status": "error",
                           "value": [f"returned a value that is not plain data "
                                     f"({error})", ""]})
    conn.send_bytes(text.encode("utf-8"))


# --- the supervisor -------------------------------------------------------------------------
def supervise(conn: Any, setup: dict[str, Any], work: Callable[..., None],
              args: tuple) -> None:
    """The supervisor's main: start the ``init`` and the worker, then end as the worker did
    (its exit code, or killed by its signal)."""
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the user's Ctrl-C is the game's to handle
    die_with_parent(signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.dup2(2, 1)  # what the agent prints never reaches the game's stdout
        os.chdir(setup["cwd"])
    isolated = enter_new_namespaces()
    limit_memory(setup.get("memory_mb"))
    release_r, release_w = os.pipe()
    status_r, status_w = os.pipe()
    try:
        init = os.fork()
    except OSError as error:
        with contextlib.suppress(OSError):
            reply(conn, "environment", f"cannot start the agent's process ({error})")
        os._exit(0)
    if init == 0:
        os.close(release_w)
        os.close(status_r)
        _run_init(conn, isolated, release_r, status_w, setup, work, args)
    os.close(release_r)
    os.close(status_w)
    try:
        reply(conn, "started", {"pid": init, "isolated": isolated})
        os.write(release_w, b"g")
    except OSError:
        pass
    os.close(release_w)
    conn.close()
    raw = b""
    with contextlib.suppress(OSError):
        raw = os.read(status_r, 4)
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(init, 0)
    _end_as(struct.unpack("i", raw)[0] if len(raw) == 4 else None)


def _end_as(status: int | None) -> None:
    if status is not None and os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        with contextlib.suppress(OSError, ValueError):  # SIGKILL has no handler to reset
            signal.signal(number, signal.SIG_DFL)
        with contextlib.suppress(OSError):
            os.kill(os.getpid(), number)
    os._exit(os.WEXITSTATUS(status) if status is not None and os.WIFEXITED(status) else 1)


def _run_init(conn: Any, isolated: bool, release_r: int, status_w: int,
              setup: dict[str, Any], work: Callable[..., None], args: tuple) -> None:
    """The namespace's first process: fork the worker, reap whatever ends, report the
    worker's status to the supervisor, end (and with it, the namespace)."""
    die_with_parent(signal.SIGKILL)
    if isolated:
        become_namespace_init()
    else:  # no namespace: a process group of its own, killed as a whole at the end
        with contextlib.suppress(OSError):
            os.setpgid(0, 0)
        drop_privileges()
    me = os.getpid()
    try:
        worker = os.fork()
    except OSError:
        os._exit(1)
    if worker == 0:
        os.close(status_w)
        die_with_parent(signal.SIGKILL, me)
        with contextlib.suppress(OSError):
            os.read(release_r, 1)
        os.close(release_r)
        try:
            work(conn, setup, *args)
        except (OSError, EOFError):  # the game is gone or has given up on this agent
            pass
        finally:
            os._exit(0)
    os.close(release_r)
    conn.close()
    status = None
    while status is None:
        try:
            pid, code = os.wait()
        except ChildProcessError:
            break
        except InterruptedError:
            continue
        if pid == worker:
            status = code
    with contextlib.suppress(OSError):
        os.write(status_w, struct.pack("i", status if status is not None else 256))
    if not isolated:
        with contextlib.suppress(OSError):
            os.killpg(0, signal.SIGKILL)
    os._exit(0)


# --- the work: an agent, or a probe of a name -----------------------------------------------
def _failure_value(error: BaseException, method: str, setup: dict[str, Any]) -> list[str]:
    message = failure_message(method, error)
    if isinstance(error, MemoryError) and setup.get("memory_mb"):
        message += _memory_note(setup)
    return [message, traceback.format_exc()]


def _memory_note(setup: dict[str, Any]) -> str:
    return (f" (over the agent's memory limit of {setup['memory_mb']} MB; the environment "
            "variable PACMAN_AGENT_MEMORY_MB changes it)")


def serve_agent(conn: Any, setup: dict[str, Any], request: tuple[str, str, dict[str, str]],
                maze: tuple[str, str, str]) -> None:
    """Play games until the pipe closes: for each ``game`` request (the agent's index and
    generator, and whether the process may be kept for another game) build a fresh agent on
    a fresh copy of the maze, answer its requests, and on ``end`` reset the process and say
    what a game changed in it (:class:`~pacman.process_baseline.Baseline`, taken before the
    first game of a process that may be kept; an empty list: it may play another)."""
    from pacman.process_baseline import Baseline

    reply(conn, "ready", None)
    baseline: Baseline | None = None
    layout: Layout | None = None
    agent: Any = None
    methods = {"start": "start_game", "move": "get_action", "report": "last_report",
               "stats": "stats"}
    while True:
        try:
            what, value = _request(conn.recv_bytes(), layout)
        except (EOFError, OSError):
            return
        if what == "game":
            index, rng, keepable, cpu = value
            pin_agent(cpu)
            if keepable and baseline is None:  # only a process that may be kept needs one
                baseline = Baseline(setup.get("memory_mb"))
            layout = parse_layout(maze[0], name=maze[1], source=maze[2])
            agent = _build_agent(conn, setup, request, index, rng)
            continue
        if what == "end":
            agent = layout = None
            reply(conn, "ok", baseline.after_game() if baseline is not None
                  else ["no baseline: not to be kept"])
            continue
        method = methods[what]
        try:
            function = getattr(agent, method, None)
            if what == "move":
                action = agent.get_action(value)
                if not isinstance(action, str):
                    reply(conn, "illegal", repr(action)[:200])
                    continue
            elif what == "start":
                if callable(function):
                    function(value)
                action = None  # what start_game returns is not the game's business
            else:
                action = function() if callable(function) else None
        except BaseException as error:
            reply(conn, "error", _failure_value(error, method, setup))
            continue
        reply(conn, "ok", action)


def _build_agent(conn: Any, setup: dict[str, Any], request: tuple[str, str, dict[str, str]],
                 index: int, rng: random.Random) -> Any:
    """A fresh agent for one game, or ``None`` (the failure sent as the answer)."""
    try:
        from pacman.lineup import agent_spec

        name, role, raw = request
        agent = agent_spec(name, role, raw, isolate=False).build(index, rng)
    except BaseException as error:  # every failure of the agent is the game's to record
        reply(conn, "error", _failure_value(error, "building the agent", setup))
        return None
    reply(conn, "ok", None)
    return agent


def probe_name(conn: Any, setup: dict[str, Any],
               request: tuple[str, str, dict[str, str]]) -> None:
    """Resolve an agent's name and options as :func:`pacman.lineup.agent_spec` does (importing
    its file here, never in the game), and say whether they are usable: ``ok``, ``refused``
    (the user's configuration error) or ``error`` (the code misbehaved while loading)."""
    reply(conn, "ready", None)
    from pacman.errors import ConfigurationError

    try:
        from pacman.lineup import agent_spec

        name, role, raw = request
        spec = agent_spec(name, role, raw, isolate=False)
        from pacman.options import describe_options

        described = describe_options(spec.factory)
    except ConfigurationError as error:
        memory = isinstance(error.__cause__, MemoryError) and setup.get("memory_mb")
        reply(conn, "refused", str(error) + (_memory_note(setup) if memory else ""))
        return
    except BaseException as error:
        reply(conn, "error", _failure_value(error, "loading the agent", setup))
        return
    reply(conn, "ok", {"options": described})

"""The grading worker: the separate process in which a submission's code runs.

Started by :class:`pacman.grading.sandbox.Worker` as a fresh interpreter (never forked from the
grader, so it holds none of the grader's memory: no hidden tests, no reference answers), under
bubblewrap where it works (:mod:`pacman.contained.jail`, the boundary around every stranger's
code). It receives one command at a time as
JSON over a private pipe and answers in JSON (never pickle: the grader must not unpickle what
student code could forge). It imports nothing of the project's agents, evaluations or grader:
trees and search references never exist here (tree tests are answered by the grader, see
:mod:`pacman.grading.remote_state`).

Before any student code runs the worker hardens itself:

* resource limits (:func:`pacman.contained.jail.apply_limits`): address space (memory), CPU
  seconds, a file's size (1 MB), open files, core dumps, and no new process where the
  worker's user is not the administrator;
* the grading policy of :mod:`pacman.grading.policy`: the project's other modules cannot be
  imported; pidfd signals and ``_posixsubprocess`` refuse;
* the student's ``print`` goes to a capped buffer (past the limit the print raises);
* an audit hook (it cannot be removed) blocks processes (fork, exec, spawn, ``os.system``,
  ``subprocess``), signals (``os.kill``: the grader cannot be killed), ``ctypes``, sockets,
  resource-limit changes, file writes, and reads outside the interpreter, the project's code and
  the submission's folder. Each blocked attempt raises ``PermissionError`` inside the student's
  code and is also reported to the grader, which fails the test.

Commands: ``load`` (import the submission, find the assignment's roles), ``tree`` (run an agent
on the root of a tree held by the grader), ``game`` (build the agent for a game; for a game of
the grader's own search, only check the evaluation function), ``move`` (one decision on a state
sent by the grader, which runs the game loop itself), ``evaluate`` (the submission's
evaluation function on states sent by the grader, whose search asks for them) and ``position``
(the agent's move from a real position held and counted by the grader).
"""

from __future__ import annotations

import contextlib
import errno
import inspect
import json
import os
import random
import signal
import sys
import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pacman.agents.base  # noqa: F401  (a submission may subclass it; imported before the hook)
from pacman.engine import rules
from pacman.compat.random_state import LentRandom
from pacman.compat.loader import (classic_agent_factory, classic_evaluation,
                                  install_classic_modules, is_classic_agent, is_classic_module,
                                  is_classic_source)
from pacman.engine.game import agent_rng
from pacman.contained.jail import apply_limits
from pacman.grading.policy import block_project_imports, disarm_process_calls, install_audit_hook
from pacman.grading.student_traceback import (WHERE_EVERY, WHERE_MARK, remember, student_place,
                                              student_traceback)
from pacman.grading.remote_state import (Channel, NodeBudgetExceeded, RemoteClassicState,
                                         RemotePositionState, RemoteState, remote_evaluation)
from pacman.grading.state_api import state_of_fields
from pacman.engine.layout import parse_layout
from pacman.lineup.options import declared_options
from pacman.lineup.plugins import load_file_module
from pacman.engine.state import ClassicSpeedState, GameState, state_class

#: Megabytes of any one file the submission writes (a memory file included).
FILE_MB = 1
#: Characters of the submission's output sent back with each answer.
OUTPUT_SHOWN = 2000


class OutputLimitExceeded(BaseException):
    """Raised inside a ``print`` once the submission has printed more than its limit."""


class _CappedOutput:
    """A text stream keeping what was written since the last answer, up to a total limit."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.total = 0
        self.recent: list[str] = []
        self.recent_size = 0

    def write(self, text: str) -> int:
        text = str(text)
        self.total += len(text)
        if self.total > self.limit:
            raise OutputLimitExceeded(f"printed more than {self.limit} characters")
        if self.recent_size < OUTPUT_SHOWN:
            self.recent.append(text)
            self.recent_size += len(text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def take(self) -> str:
        text = "".join(self.recent)[:OUTPUT_SHOWN]
        self.recent, self.recent_size = [], 0
        return text


violations: list[str] = []


def _report(message: str) -> None:
    if len(violations) < 20 and message not in violations:
        violations.append(message)


def harden(config: dict[str, Any], output: _CappedOutput) -> None:
    """Limits, output capture, the grading policy and the audit hook (see the module
    docstring)."""
    # no process of its own: a fork refused by the kernel however it is reached (the
    # administrator is exempt, and bubblewrap's namespaces hold it then)
    apply_limits(int(config["memory_mb"]), file_mb=FILE_MB, processes=0,
                 cpu_seconds=max(1, int(config["cpu_seconds"] + 0.999)))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    sys.dont_write_bytecode = True
    disarm_process_calls(_report)
    block_project_imports(_report)
    sys.stdout = sys.stderr = output
    private = config.get("private")
    install_audit_hook([os.path.realpath(p) for p in config["readable"]],
                       [os.path.realpath(p) for p in config["forbidden"]], _report,
                       os.path.realpath(private) if isinstance(private, str) else None)


class Session:
    """The worker's state: the loaded submission's roles and the agent of the current game."""

    def __init__(self, output: _CappedOutput, channel: Channel) -> None:
        self.output = output
        self.channel = channel
        self.evaluation: Any = None
        self.roles: dict[str, Any] = {}
        self.game_agent: Any = None
        self.layout: Any = None
        self.budget: int | None = None
        self.state_class: type[GameState] = GameState
        self.budget_class: type[GameState] = _BudgetState

    # --- commands ----------------------------------------------------------------------------
    def load(self, message: dict[str, Any]) -> dict[str, Any]:
        path = Path(message["path"])
        files = sorted(path.glob("*.py")) if path.is_dir() else [path]
        if any(is_classic_source(f) for f in files):
            install_classic_modules()
        remember(files)
        modules = [load_file_module(f) for f in files]
        found: dict[str, Any] = {}
        for role, names in message["roles"].items():
            for name in names:
                obj = next((getattr(m, name) for m in modules if hasattr(m, name)), None)
                if obj is not None:
                    self.roles[role] = obj
                    api = "classic" if is_classic_agent(obj) or _classic_function(obj) else "native"
                    found[role] = {"name": name, "api": api,
                                   "kind": "class" if inspect.isclass(obj) else "function"}
                    break
        return {"found": found}

    def tree(self, message: dict[str, Any]) -> dict[str, Any]:
        """Run the agent on the root the grader describes; the grader records its calls."""
        evaluation = remote_evaluation(self.channel)
        cls = self.roles[message["role"]]
        depth = message["depth"]
        reply: dict[str, Any] = {"action": None, "value": None, "error": None}
        try:
            if is_classic_agent(cls):
                agent = _build_classic(cls, depth)
                agent.evaluationFunction = lambda state: float(evaluation(state))  # classic: floats
                reply["action"] = agent.getAction(RemoteClassicState(self.channel, message["root"]))
            else:
                agent = _build_native(cls, 0, random.Random(0),
                                      {"depth": depth, "evaluation": evaluation})
                reply["action"] = agent.get_action(RemoteState(self.channel, message["root"]))
                reply["value"] = _reported_value(agent)
        except BaseException as error:  # the student's failure is the test's result
            reply["error"] = _describe(error)
        if not isinstance(reply["action"], str):
            if reply["error"] is None and reply["action"] is not None:
                reply["error"] = {"type": "TypeError", "message": "returned "
                                  f"{type(reply['action']).__name__}, not an action name",
                                  "traceback": ""}
            reply["action"] = None
        return reply

    def game(self, message: dict[str, Any]) -> dict[str, Any]:
        """Build the agent for a game (or, with ``keep``, keep the one of the test's previous
        game, as the classic autograder does) and start it on the game's first state. With
        ``random``, the global :mod:`random` is the grader's stream while the agent starts."""
        self.layout = parse_layout(message["layout"], name=message["layout_name"])
        self.budget = message.get("budget")
        self.state_class = state_class(message.get("rules", "default"))
        self.budget_class = _BUDGET_CLASSES[self.state_class]
        try:
            if message.get("search"):  # the grader runs its search and asks for evaluations
                evaluation = self.roles[message["evaluation_role"]]
                if _classic_function(evaluation):
                    evaluation = classic_evaluation(evaluation)
                if not callable(evaluation):
                    raise TypeError(f"{message['evaluation_role']} is not a function")
                self.evaluation, self.game_agent = evaluation, None
                return {"error": None}
            if not (message.get("keep") and self.game_agent is not None):
                self.game_agent = self._build_game_agent(message)
            start = getattr(self.game_agent, "start_game", None)
            with LentRandom(message.get("random")) as lent:
                if callable(start):
                    start(self._state(message["state"]))
        except BaseException as error:
            return {"error": _describe(error)}
        return {"error": None, **lent.reply()}

    def _build_game_agent(self, message: dict[str, Any]) -> Any:
        rng = agent_rng(message["seed"], 0)
        options = dict(message.get("options") or {})
        cls = self.roles[message["role"]]
        if is_classic_agent(cls):
            factory = classic_agent_factory(cls)
            return factory(index=0, rng=rng, **{k: str(v) for k, v in options.items()})
        return _build_native(cls, 0, rng, options)

    def position(self, message: dict[str, Any]) -> dict[str, Any]:
        """The agent's move from a real position held by the grader, which counts the states
        explored (see :mod:`pacman.grading.position_server`). Classic agents get the depth as
        text and keep their own evaluation function, as the classic course builds them."""
        if self.layout is None or self.layout.text != message["layout"]:
            self.layout = parse_layout(message["layout"], name=message["layout_name"])
        self.channel.layout = self.layout
        cls = self.roles[message["role"]]
        depth = message["depth"]
        root = RemotePositionState(self.channel, message["root"])
        try:
            if is_classic_agent(cls):
                action = _build_classic(cls, depth).getAction(root)
            else:
                action = _build_native(cls, 0, random.Random(0), {"depth": depth}).get_action(root)
        except BaseException as error:  # the student's failure is the test's result
            self.channel.flush()
            return {"action": None, "error": _describe(error)}
        self.channel.flush()  # the grader records what was asked before the move arrives
        return {"action": action if isinstance(action, str) else None, "error": None}

    def move(self, message: dict[str, Any]) -> dict[str, Any]:
        state = self._state(message["state"])
        with LentRandom(message.get("random")) as lent:
            try:
                action = self.game_agent.get_action(state)
            except BaseException as error:
                return {"action": None, "error": _describe(error), **lent.reply()}
        if not isinstance(action, str):
            return {"action": None, "error": {"type": "TypeError", "message": "returned "
                    f"{type(action).__name__} {action!r:.60}, not an action name", "traceback": ""},
                    **lent.reply()}
        return {"action": action, "error": None, **lent.reply()}

    def evaluate(self, message: dict[str, Any]) -> dict[str, Any]:
        """The evaluation function on each state the grader's search sends."""
        values = []
        try:
            for fields in message["states"]:
                value = self.evaluation(self._state(fields, budget=False))
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise TypeError(f"the evaluation function returned {type(value).__name__}, "
                                    "not a number")
                values.append(float(value))
        except BaseException as error:
            return {"values": None, "error": _describe(error)}
        return {"values": values, "error": None}

    def _state(self, fields: list[Any], budget: bool = True) -> GameState:
        if self.budget is not None and budget:
            _BudgetState.remaining = self.budget
            return state_of_fields(self.layout, fields, self.budget_class)
        return state_of_fields(self.layout, fields, self.state_class)


class _BudgetState(GameState):
    """A game state whose successors count against a per-move node budget."""

    __slots__ = ()
    remaining = 0

    def successor(self, action: str, agent: int | None = None) -> GameState:
        if _BudgetState.remaining <= 0:
            raise NodeBudgetExceeded("generated more successors than the node budget allows")
        _BudgetState.remaining -= 1
        return rules.successor(self, action, agent)  # of this class: successors keep it

    def successors(self) -> list[tuple[str, GameState]]:
        return [(a, self.successor(a)) for a in self.legal_actions()]


class _ClassicBudgetState(_BudgetState, ClassicSpeedState):
    """A budgeted state under the classic scared speed."""

    __slots__ = ()


#: The budgeted state class of each rules variant's state class.
_BUDGET_CLASSES: dict[type[GameState], type[GameState]] = {
    GameState: _BudgetState, ClassicSpeedState: _ClassicBudgetState}


def _build_native(cls: Any, index: int, rng: random.Random, options: dict[str, Any]) -> Any:
    declared = declared_options(cls)
    accepts_any = _accepts_var_keyword(cls)
    missing = [k for k in options if k not in declared and not accepts_any]
    if missing:
        raise TypeError(f"{getattr(cls, '__name__', cls)} must accept the option(s) "
                        f"{', '.join(missing)} as keyword arguments")
    return cls(index=index, rng=rng, **options)


def _build_classic(cls: Any, depth: int) -> Any:
    try:
        agent = cls(depth=str(depth))
    except TypeError:
        agent = cls()
        agent.depth = depth
    agent.index = 0
    return agent


def _accepts_var_keyword(cls: Any) -> bool:
    try:
        target = cls.__init__ if inspect.isclass(cls) else cls
        return any(p.kind is p.VAR_KEYWORD for p in inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        return False


def _classic_function(obj: Any) -> bool:
    if not inspect.isfunction(obj):
        return False
    module = sys.modules.get(obj.__module__)
    return module is not None and is_classic_module(module)


def _reported_value(agent: Any) -> float | None:
    report = getattr(agent, "last_report", None)
    if not callable(report):
        return None
    try:
        value = (report() or {}).get("value")
    except Exception:
        return None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _describe(error: BaseException) -> dict[str, str]:
    kind = type(error).__name__
    if isinstance(error, SystemExit):
        message = f"called sys.exit({error.code!r})"
    elif isinstance(error, RecursionError):
        message = "maximum recursion depth exceeded"
    else:
        try:
            message = str(error)[:500]
        except BaseException:  # noqa: BLE001 - a raising __str__ is the submission's
            message = "<its message could not be made: str() raised>"
    if isinstance(error, OSError) and error.errno == errno.EFBIG:
        message += (f" (a file over the worker's limit of {FILE_MB} MB; a memory file or a "
                    "/tmp file counts)")
    lines = traceback.format_exception(error)
    return {"type": kind, "message": message, "traceback": "".join(lines[-12:])[-3000:],
            "student_traceback": student_traceback(error)}


def _say_where(signum: int, frame: Any) -> None:
    """The alarm of a request past its limit: one line on the real standard error (the
    worker's log, not the grader's pipe, so that no frame of the pipe is cut in two) saying
    where the submission's code is; nothing when the grader's own code is running."""
    # An alarm, not the contained agents' watching thread (pacman.contained.move_watch): this
    # process may start no process, and the kernel counts a thread as one.
    place = student_place(frame)
    if place:
        # the log at its size limit: the timeout is then told without a place
        with contextlib.suppress(OSError):
            os.write(2, f"\n{WHERE_MARK}{place}\n".encode(errors="replace"))


def _say_where_after(seconds: float | None) -> None:
    """Say where the submission's code is ``seconds`` from now and every
    :data:`WHERE_EVERY` seconds after, until called again (``None``: never)."""
    if seconds is None or not seconds > 0:
        signal.setitimer(signal.ITIMER_REAL, 0)
    else:
        signal.setitimer(signal.ITIMER_REAL, min(float(seconds), 1e8), WHERE_EVERY)


def main() -> None:
    """Entry point: ``argv[1]`` is the pipe's file descriptor, ``argv[2]`` the JSON config."""
    connection = Connection(int(sys.argv[1]))
    config = json.loads(sys.argv[2])
    output = _CappedOutput(int(config["output_chars"]))
    signal.signal(signal.SIGALRM, _say_where)
    harden(config, output)
    session = Session(output, Channel(connection))
    handlers = {"load": session.load, "tree": session.tree, "game": session.game,
                "move": session.move, "evaluate": session.evaluate, "position": session.position}
    while True:
        try:
            message = json.loads(connection.recv_bytes())
        except EOFError:
            return
        if message.get("cmd") == "quit":
            return
        try:
            _say_where_after(message.get("where_after"))
            reply = handlers[message["cmd"]](message)
        except BaseException as error:  # e.g. the submission failed to import
            reply = {"error": _describe(error), "failed": True}
        finally:
            _say_where_after(None)
        reply["output"] = output.take()
        reply["violations"] = list(violations)
        connection.send_bytes(json.dumps(reply, default=_jsonable).encode())


def _jsonable(value: Any) -> Any:
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return repr(value)

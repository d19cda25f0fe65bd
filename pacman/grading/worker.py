"""The grading worker: the separate process in which a submission's code runs.

Started by :class:`pacman.grading.sandbox.Worker` as a fresh interpreter (never forked from the
grader, so it holds none of the grader's memory: no hidden tests, no reference answers). It
receives one command at a time as JSON over a private pipe and answers in JSON (never pickle:
the grader must not unpickle what student code could forge).

Before any student code runs the worker hardens itself:

* resource limits: address space (memory), CPU seconds, file size, core dumps;
* the student's ``print`` goes to a capped buffer (past the limit the print raises);
* an audit hook (it cannot be removed) blocks processes (fork, exec, spawn, ``os.system``,
  ``subprocess``), signals (``os.kill``: the grader cannot be killed), ``ctypes``, sockets,
  resource-limit changes, file writes, and reads outside the interpreter, the project's code and
  the submission's folder. Each blocked attempt raises ``PermissionError`` inside the student's
  code and is also reported to the grader, which fails the test.

Commands: ``load`` (import the submission, find the assignment's roles), ``tree`` (run an agent
on one tree, see :mod:`pacman.grading.tree_state`), ``game`` (build the agent for a game) and
``move`` (one decision on a state sent by the grader, which runs the game loop itself).
"""

from __future__ import annotations

import inspect
import json
import os
import random
import resource
import signal
import sys
import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import agents.catalog  # noqa: F401  (imported before the hook: the reference agents)
import agents.evaluation  # noqa: F401
from agents.search.trees import TreeNode  # noqa: F401
from pacman import rules
from pacman.compat.loader import (classic_agent_factory, classic_evaluation,
                                  install_classic_modules, is_classic_agent, is_classic_source)
from pacman.game import agent_rng
from pacman.grading.position_tests import student_position
from pacman.grading.tree_state import (ClassicTreeState, NodeBudgetExceeded, TreeRecorder,
                                       TreeState)
from pacman.grading.tree_tests import LayeredTree
from pacman.layout import parse_layout
from pacman.options import declared_options
from pacman.plugins import load_file_module
from pacman.state import GameState

#: Characters of the submission's output sent back with each answer.
OUTPUT_SHOWN = 2000
_MB = 1024 * 1024


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
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
violations: list[str] = []


def _install_audit_hook(readable: list[str], forbidden: list[str]) -> None:
    def hook(event: str, args: tuple) -> None:
        what = _BLOCKED.get(event)
        if what is None and event == "open":
            what = _open_violation(args, readable, forbidden)
        if what is not None:
            message = f"blocked by the grader: {what} ({event})"
            if len(violations) < 20:
                violations.append(message)
            raise PermissionError(message)

    sys.addaudithook(hook)


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


def harden(config: dict[str, Any], output: _CappedOutput) -> None:
    """Limits, output capture and the audit hook (see the module docstring)."""
    memory = int(config["memory_mb"]) * _MB
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    cpu = max(1, int(config["cpu_seconds"] + 0.999))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2))
    resource.setrlimit(resource.RLIMIT_FSIZE, (_MB, _MB))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    sys.dont_write_bytecode = True
    sys.stdout = sys.stderr = output  # type: ignore[assignment]
    _install_audit_hook([os.path.realpath(p) for p in config["readable"]],
                        [os.path.realpath(p) for p in config["forbidden"]])


class Session:
    """The worker's state: the loaded submission's roles and the agent of the current game."""

    def __init__(self, output: _CappedOutput) -> None:
        self.output = output
        self.roles: dict[str, Any] = {}
        self.game_agent: Any = None
        self.layout: Any = None
        self.budget: int | None = None

    # --- commands ----------------------------------------------------------------------------
    def load(self, message: dict[str, Any]) -> dict[str, Any]:
        path = Path(message["path"])
        files = sorted(path.glob("*.py")) if path.is_dir() else [path]
        if any(is_classic_source(f) for f in files):
            install_classic_modules()
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
        tree = LayeredTree(message["tree"], message["agents"])
        recorder = TreeRecorder(tree.num_agents, tree.plies, message.get("budget"))
        evaluation = recorder.evaluation()
        cls = self.roles[message["role"]]
        depth = message["depth"]
        reply: dict[str, Any] = {"action": None, "value": None, "error": None}
        try:
            if is_classic_agent(cls):
                agent = _build_classic(cls, depth)
                agent.evaluationFunction = lambda state: float(evaluation(state))  # classic: floats
                reply["action"] = agent.getAction(ClassicTreeState(tree.root, recorder))
            else:
                agent = _build_native(cls, 0, random.Random(0),
                                      {"depth": depth, "evaluation": evaluation})
                reply["action"] = agent.get_action(TreeState(tree.root, recorder))
                reply["value"] = _reported_value(agent)
        except BaseException as error:  # the student's failure is the test's result
            reply["error"] = _describe(error)
        reply.update(generated=recorder.generated, evaluated=recorder.evaluated,
                     terminal_expansions=recorder.terminal_expansions)
        if not isinstance(reply["action"], str):
            if reply["error"] is None and reply["action"] is not None:
                reply["error"] = {"type": "TypeError", "message": "returned "
                                  f"{type(reply['action']).__name__}, not an action name",
                                  "traceback": ""}
            reply["action"] = None
        return reply

    def game(self, message: dict[str, Any]) -> dict[str, Any]:
        self.layout = parse_layout(message["layout"], name=message["layout_name"])
        self.budget = message.get("budget")
        rng = agent_rng(message["seed"], 0)
        options = dict(message.get("options") or {})
        try:
            if message.get("search"):
                evaluation = self.roles[message["evaluation_role"]]
                if _classic_function(evaluation):
                    evaluation = classic_evaluation(evaluation)
                factory = agents.catalog.PACMAN_AGENTS[message["search"]]
                self.game_agent = factory(index=0, rng=rng, evaluation=evaluation, **options)
            else:
                cls = self.roles[message["role"]]
                if is_classic_agent(cls):
                    factory = classic_agent_factory(cls)
                    self.game_agent = factory(index=0, rng=rng, **{k: str(v) for k, v in options.items()})
                else:
                    self.game_agent = _build_native(cls, 0, rng, options)
            start = getattr(self.game_agent, "start_game", None)
            if callable(start):
                start(self._state(message["state"]))
        except BaseException as error:
            return {"error": _describe(error)}
        return {"error": None}

    def position(self, message: dict[str, Any]) -> dict[str, Any]:
        """One position of a position test (see :mod:`pacman.grading.position_tests`)."""
        if self.layout is None or self.layout.text != message["layout"]:
            self.layout = parse_layout(message["layout"], name=message["layout_name"])
        self.budget = None
        cls = self.roles[message["role"]]
        try:
            reply = student_position(cls, self._state(message["state"]), message["depth"],
                                     is_classic_agent(cls), lambda c, d: _build_native(
                                         c, 0, random.Random(0), {"depth": d}),
                                     message.get("facing"))
        except BaseException as error:  # the student's failure is the test's result
            return {"action": None, "explored": 0, "error": _describe(error)}
        return {**reply, "error": None}

    def move(self, message: dict[str, Any]) -> dict[str, Any]:
        state = self._state(message["state"])
        try:
            action = self.game_agent.get_action(state)
        except BaseException as error:
            return {"action": None, "error": _describe(error)}
        if not isinstance(action, str):
            return {"action": None, "error": {"type": "TypeError", "message": "returned "
                    f"{type(action).__name__} {action!r:.60}, not an action name", "traceback": ""}}
        return {"action": action, "error": None}

    def _state(self, fields: list[Any]) -> GameState:
        positions, directions, scared, food, capsules, score, turn, outcome = fields
        values = (self.layout, tuple(positions), tuple(directions), tuple(scared), food,
                  capsules, score, turn, outcome)
        if self.budget is not None:
            _BudgetState.remaining = self.budget
            return tuple.__new__(_BudgetState, values)
        return tuple.__new__(GameState, values)


class _BudgetState(GameState):
    """A game state whose successors count against a per-move node budget."""

    __slots__ = ()
    remaining = 0

    def successor(self, action: str, agent: int | None = None) -> GameState:
        if _BudgetState.remaining <= 0:
            raise NodeBudgetExceeded("generated more successors than the node budget allows")
        _BudgetState.remaining -= 1
        return tuple.__new__(_BudgetState, rules.successor(self, action, agent))

    def successors(self) -> list[tuple[str, GameState]]:
        return [(a, self.successor(a)) for a in self.legal_actions()]


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
    from pacman.compat.loader import is_classic_module

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
        message = str(error)[:500]
    lines = traceback.format_exception(error)
    return {"type": kind, "message": message, "traceback": "".join(lines[-12:])[-3000:]}


def main() -> None:
    """Entry point: ``argv[1]`` is the pipe's file descriptor, ``argv[2]`` the JSON config."""
    connection = Connection(int(sys.argv[1]))
    config = json.loads(sys.argv[2])
    output = _CappedOutput(int(config["output_chars"]))
    harden(config, output)
    session = Session(output)
    handlers = {"load": session.load, "tree": session.tree, "game": session.game,
                "move": session.move, "position": session.position}
    while True:
        try:
            message = json.loads(connection.recv_bytes())
        except EOFError:
            return
        if message.get("cmd") == "quit":
            return
        try:
            reply = handlers[message["cmd"]](message)
        except BaseException as error:  # e.g. the submission failed to import
            reply = {"error": _describe(error), "failed": True}
        reply["output"] = output.take()
        reply["violations"] = list(violations)
        connection.send_bytes(json.dumps(reply, default=_jsonable).encode())


def _jsonable(value: Any) -> Any:
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return repr(value)

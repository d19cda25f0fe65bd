"""The contained agent's process: ``python -m pacman.contained.child KIND MEMORY_MB``.

Started by :mod:`pacman.contained.process` under the backend ``KIND`` (``bwrap`` or
``plain``). Its stdin carries the game's requests, its stdout the answers; what the agent
prints goes to stderr. In order, before any of the agent's code runs: the pipes are moved
aside, the resource limits set (:func:`pacman.contained.jail.apply_limits`), the engine
loaded, and ``hello`` sent (a process that ends before it is the environment's failure).
Then it receives the agent's spec as data (``(name, role, raw_options)``), builds it as the
line-up would in this process, answers whether it loaded, and serves games until the pipe
closes: per game a fresh agent object (``game``), the maze (``maze``, no answer), states,
``report``, ``stats`` and ``end``.
"""

from __future__ import annotations

import errno
import io
import json
import os
import pickle
import random
import signal
import sys
import threading
import time
import traceback
from typing import Any

from pacman.contained.jail import MEMORY_ENVIRONMENT, apply_limits
from pacman.contained.move_watch import MoveWatch
from pacman.contained.protocol import (LAYOUT_ID, MAX_ANSWER, MAX_MESSAGE, MAX_TRACE,
                                       STATE_MESSAGE, cut, encode_answer, read_frame,
                                       write_frame)

#: The longest ``stats()`` kept, as JSON characters (longer is dropped with a warning).
MAX_STATS = 1 << 20


class _Unpickler(pickle.Unpickler):
    def __init__(self, data: bytes, layout: Any) -> None:
        super().__init__(io.BytesIO(data))
        self.layout = layout

    def persistent_load(self, pid: Any) -> Any:
        if pid != LAYOUT_ID or self.layout is None:
            raise pickle.UnpicklingError(f"unknown reference {pid!r}")
        return self.layout


class Child:
    """The serving loop (see the module docstring)."""

    def __init__(self, requests: int, answers: int, memory: int) -> None:
        self.requests, self.answers, self.memory = requests, answers, memory
        self.layout: Any = None
        self.spec: Any = None
        self.agent: Any = None
        self.move_limit: float | None = None
        self.watch = MoveWatch(lambda stack: write_frame(self.answers,
                                                         encode_answer("late", stack)))

    def send(self, status: str, value: Any = None) -> None:
        if self.watch.disarm():  # the game was told the move is late, and ends this process
            return
        write_frame(self.answers, encode_answer(status, value))

    def failure(self, error: BaseException, method: str) -> list[str]:
        """``[message, trace]`` of an agent's exception, each cut to a bound whatever the
        exception's size or ``__str__``."""
        try:
            text = str(error)
        except BaseException:  # noqa: BLE001 - a raising __str__ is the agent's, not ours
            text = "<its message could not be made: str() raised>"
        name = cut(type(error).__name__, 100)
        message = f"{name}: {cut(text, MAX_MESSAGE - len(name) - 2)}"
        if method != "get_action":
            message = f"{method} raised {message}"
        too_big = isinstance(error, OSError) and error.errno in (errno.EFBIG, errno.ENOSPC)
        if (isinstance(error, MemoryError) or too_big) and self.memory:
            what = "a file or /tmp" if too_big else "memory"
            message += (f" ({what} over the agent's memory limit of {self.memory} MB; the "
                        f"environment variable {MEMORY_ENVIRONMENT} changes it)")
        try:
            trace = "".join(traceback.format_list(traceback.extract_tb(error.__traceback__)))
        except BaseException:  # noqa: BLE001
            trace = ""
        return [message, "Traceback (most recent call last):\n"
                + trace[-MAX_TRACE:] + message]

    def load(self) -> None:
        """Build the spec from its name (this runs the agent's file) and say how it went."""
        from pacman.errors import ConfigurationError
        from pacman.lineup.build import agent_spec
        from pacman.lineup.options import describe_options

        name, role, raw = pickle.loads(read_frame(self.requests))
        try:
            self.spec = agent_spec(name, role, raw, isolate=False)
            described = describe_options(self.spec.factory)
        except ConfigurationError as error:
            text = cut(str(error))
            if isinstance(error.__cause__, MemoryError) and self.memory:
                text += f" (over the agent's memory limit of {self.memory} MB)"
            self.send("refused", text)
            return
        except BaseException as error:  # noqa: BLE001 - the agent's failure to load
            self.send("error", self.failure(error, "loading the agent"))
            return
        self.send("ready", {"options": described})

    def serve(self) -> None:
        """Answer requests until the pipe closes."""
        while True:
            try:
                raw = read_frame(self.requests)
            except (EOFError, OSError):
                return
            if raw[:1] == STATE_MESSAGE:
                what, kind, fields = pickle.loads(raw[1:])
                value: Any = kind((self.layout, *fields))
            else:
                what, value = _Unpickler(raw, self.layout).load()
            self.answer(what, value)

    def answer(self, what: str, value: Any) -> None:
        if what == "maze":
            from pacman.engine.layout import parse_layout

            self.layout = parse_layout(*value)
        elif what == "game":
            self.new_game(*value)
        elif what == "end":
            self.agent = self.layout = None
        elif self.agent is None:
            self.send("error", [f"{what}: the agent was not built", ""])
        else:
            self.call(what, value)

    def new_game(self, index: int, rng: random.Random, move_limit: float | None = None) -> None:
        """A fresh agent for a game; the process's own generators seeded from the game's, so
        that a game's moves do not depend on the games played before it in this process. A
        move still running after ``move_limit`` seconds is answered ``late`` with where the
        agent's code is (:mod:`pacman.contained.move_watch`)."""
        self.move_limit = move_limit
        copy = random.Random()
        copy.setstate(rng.getstate())
        seed = copy.getrandbits(32)
        random.seed(seed)
        numpy = sys.modules.get("numpy")
        if numpy is not None:
            numpy.random.seed(seed)
        try:
            self.agent = self.spec.build(index, rng)
        except BaseException as error:  # noqa: BLE001
            self.agent = None
            self.send("error", self.failure(error, "building the agent"))
            return
        self.send("ok")

    def call(self, what: str, value: Any) -> None:
        method = {"start": "start_game", "move": "get_action", "report": "last_report",
                  "stats": "stats"}[what]
        function = getattr(self.agent, method, None)
        if what == "move":
            self.watch.arm(self.move_limit)
        try:
            if what == "move":
                result = self.agent.get_action(value)
            elif not callable(function):
                result = None
            elif what == "start":
                function(value)
                result = None  # what start_game returns is not the game's business
            else:
                result = function()
        except BaseException as error:  # noqa: BLE001 - every failure is the agent's outcome
            self.send("error", self.failure(error, method))
            return
        if what == "move":
            if isinstance(result, str):
                self.send("ok", result)
            else:
                self.send("illegal", _shown(result))
            return
        self.send_data(method, result)

    def send_data(self, method: str, result: Any) -> None:
        """Send what ``stats``/``last_report`` returned: data that is too big or too deep is
        dropped (``dropped``), what is not data is the agent's failure."""
        try:
            body = json.dumps({"status": "ok", "value": result})
        except RecursionError:
            self.send("dropped", f"{method}() returned data nested too deep")
            return
        except (TypeError, ValueError) as error:
            self.send("error", [f"{method} returned what is not plain data ({cut(str(error))})",
                                ""])
            return
        if len(body) > min(MAX_STATS, MAX_ANSWER):
            self.send("dropped", f"{method}() returned {len(body)} characters of data "
                                 f"(at most {MAX_STATS})")
            return
        write_frame(self.answers, body.encode("utf-8"))


def _shown(value: Any) -> str:
    try:
        return cut(repr(value), 200)
    except BaseException:  # noqa: BLE001
        return f"<a {type(value).__name__} whose repr() raised>"


def _watch_parent(parent: int) -> None:
    """Plain backend: end this process's group when the game's process is gone."""
    while os.getppid() == parent:
        time.sleep(0.2)
    os.killpg(0, signal.SIGKILL)


def main(argv: list[str]) -> None:
    kind, memory = argv[0], int(argv[1])
    requests, answers = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)  # what the agent prints never reaches the game's stdout
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115
    # written through at once: the process may be killed at any moment
    sys.stdout = sys.stderr = io.TextIOWrapper(open(2, "wb", buffering=0, closefd=False),  # noqa: SIM115
                                               errors="backslashreplace", write_through=True)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the user's Ctrl-C is the game's
    if kind == "plain":
        threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    apply_limits(memory)
    try:
        import pacman.engine.state  # noqa: F401 - the engine loads before any agent code
        import pacman.lineup.build  # noqa: F401
    except (ImportError, OSError):
        if memory:  # a library that cannot be mapped under the limit: the game says so
            raise MemoryError from None
        raise

    child = Child(requests, answers, memory)
    child.send("hello")
    child.load()
    child.serve()


if __name__ == "__main__":
    code = 0
    try:
        main(sys.argv[1:])
    except (EOFError, BrokenPipeError):
        pass
    except MemoryError:  # before the agent's code: the game says so in one line
        code = 1
    except BaseException:  # noqa: BLE001 - a failure of this program: shown in full
        traceback.print_exc()
        code = 1
    finally:
        os._exit(code)

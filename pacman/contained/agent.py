"""A contained agent as the game sees it: an ordinary agent whose every call is a question to
its process (:mod:`pacman.contained.process`).

:func:`contained_spec` checks a name whose code comes from a file or a module by starting a
process for it (the file is imported there, never here) and gives an
:class:`~pacman.engine.game.AgentSpec` whose factory, a :class:`ContainedFactory`, builds a
:class:`ContainedAgent` per game: a fresh agent object in a process kept from the game before
when there is one, else in a new process. Every failure of the agent is raised as
:class:`~pacman.engine.outcome.AgentFailure` (or :class:`~pacman.engine.game.AgentTimeout` past the move
limit), which the game records as that agent's outcome; a failure of the environment is a
:class:`~pacman.contained.jail.ContainmentError`. With a move limit, a move still running when it
passes is a timeout whose trace is the stack of the agent's code at that moment
(:mod:`pacman.contained.move_watch`).
"""

from __future__ import annotations

import importlib.util
import io
import os
import pickle
import random
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pacman.contained import process as processes
from pacman.contained.process import ContainedProcess
from pacman.contained.protocol import LAYOUT_ID, STATE_MESSAGE
from pacman.errors import ConfigurationError
from pacman.engine.game import HARD_LIMIT_GRACE, AgentSpec, AgentTimeout
from pacman.engine.outcome import AgentFailure, Outcome
from pacman.engine.state import POSITIONS, GameState

#: Seconds to load an agent's code (import its file) and build it without a move limit.
LOAD_SECONDS = 30.0


def build_seconds(time_limit: float | None) -> float:
    """How long loading or building a contained agent may take: the move limit plus five
    seconds (a hang at import ends soon), else :data:`LOAD_SECONDS`."""
    return LOAD_SECONDS if time_limit is None else time_limit + 5.0


class NotAnAction:
    """What the agent returned instead of an action's name, shown by its ``repr``."""

    def __init__(self, shown: str) -> None:
        self.shown = shown

    def __repr__(self) -> str:
        return self.shown


class ContainedFactory:
    """Builds :class:`ContainedAgent` objects for one spec. ``options`` is the
    ``name=default`` summary of the agent's constructor; ``failure`` ``(kind, message,
    trace)`` when loading its code failed (every game it plays records that failure)."""

    def __init__(self, request: tuple[str, str, dict[str, str]], cwd: Path,
                 time_limit: float | None) -> None:
        self.request, self.time_limit = request, time_limit
        self.__name__ = request[0]
        self.binds, self.imports = _own_files(request[0], request[2])
        # it runs in the caller's folder when it may see it, else in its own
        folders = [p for p in self.binds if p.is_dir()]
        self.folder = (cwd if any(cwd.is_relative_to(p) for p in folders)
                       else folders[0] if folders else Path("/tmp"))
        self.key = _factory_key(request)
        self.options = ""
        self.failure: tuple[Outcome, str, str] | None = None

    def start(self) -> ContainedProcess:
        """A new process with the agent loaded; :class:`AgentFailure` if loading failed,
        :class:`ConfigurationError` if the name or an option is wrong."""
        child = ContainedProcess(self.request, self.binds, self.imports, self.folder)
        status, value = child.loaded(build_seconds(self.time_limit))
        if status == "ready":
            self.options = str((value or {}).get("options", ""))
            return child
        child.kill()
        if status == "refused":
            raise ConfigurationError(str(value))
        raise AgentFailure(Outcome.CRASH, *_message(value))

    def process(self) -> ContainedProcess:
        """A process for a new game: a kept one, else a new one."""
        return processes.take(self.key) or self.start()

    def __call__(self, index: int, rng: random.Random, **options: Any) -> ContainedAgent:
        if self.failure is not None:
            raise AgentFailure(*self.failure)
        return ContainedAgent(self, index, rng)


class ContainedAgent:
    """One game's agent in a contained process (see the module docstring)."""

    def __init__(self, factory: ContainedFactory, index: int, rng: random.Random) -> None:
        self.factory = factory
        limit = factory.time_limit
        self.move_seconds = None if limit is None else limit + HARD_LIMIT_GRACE
        self.failed = False
        self.maze: Any = None
        self.child: ContainedProcess | None = factory.process()
        try:
            self._request(("game", (index, rng, limit)), "building the agent",
                          build_seconds(limit))
        except BaseException:
            self.failed = True
            self.close()
            raise

    def _request(self, message: tuple[str, Any], method: str, seconds: float | None) -> Any:
        child = self.child
        if child is None or not child.alive():
            self.failed = True
            raise AgentFailure(Outcome.CRASH, f"{method}: the agent's process was ended")
        if isinstance(message[1], GameState):
            state = message[1]
            if state.layout is not self.maze:  # each game's maze is sent once, as text
                layout = state.layout
                child.ask(pickle.dumps(("maze", (layout.text, layout.name, layout.source))),
                          None, method, answer=False)
                self.maze = layout
            # the hot path: the state's fields without the maze
            body = STATE_MESSAGE + pickle.dumps((message[0], type(state), state[POSITIONS:]),
                                                pickle.HIGHEST_PROTOCOL)
        else:
            body = _pickled(message, self.maze)
        began = time.monotonic()
        try:
            status, value = child.ask(body, seconds, method)
        except AgentFailure as failure:
            self.failed = True
            if failure.kind == Outcome.TIMEOUT:
                raise AgentTimeout() from None
            raise
        except BaseException:
            self.failed = True
            raise
        if status == "late":  # past the move limit, with where its code was
            self.failed = True
            child.kill()
            raise AgentFailure(Outcome.TIMEOUT, f"{method} still running after "
                                                f"{self.factory.time_limit} s", str(value))
        if seconds is not None and time.monotonic() - began > seconds - HARD_LIMIT_GRACE:
            self.failed = True  # late, so the game fails it: its process is not kept
        if status == "ok":
            return value
        if status == "dropped":  # statistics too big or too deep: the game still counts
            print(f"warning: agent {self.factory.request[0]!r}: {value}; dropped",
                  file=sys.stderr)
            return None
        self.failed = True
        if status == "illegal":
            return NotAnAction(str(value))
        raise AgentFailure(Outcome.CRASH, *_message(value))

    def start_game(self, state: GameState) -> None:
        self._request(("start", state), "start_game", self.move_seconds)

    def get_action(self, state: GameState) -> Any:
        return self._request(("move", state), "get_action", self.move_seconds)

    def last_report(self) -> Any:
        return self._request(("report", None), "last_report", self.move_seconds)

    def stats(self) -> Any:
        return self._request(("stats", None), "stats", self.move_seconds)

    def close(self) -> None:
        """End the game: the process waits for the next game of its spec (inside
        :func:`~pacman.contained.process.keep_processes`) unless this agent failed in it."""
        child, self.child = self.child, None
        if child is None:
            return
        if self.failed or not child.alive():
            child.kill()
            return
        try:
            child.ask(_pickled(("end", None), None), None, "end", answer=False)
        except AgentFailure:
            return
        processes.keep(self.factory.key, child)


def _pickled(message: tuple[str, Any], maze: Any) -> bytes:
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, pickle.HIGHEST_PROTOCOL)
    pickler.persistent_id = lambda obj: LAYOUT_ID if obj is maze and maze is not None else None  # type: ignore[method-assign]
    pickler.dump(message)
    return buffer.getvalue()


def _message(value: Any) -> tuple[str, str]:
    if isinstance(value, list) and len(value) == 2:
        return str(value[0]), str(value[1])
    return str(value), ""


def _broad_folders() -> set[Path]:
    """Folders never shown whole to an agent: a file right in one is shown alone."""
    found = {Path("/"), Path("/tmp"), Path("/home"), Path("/root"), Path.home()}
    for name in ("TMPDIR", "HOME", "XDG_CONFIG_HOME"):
        if os.environ.get(name):
            found.add(Path(os.environ[name]))
    return {p.resolve() for p in found}


def _own_files(name: str, raw: Mapping[str, str]) -> tuple[list[Path], list[Path]]:
    """The files and folders an agent's names point to (its file's folder, or the file alone
    when that folder is ``/tmp`` or a home; a module's top package or file), to show
    read-only to its process; and the folders to import from."""
    binds: list[Path] = []
    imports: list[Path] = []
    texts = [name, *(str(v) for v in raw.values())]
    for text in texts:
        for piece in [text, *(p.partition("=")[2] for p in text.split(","))]:
            where = piece.strip().rpartition(":")[0]
            if not where:
                continue
            if where.endswith(".py") or "/" in where:
                path = Path(where).expanduser().resolve()
                binds.append(path if path.parent in _broad_folders() else path.parent)
                continue
            top = where.partition(".")[0]
            try:
                found = importlib.util.find_spec(top)
            except (ImportError, ValueError):
                found = None
            origin = getattr(found, "origin", None)
            locations = list(getattr(found, "submodule_search_locations", None) or [])
            if locations:
                binds += [Path(p) for p in locations]
                imports += [Path(p).parent for p in locations]
            elif origin and os.path.isfile(origin):
                binds.append(Path(origin))
                imports.append(Path(origin).parent)
    return list(dict.fromkeys(binds)), list(dict.fromkeys(imports))


def contained_spec(name: str, target: str, role: str, raw: Mapping[str, str],
                   time_limit: float | None) -> AgentSpec:
    """The spec of an agent whose code runs contained: checked now by loading it in a new
    process (kept for its first game inside a keeping scope). Raises
    :class:`ConfigurationError` for an unknown name, a bad option or a file that fails to
    import."""
    request = (target, role, {str(k): str(v) for k, v in raw.items()})
    factory = _FACTORIES.get(_factory_key(request))
    if factory is None:
        factory = ContainedFactory(request, Path.cwd(), time_limit)
        try:
            processes.keep(factory.key, factory.start())
        except AgentFailure as failure:
            factory.failure = (failure.kind, failure.message, failure.trace)
        _FACTORIES[_factory_key(request)] = factory
    return AgentSpec(name=name, factory=factory, options={}, raw_options=dict(raw))


def _factory_key(request: tuple[str, str, dict[str, str]]) -> tuple:
    return (request[0], request[1], tuple(sorted(request[2].items())), os.getcwd(),
            os.environ.get("PACMAN_AGENT_JAIL", ""), os.environ.get("PACMAN_AGENT_MEMORY_MB", ""))


_FACTORIES: dict[tuple, ContainedFactory] = {}


def is_contained(spec: AgentSpec) -> bool:
    """Whether ``spec``'s agent plays in a contained process."""
    return isinstance(spec.factory, ContainedFactory)

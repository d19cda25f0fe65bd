"""Loading classic submissions unchanged, and adapting what they define to the engine.

* :func:`is_classic_source` tells from a file's imports whether it was written for the classic
  API (``import util``, ``from game import Agent``, ``from pacman import GameState``, ...).
* :func:`classic_imports` makes those imports resolve to :mod:`pacman.compat` while such a file
  is executed (and undoes it afterwards); :func:`install_classic_modules` does it for good, for
  a process that only runs one submission.
* :func:`adapt` turns a classic agent class into an agent factory of the engine (its
  constructor options become string options, as classic agents expect) and a classic evaluation
  function into a function of engine states.
"""

from __future__ import annotations

import ast
import contextlib
import inspect
import random
import sys
import types
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterator

from pacman.compat import game as compat_game
from pacman.compat import multi_agents as compat_multi_agents
from pacman.compat import util as compat_util
from pacman.compat.state import GameState as ClassicGameState

#: Classic module names and the modules that stand in for them.
ALIASES: dict[str, types.ModuleType] = {
    "game": compat_game,
    "util": compat_util,
    "multiAgents": compat_multi_agents,
}
_COMPAT_OBJECTS = (compat_game, compat_util, compat_multi_agents, compat_game.Agent,
                   compat_game.Directions, compat_game.Actions, ClassicGameState)


#: Source files larger than this are not read to decide their API (no real submission is).
MAX_SOURCE_BYTES = 16 * 1024 * 1024


def is_classic_source(path: Path) -> bool:
    """Whether the Python file at ``path`` imports the classic modules (by its syntax only).
    A file that is not a regular file, or is over :data:`MAX_SOURCE_BYTES`, is not."""
    try:
        with open(path, "rb") as handle:
            source = handle.read(MAX_SOURCE_BYTES + 1)
        if len(source) > MAX_SOURCE_BYTES or not Path(path).is_file():
            return False
        tree = ast.parse(source, filename=str(path))
    except (OSError, SyntaxError, ValueError):
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            if any(alias.name in ALIASES for alias in node.names):
                return True
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            if node.module in ALIASES:
                return True
            if node.module == "pacman" and any(a.name == "GameState" for a in node.names):
                return True
    return False


@contextlib.contextmanager
def classic_imports(enabled: bool = True) -> Iterator[None]:
    """While active, ``import game``/``util``/``multiAgents`` and ``from pacman import
    GameState`` resolve to the compatibility layer. Restores ``sys.modules`` afterwards."""
    if not enabled:
        yield
        return
    import pacman

    saved = {name: sys.modules.get(name) for name in ALIASES}
    had_state = "GameState" in vars(pacman)
    sys.modules.update(ALIASES)
    if not had_state:
        pacman.GameState = ClassicGameState  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
        if not had_state:
            vars(pacman).pop("GameState", None)


def install_classic_modules() -> None:
    """Make the classic imports work for the rest of this process."""
    import pacman

    sys.modules.update(ALIASES)
    pacman.GameState = ClassicGameState  # type: ignore[attr-defined]


def is_classic_agent(obj: Any) -> bool:
    """A class with the classic ``getAction`` and without the engine's ``get_action``."""
    return inspect.isclass(obj) and hasattr(obj, "getAction") and not hasattr(obj, "get_action")


def is_classic_module(module: types.ModuleType) -> bool:
    """Whether ``module`` uses the compatibility layer (it imported one of its names)."""
    return any(any(value is o for o in _COMPAT_OBJECTS) for value in vars(module).values())


class ClassicAgentAdapter:
    """Plays a classic agent in the engine's game loop: each state is shown to it through the
    classic :class:`~pacman.compat.state.GameState` wrapper."""

    def __init__(self, agent: Any, index: int = 0) -> None:
        self.agent = agent
        self.index = index

    def start_game(self, state: Any) -> None:
        register = getattr(self.agent, "registerInitialState", None)
        if callable(register):
            register(ClassicGameState(state))

    def get_action(self, state: Any) -> str:
        return self.agent.getAction(ClassicGameState(state))


def classic_options(cls: type) -> list[inspect.Parameter]:
    """The constructor options of a classic agent class, each typed ``str`` (classic agents
    receive their command-line arguments as text)."""
    try:
        parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]  # type: ignore[misc]
    except (TypeError, ValueError):
        return []
    options = []
    for p in parameters:
        if p.name == "index" or p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            continue
        default = p.default if p.default is p.empty else str(p.default)
        options.append(inspect.Parameter(p.name, p.KEYWORD_ONLY, default=default, annotation=str))
    return options


def classic_agent_factory(cls: type) -> Callable[..., ClassicAgentAdapter]:
    """An engine agent factory ``(index, rng, **options) -> agent`` for a classic agent class.

    Classic agents draw from the module-level :mod:`random`; it is seeded from ``rng`` when the
    agent is built, so a game seed still fixes the game.
    """
    accepts_index = "index" in _parameter_names(cls)

    def factory(index: int = 0, rng: random.Random | None = None, **options: Any) -> ClassicAgentAdapter:
        if rng is not None:
            random.seed(rng.getrandbits(64))
        agent = cls(index=index, **options) if accepts_index else cls(**options)
        if not accepts_index:
            with contextlib.suppress(AttributeError):
                agent.index = index
        return ClassicAgentAdapter(agent, index)

    fixed = [inspect.Parameter("index", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=0),
             inspect.Parameter("rng", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)]
    factory.__signature__ = inspect.Signature(fixed + classic_options(cls))  # type: ignore[attr-defined]
    factory.__name__ = cls.__name__
    factory.__qualname__ = cls.__qualname__
    factory.__doc__ = cls.__doc__ or f"{cls.__name__} (classic API)"
    factory.classic_class = cls  # type: ignore[attr-defined]
    return factory


def classic_evaluation(function: Callable[[Any], float]) -> Callable[[Any], float]:
    """An evaluation function of engine states from a classic one (of classic states)."""

    def evaluation(state: Any) -> float:
        return function(ClassicGameState(state))

    evaluation.__name__ = getattr(function, "__name__", "evaluation")
    evaluation.__doc__ = function.__doc__
    return evaluation


def adapt(obj: Any, module: types.ModuleType, kind: str) -> Any:
    """``obj`` ready for the engine: classic agent classes become factories; functions of a
    classic module asked for as an evaluation function take engine states. Anything else is
    returned unchanged."""
    if is_classic_agent(obj):
        return classic_agent_factory(obj)
    if ("evaluation" in kind and inspect.isfunction(obj) and is_classic_module(module)):
        return classic_evaluation(obj)
    return obj


def _parameter_names(cls: type) -> set[str]:
    try:
        return set(inspect.signature(cls.__init__).parameters)  # type: ignore[misc]
    except (TypeError, ValueError):
        return set()

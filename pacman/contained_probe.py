"""Checking an agent whose code comes from a file or module without loading it in the game.

:func:`probe` resolves the name and options in a contained child
(:func:`pacman.agent_child.probe_name`): the file is imported there, never here, so its
top-level code (a loop, ``sys.exit``, ``os.chdir``, a signal handler, a thread) cannot touch
the game's process. The answer is data: usable (with its options listed), the user's
configuration error (raised here as :class:`~pacman.errors.ConfigurationError`), or a
misbehaviour while loading, kept in the :class:`ContainedFactory` so that every game it
plays records it as that agent's failure.
"""

from __future__ import annotations

import os
from typing import Any
from collections.abc import Mapping

from pacman.contained_process import STARTUP_SECONDS, AgentFailure, ContainedProcess
from pacman.errors import ConfigurationError
from pacman.outcome import Outcome


class ContainedFactory:
    """Stands for an agent that is built only in contained processes: ``options`` is the
    ``name=default`` summary its constructor gives, ``failure`` ``(kind, message, trace)``
    when loading it misbehaved. Calling it here is refused."""

    def __init__(self, name: str, role: str, options: str,
                 failure: tuple[Outcome, str, str] | None) -> None:
        self.name, self.role, self.options, self.failure = name, role, options, failure
        self.__name__ = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise ConfigurationError(f"agent {self.name!r} runs only in a contained process")


_PROBED: dict[tuple, ContainedFactory] = {}


def probe(name: str, role: str, raw_options: Mapping[str, str],
          time_limit: float | None = None) -> ContainedFactory:
    """Check ``name`` with ``raw_options`` in a contained child (cached per folder and
    options); raises :class:`ConfigurationError` for an unknown name, a bad option or a file
    that fails to import, and :class:`~pacman.contained_process.ContainmentError` when the
    environment cannot start the child. Loading gets ``time_limit`` plus five seconds (30 s
    without a limit)."""
    from pacman.sandboxed_agent import build_seconds

    raw = {str(k): str(v) for k, v in raw_options.items()}
    key = (name, role, tuple(sorted(raw.items())), os.getcwd())
    if key in _PROBED:
        return _PROBED[key]
    from pacman.agent_child import probe_name

    child = ContainedProcess(probe_name, ((name, role, raw),), "agent-probe", STARTUP_SECONDS)
    failure: tuple[Outcome, str, str] | None = None
    options = ""
    try:
        status, value = child.answer(build_seconds(time_limit), "loading the agent")
    except AgentFailure as error:
        status, value = "failed", None
        failure = (error.kind, error.message, error.trace)
    finally:
        child.close()
    if status == "refused":
        raise ConfigurationError(str(value))
    if status == "ok" and isinstance(value, dict):
        options = str(value.get("options", ""))
    elif status == "error":
        message, trace = (value if isinstance(value, list) and len(value) == 2
                          else (str(value), ""))
        failure = (Outcome.CRASH, str(message), str(trace))
    factory = ContainedFactory(name, role, options, failure)
    _PROBED[key] = factory
    return factory

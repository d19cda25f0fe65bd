"""Named catalogs: one :class:`Registry` type for agents, ghosts, evaluations, experiments,
commands and displays.

An entry is either an object or a lazy reference, ``"package.module:attr"`` (or
``"package.module"`` for the module itself), imported the first time the entry is used; listing
names (for help texts and suggestions) imports nothing. An unknown name raises one
:class:`~pacman.errors.ConfigurationError` line with the closest names (``did you mean ...?``).
Registering a name twice is refused: one name, one meaning.

This module sits below every layer that names things (it imports only :mod:`pacman.errors`),
so the engine, the agents and the applications can all declare registries.
"""

from __future__ import annotations

import difflib
import importlib
from typing import Any, Generic, TypeVar
from collections.abc import Iterable, Iterator, Mapping

from pacman.errors import ConfigurationError

T = TypeVar("T")


def suggest(name: str, choices: Iterable[str], n: int = 3) -> str:
    """A ``"; did you mean a or b?"`` hint for ``name`` among ``choices`` (case-insensitive
    when nothing matches as written), ``"; known: ..."`` with every name if none is close,
    ``""`` when there are no choices."""
    names = sorted(choices)
    close = difflib.get_close_matches(name, names, n=n, cutoff=0.5)
    if not close:
        lowered = {c.lower(): c for c in names}
        close = [lowered[c] for c in difflib.get_close_matches(name.lower(), list(lowered), n=n,
                                                               cutoff=0.5)]
    if close:
        return f"; did you mean {' or '.join(close)}?"
    return f"; known: {', '.join(names)}" if names else ""


def load_reference(reference: str) -> Any:
    """The object named by ``"module:attr"`` (or the module for ``"module"``), imported now."""
    module_name, _, attr = reference.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attr) if attr else module


class Registry(Generic[T]):
    """Names of one kind of thing (``kind``, used in messages: ``"ghost agent"``), in the
    order they were registered.

    ``registry[name]`` is the object (imported on first use for a lazy entry);
    ``name in registry``, ``iter(registry)``, :meth:`names` and :meth:`help` never import.
    """

    def __init__(self, kind: str, entries: Mapping[str, str | T] | None = None) -> None:
        self.kind = kind
        self._targets: dict[str, str | T] = {}
        self._loaded: dict[str, T] = {}
        self._help: dict[str, str] = {}
        for name, target in (entries or {}).items():
            self.register(name, target)

    def register(self, name: str, target: str | T, help: str = "") -> None:
        """Add ``name``: an object, or a lazy ``"module:attr"`` reference (a string).

        ``help`` is the one line shown in listings. Raises :class:`ValueError` if ``name`` is
        already registered or empty.
        """
        if not name or name != name.strip():
            raise ValueError(f"{self.kind} name {name!r} must be non-empty, without spaces "
                             "around it")
        if name in self._targets:
            raise ValueError(f"{self.kind} {name!r} is already registered "
                             f"(as {self.reference(name)})")
        self._targets[name] = target
        if help:
            self._help[name] = help

    def __getitem__(self, name: str) -> T:
        try:
            return self._loaded[name]
        except KeyError:
            pass
        if name not in self._targets:
            raise self.unknown(name)
        target = self._targets[name]
        value: T = load_reference(target) if isinstance(target, str) else target
        self._loaded[name] = value
        return value

    def get(self, name: str, default: T | None = None) -> T | None:
        """``registry[name]``, or ``default`` for a name not registered."""
        return self[name] if name in self._targets else default

    def unknown(self, name: str, hint: str = "") -> ConfigurationError:
        """The error for a name not registered: one line with the closest names and ``hint``."""
        return ConfigurationError(f"unknown {self.kind} {name!r}"
                                  f"{suggest(name, self._targets)}{hint}")

    def __contains__(self, name: object) -> bool:
        return name in self._targets

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._targets))

    def __len__(self) -> int:
        return len(self._targets)

    def names(self) -> list[str]:
        """Every name, in registration order (nothing is imported)."""
        return list(self._targets)

    def items(self) -> list[tuple[str, T]]:
        """``(name, object)`` for every entry (imports every lazy entry)."""
        return [(name, self[name]) for name in self._targets]

    def values(self) -> list[T]:
        """Every entry's object (imports every lazy entry)."""
        return [self[name] for name in self._targets]

    def help(self, name: str) -> str:
        """The one-line help registered with ``name`` (``""`` if none)."""
        if name not in self._targets:
            raise self.unknown(name)
        return self._help.get(name, "")

    def reference(self, name: str) -> str:
        """Where ``name`` points: its ``module:attr`` reference, or the object's repr."""
        target = self._targets[name]
        return target if isinstance(target, str) else repr(target)

    def is_loaded(self, name: str) -> bool:
        """Whether ``name``'s object exists yet (a lazy entry is imported on first use)."""
        return name in self._loaded or (name in self._targets
                                         and not isinstance(self._targets[name], str))

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {len(self)} entries)"


__all__ = ["Registry", "suggest", "load_reference"]

"""Finding plug-ins (agents, evaluation functions) by short name, ``module:attr`` or file path.

:func:`resolve` accepts

* a short name from a :class:`~pacman.registry.Registry` (``directional``),
* ``package.module:attr`` (imported with :mod:`importlib`),
* ``path/to/file.py:Name`` (the file is loaded as a fresh module; it need not be on ``sys.path``),

and raises :class:`~pacman.errors.ConfigurationError` with the closest names when nothing matches.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any
from collections.abc import Mapping

from pacman.errors import ConfigurationError
from pacman.registry import Registry, suggest


def load_file_module(path: Path) -> Any:
    """Import the Python file at ``path`` as a module of its own and return it.

    The module's folder is put on ``sys.path`` while it loads, so a submission may import its own
    helper files. Errors while importing become :class:`ConfigurationError`.
    """
    try:
        path = path.resolve()
        found = path.is_file()
    except (OSError, ValueError) as error:  # a NUL byte, a name too long for the system
        raise ConfigurationError(f"{str(path)!r}: not a usable file name ({error})") from None
    if not found:
        raise ConfigurationError(f"{path}: no such Python file")
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:10]
    module_name = f"_plugin_{path.stem}_{digest}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ConfigurationError(f"{path}: cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    folder = str(path.parent)
    added = folder not in sys.path
    if added:
        sys.path.insert(0, folder)
    sys.modules[module_name] = module
    try:
        with _classic_api().classic_imports(_classic_api().is_classic_source(path)):
            spec.loader.exec_module(module)
    except Exception as error:  # a broken plug-in must not crash the caller
        del sys.modules[module_name]
        raise ConfigurationError(f"{path}: importing it failed: "
                                 f"{type(error).__name__}: {error}") from error
    finally:
        if added:
            sys.path.remove(folder)
    return module


def resolve(spec: str, registry: Registry[Any] | Mapping[str, Any], kind: str | None = None) -> Any:
    """The object named by ``spec``: a registry name, ``module:attr`` or ``file.py:attr``.

    ``kind`` ("Pacman agent", "evaluation function", ...) is used in error messages; it
    defaults to the registry's own.
    """
    kind = kind or getattr(registry, "kind", "name")
    spec = spec.strip()
    if not spec:
        raise ConfigurationError(f"empty {kind} name{suggest('', registry)}")
    if spec in registry:
        return registry[spec]
    if ":" not in spec:
        raise ConfigurationError(f"unknown {kind} {spec!r}{suggest(spec, registry)}")
    where, _, attr = spec.rpartition(":")
    if not attr:
        raise ConfigurationError(f"{kind} {spec!r}: nothing named after the ':'")
    from_file = where.endswith(".py") or "/" in where or "\\" in where
    if from_file:
        module = load_file_module(Path(where))
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as error:
            raise ConfigurationError(f"{kind} {spec!r}: cannot import module {where!r} "
                                     f"({error})") from error
        except Exception as error:
            raise ConfigurationError(f"{kind} {spec!r}: importing {where!r} failed: "
                                     f"{type(error).__name__}: {error}") from error
    try:
        found = getattr(module, attr)
    except AttributeError:
        public = [n for n in dir(module) if not n.startswith("_")]
        raise ConfigurationError(f"{kind} {spec!r}: {where} has no {attr!r}"
                                 f"{suggest(attr, public)}") from None
    return _classic_api().adapt(found, module, kind) if from_file else found


def is_external(spec: str, registry: Registry[Any] | Mapping[str, Any]) -> bool:
    """Whether ``spec`` names code outside ``registry``: ``module:attr`` or ``file.py:attr``
    (a short name or an alias of the catalog is not)."""
    spec = spec.strip()
    return ":" in spec and spec not in registry


def absolute_name(spec: str) -> str:
    """``spec`` with a file path made absolute, so another process (in another folder) finds
    the same file; other names unchanged."""
    spec = spec.strip()
    where, sep, attr = spec.rpartition(":")
    if sep and (where.endswith(".py") or "/" in where or "\\" in where):
        try:
            return f"{Path(where).resolve()}:{attr}"
        except (OSError, ValueError) as error:  # a NUL byte, a name too long for the system
            raise ConfigurationError(f"{where!r}: not a usable file name ({error})") from None
    return spec


def _classic_api() -> Any:
    """The hook for files written against the classic course API (:mod:`pacman.compat.loader`):
    their ``import util`` / ``from game import Agent`` resolve while they load, and their agents
    and evaluation functions are adapted to the engine when resolved."""
    from pacman.compat import loader

    return loader

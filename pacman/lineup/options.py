"""Typed agent options: ``key=value`` strings from the command line become typed arguments.

An agent declares its options as keyword-only parameters of its constructor, with type hints
and defaults::

    def __init__(self, index: int = 0, rng: Random | None = None, *, depth: int = 2,
                 evaluation: Evaluation = SCORE) -> None

:func:`bind_options` checks names (with suggestions) and converts each value by its hint:
``int``, ``float``, ``bool`` (true/false, yes/no, on/off, 1/0), ``str``, ``Literal[...]``
choices, ``X | None`` (``none`` gives ``None``), a type with a converter in ``converters``
(how :mod:`pacman.lineup.build` turns evaluation names into evaluation objects and ghost names into
ghost models), or any class with a ``from_option(text)`` class method (a plug-in's own types).
Agents therefore never parse strings.

An option ``NAME`` whose type has a converter also accepts ``NAME_options=k=v,k=v``: options
for the object that ``NAME`` names, handed to the converter (``model=mixed``,
``model_options=p=0.5,depth=2``).
"""

from __future__ import annotations

import inspect
import types
import typing
from typing import Any, Literal
from collections.abc import Callable, Mapping

from pacman.errors import ConfigurationError
from pacman.registry import suggest

#: ``type -> converter(text, options_text)``: how text becomes an object of that type.
Converters = Mapping[Any, Callable[[str, str], Any]]

#: Constructor parameters the game loop (or, for a human player's input, the play command)
#: fills in itself; never user options.
RESERVED = ("index", "rng", "human_input")

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_NUMBERS = {int: "a whole number", float: "a number"}


def parse_assignments(items: list[str] | None, flag: str) -> dict[str, str]:
    """``["depth=3", "evaluation=better"]`` -> ``{"depth": "3", "evaluation": "better"}``."""
    result: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigurationError(f"{flag} expects key=value, got {item!r}")
        result[key] = value.strip()
    return result


def declared_options(factory: Callable[..., Any]) -> dict[str, tuple[Any, Any]]:
    """``name -> (type hint, default)`` for the keyword options ``factory`` accepts."""
    target = factory.__init__ if inspect.isclass(factory) else factory
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        return {}
    try:
        hints = typing.get_type_hints(target)
    except Exception:  # unresolvable hints: fall back to the raw annotations
        hints = {}
    options = {}
    for name, parameter in signature.parameters.items():
        if name in RESERVED or name == "self":
            continue
        if parameter.kind not in (parameter.KEYWORD_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            continue
        hint = hints.get(name, parameter.annotation)
        if hint is inspect.Parameter.empty:
            hint = type(parameter.default) if parameter.default not in (
                inspect.Parameter.empty, None) else str
        options[name] = (hint, parameter.default)
    return options


def convert(text: str, hint: Any, name: str, owner: str, converters: Converters | None = None,
            options_text: str = "") -> Any:
    """Convert one option value ``text`` to the type ``hint``; raise a clear error if it won't.

    ``options_text`` (from ``NAME_options``) goes to the converter of ``hint``."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if text.lower() == "none" and len(args) < len(typing.get_args(hint)):
            return None
        errors = []
        for arg in args:
            try:
                return convert(text, arg, name, owner, converters, options_text)
            except ConfigurationError as error:
                errors.append(str(error))
        wanted = [w for w in map(_expected, args) if w]
        if len(args) > 1 and len(wanted) == len(args):
            raise ConfigurationError(f"{owner}: option {name} expects {' or '.join(wanted)}, "
                                     f"got {text!r}")
        raise ConfigurationError(errors[0] if errors else f"{owner}: bad value for {name}")
    if origin is Literal:
        choices = [str(c) for c in typing.get_args(hint)]
        if text in choices:
            return typing.get_args(hint)[choices.index(text)]
        raise ConfigurationError(f"{owner}: option {name} must be one of "
                                 f"{', '.join(choices)}; got {text!r}{suggest(text, choices)}")
    if hint is bool:
        lowered = text.lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise ConfigurationError(f"{owner}: option {name} expects true or false, got {text!r}")
    if hint in _NUMBERS:
        try:
            return hint(text)
        except ValueError:
            raise ConfigurationError(f"{owner}: option {name} expects {_NUMBERS[hint]}, "
                                     f"got {text!r}") from None
    if hint is str or hint is Any:
        return text
    if converters and hint in converters:
        return converters[hint](text, options_text)
    from_option = getattr(hint, "from_option", None)
    if callable(from_option):
        return from_option(text)
    raise ConfigurationError(f"{owner}: option {name} has a type ({hint!r}) that cannot be "
                             "given on the command line")


def _expected(hint: Any) -> str | None:
    """What a value of ``hint`` looks like, for a message naming every alternative of a union;
    ``None`` for a type without a short description."""
    if typing.get_origin(hint) is Literal:
        return "one of " + ", ".join(str(c) for c in typing.get_args(hint))
    if hint is bool:
        return "true or false"
    return _NUMBERS.get(hint)


def bind_options(factory: Callable[..., Any], raw: Mapping[str, str], owner: str,
                 converters: Converters | None = None) -> dict[str, Any]:
    """Typed keyword arguments for ``factory`` from raw ``key -> text`` options (see the
    module's docstring for ``converters`` and ``NAME_options``)."""
    declared = declared_options(factory)
    nested = {name: raw[f"{name}_options"] for name, (hint, _) in declared.items()
              if f"{name}_options" in raw and converters and hint in converters}
    bound: dict[str, Any] = {}
    for name, text in raw.items():
        if name.endswith("_options") and name[:-len("_options")] in nested:
            continue
        if name not in declared:
            hint = suggest(name, list(declared)) if declared else "; it takes no options"
            raise ConfigurationError(f"{owner} has no option {name!r}{hint}")
        hint_type, _ = declared[name]
        bound[name] = convert(text, hint_type, name, owner, converters, nested.get(name, ""))
    for name in nested.keys() - raw.keys():  # NAME_options alone: options for the default
        hint_type, default = declared[name]
        bound[name] = convert(getattr(default, "name", str(default)), hint_type, name, owner,
                              converters, nested[name])
    return bound


def describe_options(factory: Callable[..., Any]) -> str:
    """A short ``name=default`` summary of the options ``factory`` accepts."""
    parts = []
    for name, (_, default) in declared_options(factory).items():
        shown = getattr(default, "name", default)
        parts.append(name if default is inspect.Parameter.empty else f"{name}={shown}")
    return " ".join(parts)

"""Turning agent names and ``key=value`` options into the :class:`AgentSpec` list of a game.

The boundary where text becomes objects: agent names become factories (from the catalogs of
:mod:`pacman.agents.catalog`, ``module:attr`` or ``file.py:Name``), option text becomes typed values,
evaluation names become :class:`~pacman.agents.evaluation.Evaluation` objects and ghost names become
:class:`~pacman.agents.ghost_model.GhostModel` objects (:data:`CONVERTERS`). Agents receive objects.

App layer: this module knows both the engine and the :mod:`pacman.agents` catalog.
"""

from __future__ import annotations

import inspect
import typing
from typing import Any
from collections.abc import Mapping

from pacman.agents.catalog import GHOST_AGENTS, PACMAN_AGENTS, short_name
from pacman.agents.evaluation import EVALUATIONS, Evaluation
from pacman.agents.ghost_model import UNIFORM, GhostModel
from pacman.contained.agent import contained_spec
from pacman.errors import ConfigurationError
from pacman.engine.game import AgentSpec
from pacman.engine.layout import Layout
from pacman.lineup.options import Converters, bind_options, declared_options, parse_assignments
from pacman.lineup.plugins import absolute_name, is_external, resolve
from pacman.lineup.student_file import file_without_class


def evaluation_from_text(text: str, options: str = "") -> Evaluation:
    """The evaluation named by ``text``: a short name of :data:`~pacman.agents.evaluation.EVALUATIONS`,
    ``module:attr``, ``file.py:name`` or ``linear[:WEIGHTS]`` (a linear evaluation over the
    features of :mod:`pacman.agents.linear`: ``linear:score=1,ghost_danger=-200``, a JSON weights
    file, or plain ``linear`` for the default weights)."""
    if options.strip():
        raise ConfigurationError(f"evaluation function {text!r} takes no options")
    head, _, rest = text.strip().partition(":")
    if head == "linear":
        from pacman.agents.linear import make_linear_evaluation

        return make_linear_evaluation(rest)
    found = resolve(text, EVALUATIONS, "evaluation function")
    if isinstance(found, Evaluation):
        return found
    if not callable(found):
        raise ConfigurationError(f"evaluation function {text!r} is not callable")
    return Evaluation(text.strip(), found)


def ghost_model(text: str, options: str = "") -> GhostModel:
    """The ghost model named by ``text``: ``uniform``, or a ghost agent (catalog name,
    ``module:attr`` or ``file.py:Name``) whose distribution predicts every ghost, built with
    ``options`` (``"p=0.5,depth=2"``, bound to that agent's typed options)."""
    name = text.strip()
    if name == UNIFORM.name:
        if options.strip():
            raise ConfigurationError(f"ghost model {name!r} takes no options")
        return UNIFORM
    factory = resolve(short_name(name, "ghost"), GHOST_AGENTS, "ghost model")
    if not hasattr(factory, "distribution"):
        raise ConfigurationError(f"ghost model {name!r} does not expose a move distribution")
    pairs = [p for p in options.split(",") if p.strip()]
    bound = bind_options(factory, parse_assignments(pairs, "model_options"),
                         f"ghost model {name!r}", CONVERTERS)
    return GhostModel(name, factory, bound)


#: How option text becomes the objects agents receive (see :func:`pacman.lineup.options.convert`).
CONVERTERS: Converters = {Evaluation: evaluation_from_text, GhostModel: ghost_model}


def agent_factory(name: str, role: str) -> Any:
    """The agent class (or factory) for ``name`` in ``role`` (``"pacman"`` or ``"ghost"``)."""
    registry = PACMAN_AGENTS if role == "pacman" else GHOST_AGENTS
    kind = "Pacman agent" if role == "pacman" else "ghost agent"
    factory = resolve(short_name(name, role), registry, kind)
    if inspect.isclass(factory) and not hasattr(factory, "get_action"):
        raise ConfigurationError(f"{kind} {name!r} is a class without a get_action method")
    if not callable(factory):
        raise ConfigurationError(f"{kind} {name!r} is not a class or factory")
    try:
        inspect.signature(factory).bind(index=0, rng=None)
    except TypeError:
        raise ConfigurationError(f"{kind} {name!r} is not an agent: it cannot be called as "
                                 "factory(index=..., rng=...)") from None
    except ValueError:  # no signature to inspect (some built-ins): let the game tell
        pass
    return factory


def agent_spec(name: str, role: str, raw_options: Mapping[str, str] | None = None, *,
               isolate: bool = True, time_limit: float | None = None) -> AgentSpec:
    """A typed, validated spec for one agent.

    An agent whose code comes from a file or a module (not from the catalog), or a built-in
    agent with an option naming such code (``evaluation=file.py:f``), is checked and played
    only in contained child processes (:func:`pacman.contained.agent.contained_spec`; its
    file is never imported here) unless ``isolate`` is false. Its spec has no typed options
    then. ``time_limit`` bounds how long loading such code may take (plus five seconds).
    """
    raw = dict(raw_options or {})
    registry = PACMAN_AGENTS if role == "pacman" else GHOST_AGENTS
    file_only = file_without_class(name, "Pacman agent" if role == "pacman" else "ghost agent")
    if file_only is not None:
        raise file_only
    if isolate and (is_external(short_name(name, role), registry)
                    or _options_name_code(name, role, raw)):
        return contained_spec(name, absolute_name(name), role, raw, time_limit)
    factory = agent_factory(name, role)
    raw = classic_option_names(factory, raw)
    owner = f"{'Pacman' if role == 'pacman' else 'ghost'} agent {name!r}"
    options = bind_options(factory, raw, owner, CONVERTERS)
    return AgentSpec(name=name, factory=factory, options=options, raw_options=raw)


#: The classic course's ``evalFn`` names for this project's evaluation names.
_CLASSIC_EVALUATION_NAMES = {"score": "scoreEvaluationFunction"}


def classic_option_names(factory: Any, raw: Mapping[str, str]) -> dict[str, str]:
    """``raw`` with ``evaluation`` given as the classic ``evalFn`` to an agent whose
    constructor takes ``evalFn`` (a class written against the classic course's API) and not
    ``evaluation``; the command line's ``-a evalFn=NAME`` arrives as ``evaluation``."""
    options = dict(raw)
    if "evaluation" in options and "evalFn" not in options:
        declared = declared_options(factory)
        if "evaluation" not in declared and "evalFn" in declared:
            text = options.pop("evaluation")
            options["evalFn"] = _CLASSIC_EVALUATION_NAMES.get(text, text)
    return options


def _options_name_code(name: str, role: str, raw: Mapping[str, str]) -> bool:
    """Whether an option of the built-in agent ``name`` that becomes an object (an
    evaluation, a ghost model, or the options of one) names code from a file or a module."""
    if not raw:
        return False
    declared = declared_options(agent_factory(name, role))
    for key, text in raw.items():
        base = key[:-len("_options")] if key.endswith("_options") else key
        if base not in declared or not _takes_code(declared[base][0]):
            continue
        text = str(text)
        candidates = [text, *(piece.partition("=")[2] for piece in text.split(","))]
        if any(_names_code(candidate) for candidate in candidates):
            return True
    return False


def _takes_code(hint: Any) -> bool:
    return hint in CONVERTERS or any(arg in CONVERTERS for arg in typing.get_args(hint))


def _names_code(text: str) -> bool:
    text = text.strip()
    if ":" not in text or text.partition(":")[0].strip() == "linear":
        return False
    return is_external(text, EVALUATIONS) and is_external(short_name(text, "ghost"),
                                                          GHOST_AGENTS)


def lineup(layout: Layout, pacman: str, ghosts: str | list[str] | None = "directional",
           num_ghosts: int | None = None, pacman_options: Mapping[str, str] | None = None,
           ghost_options: Mapping[str, str] | None = None, *,
           time_limit: float | None = None) -> list[AgentSpec]:
    """Pacman's spec followed by one spec per ghost.

    ``ghosts`` is one name for every ghost or a list (or comma-separated string) of one name per
    ghost. ``num_ghosts`` defaults to the length of that list when several names are given,
    else to the number of ghost starts in the maze.
    """
    if isinstance(ghosts, str):
        names = [g.strip() for g in ghosts.split(",")] if ghosts else []
    else:
        names = list(ghosts or [])
    available = layout.num_ghosts
    if num_ghosts is None:
        num_ghosts = len(names) if len(names) > 1 else available
    if num_ghosts < 0:
        raise ConfigurationError(f"--num-ghosts must be 0 or more, got {num_ghosts}")
    if num_ghosts > available:
        raise ConfigurationError(f"maze {layout.name!r} has {available} ghost start"
                                 f"{'s' if available != 1 else ''}; cannot place {num_ghosts}")
    if len(names) == 1:
        names = names * num_ghosts
    elif num_ghosts and len(names) != num_ghosts:
        raise ConfigurationError(f"--ghosts names {len(names)} agents but {num_ghosts} "
                                 "ghosts play; give one name, or one per ghost")
    specs = [agent_spec(pacman, "pacman", pacman_options, time_limit=time_limit)]
    specs += [agent_spec(name, "ghost", ghost_options, time_limit=time_limit)
              for name in names[:num_ghosts]]
    return specs

"""Turning agent names and ``key=value`` options into the :class:`AgentSpec` list of a game.

App layer: this module knows both the engine and the :mod:`agents` catalog.
"""

from __future__ import annotations

import inspect
from typing import Any
from collections.abc import Mapping

from agents.catalog import GHOST_AGENTS, PACMAN_AGENTS, short_name
from pacman.errors import ConfigurationError
from pacman.game import AgentSpec
from pacman.layout import Layout
from pacman.options import bind_options, declared_options
from pacman.plugins import absolute_name, is_external, resolve


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


#: Options given to every agent that accepts them when the user sets neither them nor a
#: search depth: the bound on the states a searching Pacman generates per move, so that its
#: default depth adapts and a move takes well under a second however many ghosts play (see
#: agents/bounded.py). A depth the user asks for is searched in full.
BOUNDED_WORK = {"node_budget": 4000}


def agent_spec(name: str, role: str, raw_options: Mapping[str, str] | None = None, *,
               isolate: bool = True) -> AgentSpec:
    """A typed, validated spec for one agent (with :data:`BOUNDED_WORK` where it applies).

    An agent loaded from a file or a module (not from the catalog) is marked to play in a
    child process of its own (:mod:`pacman.sandboxed_agent`) unless ``isolate`` is false.
    """
    raw = dict(raw_options or {})
    factory = agent_factory(name, role)
    owner = f"{'Pacman' if role == 'pacman' else 'ghost'} agent {name!r}"
    options = bind_options(factory, raw, owner)
    declared = declared_options(factory)
    for key, value in BOUNDED_WORK.items():
        if key in declared and key not in options and "depth" not in options:
            options[key] = value
    registry = PACMAN_AGENTS if role == "pacman" else GHOST_AGENTS
    isolation = None
    if isolate and is_external(name, registry):
        isolation = (absolute_name(name), role)
    return AgentSpec(name=name, factory=factory, options=options, raw_options=raw,
                     isolation=isolation)


def lineup(layout: Layout, pacman: str, ghosts: str | list[str] | None = "directional",
           num_ghosts: int | None = None, pacman_options: Mapping[str, str] | None = None,
           ghost_options: Mapping[str, str] | None = None) -> list[AgentSpec]:
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
    specs = [agent_spec(pacman, "pacman", pacman_options)]
    specs += [agent_spec(name, "ghost", ghost_options) for name in names[:num_ghosts]]
    return specs

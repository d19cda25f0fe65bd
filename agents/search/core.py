"""The one recursive search behind minimax, alpha-beta, expectimax and expectiminimax.

A node's value is computed by dispatching on its kind (the Pacman slides'
``value(state)`` dispatch): MAX takes the maximum, MIN the minimum and CHANCE
the probability-weighted mean of the children.  The named algorithms are
configurations of this one search (see :mod:`pacman.agents.search.algorithms`):

* ``prune`` turns on alpha-beta with the Pacman slides' tests: stop a MAX node once
  ``v >= beta`` and a MIN node once ``v <= alpha``; ``strict`` uses ``>`` and
  ``<`` instead.  Values are fail-soft: a pruned node returns a bound.
* ``min_as_chance`` searches MIN nodes as chance nodes (expectimax against an
  opponent model: uniform, or ``opponent_model(state, actions) -> probs``).
* ``bounds=(lo, hi)`` promises every utility and evaluation lies in
  ``[lo, hi]``; a chance node then stops as soon as even the best (or worst)
  remaining outcomes cannot bring its mean back inside the window.
* ``depth`` limits the search; ``Game.ends_depth_unit`` says which moves use
  up a unit, and states reached with no depth left get the static
  evaluation.

Children are generated lazily, one at a time, in the (possibly reordered)
move order, so a pruned child is never generated.  The only exception is
``order="evaluation"``, which must generate every child to score it.  At the
root the first best action in the searched order wins: later children
replace it only when strictly better.

The search itself is a :class:`Search` object (:mod:`pacman.agents.search.node_search`):
``root``, ``value``, the MAX/MIN loop ``node_value`` (the one fast alpha-beta loop) and
``chance_value``; its configuration is a :class:`SearchConfig`
(:mod:`pacman.agents.search.nodes`). A game may read its nodes more cheaply through a
``search_type`` attribute (see :func:`search_type_for`): a subclass of :class:`Search` that
replaces the game's functions, never the loop.
"""

from __future__ import annotations

from typing import Any

from .game import Game
from .node_search import Search
from .nodes import INF, ChanceNodeError, OpponentModel, SearchConfig, SearchTimeout
from .result import Counters, SearchResult

__all__ = [
    "INF",
    "ChanceNodeError",
    "OpponentModel",
    "Search",
    "SearchConfig",
    "SearchTimeout",
    "run_search",
    "search_type_for",
    "window_value",
]


def search_type_for(game: Game) -> type[Search]:
    """The :class:`Search` class that searches ``game``: the game's own ``search_type`` when it
    has one (a subclass that reads the game's nodes more cheaply, with the same loop, results
    and counts), else :class:`Search` itself."""
    return getattr(game, "search_type", None) or Search


def run_search(
    game: Game,
    root: Any,
    cfg: SearchConfig,
    *,
    counters: Counters | None = None,
    traces: tuple[list[Any], list[Any] | None] | None = None,
) -> SearchResult:
    """Search ``root`` with configuration ``cfg`` and return the result.

    ``counters`` and ``traces`` (generated, evaluated) let a caller running
    several searches accumulate into its own records; the returned stats then
    show the accumulated counts. An evaluated trace of ``None`` records the generated
    states only, which keeps a game's fast path on (a trace of valued leaves turns it off).
    Raises :class:`SearchTimeout` if
    ``cfg.deadline`` passes (the counters keep what the partial search did),
    and :class:`ChanceNodeError` if ``cfg.allow_chance`` is false and a
    chance node is reached.
    """
    _check(cfg)
    start = cfg.clock()
    if counters is None:
        counters = Counters()
    if traces is None and cfg.trace:
        traces = ([], [])
    search = search_type_for(game)(game, cfg, counters, traces)
    value, action, root_values, pv = search.root(root)
    generated = None if traces is None else tuple(traces[0])
    evaluated = None if traces is None or traces[1] is None else tuple(traces[1])
    stats = counters.freeze(
        depth_reached=cfg.depth,
        elapsed=cfg.clock() - start,
        generated_states=generated,
        evaluated_states=evaluated,
    )
    return SearchResult(value=value, action=action, root_values=root_values, principal_variation=pv, stats=stats)


def window_value(game: Game, state: Any, cfg: SearchConfig, alpha: float, beta: float) -> tuple[float, Counters]:
    """The value of ``state`` searched with the window ``(alpha, beta)``, and the counts.

    For aspiration-window style searches; needs ``alpha < beta`` (``alpha <=
    beta`` when strict).  With ``cfg.prune`` the result
    ``f`` is fail-soft: if the true value ``V <= alpha`` then
    ``V <= f <= alpha``; if ``V >= beta`` then ``beta <= f <= V``; otherwise
    ``f == V`` (with ``cfg.strict`` the same with ``<``, ``>`` and a closed
    window).  No root bookkeeping is done: the table is probed at ``state``.
    """
    if not (alpha <= beta if cfg.strict else alpha < beta):
        raise ValueError(f"empty window ({alpha}, {beta})")
    _check(cfg)
    counters = Counters()
    search = search_type_for(game)(game, cfg, counters, None)
    depth = INF if cfg.depth is None else cfg.depth
    return search.value(state, depth, alpha, beta), counters


def _check(cfg: SearchConfig) -> None:
    if cfg.depth is not None and cfg.depth < 0:
        raise ValueError(f"depth must be >= 0 or None, got {cfg.depth}")
    if cfg.bounds is not None and not cfg.bounds[0] <= cfg.bounds[1]:
        raise ValueError(f"bounds must satisfy lo <= hi, got {cfg.bounds}")

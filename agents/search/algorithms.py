"""The named lecture algorithms as configurations of the one core search.

All functions search ``state`` of ``game`` and return a
:class:`~agents.search.result.SearchResult`.  Common keyword arguments:

* ``depth``: depth units to search (``None``: to the end of the game);
  states reached with no depth left are scored by ``evaluate`` (default
  ``game.evaluate``), seed 000's depth-limited search;
* ``order``: move ordering at MAX/MIN nodes (``"none"``, ``"reversed"``,
  ``"random"`` with ``rng``, ``"evaluation"``, or a callable), see
  :mod:`agents.search.ordering`;
* ``table``: a :class:`~agents.search.table.TranspositionTable` caching
  search results (with bound flags under pruning) and static evaluations;
* ``trace``: record generated and evaluated states in order in the stats.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .core import OpponentModel, SearchConfig, run_search
from .game import Game
from .ordering import OrderSpec
from .result import SearchResult
from .table import TranspositionTable

Evaluate = Callable[[Any], float]


def minimax(
    game: Game,
    state: Any,
    *,
    depth: int | None = None,
    evaluate: Evaluate | None = None,
    order: OrderSpec = "none",
    rng: random.Random | None = None,
    table: TranspositionTable | None = None,
    trace: bool = False,
) -> SearchResult:
    """Plain minimax: every child of every expanded node is searched.

    Raises :class:`~agents.search.core.ChanceNodeError` on chance nodes.
    """
    cfg = SearchConfig(
        depth=depth, allow_chance=False, evaluate=evaluate, order=order, rng=rng, table=table, trace=trace
    )
    return run_search(game, state, cfg)


def alphabeta(
    game: Game,
    state: Any,
    *,
    depth: int | None = None,
    strict: bool = False,
    evaluate: Evaluate | None = None,
    order: OrderSpec = "none",
    rng: random.Random | None = None,
    table: TranspositionTable | None = None,
    trace: bool = False,
) -> SearchResult:
    """Alpha-beta pruning (seed 003): a MAX node stops once ``v >= beta``, a MIN
    node once ``v <= alpha``; with ``strict=True`` only once ``v > beta`` /
    ``v < alpha``.  Same root value and action as :func:`minimax` with the same
    order; root children after the best may carry bounds in ``root_values``.

    Raises :class:`~agents.search.core.ChanceNodeError` on chance nodes.
    """
    cfg = SearchConfig(
        depth=depth,
        prune=True,
        strict=strict,
        allow_chance=False,
        evaluate=evaluate,
        order=order,
        rng=rng,
        table=table,
        trace=trace,
    )
    return run_search(game, state, cfg)


def expectimax(
    game: Game,
    state: Any,
    *,
    depth: int | None = None,
    evaluate: Evaluate | None = None,
    opponent_model: OpponentModel | None = None,
    bounds: tuple[float, float] | None = None,
    strict: bool = False,
    order: OrderSpec = "none",
    rng: random.Random | None = None,
    table: TranspositionTable | None = None,
    trace: bool = False,
) -> SearchResult:
    """Expectimax: MAX nodes maximise; MIN nodes are searched as chance nodes
    whose outcome probabilities come from ``opponent_model(state, actions)``
    (default uniform, seed 003's "informed probabilities" otherwise); CHANCE
    nodes use the game's probabilities.

    With ``bounds=(lo, hi)`` (every utility and evaluation must lie in that
    range) chance nodes stop as soon as their mean can no longer matter to
    the MAX node above (seed 003's expectimax pruning); the value and action
    are unchanged.
    """
    cfg = SearchConfig(
        depth=depth,
        prune=bounds is not None,
        strict=strict,
        min_as_chance=True,
        evaluate=evaluate,
        opponent_model=opponent_model,
        bounds=bounds,
        order=order,
        rng=rng,
        table=table,
        trace=trace,
    )
    return run_search(game, state, cfg)


def expectiminimax(
    game: Game,
    state: Any,
    *,
    depth: int | None = None,
    prune: bool = False,
    strict: bool = False,
    bounds: tuple[float, float] | None = None,
    evaluate: Evaluate | None = None,
    order: OrderSpec = "none",
    rng: random.Random | None = None,
    table: TranspositionTable | None = None,
    trace: bool = False,
) -> SearchResult:
    """Expectiminimax (seed 000): MAX, MIN and CHANCE nodes together.

    ``prune=True`` adds alpha-beta at MAX/MIN nodes; chance nodes search
    their children with an open window, or prune with ``bounds`` as in
    :func:`expectimax`.
    """
    cfg = SearchConfig(
        depth=depth,
        prune=prune or bounds is not None,
        strict=strict,
        bounds=bounds,
        evaluate=evaluate,
        order=order,
        rng=rng,
        table=table,
        trace=trace,
    )
    return run_search(game, state, cfg)


ALGORITHMS = ("minimax", "alphabeta", "expectimax", "expectiminimax")


def algorithm_config(name: str, **options: Any) -> SearchConfig:
    """The :class:`~agents.search.core.SearchConfig` of a named algorithm.

    ``options`` are further ``SearchConfig`` fields (``depth``, ``strict``,
    ``order``, ``bounds`` ...).  Names: ``minimax``, ``alphabeta``,
    ``expectimax`` (MIN nodes as chance nodes) and ``expectiminimax``.
    """
    bounds = options.get("bounds")
    if name == "minimax":
        base: dict[str, Any] = {"prune": False, "allow_chance": False}
    elif name == "alphabeta":
        base = {"prune": True, "allow_chance": False}
    elif name == "expectimax":
        base = {"prune": bounds is not None, "min_as_chance": True}
    elif name == "expectiminimax":
        base = {"prune": bool(options.pop("prune", False)) or bounds is not None}
    else:
        raise ValueError(f"unknown algorithm {name!r}; expected one of {', '.join(ALGORITHMS)}")
    base.update(options)
    return SearchConfig(**base)

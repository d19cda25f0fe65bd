"""The named lecture algorithms as configurations of the one core search.

All functions search ``state`` of ``game`` and return a
:class:`~pacman.agents.search.result.SearchResult`.  Common keyword arguments:

* ``depth``: depth units to search (``None``: to the end of the game);
  states reached with no depth left are scored by ``evaluate`` (default
  ``game.evaluate``), the Games I notes' depth-limited search;
* ``order``: move ordering at MAX/MIN nodes (``"none"``, ``"reversed"``,
  ``"random"`` with ``rng``, ``"evaluation"``, or a callable), see
  :mod:`pacman.agents.search.ordering`;
* ``table``: a :class:`~pacman.agents.search.table.TranspositionTable` caching
  search results (with bound flags under pruning) and static evaluations;
* ``trace``: record generated and evaluated states in order in the stats.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from .core import OpponentModel, SearchConfig, run_search
from .game import Game
from .ordering import OrderSpec
from .result import SearchResult
from .table import TranspositionTable

Evaluate = Callable[[Any], float]


PruneRule = Literal["never", "always", "with bounds", "asked or with bounds"]


@dataclass(frozen=True)
class Algorithm:
    """How a named algorithm configures the core search.

    ``prune``: ``never``; ``always``; ``with bounds`` (chance-node pruning
    when ``bounds`` is given); ``asked or with bounds`` (the ``prune=``
    option, or ``bounds``).  ``min_as_chance``: MIN nodes are searched as
    chance nodes.  ``allow_chance``: whether chance nodes may occur at all.
    """

    prune: PruneRule
    min_as_chance: bool = False
    allow_chance: bool = True


#: The one table of named algorithms.
ALGORITHM_TABLE: dict[str, Algorithm] = {
    "minimax": Algorithm(prune="never", allow_chance=False),
    "alphabeta": Algorithm(prune="always", allow_chance=False),
    "expectimax": Algorithm(prune="with bounds", min_as_chance=True),
    "expectiminimax": Algorithm(prune="asked or with bounds"),
}
ALGORITHMS = tuple(ALGORITHM_TABLE)


def algorithm_config(name: str, **options: Any) -> SearchConfig:
    """The :class:`~pacman.agents.search.core.SearchConfig` of a named algorithm.

    ``options`` are further ``SearchConfig`` fields (``depth``, ``strict``,
    ``order``, ``bounds`` ...).  Names: ``minimax``, ``alphabeta``,
    ``expectimax`` (MIN nodes as chance nodes) and ``expectiminimax``
    (``prune=True`` adds alpha-beta at MAX/MIN nodes).
    """
    algorithm = ALGORITHM_TABLE.get(name)
    if algorithm is None:
        raise ValueError(f"unknown algorithm {name!r}; expected one of {', '.join(ALGORITHMS)}")
    asked = options.pop("prune", None)
    bounded = options.get("bounds") is not None
    if algorithm.prune == "asked or with bounds":
        prune = bool(asked) or bounded
    elif asked is not None:
        prune = bool(asked)
    else:
        prune = algorithm.prune == "always" or (algorithm.prune == "with bounds" and bounded)
    return SearchConfig(prune=prune, min_as_chance=algorithm.min_as_chance,
                        allow_chance=algorithm.allow_chance, **options)


def search(name: str, game: Game, state: Any, **options: Any) -> SearchResult:
    """Search ``state`` of ``game`` with the named algorithm; ``options`` as for
    :func:`algorithm_config`."""
    return run_search(game, state, algorithm_config(name, **options))


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

    Raises :class:`~pacman.agents.search.core.ChanceNodeError` on chance nodes.
    """
    return search("minimax", game, state, depth=depth, evaluate=evaluate, order=order, rng=rng,
                  table=table, trace=trace)


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
    """Alpha-beta pruning (the Pacman slides): a MAX node stops once ``v >= beta``, a MIN
    node once ``v <= alpha``; with ``strict=True`` only once ``v > beta`` /
    ``v < alpha``.  Same root value and action as :func:`minimax` with the same
    order; root children after the best may carry bounds in ``root_values``.

    Raises :class:`~pacman.agents.search.core.ChanceNodeError` on chance nodes.
    """
    return search("alphabeta", game, state, depth=depth, strict=strict, evaluate=evaluate,
                  order=order, rng=rng, table=table, trace=trace)


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
    (default uniform, the Pacman slides' "informed probabilities" otherwise); CHANCE
    nodes use the game's probabilities.

    With ``bounds=(lo, hi)`` (every utility and evaluation must lie in that
    range) chance nodes stop as soon as their mean can no longer matter to
    the MAX node above (the Pacman slides' expectimax pruning); the value and action
    are unchanged.
    """
    return search("expectimax", game, state, depth=depth, evaluate=evaluate,
                  opponent_model=opponent_model, bounds=bounds, strict=strict, order=order,
                  rng=rng, table=table, trace=trace)


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
    """Expectiminimax (the Games I notes): MAX, MIN and CHANCE nodes together.

    ``prune=True`` adds alpha-beta at MAX/MIN nodes; chance nodes search
    their children with an open window, or prune with ``bounds`` as in
    :func:`expectimax`.
    """
    return search("expectiminimax", game, state, depth=depth, prune=prune, strict=strict,
                  bounds=bounds, evaluate=evaluate, order=order, rng=rng, table=table, trace=trace)

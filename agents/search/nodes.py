"""The terms of a search: what selects it (:class:`SearchConfig`), what it tells a watcher
(:class:`SearchWatcher`), how it stops (:class:`SearchTimeout`, :class:`ChanceNodeError`).

The search that reads them is :class:`~pacman.agents.search.node_search.Search`; its entry
points are in :mod:`pacman.agents.search.core`. This module imports neither, so both import it.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .game import NodeKind
from .ordering import OrderSpec
from .table import TranspositionTable

INF = math.inf
#: a value no table or search stores: "nothing here"
UNSET: Any = object()
#: generated nodes between two looks at the clock when a deadline is set
CHECK_EVERY = 256

OpponentModel = Callable[[Any, Sequence[Any]], Sequence[float]]


class SearchWatcher(Protocol):
    """Told every step of one search, in the order the search takes them (a trace for teaching:
    :mod:`pacman.agents.search.steps` records one). With no watcher the search calls nothing.

    Values are MAX's view. ``alpha`` and ``beta`` are the node's window after the step.
    """

    def generated(self, state: Any) -> None:
        """``state`` was generated (the root first)."""

    def entered(self, state: Any, kind: NodeKind, actions: Sequence[Any], depth: Any,
                alpha: float, beta: float) -> None:
        """The search of the inner node ``state`` begins: its kind as searched (a MIN node
        searched as a chance node is ``CHANCE``), its legal actions (before any reordering), the depth left
        and its window."""

    def leaf(self, state: Any, value: float, terminal: bool) -> None:
        """The leaf ``state`` was valued: its utility (``terminal``) or its evaluation."""

    def child_valued(self, state: Any, action: Any, child: Any, value: float, best: float,
                     alpha: float, beta: float, cut: bool) -> None:
        """At the MAX/MIN node ``state`` the child by ``action`` came back with ``value``; the
        node's value so far is ``best`` and its window ``(alpha, beta)``; ``cut``: the node
        stops here (``best`` reached the opponent's bound)."""

    def chance_valued(self, state: Any, action: Any, child: Any, probability: float,
                      value: float, total: float, cut: bool) -> None:
        """At the chance node ``state`` the outcome ``action`` (weight ``probability``) came back
        with ``value``; the weighted sum so far is ``total``; ``cut``: the node stops here with
        ``total`` as its bound (expectimax pruning with bounds)."""

    def left(self, state: Any, value: float) -> None:
        """The search of the inner node ``state`` ends with ``value``."""


class SearchTimeout(Exception):
    """Raised out of a search whose deadline passed (caught by iterative deepening)."""


class ChanceNodeError(ValueError):
    """A search that handles only MAX and MIN nodes met a chance node."""


@dataclass(frozen=True)
class SearchConfig:
    """Everything that selects an algorithm variant (see :mod:`pacman.agents.search.core`).

    ``depth`` is in depth units (``None``: unlimited).  ``order`` is a move
    ordering spec (:mod:`pacman.agents.search.ordering`) applied at MAX/MIN nodes;
    ``root_order`` overrides it at the root with an explicit permutation of
    the root actions.  ``table`` enables the transposition table and
    evaluation cache; ``hash_moves`` additionally searches the table's best
    action first at every node.  ``deadline`` is a ``clock()`` time after
    which the search raises :class:`SearchTimeout`.  ``watcher`` is told every step of the
    search (:class:`SearchWatcher`); ``None`` costs nothing.
    """

    depth: int | None = None
    prune: bool = False
    strict: bool = False
    min_as_chance: bool = False
    allow_chance: bool = True
    evaluate: Callable[[Any], float] | None = None
    order: OrderSpec = "none"
    rng: random.Random | None = None
    table: TranspositionTable | None = None
    hash_moves: bool = False
    bounds: tuple[float, float] | None = None
    opponent_model: OpponentModel | None = None
    trace: bool = False
    deadline: float | None = None
    clock: Callable[[], float] = time.perf_counter
    root_order: Sequence[Any] | None = None
    watcher: SearchWatcher | None = None

"""Result and statistics records returned by every search.

Counting conventions (the same for every algorithm):

* ``nodes_generated`` counts states produced by the search: the root plus
  every successor the search asked the game for.  A pruned child is never
  generated and so never counted.
* ``terminal_utilities`` counts calls of ``Utility(s)`` on end states.
* ``static_evaluations`` counts calls of ``Eval(s)`` on non-terminal states
  where the depth limit was reached.
* ``leaf_evaluations`` is their sum: every leaf of the searched tree gets a
  value without being expanded.  This is what the recitation calls "static
  evaluation" (in a lecture tree the leaves' printed numbers are the static
  values), so the trace list ``evaluated`` records both kinds in order.
* ``ordering_evaluations`` counts values computed only to order moves.
* ``cache_hits`` counts leaf values (static evaluations and terminal
  utilities) taken from the evaluation cache instead of being computed.
* ``transposition_hits`` counts subtree values taken from the
  transposition table instead of being searched.
* ``depth_cuts`` counts non-terminal states valued at the depth limit,
  whether their evaluation was computed or cached.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class Counters:
    """Mutable per-search counters; turned into :class:`SearchStats` at the end."""

    __slots__ = (
        "generated",
        "static_evaluations",
        "terminal_utilities",
        "ordering_evaluations",
        "cutoffs",
        "cache_hits",
        "transposition_hits",
        "depth_cuts",
    )

    def __init__(self) -> None:
        self.generated = 0
        self.static_evaluations = 0
        self.terminal_utilities = 0
        self.ordering_evaluations = 0
        self.cutoffs = 0
        self.cache_hits = 0
        self.transposition_hits = 0
        self.depth_cuts = 0

    def add(self, other: Counters | SearchStats) -> None:
        """Accumulate another set of counts (used across deepening iterations)."""
        self.generated += other.generated if isinstance(other, Counters) else other.nodes_generated
        self.static_evaluations += other.static_evaluations
        self.terminal_utilities += other.terminal_utilities
        self.ordering_evaluations += other.ordering_evaluations
        self.cutoffs += other.cutoffs
        self.cache_hits += other.cache_hits
        self.transposition_hits += other.transposition_hits
        self.depth_cuts += other.depth_cuts

    def freeze(
        self,
        *,
        depth_reached: int | None,
        elapsed: float,
        generated_states: tuple[Any, ...] | None = None,
        evaluated_states: tuple[Any, ...] | None = None,
    ) -> SearchStats:
        return SearchStats(
            nodes_generated=self.generated,
            static_evaluations=self.static_evaluations,
            terminal_utilities=self.terminal_utilities,
            ordering_evaluations=self.ordering_evaluations,
            cutoffs=self.cutoffs,
            cache_hits=self.cache_hits,
            transposition_hits=self.transposition_hits,
            depth_cuts=self.depth_cuts,
            depth_reached=depth_reached,
            elapsed=elapsed,
            generated=generated_states,
            evaluated=evaluated_states,
        )


@dataclass(frozen=True)
class SearchStats:
    """What a search did.  See the module docstring for the definitions.

    ``depth_reached`` is the depth limit that was fully searched (``None`` for
    an unlimited search); for iterative deepening, the deepest completed
    iteration.  ``generated`` and ``evaluated`` are only filled with
    ``trace=True``: the generated states in generation order (root first) and
    the leaf states valued by ``Utility`` or ``Eval`` in order.
    """

    nodes_generated: int
    static_evaluations: int
    terminal_utilities: int
    ordering_evaluations: int
    cutoffs: int
    cache_hits: int
    transposition_hits: int
    depth_cuts: int
    depth_reached: int | None
    elapsed: float
    generated: tuple[Any, ...] | None = field(default=None, repr=False)
    evaluated: tuple[Any, ...] | None = field(default=None, repr=False)

    @property
    def leaf_evaluations(self) -> int:
        """Terminal utilities plus static evaluations."""
        return self.terminal_utilities + self.static_evaluations


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a search from one root state.

    ``value`` is the root value (MAX's view; a tuple for max^n).  ``action`` is
    the chosen root action: the first best one in the searched move order,
    or ``None`` when the root is terminal, cut by the depth limit, or a chance
    node.  ``root_values`` maps each searched root action to the value the
    search computed for it: under pruning, children after the first may carry
    only a bound (an upper bound at a MAX root, a lower bound at a MIN root),
    and children pruned outright are absent.  ``principal_variation`` lists
    the chosen actions from the root while MAX/MIN nodes choose; it stops at
    chance nodes and leaves, and right after the stored move of a value taken
    from a transposition table.
    """

    value: Any
    action: Any
    root_values: dict[Any, Any]
    principal_variation: tuple[Any, ...]
    stats: SearchStats

"""Transposition table: cached static evaluations and search results.

Search results are stored under ``(state_key, remaining_depth)`` with a bound
flag, so an entry is only reused at the same remaining depth.  That keeps a
search with a table returning exactly what it returns without one (a value
from a deeper search would be "better" but different).  Flags follow the
alpha-beta convention:

* ``EXACT``: the stored value is the node's value;
* ``LOWER``: the search failed high; the true value is >= the stored value;
* ``UPPER``: the search failed low; the true value is <= the stored value.

The table also remembers the best action found at each state (any depth),
which iterative deepening uses to search that action first next time, and
caches static evaluations by state key (the recitation: "cache the static
values").  A table is only valid for one game, one evaluation function and
one kind of search (minimax and expectimax values differ); iterative
deepening keeps its own.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

EXACT = 0
LOWER = 1
UPPER = 2


def bound_flag(value: float, alpha: float, beta: float, prune: bool, strict: bool) -> int:
    """The flag of ``value`` searched with the window ``(alpha, beta)``: ``EXACT`` without
    pruning or inside the window, ``UPPER`` when it failed low, ``LOWER`` when it failed high
    (at the bound itself too, unless ``strict``: a strict search prunes only beyond it)."""
    if not prune:
        return EXACT
    if strict:
        return UPPER if value < alpha else LOWER if value > beta else EXACT
    return UPPER if value <= alpha else LOWER if value >= beta else EXACT


class TranspositionTable:
    """Plain-dict storage; the search reads the dicts directly for speed."""

    __slots__ = ("entries", "best_moves", "evaluations")

    def __init__(self) -> None:
        #: (state_key, depth) -> (flag, value, best_action or None)
        self.entries: dict[tuple[Hashable, Any], tuple[int, float, Any]] = {}
        #: state_key -> best action found by the latest search of that state
        self.best_moves: dict[Hashable, Any] = {}
        #: state_key -> cached static evaluation
        self.evaluations: dict[Hashable, float] = {}

    def __len__(self) -> int:
        return len(self.entries)

    def clear(self) -> None:
        self.entries.clear()
        self.best_moves.clear()
        self.evaluations.clear()

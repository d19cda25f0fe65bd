"""Expectimax with a node budget: the work of a move is bounded whatever the number of ghosts.

A full-width search of ``depth`` rounds visits about ``b ** depth`` states, where ``b`` is the
product of every agent's number of moves: 45 with two ghosts, but thousands with eight, when
even one round is out of reach. :func:`bounded_expectimax` searches exactly as plain expectimax
when an upper estimate of the tree fits the budget, and otherwise deepens one round at a time,
keeping the deepest round that finished within the budget (one ply of Pacman's moves, valued by
the evaluation, if not even one round fits).

The budget counts generated states, not seconds, so a seed still fixes a game exactly.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any
from collections.abc import Callable

from pacman.agents.search.algorithms import expectimax
from pacman.agents.search.deepening import iterative_deepening
from pacman.agents.search.result import SearchResult
from pacman.engine.rules import legal_actions, successor
from pacman.engine.state import GameState


def estimated_nodes(state: GameState, depth: int) -> int:
    """An upper estimate of the states a full-width search of ``depth`` rounds generates from
    ``state``: the branching of this round (every agent's legal moves now; a ghost has at most
    three) raised to each depth."""
    branching = len(legal_actions(state, 0))
    for ghost in range(1, state.num_agents):
        branching *= max(1, len(legal_actions(state, ghost)))
    if branching <= 1:
        return depth
    return sum(branching ** d for d in range(1, depth + 1))


def bounded_expectimax(game: Any, state: GameState, depth: int, node_budget: int,
                       evaluation: Callable[[GameState], float]) -> SearchResult:
    """Expectimax of ``depth`` rounds if it fits ``node_budget`` generated states, else the
    deepest depth that finished within the budget, else Pacman's best move by ``evaluation``
    of its immediate successor."""
    if state.outcome is not None or estimated_nodes(state, depth) <= node_budget:
        return expectimax(game, state, depth=depth)
    return bounded_search(game, state, depth, node_budget, evaluation, "expectimax")


def bounded_search(game: Any, state: GameState, depth: int, node_budget: int,
                   evaluation: Callable[[GameState], float], algorithm: str,
                   **options: Any) -> SearchResult:
    """``algorithm`` (``expectimax`` or ``alphabeta``, with ``options``) deepened one round at a
    time up to ``depth`` while the generated states stay within ``node_budget``: the deepest
    round that finished (its result is the plain search's at that depth, as no iteration
    reorders the moves), else Pacman's best move by ``evaluation`` of its immediate successor.

    Alpha-beta's tree is far smaller than the full-width estimate, so it is always run this way:
    the full depth when it fits, the shallower rounds cost about one in ``b`` of the last."""
    began = time.perf_counter()
    result = iterative_deepening(game, state, max_depth=depth, node_budget=node_budget,
                                 algorithm=algorithm, table=False, reorder="none", **options)
    if result.stats.depth_reached == 0:
        values = {action: evaluation(successor(state, action))
                  for action in legal_actions(state, state.turn)}
        best = max(values.values())
        result = dataclasses.replace(result, value=best, root_values=values,
                                     action=next(a for a, v in values.items() if v == best))
    stats = dataclasses.replace(result.stats, elapsed=time.perf_counter() - began)
    return dataclasses.replace(result, stats=stats)


__all__ = ["estimated_nodes", "bounded_expectimax", "bounded_search"]

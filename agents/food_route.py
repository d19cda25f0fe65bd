"""Routes to food under the chase: a plan toward the next dot beyond the search's horizon.

On a large maze with four ghosts the food left is often farther than the seven or eight rounds
a time-limited search sees, or behind the ghosts. The search then weighs the evaluation's pull
to the nearest dot against its danger terms, and Pacman hesitates in front of the chasing
ghosts (one game of the strongest setting spent 90 moves on its last dot) until they close
in. Against chasing ghosts a way to food can be planned much further ahead, as
:mod:`pacman.agents.chase_survival` plans a way out: with each ghost's move fixed to the chaser's, only
Pacman's moves branch, and a depth-first search tries first the move that ends nearest a dot.

:func:`route_to_food` is that search: a line on which Pacman eats a dot within ``rounds``
rounds and after which he can still outrun the chase (:func:`pacman.agents.chase_survival.outruns`).
:func:`steer_to_food` applies its first move to a search's result: it replaces the search's
move unless the search, which searched it first so as to value it exactly, finds it worse than
its best by more than a margin (a capture, a capsule or ghosts left uneaten, a trap).
"""

from __future__ import annotations

import dataclasses

from collections.abc import Sequence

from pacman.agents.chase_survival import ROUNDS, CheckBudget, OutOfBudget, chase_round, outruns
from pacman.agents.maze_tables import maze_tables
from pacman.agents.search.result import SearchResult
from pacman.engine.rules import legal_actions, successor
from pacman.engine.state import (CAPSULES, DIRECTIONS, FOOD, LAYOUT, LOSS, OUTCOME, POSITIONS, SCARED_TIMERS, TURN, WIN,
                          GameState)

#: rounds a route may take to its first dot
ROUTE_ROUNDS = 30
#: Pacman nodes (a route's and its final outrun checks') one decision may spend
ROUTE_NODES = 1500
#: the most points below the search's best root value at which the route's move is played
ROUTE_MARGIN = 30.0


def route_to_food(state: GameState, rounds: int = ROUTE_ROUNDS, after: int = ROUNDS,
                  budget: int | CheckBudget = ROUTE_NODES) -> str | None:
    """The first move of a line on which Pacman, to move in ``state``, eats a dot (or wins)
    within ``rounds`` rounds while every ghost plays the chasing move
    (:func:`pacman.agents.ghost_focus.chase_action`), and after which he can still outrun them for
    ``after`` rounds. ``None`` when there is no such line or ``budget`` (Pacman nodes, or a
    :class:`CheckBudget` that also bounds the time) ran out first. Among first moves, the one
    ending nearest a dot is tried first."""
    if state[OUTCOME] is not None or state[TURN] != 0 or not state[FOOD]:
        return None
    if not isinstance(budget, CheckBudget):
        budget = CheckBudget(budget)
    to_food = maze_tables(state[LAYOUT]).food_distances(state[FOOD])  # the food stays until a dot is eaten
    try:
        return _route(state, rounds, after, to_food, {}, budget)
    except OutOfBudget:
        return None


def _route(state: GameState, rounds: int, after: int, to_food: Sequence[int],
           tried: dict[tuple[object, ...], int], budget: CheckBudget) -> str | None:
    # the food is the same all along a line (the first dot ends it), so it is not in the key
    key = (state[POSITIONS], state[DIRECTIONS], state[SCARED_TIMERS], state[CAPSULES])
    if tried.get(key, -1) >= rounds:
        return None
    tried[key] = rounds
    budget.spend()
    food = state[FOOD]
    onward: list[tuple[int, int, str, GameState]] = []
    for action in legal_actions(state, 0):
        child = chase_round(successor(state, action))
        if child[OUTCOME] == WIN:
            return action
        if child[OUTCOME] == LOSS:
            continue
        if child[FOOD] != food:  # a dot eaten: a route if he can still get away
            escaped = outruns(child, after, budget)
            if escaped:
                return action
            if escaped is None:
                raise OutOfBudget
            continue
        distance = to_food[child[POSITIONS][0]]
        if 0 <= distance < rounds:  # a dot is reachable in time
            onward.append((distance, len(onward), action, child))
    onward.sort()
    for _, _, action, child in onward:
        if _route(child, rounds - 1, after, to_food, tried, budget) is not None:
            return action
    return None


def steer_to_food(result: SearchResult, route: str | None,
                  margin: float = ROUTE_MARGIN) -> SearchResult:
    """``result`` with its action replaced by ``route`` (the first move of a
    :func:`route_to_food` line, or ``None``) when the search valued that move at most
    ``margin`` points below its best root value. The search must have searched ``route``
    first at the root (``iterative_deepening(..., first=route)``), so that its root value is
    exact: a move searched later that alpha-beta refuted has only a bound, which may hide a
    capture. Unchanged otherwise, and when the search did not consider ``route``."""
    if route is None or route == result.action:
        return result
    value = result.root_values.get(route)
    if value is None or value < max(result.root_values.values()) - margin:
        return result
    return dataclasses.replace(result, action=route, principal_variation=(route,))


__all__ = ["route_to_food", "steer_to_food", "ROUTE_ROUNDS", "ROUTE_NODES", "ROUTE_MARGIN"]

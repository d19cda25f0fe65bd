"""Outrunning the chase: a deep check for traps beyond the search's horizon.

A worst-case search of a few rounds sees a capture only once the ghosts can force it within
its depth. On a large maze with four ghosts the trap closes earlier than that: Pacman walks
into a region whose exits the chasing ghosts reach first, and when the search sees the capture,
every move already loses. Ghosts that chase (a directional ghost takes the chasing move four
times in five) are predictable, so the trap can be seen much further ahead against them: with
each ghost's move fixed to the chaser's, only Pacman's moves branch, and a depth-first search
with memory finds in a few dozen nodes a line on which he is not caught for twenty rounds, or
proves there is none.

:func:`outruns` is that search. :func:`veto_trap` applies it to a search's chosen move: when
Pacman cannot outrun the chase after it, but can after another root move, the best of those by
the search's own root values is played instead. A move is vetoed only on proof (a capture on
every line); a check that runs out of nodes or time changes nothing.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

from pacman.agents.ghost_focus import chase_action
from pacman.agents.search.result import SearchResult
from pacman.engine.rules import legal_actions, successor
from pacman.engine.state import (CAPSULES, DIRECTIONS, FOOD, LAYOUT, LOSS, OUTCOME, POSITIONS, SCARED_TIMERS, TURN, WIN,
                          GameState)

#: rounds of chasing a move must survive (deeper than the time-limited search's 6-9 rounds)
ROUNDS = 20
#: Pacman nodes one veto may visit before it gives up (about 50 microseconds each)
NODE_BUDGET = 500


class OutOfBudget(Exception):
    """A check's nodes or time ran out before it decided (raised by
    :meth:`CheckBudget.spend`; the route search of :mod:`pacman.agents.food_route` catches it too)."""


class CheckBudget:
    """What chase checks may still spend: ``nodes`` Pacman nodes and, with a ``clock``, the
    time until ``deadline`` on it. Checks given the same budget share it."""

    __slots__ = ("nodes", "clock", "deadline")

    def __init__(self, nodes: int = NODE_BUDGET, clock: Callable[[], float] | None = None,
                 deadline: float = math.inf) -> None:
        self.nodes = nodes
        self.clock = clock
        self.deadline = deadline

    def spend(self) -> None:
        """Take one node; raise :class:`OutOfBudget` when none or no time is left."""
        self.nodes -= 1
        if self.nodes < 0 or (self.clock is not None and self.clock() > self.deadline):
            raise OutOfBudget


def chase_round(state: GameState) -> GameState:
    """``state`` after every ghost still to move this round plays its chasing move: the state
    at Pacman's next turn, or where the game ended."""
    while state[OUTCOME] is None and state[TURN] != 0:
        turn = state[TURN]
        state = successor(state, chase_action(state, turn, legal_actions(state, turn)))
    return state


def outruns(state: GameState, rounds: int = ROUNDS,
            budget: int | CheckBudget = NODE_BUDGET) -> bool | None:
    """Whether Pacman, to move in ``state``, has a line on which ghosts that each play the
    chasing move do not catch him within ``rounds`` rounds (winning counts as escaping).
    ``None`` when the budget did not decide it: a number of Pacman nodes, or a
    :class:`CheckBudget` that several checks share and that is left holding what remains."""
    if state[OUTCOME] is not None:
        return state[OUTCOME] != LOSS
    try:
        return _outruns(state, rounds, {}, _as_budget(budget))
    except OutOfBudget:
        return None


def _as_budget(budget: int | CheckBudget) -> CheckBudget:
    return budget if isinstance(budget, CheckBudget) else CheckBudget(budget)


def _outruns(state: GameState, rounds: int, memo: dict[tuple[object, ...], bool],
             budget: CheckBudget) -> bool:
    if rounds == 0:
        return True
    # the score plays no part
    key = (state[POSITIONS], state[DIRECTIONS], state[SCARED_TIMERS], state[FOOD], state[CAPSULES], rounds)
    known = memo.get(key)
    if known is not None:
        return known
    budget.spend()
    alive: list[tuple[int, int, GameState]] = []
    for action in legal_actions(state, 0):
        after = chase_round(successor(state, action))
        if after[OUTCOME] == WIN:
            memo[key] = True
            return True
        if after[OUTCOME] != LOSS:
            alive.append((-nearest_hunter_distance(after), len(alive), after))
    alive.sort()  # the move that ends farthest from the nearest hunting ghost first
    found = any(_outruns(after, rounds - 1, memo, budget) for _, _, after in alive)
    memo[key] = found
    return found


def nearest_hunter_distance(state: GameState) -> int:
    """Maze steps from Pacman to the nearest hunting ghost that can reach him; the maze's
    diameter when there is none."""
    row = state[LAYOUT].distance_rows[state[POSITIONS][0]]
    return min((row[cell] for cell, timer in zip(state[POSITIONS][1:], state[SCARED_TIMERS])
                if not timer and row[cell] >= 0), default=state[LAYOUT].diameter)


def escapes_after(state: GameState, action: str, rounds: int = ROUNDS,
                  budget: int | CheckBudget = NODE_BUDGET) -> bool | None:
    """:func:`outruns` from the state after Pacman plays ``action`` in ``state`` and the ghosts
    reply by chasing (one of the ``rounds``)."""
    return outruns(chase_round(successor(state, action)), rounds - 1, budget)


def veto_trap(state: GameState, result: SearchResult, rounds: int = ROUNDS,
              budget: int | CheckBudget = NODE_BUDGET) -> SearchResult:
    """``result`` with its action replaced when Pacman provably cannot outrun the chase after
    it (:func:`escapes_after` is ``False``) but provably can after another root move that the
    search considered: the one of those with the highest root value. Unchanged otherwise. The
    checks share ``budget`` (Pacman nodes, and a deadline with a :class:`CheckBudget`), which
    bounds the time the veto adds to a move."""
    chosen = result.action
    budget = _as_budget(budget)
    if chosen is None or escapes_after(state, chosen, rounds, budget) is not False:
        return result
    values = result.root_values
    searched = values or legal_actions(state, 0)  # the moves the search considered
    others = sorted((a for a in searched if a != chosen),
                    key=lambda a: -values.get(a, float("-inf")))
    for action in others:
        if escapes_after(state, action, rounds, budget):
            return dataclasses.replace(result, action=action, principal_variation=(action,))
    return result

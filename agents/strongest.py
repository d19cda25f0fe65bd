"""``strongest``: the deepening agent with the setting measured strongest on the classic mazes.

The setting and its measurements are in ``docs/strongest-pacman.md``: iterative-deepening
alpha-beta under 40 ms of CPU a move, no move ordering beyond the previous iteration's, the
``strong`` evaluation, and four additions (``resist``, ``focus=horizon``, ``outrun=20``,
``route=30``). Every option can still be changed (``-a time_budget=0.2``).
"""

from __future__ import annotations

import random
from typing import Literal

from pacman.agents.evaluation import STRONG, Evaluation
from pacman.agents.food_route import ROUTE_MARGIN
from pacman.agents.search_agents import IterativeDeepeningAgent, Ordering


class StrongestPacman(IterativeDeepeningAgent):
    """Iterative-deepening alpha-beta with the strongest measured setting (40 ms a move, the
    strong evaluation, resist, horizon focus, outrun 20, route 30).

    The options and their meaning are :class:`IterativeDeepeningAgent`'s; only the defaults
    differ.
    """

    def __init__(self, index: int = 0, rng: random.Random | None = None, *,
                 time_budget: float = 0.04, max_depth: int = 30,
                 evaluation: Evaluation = STRONG,
                 order: Ordering = "none", table: bool = True,
                 reorder: Literal["none", "root", "all"] = "all",
                 clock: Literal["cpu", "wall"] = "cpu", resist: bool = True,
                 focus: int | Literal["horizon"] = "horizon", outrun: int = 20, route: int = 30,
                 route_margin: float = ROUTE_MARGIN) -> None:
        super().__init__(index, rng, time_budget=time_budget, max_depth=max_depth,
                         evaluation=evaluation, order=order, table=table, reorder=reorder,
                         clock=clock, resist=resist, focus=focus, outrun=outrun, route=route,
                         route_margin=route_margin)

"""Iterative (progressive) deepening: an anytime search under a time budget.

Depth 1, 2, 3 ... are searched in turn with the same algorithm.  When the
time budget runs out the unfinished iteration is abandoned and the result of
the deepest *finished* iteration is returned.  Between iterations the root
children are reordered by the values of the previous iteration (recitation
001: the maximiser tries its likely winner first, so the later siblings are
refuted quickly); with ``reorder="all"`` every node also tries first the best
action the previous iteration found there.  A transposition table carried
across iterations caches static values (the recitation: evaluations done in
an earlier iteration need not be repeated).

Iterations stop early once one of them met no depth cut at all: deeper
searches would only repeat it.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from .algorithms import algorithm_config
from .core import OpponentModel, SearchConfig, SearchTimeout, run_search
from .game import Game, NodeKind
from .nodes import CHECK_EVERY
from .ordering import OrderSpec, make_orderer
from .result import Counters, SearchResult
from .table import TranspositionTable

REORDERINGS = ("none", "root", "all")


class NodeBudget:
    """A budget of generated states, spent through the search's clock: a search reads its
    clock once every :data:`~pacman.agents.search.nodes.CHECK_EVERY` generated states, and this
    "clock" ticks once each time it is read, so a deadline of ``n`` ticks stops a search after
    about ``n * CHECK_EVERY`` states, the same number on every run."""

    def __init__(self) -> None:
        self.ticks = 0

    def __call__(self) -> float:
        self.ticks += 1
        return float(self.ticks)


def iterative_deepening(
    game: Game,
    state: Any,
    *,
    max_depth: int | None = None,
    time_budget: float | None = None,
    node_budget: int | None = None,
    algorithm: str = "alphabeta",
    strict: bool = False,
    evaluate: Callable[[Any], float] | None = None,
    order: OrderSpec = "none",
    rng: random.Random | None = None,
    reorder: str = "root",
    table: TranspositionTable | bool = True,
    bounds: tuple[float, float] | None = None,
    opponent_model: OpponentModel | None = None,
    trace: bool = False,
    clock: Callable[[], float] = time.perf_counter,
    on_iteration: Callable[[SearchResult], None] | None = None,
    first: Any | None = None,
) -> SearchResult:
    """Search to depth 1, 2, ... until ``max_depth``, ``time_budget`` seconds or ``node_budget``
    generated states.

    At least one of ``max_depth``, ``time_budget`` and ``node_budget`` is required; a node
    budget replaces the time budget and the clock (see :class:`NodeBudget`): it stops the
    search after the same number of states on every run (``stats.elapsed`` then counts the
    budget's ticks).  Returns
    the result of the deepest finished iteration, with ``stats`` accumulated
    over all iterations (including the abandoned one) and
    ``stats.depth_reached`` the depth of that iteration.  If not even depth 1
    finishes, the result has ``value`` NaN, the first legal action and
    ``depth_reached`` 0.  ``table=True`` uses a fresh
    :class:`TranspositionTable`; ``False`` uses none (``reorder="all"`` then
    still keeps one for its best moves).  ``on_iteration`` is called with
    each finished iteration's own result.  ``first`` (a root action, or ``None``) is searched
    first at the root in every iteration, ahead of any reordering, so that its root value is
    exact rather than a bound.
    """
    if node_budget is not None:
        if time_budget is not None:
            raise ValueError("iterative deepening takes a time budget or a node budget, not both")
        time_budget, clock = max(1, node_budget // CHECK_EVERY), NodeBudget()
    if max_depth is None and time_budget is None:
        raise ValueError("iterative deepening needs max_depth, time_budget or node_budget")
    if reorder not in REORDERINGS:
        raise ValueError(f"unknown reorder {reorder!r}; expected one of {', '.join(REORDERINGS)}")
    start = clock()
    deadline = None if time_budget is None else start + time_budget
    if order == "history":
        order = make_orderer(order)  # type: ignore[assignment]  # one orderer, so later iterations use what earlier ones learnt
    if table is True or (table is False and reorder == "all"):
        table = TranspositionTable()
    elif table is False:
        table = None  # type: ignore[assignment]  # from here on: a table or None
    base = algorithm_config(algorithm, strict=strict, trace=trace, evaluate=evaluate, order=order,
                            rng=rng, table=table, hash_moves=reorder == "all", bounds=bounds,
                            opponent_model=opponent_model, deadline=deadline, clock=clock)
    return _deepen(game, state, base, max_depth, reorder, trace, start, on_iteration, first)


def _deepen(game: Game, state: Any, base: SearchConfig, max_depth: int | None, reorder: str,
            trace: bool, start: float, on_iteration: Callable[[SearchResult], None] | None,
            first: Any | None) -> SearchResult:
    """Search depth 1, 2, ... with ``base`` until the depth, the deadline or the tree runs out."""
    clock, deadline = base.clock, base.deadline
    counters = Counters()
    traces: tuple[list[Any], list[Any]] | None = ([], []) if trace else None
    best: SearchResult | None = None
    root_order: Sequence[Any] | None = None
    depth = 1
    while max_depth is None or depth <= max_depth:
        if deadline is not None and clock() >= deadline:
            break
        cfg = dataclasses.replace(base, depth=depth, root_order=_first_of(game, state, first,
                                                                             root_order))
        iteration = Counters()
        try:
            result = run_search(game, state, cfg, counters=iteration)
        except SearchTimeout:
            counters.add(iteration)
            break
        counters.add(iteration)
        if traces is not None:
            traces[0].extend(result.stats.generated or ())
            traces[1].extend(result.stats.evaluated or ())
        best = result
        if on_iteration is not None:
            on_iteration(result)
        s = result.stats
        if s.depth_cuts == 0 and s.transposition_hits == 0:
            break  # no depth cut anywhere: the game tree below was searched to the end
        if reorder != "none":
            root_order = _root_order(game, state, result)
        depth += 1
    return _finish(game, state, best, counters, traces, clock() - start)


def _first_of(game: Game, state: Any, first: Any | None,
              root_order: Sequence[Any] | None) -> Sequence[Any] | None:
    """``root_order`` (the game's order when ``None``) with ``first`` moved to the front;
    unchanged when ``first`` is ``None`` or not a root action."""
    if first is None or game.is_end(state):
        return root_order
    actions = list(game.actions(state) if root_order is None else root_order)
    if first not in actions:
        return root_order
    actions.remove(first)
    return [first, *actions]


def _root_order(game: Game, state: Any, result: SearchResult) -> list[Any] | None:
    if result.action is None or not result.root_values:
        return None
    acts = list(game.actions(state))
    searched = [a for a in acts if a in result.root_values]
    rest = [a for a in acts if a not in result.root_values]
    # Stable sort: ties keep the game's move order.
    searched.sort(key=result.root_values.__getitem__, reverse=game.kind(state) is NodeKind.MAX)
    return searched + rest


def _finish(
    game: Game,
    state: Any,
    best: SearchResult | None,
    counters: Counters,
    traces: tuple[list[Any], list[Any]] | None,
    elapsed: float,
) -> SearchResult:
    gen, ev = (None, None) if traces is None else (tuple(traces[0]), tuple(traces[1]))
    if best is None:
        action = None if game.is_end(state) else game.actions(state)[0]
        stats = counters.freeze(depth_reached=0, elapsed=elapsed, generated_states=gen, evaluated_states=ev)
        return SearchResult(value=math.nan, action=action, root_values={}, principal_variation=(), stats=stats)
    stats = counters.freeze(
        depth_reached=best.stats.depth_reached, elapsed=elapsed, generated_states=gen, evaluated_states=ev
    )
    return dataclasses.replace(best, stats=stats)

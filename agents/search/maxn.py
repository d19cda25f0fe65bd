"""max^n: minimax generalised to utility tuples (the Pacman slides, multi-agent utilities).

Terminal states have one utility per player; a node's value is the tuple of
the child chosen by the player moving there, who maximises its own
component (first best in move order on ties).  Chance nodes take the
componentwise expectation.  The game follows
:class:`~pacman.agents.search.game.MultiPlayerGame`.  No pruning: with general
utility tuples alpha-beta style cuts are not sound.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from .game import MultiPlayerGame, NodeKind
from .result import Counters, SearchResult

_UNSET = object()
_CHANCE = NodeKind.CHANCE


def maxn(
    game: MultiPlayerGame,
    state: Any,
    *,
    depth: int | None = None,
    evaluate: Callable[[Any], tuple[float, ...]] | None = None,
    trace: bool = False,
) -> SearchResult:
    """Search ``state`` with max^n to ``depth`` units (``None``: unlimited).

    ``value`` and the ``root_values`` are tuples; ``action`` is the choice of
    the player moving at the root (``None`` at a chance root).
    """
    if depth is not None and depth < 0:
        raise ValueError(f"depth must be >= 0 or None, got {depth}")
    start = time.perf_counter()
    c = Counters()
    gen_trace: list[Any] | None = [] if trace else None
    eval_trace: list[Any] | None = [] if trace else None
    static = evaluate if evaluate is not None else game.evaluate
    leaf, expand = _node_functions(game, static, c, gen_trace, eval_trace)
    c.generated += 1
    if gen_trace is not None:
        gen_trace.append(state)
    d0 = math.inf if depth is None else depth
    root_leaf = leaf(state, d0)
    if root_leaf is not None:
        root_values: dict[Any, float]
        v, root_values, pv = root_leaf, {}, ()
    else:
        v, root_values, pv = expand(state, d0)
    stats = c.freeze(
        depth_reached=depth,
        elapsed=time.perf_counter() - start,
        generated_states=None if gen_trace is None else tuple(gen_trace),
        evaluated_states=None if eval_trace is None else tuple(eval_trace),
    )
    return SearchResult(value=v, action=pv[0] if pv else None, root_values=root_values,
                        principal_variation=pv, stats=stats)


def _node_functions(game: MultiPlayerGame, static: Callable[[Any], tuple[float, ...]], c: Counters,
                    gen_trace: list[Any] | None, eval_trace: list[Any] | None) -> tuple[Callable, Callable]:
    """``(leaf, expand)``, closures of one search: ``leaf(state, depth)`` is an end state's utility
    tuple or the evaluation at the depth limit, else ``None``; ``expand(state, depth)`` is
    ``(value, child values, principal variation)`` of any other state."""
    kind, player, is_end, utility, actions = game.kind, game.player, game.is_end, game.utility, game.actions
    succ, probs_of, ends_unit = game.successor, game.probabilities, game.ends_depth_unit
    last_pv: tuple = ()

    def generate(s: Any, a: Any) -> Any:
        child = succ(s, a)
        c.generated += 1
        if gen_trace is not None:
            gen_trace.append(child)
        return child

    def leaf(s: Any, d: Any) -> tuple | None:
        if is_end(s):
            c.terminal_utilities += 1
        elif d == 0:
            c.static_evaluations += 1
            c.depth_cuts += 1
        else:
            return None
        if eval_trace is not None:
            eval_trace.append(s)
        return tuple(utility(s) if is_end(s) else static(s))

    def expand(s: Any, d: Any) -> tuple[Any, dict, tuple]:
        acts = actions(s)
        nd = d - 1 if ends_unit(s) else d
        values: dict[Any, tuple] = {}
        if kind(s) is _CHANCE:
            weighted = []
            for a, p in zip(acts, probs_of(s)):
                values[a] = v = value(generate(s, a), nd)
                weighted.append((p, v))
            return _expectation(weighted), values, ()
        i = player(s)
        best: Any = None
        ba: Any = _UNSET
        bpv: tuple = ()
        for a in acts:
            v = value(generate(s, a), nd)
            values[a] = v
            if ba is _UNSET or v[i] > best[i]:
                best, ba, bpv = v, a, last_pv
        return best, values, (ba,) + bpv

    def value(s: Any, d: Any) -> tuple:
        nonlocal last_pv
        v = leaf(s, d)
        if v is not None:
            last_pv = ()
            return v
        v, _, line = expand(s, d)
        last_pv = line
        return v

    return leaf, expand


def _expectation(weighted: list[tuple[float, tuple]]) -> tuple:
    """The componentwise mean of utility tuples given as ``(probability, tuple)`` pairs."""
    total: list[float] | None = None
    for p, v in weighted:
        total = [p * x for x in v] if total is None else [t + p * x for t, x in zip(total, v)]
    return tuple(total or ())

"""The one recursive search behind minimax, alpha-beta, expectimax and expectiminimax.

A node's value is computed by dispatching on its kind (seed 003's
``value(state)`` dispatch): MAX takes the maximum, MIN the minimum and CHANCE
the probability-weighted mean of the children.  The named algorithms are
configurations of this one search (see :mod:`agents.search.algorithms`):

* ``prune`` turns on alpha-beta with seed 003's tests: stop a MAX node once
  ``v >= beta`` and a MIN node once ``v <= alpha``; ``strict`` uses ``>`` and
  ``<`` instead.  Values are fail-soft: a pruned node returns a bound.
* ``min_as_chance`` searches MIN nodes as chance nodes (expectimax against an
  opponent model: uniform, or ``opponent_model(state, actions) -> probs``).
* ``bounds=(lo, hi)`` promises every utility and evaluation lies in
  ``[lo, hi]``; a chance node then stops as soon as even the best (or worst)
  remaining outcomes cannot bring its mean back inside the window.
* ``depth`` limits the search; ``Game.ends_depth_unit`` says which moves use
  up a unit, and states reached with no depth left get the static
  evaluation.

Children are generated lazily, one at a time, in the (possibly reordered)
move order, so a pruned child is never generated.  The only exception is
``order="evaluation"``, which must generate every child to score it.  At the
root the first best action in the searched order wins: later children
replace it only when strictly better.

Counters live on a per-search :class:`~agents.search.result.Counters`
object; the recursive function is a closure over plain locals so that the
per-node overhead stays small.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .game import Game, NodeKind, key_function
from .ordering import OrderSpec, make_orderer
from .result import Counters, SearchResult
from .table import EXACT, LOWER, UPPER, TranspositionTable

INF = math.inf
_UNSET = object()
#: generated nodes between two looks at the clock when a deadline is set
CHECK_EVERY = 256

OpponentModel = Callable[[Any, Sequence[Any]], Sequence[float]]


class SearchTimeout(Exception):
    """Raised out of a search whose deadline passed (caught by iterative deepening)."""


class ChanceNodeError(ValueError):
    """A search that handles only MAX and MIN nodes met a chance node."""


@dataclass(frozen=True)
class SearchConfig:
    """Everything that selects an algorithm variant.  See the module docstring.

    ``depth`` is in depth units (``None``: unlimited).  ``order`` is a move
    ordering spec (:mod:`agents.search.ordering`) applied at MAX/MIN nodes;
    ``root_order`` overrides it at the root with an explicit permutation of
    the root actions.  ``table`` enables the transposition table and
    evaluation cache; ``hash_moves`` additionally searches the table's best
    action first at every node.  ``deadline`` is a ``clock()`` time after
    which the search raises :class:`SearchTimeout`.
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


def run_search(
    game: Game,
    root: Any,
    cfg: SearchConfig,
    *,
    counters: Counters | None = None,
    traces: tuple[list[Any], list[Any]] | None = None,
) -> SearchResult:
    """Search ``root`` with configuration ``cfg`` and return the result.

    ``counters`` and ``traces`` (generated, evaluated) let a caller running
    several searches accumulate into its own records; the returned stats then
    show the accumulated counts.  Raises :class:`SearchTimeout` if
    ``cfg.deadline`` passes (the counters keep what the partial search did),
    and :class:`ChanceNodeError` if ``cfg.allow_chance`` is false and a
    chance node is reached.
    """
    if cfg.depth is not None and cfg.depth < 0:
        raise ValueError(f"depth must be >= 0 or None, got {cfg.depth}")
    if cfg.bounds is not None and not cfg.bounds[0] <= cfg.bounds[1]:
        raise ValueError(f"bounds must satisfy lo <= hi, got {cfg.bounds}")
    clock = cfg.clock
    start = clock()
    if counters is None:
        counters = Counters()
    gen_trace: list[Any] | None = None
    eval_trace: list[Any] | None = None
    if traces is not None:
        gen_trace, eval_trace = traces
    elif cfg.trace:
        gen_trace, eval_trace = [], []
    root_search, _ = _build(game, cfg, counters, gen_trace, eval_trace)
    value, action, root_values, pv = root_search(root)
    stats = counters.freeze(
        depth_reached=cfg.depth,
        elapsed=clock() - start,
        generated_states=None if gen_trace is None else tuple(gen_trace),
        evaluated_states=None if eval_trace is None else tuple(eval_trace),
    )
    return SearchResult(value=value, action=action, root_values=root_values, principal_variation=pv, stats=stats)


def _build(game: Game, cfg: SearchConfig, c: Counters, gen_trace: list | None, eval_trace: list | None):
    """Create the closures of one search; returns (root function, node function)."""
    kind = game.kind
    is_end = game.is_end
    utility = game.utility
    actions = game.actions
    succ = game.successor
    probs_of = game.probabilities
    ends_unit = game.ends_depth_unit
    key_of = key_function(game)
    evaluate = cfg.evaluate if cfg.evaluate is not None else game.evaluate

    MAX, MIN, CHANCE = NodeKind.MAX, NodeKind.MIN, NodeKind.CHANCE
    prune = cfg.prune
    strict = cfg.strict
    min_as_chance = cfg.min_as_chance
    allow_chance = cfg.allow_chance
    opponent_model = cfg.opponent_model
    bounded = cfg.bounds is not None
    lo, hi = cfg.bounds if bounded else (-INF, INF)
    orderer = make_orderer(cfg.order, cfg.rng)
    table = cfg.table
    entries = table.entries if table is not None else None
    best_moves = table.best_moves if table is not None else None
    eval_cache = table.evaluations if table is not None else None
    hash_moves = cfg.hash_moves and table is not None
    root_depth = INF if cfg.depth is None else cfg.depth
    deadline = cfg.deadline
    clock = cfg.clock
    hooked = gen_trace is not None or deadline is not None

    last_pv: tuple = ()
    until_check = CHECK_EVERY

    def on_generate(child: Any) -> None:
        nonlocal until_check
        if gen_trace is not None:
            gen_trace.append(child)
        if deadline is not None:
            until_check -= 1
            if until_check <= 0:
                until_check = CHECK_EVERY
                if clock() >= deadline:
                    raise SearchTimeout

    def generate(state: Any, action: Any) -> Any:
        child = succ(state, action)
        c.generated += 1
        if hooked:
            on_generate(child)
        return child

    def leaf(state: Any, value_of: Callable[[Any], float], terminal_leaf: bool) -> float:
        # The cache holds leaf utilities too: in a lecture tree they are the
        # "static values" the recitation caches between deepening iterations.
        if eval_cache is not None:
            sk = key_of(state)
            v = eval_cache.get(sk)
            if v is not None:
                c.cache_hits += 1
                return v
            v = value_of(state)
            eval_cache[sk] = v
        else:
            v = value_of(state)
        if terminal_leaf:
            c.terminal_utilities += 1
        else:
            c.static_evaluations += 1
        if eval_trace is not None:
            eval_trace.append(state)
        return v

    def static(state: Any) -> float:
        return leaf(state, evaluate, False)

    def terminal(state: Any) -> float:
        return leaf(state, utility, True)

    def order_score(child: Any) -> float:
        if eval_cache is None and is_end(child):
            c.ordering_evaluations += 1
            return utility(child)
        if eval_cache is not None:
            sk = key_of(child)
            v = eval_cache.get(sk)
            if v is not None:
                c.cache_hits += 1
                return v
            v = utility(child) if is_end(child) else evaluate(child)
            eval_cache[sk] = v
        else:
            v = evaluate(child)
        c.ordering_evaluations += 1
        return v

    def arrange(state: Any, k: NodeKind, acts: Sequence[Any]) -> tuple[Sequence[Any], dict | None]:
        kids = None
        if orderer is not None:
            acts, kids = orderer.order(state, k, acts, generate, order_score)
        if hash_moves:
            m = best_moves.get(key_of(state), _UNSET)
            if m is not _UNSET and m in acts and acts[0] != m:
                acts = [m] + [a for a in acts if a != m]
        return acts, kids

    def chance_probabilities(state: Any, k: NodeKind, acts: Sequence[Any]) -> Sequence[float] | None:
        if k is CHANCE:
            if not allow_chance:
                raise ChanceNodeError(
                    f"chance node {state!r}: minimax and alpha-beta search only MAX and MIN nodes "
                    "(use expectiminimax)"
                )
            return probs_of(state)
        if opponent_model is not None:
            return opponent_model(state, acts)
        return None  # uniform

    def chance_value(state: Any, k: NodeKind, acts: Sequence[Any], nd: Any, alpha: float, beta: float, tkey: Any) -> float:
        nonlocal last_pv
        ps = chance_probabilities(state, k, acts)
        n = len(acts)
        pu = 1.0 / n
        last = n - 1
        total = 0.0
        rem = 1.0
        flag = EXACT
        for i in range(n):
            child = succ(state, acts[i])
            c.generated += 1
            if hooked:
                on_generate(child)
            p = pu if ps is None else ps[i]
            total += p * value(child, nd, -INF, INF)
            if bounded and i < last:
                rem -= p
                best_case = total + rem * hi
                if best_case <= alpha and (best_case < alpha or not strict):
                    c.cutoffs += 1
                    total = best_case
                    flag = UPPER
                    break
                worst_case = total + rem * lo
                if worst_case >= beta and (worst_case > beta or not strict):
                    c.cutoffs += 1
                    total = worst_case
                    flag = LOWER
                    break
        if tkey is not None:
            entries[tkey] = (flag, total, None)
        last_pv = ()
        return total

    def value(state: Any, depth: Any, alpha: float, beta: float) -> float:
        nonlocal last_pv
        if is_end(state):
            last_pv = ()
            return terminal(state)
        if depth == 0:
            last_pv = ()
            c.depth_cuts += 1
            return static(state)
        tkey = None
        if entries is not None:
            tkey = (key_of(state), depth)
            e = entries.get(tkey)
            if e is not None:
                f, tv, tm = e
                if (
                    f == EXACT
                    or (f == LOWER and tv >= beta and (tv > beta or not strict))
                    or (f == UPPER and tv <= alpha and (tv < alpha or not strict))
                ):
                    c.transposition_hits += 1
                    last_pv = () if tm is None else (tm,)
                    return tv
        k = kind(state)
        acts = actions(state)
        if not acts:
            raise ValueError(f"non-terminal state {state!r} has no actions")
        nd = depth - 1 if ends_unit(state) else depth
        if k is CHANCE or (min_as_chance and k is MIN):
            return chance_value(state, k, acts, nd, alpha, beta, tkey)
        kids = None
        if orderer is not None or hash_moves:
            acts, kids = arrange(state, k, acts)
        ba = _UNSET
        bpv: tuple = ()
        if k is MAX:
            a0 = alpha
            v = -INF
            for a in acts:
                if kids is None:
                    child = succ(state, a)
                    c.generated += 1
                    if hooked:
                        on_generate(child)
                else:
                    child = kids[a]
                cv = value(child, nd, alpha, beta)
                if cv > v:
                    v = cv
                    ba = a
                    bpv = last_pv
                    if prune:
                        if v >= beta and (v > beta or not strict):
                            c.cutoffs += 1
                            break
                        if v > alpha:
                            alpha = v
            b0 = beta
        else:
            b0 = beta
            v = INF
            for a in acts:
                if kids is None:
                    child = succ(state, a)
                    c.generated += 1
                    if hooked:
                        on_generate(child)
                else:
                    child = kids[a]
                cv = value(child, nd, alpha, beta)
                if cv < v:
                    v = cv
                    ba = a
                    bpv = last_pv
                    if prune:
                        if v <= alpha and (v < alpha or not strict):
                            c.cutoffs += 1
                            break
                        if v < beta:
                            beta = v
            a0 = alpha
        if ba is _UNSET:
            ba = acts[0]
        if tkey is not None:
            if not prune:
                flag = EXACT
            elif strict:
                flag = UPPER if v < a0 else LOWER if v > b0 else EXACT
            else:
                flag = UPPER if v <= a0 else LOWER if v >= b0 else EXACT
            entries[tkey] = (flag, v, ba)
            best_moves[tkey[0]] = ba
        last_pv = (ba,) + bpv
        return v

    def root_search(state: Any) -> tuple[Any, Any, dict, tuple]:
        c.generated += 1
        if hooked:
            on_generate(state)
        if is_end(state):
            return terminal(state), None, {}, ()
        if root_depth == 0:
            c.depth_cuts += 1
            return static(state), None, {}, ()
        k = kind(state)
        acts = actions(state)
        if not acts:
            raise ValueError(f"non-terminal state {state!r} has no actions")
        nd = root_depth - 1 if ends_unit(state) else root_depth
        values: dict[Any, Any] = {}
        if k is CHANCE or (min_as_chance and k is MIN):
            ps = chance_probabilities(state, k, acts)
            n = len(acts)
            total = 0.0
            for i in range(n):
                a = acts[i]
                cv = value(generate(state, a), nd, -INF, INF)
                values[a] = cv
                total += (1.0 / n if ps is None else ps[i]) * cv
            return total, None, values, ()
        kids = None
        if cfg.root_order is not None:
            acts = _checked_permutation(cfg.root_order, acts)
        elif orderer is not None or hash_moves:
            acts, kids = arrange(state, k, acts)
        maximize = k is MAX
        alpha, beta = -INF, INF
        best: Any = None
        ba: Any = _UNSET
        bpv: tuple = ()
        for a in acts:
            child = generate(state, a) if kids is None else kids[a]
            cv = value(child, nd, alpha, beta)
            values[a] = cv
            if ba is _UNSET or (cv > best if maximize else cv < best):
                best, ba, bpv = cv, a, last_pv
                if prune:
                    if maximize:
                        if best >= beta and not strict:
                            c.cutoffs += 1
                            break
                        alpha = max(alpha, best)
                    else:
                        if best <= alpha and not strict:
                            c.cutoffs += 1
                            break
                        beta = min(beta, best)
        return best, ba, values, (ba,) + bpv

    return root_search, value


def window_value(game: Game, state: Any, cfg: SearchConfig, alpha: float, beta: float) -> tuple[float, Counters]:
    """The value of ``state`` searched with the window ``(alpha, beta)``, and the counts.

    For aspiration-window style searches; needs ``alpha < beta`` (``alpha <=
    beta`` when strict).  With ``cfg.prune`` the result
    ``f`` is fail-soft: if the true value ``V <= alpha`` then
    ``V <= f <= alpha``; if ``V >= beta`` then ``beta <= f <= V``; otherwise
    ``f == V`` (with ``cfg.strict`` the same with ``<``, ``>`` and a closed
    window).  No root bookkeeping is done: the table is probed at ``state``.
    """
    if not (alpha <= beta if cfg.strict else alpha < beta):
        raise ValueError(f"empty window ({alpha}, {beta})")
    counters = Counters()
    _, value = _build(game, cfg, counters, None, None)
    depth = INF if cfg.depth is None else cfg.depth
    return value(state, depth, alpha, beta), counters


def _checked_permutation(order: Sequence[Any], acts: Sequence[Any]) -> list[Any]:
    order = list(order)
    if len(order) != len(acts) or set(order) != set(acts):
        raise ValueError("root_order must be a permutation of the root actions")
    return order

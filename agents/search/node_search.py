"""One search in progress: the fast alpha-beta loop of every game, and what it needs per node.

Read top to bottom: :meth:`Search.root` values the root and picks the action;
:meth:`Search.value` values any other node: a leaf by :meth:`Search.leaf_value`, else
:meth:`Search.node_value`, the one fast alpha-beta loop of the project: a settled table entry, or
MAX and MIN in one loop that maximises ``sign * value``; :meth:`Search.chance_value` takes the
probability-weighted mean. The textbook form of the same search, slower and shorter, is
:mod:`pacman.agents.search.textbook`; the tests prove the two alike node for node.

A game is read through its protocol methods, bound once as attributes (``is_end``, ``kind``,
``successor`` ...), and a node is read in one call, ``expand(state, depth) -> (kind, actions,
depth below)``. A game's adapter may replace them by cheaper equivalents (Pacman's
:class:`~pacman.agents.pacman_search.PacmanSearch` does); the loop is the same.

Speed: the loop values leaf children itself and calls :meth:`Search.node_value` for the
others (one end test and no call per leaf); it takes what it reads from one tuple of the
search (``loop_tools``) in one unpacking, calls the game's functions through locals (the
interpreter specialises a call on a local name, not one on an attribute holding a function),
values leaves through the evaluation cache inline, and tests the reordering, traced leaves
and the watcher only where each would act. What runs once per generated or scored child
outside the loop (the generation hook, an evaluation ordering's generate and score) is a
closure built once per search; no tool is a bound method of the search, so a finished search
is freed at once, table and all, not by the cyclic garbage collector.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .game import Game, NodeKind, key_function
from .nodes import (CHECK_EVERY, INF, UNSET, ChanceNodeError, OpponentModel, SearchConfig,
                    SearchTimeout, SearchWatcher)
from .ordering import make_orderer
from .result import Counters
from .table import EXACT, LOWER, UPPER, bound_flag

__all__ = ["INF", "ChanceNodeError", "OpponentModel", "Search", "SearchTimeout"]

_MAX, _MIN, _CHANCE = NodeKind.MAX, NodeKind.MIN, NodeKind.CHANCE

RootAnswer = tuple[Any, Any, dict, tuple]
#: ``expand(state, depth) -> (kind, actions, depth below)``: a node read in one call
Expand = Callable[[Any, Any], tuple[NodeKind, Sequence[Any], Any]]


class Search:
    """The search of one configuration over one game; create one per search.

    ``value(state, depth, alpha, beta)`` is fail-soft under pruning (see
    :func:`pacman.agents.search.core.window_value`); after it returns,
    ``last_pv`` holds the principal variation below that state.
    """

    # Slots: more attributes than an instance dict keeps fast (CPython shares at most 30 keys).
    __slots__ = (
        "cfg", "counters", "generated_trace", "evaluated_trace",
        "is_end", "kind", "utility", "actions", "successor", "probabilities", "ends_unit",
        "key_of", "evaluate", "prune", "strict", "min_as_chance", "allow_chance",
        "opponent_model", "bounded", "lo", "hi", "orderer", "entries", "best_moves",
        "eval_cache", "hash_moves", "reorders", "root_depth",
        "plain_leaves", "hook", "last_pv", "expand", "loop_tools",
        "generate_child", "score_child", "leaf", "watcher",
    )

    def __init__(self, game: Game, cfg: SearchConfig, counters: Counters,
                 traces: tuple[list[Any], list[Any] | None] | None) -> None:
        self.cfg, self.counters = cfg, counters
        self.generated_trace: list[Any] | None
        self.evaluated_trace: list[Any] | None
        self.generated_trace, self.evaluated_trace = (None, None) if traces is None else traces
        self.is_end = game.is_end
        self.kind = game.kind
        self.utility = game.utility
        self.actions = game.actions
        self.successor = game.successor
        self.probabilities = game.probabilities
        self.ends_unit = game.ends_depth_unit
        #: a state's key in the table and the evaluation cache (``None``: the state itself)
        self.key_of: Callable[[Any], Any] | None = key_function(game)
        self.evaluate = cfg.evaluate if cfg.evaluate is not None else game.evaluate
        self.prune, self.strict = cfg.prune, cfg.strict
        self.min_as_chance, self.allow_chance = cfg.min_as_chance, cfg.allow_chance
        self.opponent_model = cfg.opponent_model
        self.bounded = cfg.bounds is not None
        self.lo, self.hi = cfg.bounds if cfg.bounds is not None else (-INF, INF)
        self.orderer = make_orderer(cfg.order, cfg.rng)
        table = cfg.table
        self.entries = None if table is None else table.entries
        self.best_moves = None if table is None else table.best_moves
        self.eval_cache = None if table is None else table.evaluations
        self.hash_moves = cfg.hash_moves and table is not None
        self.reorders = self.orderer is not None or self.hash_moves
        self.root_depth = INF if cfg.depth is None else cfg.depth
        #: who is told each step of the search (``None``: nobody, and no cost)
        self.watcher: SearchWatcher | None = cfg.watcher
        #: leaves are valued by a bare call: no evaluation cache, no trace of them, no watcher
        self.plain_leaves = (self.eval_cache is None and self.evaluated_trace is None
                             and self.watcher is None)
        #: what every generated state is passed to: ``None`` (no trace, no deadline, no watcher),
        #: the trace's append, or a closure that also looks at the clock or tells the watcher
        self.hook = _generation_hook(self.generated_trace, cfg.deadline, cfg.clock, self.watcher)
        self.last_pv: tuple = ()
        #: how the loop reads a node in one call: the game's ``kind``, ``actions`` and
        #: ``ends_depth_unit``, or an adapter's cheaper equivalent (a closure, never a bound
        #: method: see above)
        self.expand: Expand = _protocol_reader(game)
        self.bind()

    def bind(self) -> None:
        """Gather what the loop reads into ``loop_tools``, one unpacking instead of an attribute
        load per name, and build the per-child closures (call again after replacing one of the
        game's functions).

        ``loop_tools``: ``(is_end, expand, searched_min, counters, successor, hook, prune,
        utility, evaluate, cache, key_of, watcher, reorders)``, what the loop reads at every
        node (what it reads only at a cut or with a table stays an attribute):
        ``searched_min`` is ``MIN``, or ``None`` when MIN nodes are searched as chance nodes;
        ``cache`` is the evaluation cache the loop values leaves through inline (``None``:
        none), or :data:`UNSET` when leaves are traced or watched (then ``leaf`` values
        them); ``reorders``: a move ordering or the table's moves first.
        ``leaf(state, value_of, terminal_leaf)``: a leaf's value through the cache, counted,
        traced and watched.
        """
        self.leaf = _leaf_valuer(self.counters, self.eval_cache, self.key_of, self.evaluated_trace)
        if self.watcher is not None:
            self.leaf = _watched_leaf(self.leaf, self.watcher)
        inline_leaves = self.evaluated_trace is None and self.watcher is None
        self.loop_tools = (self.is_end, self.expand, None if self.min_as_chance else _MIN,
                           self.counters, self.successor, self.hook, self.prune, self.utility,
                           self.evaluate, self.eval_cache if inline_leaves else UNSET,
                           self.key_of, self.watcher, self.reorders)
        self.generate_child = _child_generator(self.counters, self.successor, self.hook)
        if self.eval_cache is None:
            self.score_child = _bare_scorer(self.counters, self.is_end, self.utility, self.evaluate)
        else:
            self.score_child = _cached_scorer(self.is_end, self.utility, self.evaluate,
                                              self.counters, self.eval_cache, self.key_of)

    # --- the root ----------------------------------------------------------------------------
    def root(self, state: Any) -> RootAnswer:
        """``(value, action, root values, principal variation)`` of the root ``state``."""
        self.counters.generated += 1
        hook = self.hook
        if hook is not None:
            hook(state)
        if self.is_end(state):
            return self.terminal(state), None, {}, ()
        if self.root_depth == 0:
            self.counters.depth_cuts += 1
            return self.static(state), None, {}, ()
        kind = self.kind(state)
        actions = self.actions_of(state)
        depth = self.root_depth - 1 if self.ends_unit(state) else self.root_depth
        if kind is _CHANCE or (self.min_as_chance and kind is _MIN):
            return self.root_chance(state, kind, actions, depth)
        children = None
        if self.watcher is not None:
            self.watcher.entered(state, kind, actions, depth, -INF, INF)
        if self.cfg.root_order is not None:
            actions = _checked_permutation(self.cfg.root_order, actions)
        elif self.reorders:
            actions, children = self.arrange(state, kind, actions, depth)
        return self.root_choice(state, actions, children, depth, 1 if kind is _MAX else -1)

    def root_choice(self, state: Any, actions: Sequence[Any], children: dict | None,
                    depth: Any, sign: int) -> RootAnswer:
        """The first best root action for MAX (``sign`` 1) or MIN (-1), every child valued."""
        alpha, beta = -INF, INF
        values: dict[Any, Any] = {}
        best = best_action = UNSET
        best_pv: tuple = ()
        watcher = self.watcher
        for action in actions:
            child = self.generate(state, action) if children is None else children[action]
            child_value = self.value(child, depth, alpha, beta)
            values[action] = child_value
            cut = False
            if best_action is UNSET or sign * child_value > sign * best:
                best, best_action, best_pv = child_value, action, self.last_pv
                if self.prune:
                    if sign * best >= INF and not self.strict:
                        self.counters.cutoffs += 1
                        cut = True
                    elif sign > 0:
                        alpha = max(alpha, best)
                    else:
                        beta = min(beta, best)
            if watcher is not None:
                watcher.child_valued(state, action, child, child_value, best, alpha, beta, cut)
            if cut:
                break
        if watcher is not None:
            watcher.left(state, best)
        return best, best_action, values, (best_action,) + best_pv

    def root_chance(self, state: Any, kind: NodeKind, actions: Sequence[Any], depth: Any) -> RootAnswer:
        """The mean over a chance root's outcomes, each searched with an open window."""
        probabilities = self.chance_probabilities(state, kind, actions)
        share = 1.0 / len(actions)
        values: dict[Any, Any] = {}
        total = 0.0
        watcher = self.watcher
        if watcher is not None:
            watcher.entered(state, _CHANCE, actions, depth, -INF, INF)
        for i, action in enumerate(actions):
            child = self.generate(state, action)
            child_value = self.value(child, depth, -INF, INF)
            values[action] = child_value
            p = share if probabilities is None else probabilities[i]
            total += p * child_value
            if watcher is not None:
                watcher.chance_valued(state, action, child, p, child_value, total, False)
        if watcher is not None:
            watcher.left(state, total)
        return total, None, values, ()

    # --- any other node ----------------------------------------------------------------------
    def value(self, state: Any, depth: Any, alpha: float, beta: float) -> float:
        """The value of ``state`` with ``depth`` units left, searched with window ``(alpha, beta)``."""
        if depth == 0 or self.is_end(state):
            return self.leaf_value(state, depth)
        return self.node_value(state, depth, alpha, beta)

    def node_value(self, state: Any, depth: Any, alpha: float, beta: float) -> float:
        """:meth:`value` of a state that is neither an end state nor at the depth limit (the
        loop tests its children for that itself, and calls this for the others).

        A settled table entry is the value; a chance node (or a MIN node under
        ``min_as_chance``) goes to :meth:`chance_value`; MAX and MIN are one loop that
        maximises ``sign * value`` over the children (``sign`` 1 for MAX, -1 for MIN) and, with
        pruning, stops once that reaches the opponent's bound. The table, the reordering, cached,
        traced or watched leaves and the watcher each cost a test that finds them absent when
        they are.
        """
        (is_end, expand, searched_min, counters, successor, hook, prune, utility, evaluate,
         cache, key_of, watcher, reorders) = self.loop_tools
        table_key = None
        entries = self.entries
        if entries is not None:
            table_key = (state if key_of is None else key_of(state), depth)
            entry = entries.get(table_key)
            if entry is not None and self.settles(entry, alpha, beta):
                return entry[1]
        kind, actions, depth = expand(state, depth)
        if kind is _MAX:
            sign = 1
        elif kind is searched_min:
            sign = -1
        else:
            return self.chance_value(state, kind, actions, depth, alpha, beta, table_key)
        if watcher is not None:  # before any child is generated, also for ordering
            watcher.entered(state, kind, actions, depth, alpha, beta)
        children = None
        if reorders:
            if self.orderer is not None:  # a move ordering, then the table's move first
                actions, children = self.arrange(state, kind, actions, depth)
            else:  # the table's move first (what arrange() does then, a call less per node)
                move = self.best_moves.get(table_key[0], UNSET)  # type: ignore[index, union-attr]
                if move is not UNSET and actions[0] != move and move in actions:
                    actions = [move] + [a for a in actions if a != move]
        # Leaf children are valued here as leaf_value() would value them, a call less per leaf.
        # In the signed view the node raises ``own`` and is cut at ``limit``.
        entry_alpha, entry_beta = alpha, beta
        own, limit = (alpha, beta) if sign > 0 else (-beta, -alpha)
        best, best_action, best_pv = -INF, actions[0], ()
        for action in actions:
            if children is None:
                child = successor(state, action)
                counters.generated += 1
                if hook is not None:
                    hook(child)
            else:
                child = children[action]
            if is_end(child):
                self.last_pv = ()
                if cache is None:
                    counters.terminal_utilities += 1
                    signed = sign * utility(child)
                elif cache is UNSET:
                    signed = sign * self.leaf(child, utility, True)
                else:
                    key = child if key_of is None else key_of(child)
                    if (found := cache.get(key)) is not None:
                        counters.cache_hits += 1
                    else:
                        found = cache[key] = utility(child)
                        counters.terminal_utilities += 1
                    signed = sign * found
            elif depth == 0:
                self.last_pv = ()
                counters.depth_cuts += 1
                if cache is None:
                    counters.static_evaluations += 1
                    signed = sign * evaluate(child)
                elif cache is UNSET:
                    signed = sign * self.leaf(child, evaluate, False)
                else:
                    key = child if key_of is None else key_of(child)
                    if (found := cache.get(key)) is not None:
                        counters.cache_hits += 1
                    else:
                        found = cache[key] = evaluate(child)
                        counters.static_evaluations += 1
                    signed = sign * found
            else:
                signed = sign * self.node_value(child, depth, alpha, beta)
            if signed > best:
                best, best_action, best_pv = signed, action, self.last_pv
                if prune:
                    if best >= limit and (best > limit or not self.strict):
                        counters.cutoffs += 1
                        if self.orderer is not None:
                            self.on_cutoff(state, kind, action, depth)
                        if watcher is not None:
                            watcher.child_valued(state, action, child, sign * signed, sign * best,
                                                 alpha, beta, True)
                        break
                    if best > own:
                        own = best
                        alpha, beta = (best, beta) if sign > 0 else (alpha, -best)
            if watcher is not None:
                watcher.child_valued(state, action, child, sign * signed, sign * best, alpha, beta,
                                     False)
        result = sign * best
        if table_key is not None:  # the value and its bound flag for the window searched
            flag = bound_flag(result, entry_alpha, entry_beta, prune, self.strict)
            entries[table_key] = (flag, result, best_action)  # type: ignore[index]
            self.best_moves[table_key[0]] = best_action  # type: ignore[index]
        self.last_pv = (best_action,) + best_pv
        if watcher is not None:
            watcher.left(state, result)
        return result

    def leaf_value(self, state: Any, depth: Any) -> float:
        """The value of an end state, or of a state at the depth limit (``depth`` 0)."""
        self.last_pv = ()
        if self.is_end(state):
            if self.plain_leaves:  # what terminal() does without cache or trace, one call less
                self.counters.terminal_utilities += 1
                return self.utility(state)
            return self.leaf(state, self.utility, True)
        counters = self.counters
        counters.depth_cuts += 1
        if self.plain_leaves:  # the same for static()
            counters.static_evaluations += 1
            return self.evaluate(state)
        return self.leaf(state, self.evaluate, False)

    def chance_value(self, state: Any, kind: NodeKind, actions: Sequence[Any], depth: Any,
                     alpha: float, beta: float, table_key: Any = None) -> float:
        """A CHANCE node (or a MIN node under ``min_as_chance``): the expected child value.

        With ``bounds`` it stops once even the best (worst) remaining outcomes keep the
        mean at or below ``alpha`` (at or above ``beta``) and returns that bound.
        """
        probabilities = self.chance_probabilities(state, kind, actions)
        counters = self.counters
        share = 1.0 / len(actions)
        last = len(actions) - 1
        lo, hi, bounded, hook = self.lo, self.hi, self.bounded, self.hook
        is_end, successor = self.is_end, self.successor
        watcher = self.watcher
        if watcher is not None:
            watcher.entered(state, _CHANCE, actions, depth, alpha, beta)
        total, remaining, flag = 0.0, 1.0, EXACT
        for i, action in enumerate(actions):
            child = successor(state, action)
            counters.generated += 1
            if hook is not None:
                hook(child)
            p = share if probabilities is None else probabilities[i]
            if depth == 0 or is_end(child):  # value(), a call less per child
                child_value = self.leaf_value(child, depth)
            else:
                child_value = self.node_value(child, depth, -INF, INF)
            total += p * child_value
            if bounded and i < last:
                remaining -= p
                best_case = total + remaining * hi
                if best_case <= alpha and (best_case < alpha or not self.strict):
                    counters.cutoffs += 1
                    total, flag = best_case, UPPER
                    if watcher is not None:
                        watcher.chance_valued(state, action, child, p, child_value, total, True)
                    break
                worst_case = total + remaining * lo
                if worst_case >= beta and (worst_case > beta or not self.strict):
                    counters.cutoffs += 1
                    total, flag = worst_case, LOWER
                    if watcher is not None:
                        watcher.chance_valued(state, action, child, p, child_value, total, True)
                    break
            if watcher is not None:
                watcher.chance_valued(state, action, child, p, child_value, total, False)
        if table_key is not None:
            self.entries[table_key] = (flag, total, None)  # type: ignore[index]  # keyed only with a table
        self.last_pv = ()
        if watcher is not None:
            watcher.left(state, total)
        return total

    def chance_probabilities(self, state: Any, kind: NodeKind, actions: Sequence[Any]) -> Sequence[float] | None:
        """Outcome probabilities of a chance node, or ``None`` for uniform."""
        if kind is _CHANCE:
            if not self.allow_chance:
                raise ChanceNodeError(
                    f"chance node {state!r}: minimax and alpha-beta search only MAX and MIN nodes "
                    "(use expectiminimax)"
                )
            return self.probabilities(state)
        if self.opponent_model is not None:
            return self.opponent_model(state, actions)
        return None

    # --- generating children -----------------------------------------------------------------
    def actions_of(self, state: Any) -> Sequence[Any]:
        """The legal actions of a non-terminal state; an empty list is the game's error."""
        actions = self.actions(state)
        if not actions:
            raise ValueError(f"non-terminal state {state!r} has no actions")
        return actions

    def no_actions(self, state: Any) -> Sequence[Any]:
        """Raise the error of a non-terminal ``state`` without legal actions."""
        raise ValueError(f"non-terminal state {state!r} has no actions")

    def generate(self, state: Any, action: Any) -> Any:
        """The child of ``state`` by ``action``, counted (and traced, and timed)."""
        return self.generate_child(state, action)

    # --- leaves ------------------------------------------------------------------------------
    def static(self, state: Any) -> float:
        """Eval of a state at the depth limit."""
        return self.leaf(state, self.evaluate, False)

    def terminal(self, state: Any) -> float:
        """Utility of an end state."""
        return self.leaf(state, self.utility, True)

    # --- the transposition table -------------------------------------------------------------
    def settles(self, entry: tuple[int, float, Any], alpha: float, beta: float) -> bool:
        """Whether a table ``entry`` settles the window ``(alpha, beta)``; if so it is counted as
        a hit and its move becomes the principal variation, and its value (``entry[1]``) is the
        node's."""
        flag, stored, move = entry
        strict = self.strict
        if (
            flag == EXACT
            or (flag == LOWER and stored >= beta and (stored > beta or not strict))
            or (flag == UPPER and stored <= alpha and (stored < alpha or not strict))
        ):
            self.counters.transposition_hits += 1
            self.last_pv = () if move is None else (move,)
            return True
        return False

    # --- move ordering -----------------------------------------------------------------------
    def arrange(self, state: Any, kind: NodeKind, actions: Sequence[Any],
                depth: Any) -> tuple[Sequence[Any], dict | None]:
        """The search order of a MAX/MIN node's actions, and the children generated to find it."""
        children = None
        orderer = self.orderer
        if orderer is not None:
            if orderer.name == "history":  # the cheap ordering, called directly
                actions = orderer.by_history(kind, actions, depth)
            else:
                actions, children = orderer.order(state, kind, actions, self.generate_child,
                                                  self.score_child, depth)
        if self.hash_moves:
            key = state if self.key_of is None else self.key_of(state)
            move = self.best_moves.get(key, UNSET)  # type: ignore[union-attr]
            if move is not UNSET and move in actions and actions[0] != move:
                actions = [move] + [a for a in actions if a != move]
        return actions, children

    def on_cutoff(self, state: Any, kind: NodeKind, action: Any, depth: Any) -> None:
        """Tell a learning move ordering that ``action`` refuted the node ``state``."""
        if self.orderer is not None:
            self.orderer.learn(state, kind, action, depth)


def _checked_permutation(order: Sequence[Any], actions: Sequence[Any]) -> list[Any]:
    order = list(order)
    if len(order) != len(actions) or set(order) != set(actions):
        raise ValueError("root_order must be a permutation of the root actions")
    return order


def _protocol_reader(game: Game) -> Expand:
    """``expand(state, depth)`` by the game's protocol methods: its ``kind``, its ``actions``
    (an empty list is the game's error) and whether its move ends a depth unit."""
    kind_of, actions_of, ends_unit = game.kind, game.actions, game.ends_depth_unit

    def expand(state: Any, depth: Any) -> tuple[NodeKind, Sequence[Any], Any]:
        kind = kind_of(state)
        actions = actions_of(state)
        if not actions:
            raise ValueError(f"non-terminal state {state!r} has no actions")
        return kind, actions, depth - 1 if ends_unit(state) else depth
    return expand


def _child_generator(counters: Counters, successor: Callable[[Any, Any], Any],
                     on_generate: Callable[[Any], None] | None) -> Callable[[Any, Any], Any]:
    """``generate(state, action)`` of :class:`Search` as a closure over its parts."""
    def generate(state: Any, action: Any) -> Any:
        child = successor(state, action)
        counters.generated += 1
        if on_generate is not None:
            on_generate(child)
        return child
    return generate


def _leaf_valuer(counters: Counters, cache: dict | None, key_of: Callable[[Any], Any] | None,
                 evaluated_trace: list[Any] | None) -> Callable[[Any, Callable[[Any], float], bool], float]:
    """``leaf(state, value_of, terminal_leaf)`` of :class:`Search` as a closure: the value of
    a leaf by ``value_of`` (the utility of an end state, or the evaluation), through the
    evaluation cache when there is one, counted and traced."""
    def leaf(state: Any, value_of: Callable[[Any], float], terminal_leaf: bool) -> float:
        # The cache holds leaf utilities too: in a lecture tree they are the
        # "static values" the recitation caches between deepening iterations.
        if cache is not None:
            key = state if key_of is None else key_of(state)
            value = cache.get(key)
            if value is not None:
                counters.cache_hits += 1
                return value
            value = value_of(state)
            cache[key] = value
        else:
            value = value_of(state)
        if terminal_leaf:
            counters.terminal_utilities += 1
        else:
            counters.static_evaluations += 1
        if evaluated_trace is not None:
            evaluated_trace.append(state)
        return value
    return leaf


def _cached_scorer(is_end: Callable[[Any], bool], utility: Callable[[Any], float],
                   evaluate: Callable[[Any], float], counters: Counters, cache: dict,
                   key_of: Callable[[Any], Any] | None) -> Callable[[Any], float]:
    """The value a child is ordered by (Utility if it is an end state, else Eval), through the
    evaluation cache, as a closure."""
    def score(child: Any) -> float:
        key = child if key_of is None else key_of(child)
        value = cache.get(key)
        if value is not None:
            counters.cache_hits += 1
            return value
        value = utility(child) if is_end(child) else evaluate(child)
        cache[key] = value
        counters.ordering_evaluations += 1
        return value
    return score


def _bare_scorer(counters: Counters, is_end: Callable[[Any], bool], utility: Callable[[Any], float],
                 evaluate: Callable[[Any], float]) -> Callable[[Any], float]:
    """The value a child is ordered by (Utility if it is an end state, else Eval), without an
    evaluation cache, as a closure."""
    def score(child: Any) -> float:
        counters.ordering_evaluations += 1
        return utility(child) if is_end(child) else evaluate(child)
    return score


def _watched_leaf(leaf: Callable[[Any, Callable[[Any], float], bool], float],
                  watcher: SearchWatcher) -> Callable[[Any, Callable[[Any], float], bool], float]:
    """``leaf`` that also tells ``watcher`` each leaf's value."""
    def watched(state: Any, value_of: Callable[[Any], float], terminal_leaf: bool) -> float:
        value = leaf(state, value_of, terminal_leaf)
        watcher.leaf(state, value, terminal_leaf)
        return value
    return watched


def _generation_hook(trace: list[Any] | None, deadline: float | None,
                     clock: Callable[[], float],
                     watcher: SearchWatcher | None = None) -> Callable[[Any], Any] | None:
    """What a generated state is passed to: nothing (``None``), the trace's ``append``, or with a
    deadline a closure that also raises :class:`SearchTimeout` once a look at the clock, every
    :data:`CHECK_EVERY` states, finds it passed; with a watcher, one that also tells it."""
    if watcher is not None:
        inner = _generation_hook(trace, deadline, clock)

        def watched(child: Any) -> None:
            if inner is not None:
                inner(child)
            watcher.generated(child)
        return watched
    if deadline is None:
        return None if trace is None else trace.append
    until_check = CHECK_EVERY

    def on_generate(child: Any) -> None:
        nonlocal until_check
        if trace is not None:
            trace.append(child)
        until_check -= 1
        if until_check <= 0:
            until_check = CHECK_EVERY
            if clock() >= deadline:
                raise SearchTimeout
    return on_generate

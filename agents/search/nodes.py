"""What every node of a search needs besides its own loop: the game's functions, counting,
the clock, leaf values, the transposition table and move ordering.

:class:`NodeTools` is the base of :class:`~pacman.agents.search.node_search.Search`.  The game's
protocol methods are bound once as attributes (``is_end``, ``kind``, ``successor`` ...) and
gathered into tuples (:meth:`NodeTools.bind`) that a node function unpacks in one step: the
interpreter specialises a call on a local name, not one on an attribute holding a function.
What runs once per generated or scored child (the generation hook, an evaluation ordering's
generate and score) is a closure built once per search, the cheapest call there is.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .game import Game, NodeKind, key_function
from .ordering import make_orderer
from .result import Counters
from .table import EXACT, LOWER, UPPER

if TYPE_CHECKING:
    from .core import SearchConfig

INF = math.inf
UNSET: Any = object()
#: generated nodes between two looks at the clock when a deadline is set
CHECK_EVERY = 256

OpponentModel = Callable[[Any, Sequence[Any]], Sequence[float]]


class SearchWatcher(Protocol):
    """Told every step of one search, in the order the search takes them (a trace for teaching:
    :mod:`pacman.agents.search.steps` records one). With no watcher the search calls nothing.

    Values are MAX's view. ``alpha`` and ``beta`` are the node's window after the step.
    """

    def generated(self, state: Any) -> None:
        """``state`` was generated (the root first)."""

    def entered(self, state: Any, kind: NodeKind, actions: Sequence[Any], depth: Any,
                alpha: float, beta: float) -> None:
        """The search of the inner node ``state`` begins: its kind as searched (a MIN node
        searched as a chance node is ``CHANCE``), its legal actions (before any reordering), the depth left
        and its window."""

    def leaf(self, state: Any, value: float, terminal: bool) -> None:
        """The leaf ``state`` was valued: its utility (``terminal``) or its evaluation."""

    def child_valued(self, state: Any, action: Any, child: Any, value: float, best: float,
                     alpha: float, beta: float, cut: bool) -> None:
        """At the MAX/MIN node ``state`` the child by ``action`` came back with ``value``; the
        node's value so far is ``best`` and its window ``(alpha, beta)``; ``cut``: the node
        stops here (``best`` reached the opponent's bound)."""

    def chance_valued(self, state: Any, action: Any, child: Any, probability: float,
                      value: float, total: float, cut: bool) -> None:
        """At the chance node ``state`` the outcome ``action`` (weight ``probability``) came back
        with ``value``; the weighted sum so far is ``total``; ``cut``: the node stops here with
        ``total`` as its bound (expectimax pruning with bounds)."""

    def left(self, state: Any, value: float) -> None:
        """The search of the inner node ``state`` ends with ``value``."""


class SearchTimeout(Exception):
    """Raised out of a search whose deadline passed (caught by iterative deepening)."""


class ChanceNodeError(ValueError):
    """A search that handles only MAX and MIN nodes met a chance node."""


class NodeTools:
    """The configuration of one search unpacked into plain attributes, and the per-node helpers."""

    # Slots: more attributes than an instance dict keeps fast (CPython shares at most 30 keys).
    __slots__ = (
        "cfg", "counters", "generated_trace", "evaluated_trace",
        "is_end", "kind", "utility", "actions", "successor", "probabilities", "ends_unit",
        "key_of", "evaluate", "prune", "strict", "min_as_chance", "allow_chance",
        "opponent_model", "bounded", "lo", "hi", "orderer", "entries", "best_moves",
        "eval_cache", "hash_moves", "reorders", "root_depth",
        "plain_leaves", "hook", "last_pv", "expand", "node_functions", "loop_tools",
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
        self.key_of = key_function(game)
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
        #: ``expand(state, depth) -> (kind, actions, depth below)``: how a subclass reads a node
        #: without the game's protocol methods, or ``None`` to call them (a closure, never a
        #: bound method: see :meth:`bind`)
        self.expand: Callable[[Any, Any], tuple[NodeKind, Sequence[Any], Any]] | None = None
        self.bind()

    def bind(self) -> None:
        """Gather what a node function reads into tuples, one unpacking each instead of an
        attribute load per name (call again after replacing one of the game's functions).

        ``node_functions``: ``(is_end, kind, actions, ends_unit, expand)``; ``loop_tools``:
        ``(counters, successor, hook, prune, utility, evaluate, leaf, learns, watcher, reorders)`` with
        ``leaf`` ``None`` for bare leaves and ``learns`` whether cutoffs teach the ordering;
        ``leaf(state, value_of, terminal_leaf)``: a leaf's value through the cache, counted.
        """
        self.node_functions = (self.is_end, self.kind, self.actions, self.ends_unit, self.expand)
        self.leaf = _leaf_valuer(self.counters, self.eval_cache, self.key_of, self.evaluated_trace)
        if self.watcher is not None:
            self.leaf = _watched_leaf(self.leaf, self.watcher)
        self.loop_tools = (self.counters, self.successor, self.hook, self.prune, self.utility,
                           self.evaluate, None if self.plain_leaves else self.leaf,
                           self.orderer is not None, self.watcher, self.reorders)
        # What an evaluation ordering calls once per child: closures over the above, the
        # cheapest call there is (the same as generate()). No tool is a bound method of the
        # search: a search referring to itself would live on, table and all, until the cyclic
        # garbage collector finds it.
        self.generate_child = _child_generator(self.counters, self.successor, self.hook)
        if self.eval_cache is None:
            self.score_child = _bare_scorer(self.counters, self.is_end, self.utility, self.evaluate)
        else:
            self.score_child = _cached_scorer(self.is_end, self.utility, self.evaluate,
                                              self.counters, self.eval_cache, self.key_of)

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
        successor = self.successor
        child = successor(state, action)
        self.counters.generated += 1
        hook = self.hook
        if hook is not None:
            hook(child)
        return child

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
            move = self.best_moves.get(self.key_of(state), UNSET)  # type: ignore[union-attr]
            if move is not UNSET and move in actions and actions[0] != move:
                actions = [move] + [a for a in actions if a != move]
        return actions, children

    def on_cutoff(self, state: Any, kind: NodeKind, action: Any, depth: Any) -> None:
        """Tell a learning move ordering that ``action`` refuted the node ``state``."""
        if self.orderer is not None:
            self.orderer.learn(state, kind, action, depth)


def _child_generator(counters: Counters, successor: Callable[[Any, Any], Any],
                     on_generate: Callable[[Any], None] | None) -> Callable[[Any, Any], Any]:
    """``generate(state, action)`` of :class:`NodeTools` as a closure over its parts."""
    def generate(state: Any, action: Any) -> Any:
        child = successor(state, action)
        counters.generated += 1
        if on_generate is not None:
            on_generate(child)
        return child
    return generate


def _leaf_valuer(counters: Counters, cache: dict | None, key_of: Callable[[Any], Any],
                 evaluated_trace: list[Any] | None) -> Callable[[Any, Callable[[Any], float], bool], float]:
    """``leaf(state, value_of, terminal_leaf)`` of :class:`NodeTools` as a closure: the value of
    a leaf by ``value_of`` (the utility of an end state, or the evaluation), through the
    evaluation cache when there is one, counted and traced."""
    def leaf(state: Any, value_of: Callable[[Any], float], terminal_leaf: bool) -> float:
        # The cache holds leaf utilities too: in a lecture tree they are the
        # "static values" the recitation caches between deepening iterations.
        if cache is not None:
            key = key_of(state)
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
                   key_of: Callable[[Any], Any]) -> Callable[[Any], float]:
    """The value a child is ordered by (Utility if it is an end state, else Eval), through the
    evaluation cache, as a closure."""
    def score(child: Any) -> float:
        key = key_of(child)
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

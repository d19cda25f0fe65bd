"""One search in progress: the recursive value functions of the core search.

Read top to bottom: :meth:`Search.root` values the root and picks the action;
:meth:`Search.value` values any other node: a leaf by :meth:`Search.leaf_value`, else
:meth:`Search.node_value`, the one alpha-beta loop of every game: a settled table entry, or
MAX and MIN in one loop that maximises ``sign * value``; and :meth:`Search.chance_value` takes
the probability-weighted mean. Leaves, tables, ordering and counting are the helpers of
:class:`~pacman.agents.search.nodes.NodeTools`. (The textbook form of the same search, slower and
shorter, is :mod:`pacman.agents.search.textbook`; Pacman's fast path is
:mod:`pacman.agents.pacman_search`.)

Speed: the loop values leaf children itself and calls :meth:`Search.node_value` for the
others (one end test and no call per leaf); it takes what it reads from two tuples of the
search (``node_functions``, ``loop_tools``) in one unpacking each, and tests the table, the
reordering, cached leaves and the watcher only where each would act.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .game import NodeKind
from .nodes import UNSET, INF, ChanceNodeError, NodeTools, OpponentModel, SearchTimeout
from .table import EXACT, LOWER, UPPER, bound_flag

__all__ = ["INF", "ChanceNodeError", "OpponentModel", "Search", "SearchTimeout"]

_MAX, _MIN, _CHANCE = NodeKind.MAX, NodeKind.MIN, NodeKind.CHANCE

RootAnswer = tuple[Any, Any, dict, tuple]


class Search(NodeTools):
    """The search of one configuration over one game; create one per search.

    ``value(state, depth, alpha, beta)`` is fail-soft under pruning (see
    :func:`pacman.agents.search.core.window_value`); after it returns,
    ``last_pv`` holds the principal variation below that state.
    """

    __slots__ = ()

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
        is_end = self.is_end
        if depth == 0 or is_end(state):
            return self.leaf_value(state, depth)
        return self.node_value(state, depth, alpha, beta)

    def node_value(self, state: Any, depth: Any, alpha: float, beta: float) -> float:
        """:meth:`value` of a state that is neither an end state nor at the depth limit (the
        loop tests its children for that itself, and calls this for the others).

        A settled table entry is the value; a chance node (or a MIN node under
        ``min_as_chance``) goes to :meth:`chance_value`; MAX and MIN are one loop that
        maximises ``sign * value`` over the children (``sign`` 1 for MAX, -1 for MIN) and, with
        pruning, stops once that reaches the opponent's bound. The table, the reordering, cached
        or traced leaves and the watcher each cost a test that finds them absent when they are.
        """
        # The game's functions are called through locals: a call on an attribute holding one
        # is not specialised by the interpreter.
        is_end, kind_of, actions_of, ends_unit, expand = self.node_functions
        table_key = None
        entries = self.entries
        if entries is not None:
            table_key = (self.key_of(state), depth)
            entry = entries.get(table_key)
            if entry is not None and self.settles(entry, alpha, beta):
                return entry[1]
        if expand is None:
            kind = kind_of(state)
            actions = actions_of(state) or self.no_actions(state)
            if ends_unit(state):
                depth -= 1
        else:
            kind, actions, depth = expand(state, depth)
        sign = 1 if kind is _MAX else -1 if kind is _MIN and not self.min_as_chance else 0
        if sign == 0:
            return self.chance_value(state, kind, actions, depth, alpha, beta, table_key)
        counters, successor, hook, prune, utility, evaluate, leaf, learns, watcher, reorders = \
            self.loop_tools
        if watcher is not None:  # before any child is generated, also for ordering
            watcher.entered(state, kind, actions, depth, alpha, beta)
        children = None
        if reorders:
            actions, children = self.arrange(state, kind, actions, depth)
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
                if leaf is None:
                    counters.terminal_utilities += 1
                    signed = sign * utility(child)
                else:
                    signed = sign * leaf(child, utility, True)
            elif depth == 0:
                self.last_pv = ()
                counters.depth_cuts += 1
                if leaf is None:
                    counters.static_evaluations += 1
                    signed = sign * evaluate(child)
                else:
                    signed = sign * leaf(child, evaluate, False)
            else:
                signed = sign * self.node_value(child, depth, alpha, beta)
            if signed > best:
                best, best_action, best_pv = signed, action, self.last_pv
                if prune:
                    if best >= limit and (best > limit or not self.strict):
                        counters.cutoffs += 1
                        if learns:
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
        is_end, utility, evaluate = self.is_end, self.utility, self.evaluate
        if is_end(state):
            if self.plain_leaves:  # what terminal() does without cache or trace, one call less
                self.counters.terminal_utilities += 1
                return utility(state)
            return self.leaf(state, utility, True)
        counters = self.counters
        counters.depth_cuts += 1
        if self.plain_leaves:  # the same for static()
            counters.static_evaluations += 1
            return evaluate(state)
        return self.leaf(state, evaluate, False)

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
        value, successor = self.value, self.successor
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
            child_value = value(child, depth, -INF, INF)
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


def _checked_permutation(order: Sequence[Any], actions: Sequence[Any]) -> list[Any]:
    order = list(order)
    if len(order) != len(actions) or set(order) != set(actions):
        raise ValueError("root_order must be a permutation of the root actions")
    return order


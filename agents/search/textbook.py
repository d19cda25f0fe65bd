"""Minimax, alpha-beta and expectimax as a textbook writes them: the reference to read first.

Each search is one recursive function over the :class:`~pacman.agents.search.game.Game` protocol,
written the way the lecture slides "Minimax, expectimax and Pacman" write them:

* ``value(s)``: if ``s`` is an end state, its utility; if no depth is left, ``Eval(s)``;
  if the agent to move is MAX, ``max_value(s)``; if MIN, ``min_value(s)``; if chance,
  ``exp_value(s)`` (the slides' dispatch pseudo-code);
* ``max_value(s)``: ``v = -inf``; for each successor ``v = max(v, value(successor))``;
* ``min_value(s)`` the same with ``+inf`` and ``min``;
* alpha-beta adds the window: a MAX node stops when ``v >= beta`` and raises ``alpha`` to
  ``v`` otherwise; a MIN node stops when ``v <= alpha`` and lowers ``beta``;
* ``exp_value(s)``: ``v = 0``; for each successor ``v += p * value(successor)``.

Depth follows the lecture notes "Games I": one depth unit is used up when the move made at a
state ends a unit (``game.ends_depth_unit``: every ply in a lecture tree, the last ghost's
move in Pacman), and a state reached with no unit left gets the static evaluation.

The project's fast searches (:func:`pacman.agents.search.run_search` and the Pacman fast path) give
the same values, root actions, visit order and counts as these functions: the tests compare
them node for node.  Use these to read; use those to play.

Two hooks of :func:`alphabeta` let other searches be configurations of this one rather than
loops of their own (the grader's deliberately wrong variants, the classic course's reference):
``cut`` replaces the pruning test and ``children`` the lazy generation of a node's children.
Left out, they are the lecture's.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .game import Game, NodeKind
from .nodes import ChanceNodeError

Evaluate = Callable[[Any], float]
OpponentModel = Callable[[Any, Sequence[Any]], Sequence[float]]
#: ``cut(state, v, alpha, beta, maximise)``: whether the node ``state`` (MAX if ``maximise``),
#: whose value so far is ``v`` and window ``(alpha, beta)``, stops (the root included)
Cut = Callable[[Any, float, float, float, bool], bool]
#: ``children(game, state, trace)``: the ``(action, child)`` pairs of ``state`` in search order,
#: each child generated (and traced) when the search reaches it
Children = Callable[[Game, Any, "Trace"], Iterable[tuple[Any, Any]]]


@dataclass
class Trace:
    """What a search visited, in order: every state generated (the root first) and every leaf
    valued by ``Utility`` or ``Eval``."""

    generated: list[Any] = field(default_factory=list)
    evaluated: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class Decision:
    """The root's value and its first best action (``None`` at a leaf or a chance root);
    ``values``: each root action's value as searched (a bound where alpha-beta pruned below it)."""

    value: float
    action: Any
    values: dict[Any, float] = field(default_factory=dict, compare=False)


def minimax(game: Game, state: Any, depth: int | None = None, evaluate: Evaluate | None = None,
            trace: Trace | None = None) -> Decision:
    """The minimax value of ``state`` and the first action that attains it.

    ``depth``: units to search (``None``: to the end); ``evaluate`` replaces ``game.evaluate``.
    Raises :class:`ChanceNodeError` at a chance node.
    """
    return alphabeta(game, state, depth, evaluate, trace, prune=False)


def alphabeta(game: Game, state: Any, depth: int | None = None, evaluate: Evaluate | None = None,
              trace: Trace | None = None, *, prune: bool = True, strict: bool = False,
              cut: Cut | None = None, children: Children | None = None) -> Decision:
    """Minimax with alpha-beta pruning: the same root value and action as :func:`minimax`.

    A pruned node's value is a bound (fail-soft).  ``strict`` cuts only on ``v > beta`` and
    ``v < alpha``.  ``prune=False`` is plain minimax.  ``cut`` replaces the pruning test (then
    ``prune`` and ``strict`` are not read) and ``children`` the generation of children (see the
    module docstring).
    """
    trace = trace if trace is not None else Trace()
    evaluate = evaluate or game.evaluate
    if cut is None:
        cut = lecture_cut(strict) if prune else never_cut
    expand = children or lazy_children

    def value(s: Any, units: float, alpha: float, beta: float) -> float:
        if game.is_end(s) or units == 0:
            return leaf(game, s, evaluate, trace)
        kind = game.kind(s)
        if kind is NodeKind.CHANCE:
            raise ChanceNodeError(f"chance node {s!r}: minimax and alpha-beta search only MAX and MIN nodes")
        left = units - 1 if game.ends_depth_unit(s) else units
        maximise = kind is NodeKind.MAX
        v = -math.inf if maximise else math.inf
        for _, child in expand(game, s, trace):
            child_value = value(child, left, alpha, beta)
            if maximise:
                v = max(v, child_value)
                if cut(s, v, alpha, beta, True):
                    return v                                  # beta cut: MIN above avoids this node
                alpha = max(alpha, v)
            else:
                v = min(v, child_value)
                if cut(s, v, alpha, beta, False):
                    return v                                  # alpha cut: MAX above avoids this node
                beta = min(beta, v)
        return v

    return _root(game, state, depth, evaluate, trace, value, chance_kinds=(NodeKind.CHANCE,), cut=cut,
                 children=expand)


def lecture_cut(strict: bool) -> Cut:
    """The lecture's pruning test: a MAX node stops once ``v >= beta``, a MIN node once
    ``v <= alpha`` (``strict``: ``>`` and ``<``)."""
    def cut(state: Any, v: float, alpha: float, beta: float, maximise: bool) -> bool:
        if maximise:
            return v > beta or (v == beta and not strict)
        return v < alpha or (v == alpha and not strict)
    return cut


def never_cut(state: Any, v: float, alpha: float, beta: float, maximise: bool) -> bool:
    """No pruning: minimax."""
    return False


def lazy_children(game: Game, state: Any, trace: Trace) -> Iterator[tuple[Any, Any]]:
    """Each action of ``state`` with its child, the child generated only when reached."""
    for action in game.actions(state):
        yield action, generate(game, state, action, trace)


def expectimax(game: Game, state: Any, depth: int | None = None, evaluate: Evaluate | None = None,
               trace: Trace | None = None, *, opponent: OpponentModel | None = None) -> Decision:
    """The expectimax value of ``state``: MIN nodes are chance nodes whose outcomes are the
    opponent's moves, equally likely or weighted by ``opponent(state, actions)``; chance nodes
    of the game are weighted by ``game.probabilities``.  The root action is the first best one
    (``None`` when the root is not MAX's)."""
    trace = trace if trace is not None else Trace()
    evaluate = evaluate or game.evaluate

    def value(s: Any, units: float) -> float:
        if game.is_end(s) or units == 0:
            return leaf(game, s, evaluate, trace)
        left = units - 1 if game.ends_depth_unit(s) else units
        actions = game.actions(s)
        if game.kind(s) is NodeKind.MAX:
            return max((value(generate(game, s, a, trace), left) for a in actions), default=-math.inf)
        if game.kind(s) is NodeKind.CHANCE:
            weights = list(game.probabilities(s))
        else:
            weights = list(opponent(s, actions)) if opponent else [1 / len(actions)] * len(actions)
        v = 0.0
        for action, p in zip(actions, weights):
            v += p * value(generate(game, s, action, trace), left)
        return v

    return _root(game, state, depth, evaluate, trace, lambda s, units, _alpha, _beta: value(s, units),
                 chance_kinds=(NodeKind.MIN, NodeKind.CHANCE), cut=never_cut, children=lazy_children)


def generate(game: Game, state: Any, action: Any, trace: Trace) -> Any:
    """``Succ(state, action)``, recorded as generated."""
    child = game.successor(state, action)
    trace.generated.append(child)
    return child


def leaf(game: Game, state: Any, evaluate: Evaluate, trace: Trace) -> float:
    """``Utility(s)`` of an end state, else ``Eval(s)``, recorded as evaluated."""
    trace.evaluated.append(state)
    return game.utility(state) if game.is_end(state) else evaluate(state)


def _root(game: Game, state: Any, depth: int | None, evaluate: Evaluate, trace: Trace,
          value: Callable[[Any, float, float, float], float], *, chance_kinds: tuple[NodeKind, ...],
          cut: Cut, children: Children) -> Decision:
    """The root: a chance root (a kind in ``chance_kinds``) is valued as any node; a MAX or MIN
    root values its children in order and keeps the first best one.

    The root's window starts open and each new best child narrows it for its younger siblings
    (so under alpha-beta a later child's value may be a bound, never wrongly better); a MAX
    root stops, as any MAX node, once its value reaches ``beta`` (here only at ``+inf``).
    """
    trace.generated.append(state)
    units: float = math.inf if depth is None else depth
    if game.is_end(state) or units == 0:
        return Decision(leaf(game, state, evaluate, trace), None)
    kind = game.kind(state)
    if kind in chance_kinds:
        return Decision(value(state, units, -math.inf, math.inf), None)
    sign = 1 if kind is NodeKind.MAX else -1
    left = units - 1 if game.ends_depth_unit(state) else units
    alpha, beta = -math.inf, math.inf
    best, best_action = -math.inf, None
    values = {}
    for action, child in children(game, state, trace):
        child_value = values[action] = value(child, left, alpha, beta)
        if best_action is None or sign * child_value > best:
            best, best_action = sign * child_value, action
            if cut(state, sign * best, alpha, beta, sign > 0):
                break
            if sign > 0:
                alpha = max(alpha, child_value)
            else:
                beta = min(beta, child_value)
    return Decision(sign * best, best_action, values)

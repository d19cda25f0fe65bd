"""Move ordering: the order in which a MAX or MIN node searches its children.

Values never depend on the order; pruning does (seed 000: worst ordering
costs b^(2d), random b^(2*0.75d), best b^(2*0.5d)).  Chance nodes are always
searched in action order.

An ordering is given to a search as one of

* ``"none"``: the game's action order;
* ``"reversed"``: the game's action order reversed;
* ``"random"``: a shuffle drawn from the injected ``random.Random``;
* ``"evaluation"``: every child is generated and scored with Eval (or
  Utility if terminal); MAX nodes search by decreasing score, MIN nodes by
  increasing score, ties in action order.  This generates all children of
  an expanded node, so it trades generation for pruning;
* ``"history"``: no child is generated; the actions are ordered by what
  earlier cutoffs taught (the killer move of the node's kind and remaining
  depth first, then by the history score: the sum of ``2**depth`` over the
  cutoffs each action caused at nodes of that kind), ties in action order.
  Cheap per node, and it learns across the iterations of iterative deepening;
* a callable ``order(state, kind, actions) -> Sequence[action]`` returning a
  permutation of ``actions``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any, Union

from .game import NodeKind

OrderFunction = Callable[[Any, NodeKind, Sequence[Any]], Sequence[Any]]
OrderSpec = Union[str, OrderFunction, None]

ORDERINGS = ("none", "reversed", "random", "evaluation", "history")

_FIRST = itemgetter(0)


class Orderer:
    """Reorders the actions of an expanded MAX/MIN node.

    ``order`` returns ``(actions, children)`` where ``children`` is ``None``
    or a dict mapping each action to its already generated child.  The
    search supplies ``generate(state, action)`` and ``score(child)`` so that
    generation and scoring are counted where they happen.
    """

    __slots__ = ("name", "_fn", "_rng", "history", "killers")

    def __init__(self, name: str, fn: OrderFunction | None = None, rng: random.Random | None = None):
        self.name = name
        self._fn = fn
        self._rng = rng
        #: (kind, action) -> sum of 2**depth over the cutoffs it caused ("history")
        self.history: dict[tuple[NodeKind, Any], float] = {}
        #: (kind, remaining depth) -> the action of the latest cutoff there ("history")
        self.killers: dict[tuple[NodeKind, Any], Any] = {}

    def order(
        self,
        state: Any,
        kind: NodeKind,
        actions: Sequence[Any],
        generate: Callable[[Any, Any], Any],
        score: Callable[[Any], float],
        depth: Any = None,
    ) -> tuple[Sequence[Any], dict[Any, Any] | None]:
        name = self.name
        if name == "history":
            return self._by_history(kind, actions, depth), None
        if name == "reversed":
            return actions[::-1], None
        if name == "random":
            shuffled = list(actions)
            self._rng.shuffle(shuffled)  # type: ignore[union-attr]
            return shuffled, None
        if name == "evaluation":
            children = {}
            scored = []
            for a in actions:
                child = generate(state, a)
                children[a] = child
                scored.append((score(child), a))
            # Python's sort is stable even with reverse=True, so ties keep action order.
            scored.sort(key=_FIRST, reverse=kind is NodeKind.MAX)
            return [a for _, a in scored], children
        return self._fn(state, kind, actions), None  # type: ignore[misc]

    def _by_history(self, kind: NodeKind, actions: Sequence[Any], depth: Any) -> Sequence[Any]:
        history = self.history
        if history:
            scores = [history.get((kind, a), 0) for a in actions]
            if any(scores):
                ranked = sorted(range(len(actions)), key=scores.__getitem__, reverse=True)
                actions = [actions[i] for i in ranked]
        killer = self.killers.get((kind, depth))
        if killer is not None and killer in actions and actions[0] != killer:
            actions = [killer] + [a for a in actions if a != killer]
        return actions

    def learn(self, state: Any, kind: NodeKind, action: Any, depth: Any) -> None:
        """``action`` caused a cutoff at ``state`` (of ``kind``, ``depth`` units left)."""
        if self.name == "history":
            weight = 2.0 ** depth if depth != math.inf else 1.0
            key = (kind, action)
            self.history[key] = self.history.get(key, 0) + weight
            self.killers[(kind, depth)] = action


def make_orderer(spec: OrderSpec, rng: random.Random | None = None) -> Orderer | None:
    """Build an :class:`Orderer` from an ordering spec; ``None`` means no reordering.

    ``"random"`` requires ``rng``; randomness comes only from it.  An
    :class:`Orderer` is used as it is, so a ``"history"`` orderer passed to
    several searches keeps what it learnt.
    """
    if spec is None or spec == "none":
        return None
    if isinstance(spec, Orderer):
        return spec
    if callable(spec):
        return Orderer("custom", fn=spec)
    if spec not in ORDERINGS:
        raise ValueError(f"unknown move ordering {spec!r}; expected one of {', '.join(ORDERINGS)} or a callable")
    if spec == "random" and rng is None:
        raise ValueError("move ordering 'random' needs rng=random.Random(seed)")
    return Orderer(spec, rng=rng)

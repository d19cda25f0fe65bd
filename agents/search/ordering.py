"""Move ordering: the order in which a MAX or MIN node searches its children.

Values never depend on the order; pruning does (the Games I notes: worst ordering
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
from collections import defaultdict
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from .game import NodeKind

OrderFunction = Callable[[Any, NodeKind, Sequence[Any]], Sequence[Any]]
OrderSpec = str | OrderFunction | None

ORDERINGS = ("none", "reversed", "random", "evaluation", "history")

_FIRST = itemgetter(0)
_MAX = NodeKind.MAX


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
        #: MAX node? -> action -> sum of 2**depth over the cutoffs it caused ("history")
        self.history: dict[bool, defaultdict[Any, int]] = {}
        #: (MAX node?, remaining depth) -> the action of the latest cutoff there ("history")
        self.killers: dict[tuple[bool, Any], Any] = {}

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
            return self.by_history(kind, actions, depth), None
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

    def by_history(self, kind: NodeKind, actions: Sequence[Any], depth: Any) -> Sequence[Any]:
        """The ``"history"`` order: the killer move of ``(kind, depth)`` first, then by
        decreasing history score, ties in the given order."""
        if len(actions) < 2:
            return actions
        side = kind is _MAX  # not the enum as a key: its hash is a Python-level call
        scores = self.history.get(side)
        if scores is not None:
            # sorted() is stable with reverse=True too: ties keep the game's order.
            actions = sorted(actions, key=scores.__getitem__, reverse=True)
        killer = self.killers.get((side, depth))
        if killer is not None and actions[0] != killer and killer in actions:
            actions = [killer] + [a for a in actions if a != killer]
        return actions

    def learn(self, state: Any, kind: NodeKind, action: Any, depth: Any) -> None:
        """``action`` caused a cutoff at ``state`` (of ``kind``, ``depth`` units left)."""
        if self.name == "history":
            side = kind is _MAX
            scores = self.history.get(side)
            if scores is None:
                scores = self.history[side] = defaultdict(int)
            scores[action] += 1 << depth if depth != math.inf else 1
            self.killers[(side, depth)] = action


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

"""The steps of one search as plain data: what a student traces by hand, node by node.

:class:`StepRecorder` is a :class:`~pacman.agents.search.nodes.SearchWatcher`: given to a search
(``SearchConfig(watcher=...)``, or ``search(..., watcher=...)``) it is told every step the
search takes and writes them down as JSON-ready dicts, in the search's own order. Nothing here
searches: every value, window and cut comes from the search itself.

``nodes`` lists the generated states in generation order (index = position), each
``{"id", "parent", "action", "kind"}`` (``kind``: ``max``, ``min``, ``chance`` or ``leaf``;
``parent`` -1 for the root), and ``p`` (a fraction, ``1/3``) for a chance node's child.
``steps`` lists what happened, each with ``type``, the ``node`` it happened at and that node's
``value`` so far, ``alpha`` and ``beta`` (MAX's view; the infinities as the strings ``"inf"``
and ``"-inf"``):

* ``visit``: the search of an inner node begins (its window as received);
* ``leaf``: a leaf was valued (``terminal``: a utility, else an evaluation at the depth cut);
* ``back``: a MAX/MIN node received ``child_value`` from ``child``; ``value`` is its best so
  far, ``alpha``/``beta`` its window after the update;
* ``chance``: a chance node received ``child_value`` from ``child`` with weight ``p``; ``value``
  is the weighted sum so far and ``sum`` writes it out (``1/2×8 + 1/6×(-12) = 2``);
* ``cut``: the node stops; ``test`` is the comparison that stopped it (``7 >= beta 5``) and
  ``pruned`` the actions it never searched;
* ``done``: the search of an inner node ends with ``value``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from .game import NodeKind

_KIND_NAMES = {NodeKind.MAX: "max", NodeKind.MIN: "min", NodeKind.CHANCE: "chance"}


def number(value: Any) -> Any:
    """``value`` as JSON can hold it: whole floats as ints, infinities as ``"inf"``/``"-inf"``."""
    if isinstance(value, float):
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if value.is_integer():
            return int(value)
    return value


def shown(value: Any) -> str:
    """``value`` as a lecture writes it: ``7``, ``2.5``, ``∞``, ``-∞``."""
    value = number(value)
    if value == "inf":
        return "∞"
    if value == "-inf":
        return "-∞"
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def fraction(p: float) -> str:
    """A probability as a short fraction when it is one (``1/3``), else a decimal."""
    near = Fraction(p).limit_denominator(12)
    if abs(float(near) - p) < 1e-9:
        return str(near)
    return f"{p:.3g}"


class StepRecorder:
    """Writes down every step of one search; see the module docstring.

    ``name_of(state)`` names a node (default: its generation index); ``action_name(action)``
    names an edge (default ``str``).
    """

    def __init__(self, name_of: Callable[[Any], str] | None = None,
                 action_name: Callable[[Any], str] = str) -> None:
        self.name_of = name_of
        self.action_name = action_name
        self.nodes: list[dict[str, Any]] = []
        self.steps: list[dict[str, Any]] = []
        self._index: dict[int, int] = {}
        self._states: list[Any] = []  # held so that no id() is reused during the search
        self._stack: list[int] = []
        self._windows: dict[int, tuple[float, float]] = {}
        self._actions: dict[int, list[Any]] = {}
        self._searched: dict[int, list[Any]] = {}
        self._terms: dict[int, list[str]] = {}

    # --- the watcher's methods ---------------------------------------------------------------
    def generated(self, state: Any) -> None:
        index = len(self.nodes)
        self._index[id(state)] = index
        self._states.append(state)
        name = str(index) if self.name_of is None else self.name_of(state)
        parent = self._stack[-1] if self._stack else -1
        self.nodes.append({"id": name, "parent": parent, "action": None, "kind": "leaf"})

    def entered(self, state: Any, kind: NodeKind, actions: Sequence[Any], depth: Any,
                alpha: float, beta: float) -> None:
        node = self._node(state)
        self.nodes[node]["kind"] = _KIND_NAMES[kind]
        self._stack.append(node)
        self._windows[node] = (alpha, beta)
        self._actions[node] = list(actions)
        self._searched[node] = []
        self._terms[node] = []
        self._step("visit", node, None, alpha, beta, depth=number(depth))

    def leaf(self, state: Any, value: float, terminal: bool) -> None:
        node = self._node(state)
        alpha, beta = self._windows.get(self._stack[-1], (-math.inf, math.inf)) if self._stack \
            else (-math.inf, math.inf)
        self._step("leaf", node, value, alpha, beta, terminal=terminal)

    def child_valued(self, state: Any, action: Any, child: Any, value: float, best: float,
                     alpha: float, beta: float, cut: bool) -> None:
        node, child_node = self._node(state), self._child(state, action, child)
        self._windows[node] = (alpha, beta)
        self._step("back", node, best, alpha, beta, child=child_node, child_value=number(value))
        if cut:
            maximising = self.nodes[node]["kind"] == "max"
            test = (f"{shown(best)} >= beta {shown(beta)}" if maximising
                    else f"{shown(best)} <= alpha {shown(alpha)}")
            self._cut(node, best, alpha, beta, test)

    def chance_valued(self, state: Any, action: Any, child: Any, probability: float,
                      value: float, total: float, cut: bool) -> None:
        node, child_node = self._node(state), self._child(state, action, child)
        self.nodes[child_node]["p"] = fraction(probability)
        alpha, beta = self._windows[node]
        terms = self._terms[node]
        term = shown(value)
        terms.append(f"{fraction(probability)}×{f'({term})' if term.startswith('-') else term}")
        self._step("chance", node, total, alpha, beta, child=child_node,
                   child_value=number(value), p=number(probability),
                   sum=f"{' + '.join(terms)} = {shown(total)}")
        if cut:
            test = (f"at most {shown(total)} <= alpha {shown(alpha)}" if total <= alpha
                    else f"at least {shown(total)} >= beta {shown(beta)}")
            self._cut(node, total, alpha, beta, test)

    def left(self, state: Any, value: float) -> None:
        node = self._node(state)
        if self._stack and self._stack[-1] == node:
            self._stack.pop()
        alpha, beta = self._windows[node]
        self._step("done", node, value, alpha, beta)

    # --- helpers -----------------------------------------------------------------------------
    def _node(self, state: Any) -> int:
        return self._index[id(state)]

    def _child(self, state: Any, action: Any, child: Any) -> int:
        """The index of ``child``, with its parent and edge set from the search's own words
        (an ordering may generate children before their parent's loop runs)."""
        node, child_node = self._node(state), self._node(child)
        entry = self.nodes[child_node]
        entry["parent"], entry["action"] = node, self.action_name(action)
        self._searched[node].append(action)
        return child_node

    def _cut(self, node: int, value: float, alpha: float, beta: float, test: str) -> None:
        searched = self._searched[node]
        pruned = [self.action_name(a) for a in self._actions[node] if a not in searched]
        self._step("cut", node, value, alpha, beta, test=test, pruned=pruned)

    def _step(self, kind: str, node: int, value: Any, alpha: float, beta: float,
              **more: Any) -> None:
        step = {"type": kind, "node": node, "value": number(value), "alpha": number(alpha),
                "beta": number(beta)}
        step.update(more)
        self.steps.append(step)

    def trace(self) -> dict[str, Any]:
        """``{"nodes", "steps"}``: what was recorded, JSON-ready."""
        return {"nodes": self.nodes, "steps": self.steps}

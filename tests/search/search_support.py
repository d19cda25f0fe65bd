"""Shared test helpers: random tree strategies and an independent reference evaluator.

The reference evaluator works on the plain dict form of a tree, not on the
library's TreeGame, and is written from the lecture recurrences alone.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from pacman.agents.search.game import Game, NodeKind

# Probabilities are multiples of 1/8 so that every expectation is exact in
# binary floating point and results can be compared with ==.
P_UNITS = 8


@st.composite
def tree_dicts(
    draw: Any,
    kinds: tuple[str, ...] = ("max", "min"),
    max_depth: int = 4,
    max_children: int = 3,
    lo: int = -6,
    hi: int = 6,
    explicit_p: bool = True,
) -> dict[str, Any]:
    """A random tree in the JSON dict format: random shape, kinds and values.

    Every node, internal or not, has an integer ``value`` so that depth-limited
    searches can cut anywhere.  Chance children get ``p`` in eighths (or no
    ``p`` at all, i.e. uniform, when ``explicit_p`` is false).
    """
    counter = [0]

    def node(depth: int) -> dict[str, Any]:
        counter[0] += 1
        d: dict[str, Any] = {"id": f"n{counter[0]}", "value": draw(st.integers(lo, hi))}
        if depth >= max_depth or (depth > 0 and draw(st.integers(0, 3)) == 0):
            return d
        kind = draw(st.sampled_from(kinds))
        n = draw(st.integers(1, max_children))
        d["kind"] = kind
        d["children"] = [node(depth + 1) for _ in range(n)]
        if kind == "chance" and explicit_p:
            cuts = sorted(draw(st.lists(st.integers(0, P_UNITS), min_size=n - 1, max_size=n - 1)))
            bounds = [0, *cuts, P_UNITS]
            for child, a, b in zip(d["children"], bounds, bounds[1:]):
                child["p"] = (b - a) / P_UNITS
        return d

    return node(0)


def probabilities(node: dict[str, Any]) -> list[float]:
    children = node["children"]
    if "p" in children[0]:
        return [float(ch["p"]) for ch in children]
    return [1.0 / len(children)] * len(children)


def reference_value(node: dict[str, Any], depth: int | None = None, min_as_chance: bool = False) -> float:
    """Expectiminimax value by the recurrence of the Games I notes, cut at ``depth`` plies."""
    children = node.get("children")
    if not children or depth == 0:
        return node["value"]
    nd = None if depth is None else depth - 1
    values = [reference_value(ch, nd, min_as_chance) for ch in children]
    kind = node["kind"]
    if kind == "max":
        return max(values)
    if kind == "min" and not min_as_chance:
        return min(values)
    ps = probabilities(node) if kind == "chance" else [1.0 / len(children)] * len(children)
    total = 0.0
    for p, v in zip(ps, values):
        total += p * v
    return total


def reference_root_values(node: dict[str, Any], depth: int | None = None,
                          min_as_chance: bool = False) -> dict[str, float]:
    nd = None if depth is None else depth - 1
    return {ch["id"]: reference_value(ch, nd, min_as_chance) for ch in node.get("children", [])}


def optimal_actions(node: dict[str, Any], depth: int | None = None, min_as_chance: bool = False) -> list[str]:
    """Root actions achieving the best value, in move order."""
    values = reference_root_values(node, depth, min_as_chance)
    if not values or depth == 0:
        return []
    target = max(values.values()) if node["kind"] == "max" else min(values.values())
    return [a for a, v in values.items() if v == target]


def count_nodes(node: dict[str, Any]) -> int:
    return 1 + sum(count_nodes(ch) for ch in node.get("children", []))


def subsequence(short: list[Any], long: list[Any]) -> bool:
    it = iter(long)
    return all(any(x == y for y in it) for x in short)


class CountingGame:
    """Wraps a game and counts successor calls (to check lazy generation)."""

    def __init__(self, game: Game) -> None:
        self.inner = game
        self.successor_calls = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def successor(self, state: Any, action: Any) -> Any:
        self.successor_calls += 1
        return self.inner.successor(state, action)


class LayeredDag(Game[tuple, int]):
    """A small layered game graph with many transpositions.

    ``edges[layer][i]`` lists the successors (indices in ``layer + 1``) of
    node ``i``; the last layer is terminal.  Layer ``k`` is MAX when ``k`` is
    even.  ``values[layer][i]`` is the utility or static evaluation.
    """

    def __init__(self, edges: list[list[list[int]]], values: list[list[int]]) -> None:
        self.edges = edges
        self.values = values

    root = (0, 0)

    def kind(self, state: tuple) -> NodeKind:
        return NodeKind.MAX if state[0] % 2 == 0 else NodeKind.MIN

    def is_end(self, state: tuple) -> bool:
        return state[0] == len(self.edges)

    def utility(self, state: tuple) -> float:
        return self.values[state[0]][state[1]]

    def evaluate(self, state: tuple) -> float:
        return self.values[state[0]][state[1]]

    def actions(self, state: tuple) -> list[int]:
        return list(range(len(self.edges[state[0]][state[1]])))

    def successor(self, state: tuple, action: int) -> tuple:
        return (state[0] + 1, self.edges[state[0]][state[1]][action])


@st.composite
def layered_dags(draw: Any, max_layers: int = 5, max_width: int = 4) -> LayeredDag:
    layers = draw(st.integers(1, max_layers))
    widths = [1] + [draw(st.integers(1, max_width)) for _ in range(layers)]
    edges = []
    for k in range(layers):
        nxt = widths[k + 1]
        edges.append([draw(st.lists(st.integers(0, nxt - 1), min_size=1, max_size=3)) for _ in range(widths[k])])
    values = [[draw(st.integers(-5, 5)) for _ in range(w)] for w in widths]
    return LayeredDag(edges, values)


def dag_reference(game: LayeredDag, state: tuple, depth: int | None) -> float:
    if game.is_end(state) or depth == 0:
        return game.values[state[0]][state[1]]
    nd = None if depth is None else depth - 1
    vals = [dag_reference(game, game.successor(state, a), nd) for a in game.actions(state)]
    return max(vals) if state[0] % 2 == 0 else min(vals)


class FastPathSpy:
    """How many nodes the fast loop (:meth:`Search.node_value`, the one fast alpha-beta loop of
    every game, Pacman's included) searched while the spy was on (every call, the recursive
    ones included: the loop calls itself through the class)."""

    def __init__(self) -> None:
        self.calls = 0

    def __enter__(self) -> FastPathSpy:
        from pacman.agents.search.node_search import Search

        self._original = original = Search.__dict__["node_value"]
        spy = self

        def counted(search: Any, *args: Any) -> float:
            spy.calls += 1
            return original(search, *args)

        Search.node_value = counted  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        from pacman.agents.search.node_search import Search

        Search.node_value = self._original  # type: ignore[method-assign]

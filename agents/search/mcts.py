"""Monte Carlo tree search with UCT: a non-exhaustive comparator.

Each iteration selects a path down the stored tree (MAX picks the child
maximising ``mean/scale + c*sqrt(ln N / n)``, MIN the child minimising
``mean/scale - c*sqrt(ln N / n)``, chance nodes sample an outcome), adds one
new node (untried actions in move order), plays out from it with the
rollout policy (uniform by default) and backs the playout value up the path.
Values are MAX's; ``scale`` should be about the spread of the utilities so
that the exploration constant means the same for every game.

The chosen action is the most visited root child (first in move order on
ties), its ``value`` that child's mean, and ``root_values`` the means of the
visited root children.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

from .game import Game, NodeKind
from .playouts import Policy, PlayoutCounts, playout, sample_outcome, uniform_policy
from .result import Counters, SearchResult, SearchStats


class _Node:
    __slots__ = ("state", "kind", "terminal", "children", "untried", "visits", "total")

    def __init__(self, state: Any, kind: NodeKind | None, untried: list[Any]) -> None:
        self.state = state
        self.kind = kind
        self.terminal = kind is None
        self.children: dict[Any, _Node] = {}
        self.untried = untried
        self.visits = 0
        self.total = 0.0


def mcts(
    game: Game,
    state: Any,
    *,
    rng: random.Random,
    iterations: int | None = None,
    time_budget: float | None = None,
    exploration: float = math.sqrt(2.0),
    scale: float = 1.0,
    rollout_policies: Mapping[NodeKind, Policy] | None = None,
    playout_depth: int | None = None,
    evaluate: Callable[[Any], float] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> SearchResult:
    """Run UCT from ``state`` for ``iterations`` and/or ``time_budget`` seconds.

    At least one budget is required.  Playouts stop after ``playout_depth``
    moves and are then scored by ``evaluate`` (default ``game.evaluate``).
    ``stats.nodes_generated`` counts every successor produced, in the tree
    and in playouts; ``stats.depth_reached`` is the depth of the stored tree.
    """
    if iterations is None and time_budget is None:
        raise ValueError("mcts needs iterations or time_budget")
    if scale <= 0:
        raise ValueError("scale must be > 0")
    start = clock()
    deadline = None if time_budget is None else start + time_budget
    c = Counters()
    pc = PlayoutCounts()
    uniform = uniform_policy(game)
    chosen = dict(rollout_policies or {})
    policies = {k: chosen.get(k, uniform) for k in (NodeKind.MAX, NodeKind.MIN)}

    def make(s: Any) -> _Node:
        if game.is_end(s):
            return _Node(s, None, [])
        k = game.kind(s)
        return _Node(s, k, [] if k is NodeKind.CHANCE else list(game.actions(s)))

    root = make(state)
    c.generated += 1
    tree_depth = 0
    done = 0
    while (iterations is None or done < iterations) and (deadline is None or clock() < deadline):
        path = _descend(game, root, make, rng, exploration, scale, c)
        tree_depth = max(tree_depth, len(path) - 1)
        v = playout(game, path[-1].state, policies, rng, max_moves=playout_depth, evaluate=evaluate, counts=pc)
        for n in path:
            n.visits += 1
            n.total += v
        done += 1
    c.generated += pc.generated
    c.terminal_utilities += pc.terminal_utilities
    c.static_evaluations += pc.static_evaluations
    return _result(root, c.freeze(depth_reached=tree_depth, elapsed=clock() - start))


def _descend(game: Game, root: _Node, make: Callable[[Any], _Node], rng: random.Random,
             exploration: float, scale: float, c: Counters) -> list[_Node]:
    """The path of one iteration from the root: down the stored tree by UCT (chance nodes
    sample an outcome) until an end state or a newly added node, which ends the path."""
    node = root
    path = [root]
    while not node.terminal:
        if node.kind is NodeKind.CHANCE:
            a = sample_outcome(game, node.state, rng)
            child = node.children.get(a)
            if child is None:
                child = node.children[a] = make(game.successor(node.state, a))
                c.generated += 1
                path.append(child)
                break
            node = child
        elif node.untried:
            a = node.untried.pop(0)
            child = node.children[a] = make(game.successor(node.state, a))
            c.generated += 1
            path.append(child)
            break
        else:
            node = _select(node, exploration, scale)
        path.append(node)
    return path


def _result(root: _Node, stats: SearchStats) -> SearchResult:
    """The most visited root child as the action, the most visited line as the principal
    variation, the visited root children's means as the root values."""
    if root.terminal or not root.children:
        value = root.total / root.visits if root.visits else math.nan
        return SearchResult(value=value, action=None, root_values={}, principal_variation=(), stats=stats)
    root_values = {a: ch.total / ch.visits for a, ch in root.children.items() if ch.visits}
    pv = []
    node = root
    while not node.terminal and node.children and node.kind is not NodeKind.CHANCE:
        a = max(node.children, key=lambda x: node.children[x].visits)  # first max wins: dict keeps insertion order
        pv.append(a)
        node = node.children[a]
    if root.kind is NodeKind.CHANCE:
        return SearchResult(value=root.total / root.visits, action=None, root_values=root_values,
                            principal_variation=(), stats=stats)
    best = root.children[pv[0]]
    return SearchResult(
        value=best.total / best.visits, action=pv[0], root_values=root_values, principal_variation=tuple(pv),
        stats=stats
    )


def _select(node: _Node, exploration: float, scale: float) -> _Node:
    log_n = math.log(node.visits)
    sign = 1.0 if node.kind is NodeKind.MAX else -1.0
    best = None
    best_score = -math.inf
    for child in node.children.values():
        score = sign * child.total / (child.visits * scale) + exploration * math.sqrt(log_n / child.visits)
        if score > best_score:
            best, best_score = child, score
    return best  # type: ignore[return-value]

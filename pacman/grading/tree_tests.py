"""Tree tests: a student's search agent against the reference search on an abstract tree.

A :class:`LayeredTree` is a JSON tree (the format of :mod:`pacman.agents.search.trees`) read as a
Pacman-style game: the node at ply ``p`` belongs to agent ``p % num_agents``, agent 0 (Pacman)
is MAX, every other agent a MIN layer (or CHANCE layer for expectimax), and depth counts full
rounds, decremented after the last agent. The reference is the project's search core
(:mod:`pacman.agents.search`) on :class:`RoundTreeGame`; it yields the :class:`Observation` a correct
agent must reproduce: the action (any action of best value, or the first one), the root value
when the agent reports one, the set of nodes generated and the set of nodes evaluated.

Random trees come from :func:`random_tree_dict`, fixed by a seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Mapping

from pacman.agents.search.algorithms import algorithm_config
from pacman.agents.search.core import run_search
from pacman.agents.search.game import NodeKind
from pacman.agents.search.trees import TreeFormatError, TreeGame, TreeNode, tree_from_dict
from pacman.errors import ConfigurationError
from pacman.grading.tree_state import node_value

#: The search algorithms a tree test can ask for.
TREE_ALGORITHMS = ("minimax", "alphabeta", "expectimax")
_TOLERANCE = 1e-9


class LayeredTree:
    """A tree whose layers follow the agents' turn order (see the module docstring).

    ``num_agents`` defaults to the ply of the first MAX node below the root (or, if there is
    none, one more than the deepest internal ply). Raises :class:`ConfigurationError` when a
    node's kind does not fit its agent.
    """

    def __init__(self, data: Mapping[str, Any], num_agents: int | None = None,
                 source: str = "<tree>") -> None:
        try:
            self.game: TreeGame = tree_from_dict(data, source=source)
        except TreeFormatError as error:
            raise ConfigurationError(str(error)) from None
        self.data = data
        self.source = source
        self.root: TreeNode = self.game.root
        self.plies = {node.id: node.path.count("/") for node in self.root.walk()}
        internal = [n for n in self.root.walk() if n.children]
        if not internal:
            raise ConfigurationError(f"{source}: the root is a leaf; nothing to search")
        if num_agents is None:
            later_max = [self.plies[n.id] for n in internal
                         if n.kind is NodeKind.MAX and self.plies[n.id] > 0]
            num_agents = min(later_max) if later_max else max(self.plies[n.id] for n in internal) + 1
        if num_agents < 1:
            raise ConfigurationError(f"{source}: need at least one agent, got {num_agents}")
        self.num_agents = num_agents
        for node in internal:
            ply = self.plies[node.id]
            pacman = ply % num_agents == 0
            if pacman != (node.kind is NodeKind.MAX):
                who = "Pacman (MAX)" if pacman else f"ghost {ply % num_agents} (MIN or CHANCE)"
                raise ConfigurationError(
                    f"{source}: node {node.id!r} at ply {ply} is {node.kind and node.kind.value} but belongs "
                    f"to {who} with {num_agents} agents")

    def has_chance(self) -> bool:
        return any(n.kind is NodeKind.CHANCE for n in self.root.walk())

    def has_explicit_probabilities(self) -> bool:
        return any(n.p is not None for n in self.root.walk())

    @property
    def size(self) -> int:
        return len(self.plies)


class RoundTreeGame(TreeGame):
    """The reference's view of a :class:`LayeredTree`: depth units are full rounds, and an
    internal node without a value counts as 0 (as the student's evaluation sees it)."""

    def __init__(self, tree: LayeredTree) -> None:
        super().__init__(tree.root, tree.source)
        self.tree = tree
        self.last_agent = tree.num_agents - 1

    def utility(self, state: TreeNode) -> float:
        return node_value(state)

    def evaluate(self, state: TreeNode) -> float:
        return node_value(state)

    def ends_depth_unit(self, state: TreeNode) -> bool:
        return self.tree.plies[state.id] % self.tree.num_agents == self.last_agent


@dataclass(frozen=True)
class Observation:
    """What one search did on one tree, as the grader compares it.

    ``error`` is ``None`` or ``"ExceptionType: message"`` when the search failed; the lists
    then hold what was recorded up to the failure.
    """

    action: str | None
    generated: tuple[str, ...]
    evaluated: tuple[str, ...]
    value: float | None = None
    error: str | None = None
    terminal_expansions: tuple[str, ...] = ()

    def same_behaviour(self, other: Observation) -> bool:
        """Same action (or both failed with the same exception type), same node sets."""
        if (self.error is None) != (other.error is None):
            return False
        if self.error is not None and _error_type(self.error) != _error_type(other.error):
            return False
        if self.error is None and self.action != other.action:
            return False
        return set(self.generated) == set(other.generated) and set(self.evaluated) == set(other.evaluated)


def _error_type(error: str | None) -> str:
    return (error or "").partition(":")[0]


@dataclass(frozen=True)
class Expected:
    """The reference's answer on one tree: its observation and the acceptable actions."""

    reference: Observation
    best_actions: frozenset[str]
    root_values: Mapping[str, float] = field(default_factory=dict)


def reference_search(tree: LayeredTree, algorithm: str, depth: int, strict: bool = False) -> Expected:
    """Run the reference ``algorithm`` to ``depth`` rounds on ``tree``."""
    if algorithm not in TREE_ALGORITHMS:
        raise ConfigurationError(f"unknown tree algorithm {algorithm!r}; expected one of "
                                 f"{', '.join(TREE_ALGORITHMS)}")
    game = RoundTreeGame(tree)
    options: dict[str, Any] = {"depth": depth, "trace": True}
    if algorithm == "alphabeta":
        options["strict"] = strict
    result = run_search(game, tree.root, algorithm_config(algorithm, **options))
    exact = result if algorithm != "alphabeta" else run_search(
        game, tree.root, algorithm_config("minimax", depth=depth))
    values = dict(exact.root_values)
    best = max(values.values())
    best_actions = frozenset(a for a, v in values.items() if abs(v - best) <= _TOLERANCE)
    stats = result.stats
    observation = Observation(
        action=result.action, value=result.value,
        generated=tuple(n.id for n in (stats.generated or ())[1:]),
        evaluated=tuple(n.id for n in stats.evaluated or ()))
    return Expected(observation, best_actions, values)


@dataclass(frozen=True)
class TreeVerdict:
    """Whether a student's observation passes, and what differs (one line per difference)."""

    passed: bool
    differences: tuple[str, ...]


def judge(expected: Expected, seen: Observation, ties: str = "any",
          compare_evaluated: bool = True) -> TreeVerdict:
    """Compare a student's observation with the reference.

    ``ties``: ``"any"`` accepts every action of best value, ``"first"`` only the first of them in
    move order. Values within 1e-9 count as equal (expectimax means are floating point).
    ``compare_evaluated``: whether the set of evaluated nodes must match too (the classic course
    checks only the move and the nodes generated).
    """
    ref = expected.reference
    problems: list[str] = []
    if seen.error is not None:
        return TreeVerdict(False, (f"the agent failed: {seen.error}",))
    allowed = expected.best_actions if ties == "any" else frozenset(
        [a for a in expected.root_values if a in expected.best_actions][:1])
    if seen.action not in allowed:
        want = " or ".join(sorted(allowed))
        problems.append(f"action: expected {want}, got {seen.action!r}")
    if (seen.value is not None and ref.value is not None
            and not math.isclose(seen.value, ref.value, abs_tol=1e-6)):
        problems.append(f"value: expected {ref.value:g}, got {seen.value!r}")
    extra = [n for n in _unique(seen.generated) if n not in set(ref.generated)]
    missing = [n for n in ref.generated if n not in set(seen.generated)]
    if extra or missing:
        problems.append("generated nodes: " + _set_difference(extra, missing))
    extra = [n for n in _unique(seen.evaluated) if n not in set(ref.evaluated)]
    missing = [n for n in _unique(ref.evaluated) if n not in set(seen.evaluated)]
    if compare_evaluated and (extra or missing):
        problems.append("evaluated nodes: " + _set_difference(extra, missing))
    return TreeVerdict(not problems, tuple(problems))


def _unique(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _set_difference(extra: list[str], missing: list[str]) -> str:
    parts = []
    if extra:
        parts.append(f"should not have been: {' '.join(_short(extra))}")
    if missing:
        parts.append(f"missing: {' '.join(_short(missing))}")
    return "; ".join(parts)


def _short(ids: list[str], limit: int = 12) -> list[str]:
    return ids if len(ids) <= limit else ids[:limit] + [f"... ({len(ids) - limit} more)"]


def random_tree_dict(seed: int, num_agents: int, rounds: int, branching: tuple[int, int] = (1, 3),
                     values: tuple[int, int] = (-9, 9), leaf_chance: float = 0.15,
                     ghost_kind: str = "min") -> dict[str, Any]:
    """A random layered tree fixed by ``seed``: ``rounds`` full rounds of ``num_agents`` plies.

    Every node has an integer value in ``values`` (so any depth can cut anywhere; the small range
    makes ties common, which is what separates the pruning conventions). Below the root a node
    becomes an early leaf (an end state) with probability ``leaf_chance``. Ghost layers are
    ``ghost_kind`` nodes (``min`` or ``chance``, uniform). Node ids are ``n0`` (root), ``n1``, ...
    in depth-first order; actions are ``a``, ``b``, ``c`` ... among siblings.
    """
    rng = random.Random(f"grading-tree:{seed}:{num_agents}:{rounds}")
    lo_b, hi_b = branching
    lo_v, hi_v = values
    height = num_agents * rounds
    counter = [0]

    def node(ply: int, action: str | None) -> dict[str, Any]:
        d: dict[str, Any] = {"id": f"n{counter[0]}", "value": rng.randint(lo_v, hi_v)}
        counter[0] += 1
        if action is not None:
            d["action"] = action
        if ply == height or (ply > 0 and rng.random() < leaf_chance):
            return d
        d["kind"] = "max" if ply % num_agents == 0 else ghost_kind
        n = rng.randint(lo_b, hi_b)
        d["children"] = [node(ply + 1, chr(ord("a") + i)) for i in range(n)]
        return d

    return node(0, None)

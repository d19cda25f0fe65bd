"""Deliberately wrong reference searches, for diagnosing why a tree test failed.

Each classic mistake is a flag of :class:`VariantAgent`, an agent written the way students
write theirs (against the native :class:`~pacman.grading.tree_state.TreeState` API), so it runs
through exactly the instrumentation a student's agent runs through. With no flags it is a
correct minimax / alpha-beta / expectimax agent (the tests check it against the search core).
:func:`diagnose` runs every variant that applies to an algorithm on a tree and names those whose
behaviour matches the student's exactly.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from pacman.errors import NodeBudgetExceeded
from pacman.grading.tree_state import TreeRecorder, TreeState
from pacman.grading.tree_tests import LayeredTree, Observation

INF = math.inf

#: Every known mistake and how the report explains it.
BUGS: dict[str, str] = {
    "depth_plus_one": "depth off by one: searches one round deeper than asked",
    "depth_minus_one": "depth off by one: searches one round shallower than asked",
    "depth_per_agent": "decrements the depth at every agent's move instead of once per round "
                       "(after the last ghost)",
    "ghosts_one_layer": "treats all ghosts as one layer: Pacman moves again after the first ghost",
    "min_max_swapped": "min and max swapped: minimises at Pacman's layers and maximises at the "
                       "ghosts'",
    "ghosts_minimised": "ghost layers are minimised instead of averaged (minimax, not expectimax)",
    "ghosts_summed": "adds the ghosts' values up instead of averaging them (divide by the number "
                     "of moves)",
    "prune_on_equality": "prunes on equality (v == bound), but this assignment prunes only on "
                         "strict inequality",
    "no_prune_on_equality": "prunes only on strict inequality, but this assignment also prunes "
                            "on equality (v == bound)",
    "wrong_bound": "prunes with the wrong bound: compares with alpha at MAX nodes and with beta "
                   "at MIN nodes",
    "evaluates_root": "calls the evaluation function on the root state",
    "ignores_terminal": "does not stop at terminal states (searches on from a win or a loss "
                        "before the depth runs out)",
    "eager_children": "generates every child before searching them, so pruned children are "
                      "generated too",
}

_COMMON = ("depth_plus_one", "depth_minus_one", "depth_per_agent", "ghosts_one_layer",
           "evaluates_root", "ignores_terminal")


def applicable_bugs(algorithm: str, strict: bool = False) -> tuple[str, ...]:
    """The mistakes worth checking for ``algorithm`` (and the assignment's pruning convention)."""
    if algorithm == "minimax":
        return _COMMON + ("min_max_swapped",)
    if algorithm == "alphabeta":
        equality = "prune_on_equality" if strict else "no_prune_on_equality"
        return _COMMON + ("min_max_swapped", equality, "wrong_bound", "eager_children")
    if algorithm == "expectimax":
        return _COMMON + ("ghosts_minimised", "ghosts_summed")
    raise ValueError(f"unknown algorithm {algorithm!r}")


class VariantAgent:
    """A minimax / alpha-beta / expectimax agent with optional classic mistakes (``bugs``)."""

    def __init__(self, algorithm: str, depth: int, evaluation: Any, strict: bool = False,
                 bugs: Iterable[str] = ()) -> None:
        self.algorithm = algorithm
        self.bugs = frozenset(bugs)
        unknown = self.bugs - set(BUGS)
        if unknown:
            raise ValueError(f"unknown bugs: {', '.join(sorted(unknown))}")
        self.depth = depth + ("depth_plus_one" in self.bugs) - ("depth_minus_one" in self.bugs)
        self.evaluation = evaluation
        self.strict = strict
        self.prune = algorithm == "alphabeta"
        self.prune_equal = not strict
        if "prune_on_equality" in self.bugs:
            self.prune_equal = True
        if "no_prune_on_equality" in self.bugs:
            self.prune_equal = False

    def get_action(self, state: TreeState) -> str | None:
        if "evaluates_root" in self.bugs:
            self.evaluation(state)
        self.cycle = 2 if "ghosts_one_layer" in self.bugs and state.num_agents > 2 else state.num_agents
        best, best_action, alpha = -INF, None, -INF
        next_agent, next_depth = self._next(0, self.depth)
        for action, child in self._children(state):
            v = self._value(child, next_agent, next_depth, alpha, INF)
            if best_action is None or v > best:
                best, best_action = v, action
            alpha = max(alpha, best)
        return best_action

    def _next(self, agent: int, depth: int) -> tuple[int, int]:
        following = (agent + 1) % self.cycle
        if "depth_per_agent" in self.bugs or following == 0:
            return following, depth - 1
        return following, depth

    def _children(self, state: TreeState):
        actions = state.legal_actions()
        if "eager_children" in self.bugs:
            return [(a, state.successor(a)) for a in actions]
        return ((a, state.successor(a)) for a in actions)

    def _value(self, state: TreeState, agent: int, depth: int, alpha: float, beta: float) -> float:
        if depth <= 0 or (state.is_terminal and "ignores_terminal" not in self.bugs):
            return self.evaluation(state)
        maximise = agent == 0
        if "min_max_swapped" in self.bugs:
            maximise = not maximise
        next_agent, next_depth = self._next(agent, depth)
        if self.algorithm == "expectimax" and agent != 0 and "ghosts_minimised" not in self.bugs:
            values = [self._value(c, next_agent, next_depth, alpha, beta)
                      for _, c in self._children(state)]
            return sum(values) if "ghosts_summed" in self.bugs else sum(values) / len(values)
        v = -INF if maximise else INF
        for _, child in self._children(state):
            cv = self._value(child, next_agent, next_depth, alpha, beta)
            if maximise:
                v = max(v, cv)
                if self.prune and self._cut(v, alpha if "wrong_bound" in self.bugs else beta, True):
                    return v
                alpha = max(alpha, v)
            else:
                v = min(v, cv)
                if self.prune and self._cut(v, beta if "wrong_bound" in self.bugs else alpha, False):
                    return v
                beta = min(beta, v)
        return v

    def _cut(self, v: float, bound: float, above: bool) -> bool:
        if v == bound:
            return self.prune_equal
        return v > bound if above else v < bound


def observe(tree: LayeredTree, agent_factory: Any, budget: int | None = None) -> Observation:
    """Run an agent built by ``agent_factory(evaluation)`` on ``tree`` through the native
    instrumentation and return what it did (exceptions are recorded, not raised)."""
    recorder = TreeRecorder(tree.num_agents, tree.plies, budget)
    agent = agent_factory(recorder.evaluation())
    action, error = None, None
    try:
        action = agent.get_action(TreeState(tree.root, recorder))
    except (Exception, NodeBudgetExceeded, RecursionError) as exc:
        error = f"{type(exc).__name__}: {exc}"
    return Observation(action=action, generated=tuple(recorder.generated),
                       evaluated=tuple(recorder.evaluated), error=error,
                       terminal_expansions=tuple(recorder.terminal_expansions))


def variant_observation(tree: LayeredTree, algorithm: str, depth: int, strict: bool,
                        bugs: Iterable[str]) -> Observation:
    """What the variant with ``bugs`` does on ``tree``."""
    bugs = tuple(bugs)
    return observe(tree, lambda ev: VariantAgent(algorithm, depth, ev, strict, bugs),
                   budget=50 * tree.size + 100)


def diagnose(tree: LayeredTree, algorithm: str, depth: int, strict: bool, seen: Observation,
             correct: Observation | None = None) -> list[str]:
    """The known mistakes whose variant behaves exactly like ``seen`` on ``tree``.

    Variants that behave like the correct search on this tree (``correct``, computed when not
    given) cannot explain a failure and are skipped.
    """
    if correct is None:
        correct = variant_observation(tree, algorithm, depth, strict, ())
    found = []
    for bug in applicable_bugs(algorithm, strict):
        if bug == "depth_minus_one" and depth <= 1:
            continue
        variant = variant_observation(tree, algorithm, depth, strict, (bug,))
        if variant.same_behaviour(correct):
            continue
        if variant.same_behaviour(seen):
            found.append(bug)
    return found

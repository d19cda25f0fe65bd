"""Deliberately wrong reference searches, for diagnosing why a tree test failed.

Each classic mistake is a flag of :class:`VariantAgent`, an agent that searches the native
:class:`~pacman.grading.tree_state.TreeState` API the way students do, so it runs through exactly
the instrumentation a student's agent runs through. Its search is the textbook's
(:mod:`pacman.agents.search.textbook`), configured: the mistakes are the textbook's hooks (a
pruning test with the wrong bound or the other convention on equality, every child generated
first) and a reading of the tree as a game (:class:`_VariantGame`: which agent moves next, where
the depth drops, min and max swapped, end states ignored). With no flags it is a correct
minimax / alpha-beta / expectimax agent (the tests check it against the search core).
:func:`diagnose` runs every variant that applies to an algorithm on a tree and names those whose
behaviour matches the student's exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pacman.agents.search import textbook
from pacman.agents.search.game import Game, NodeKind
from pacman.errors import NodeBudgetExceeded
from pacman.grading.tree_state import TreeRecorder, TreeState
from pacman.grading.tree_tests import LayeredTree, Observation


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


class _VariantGame(Game):
    """A tree read as a game the way a variant reads it: a state is ``(tree state, agent)``,
    the agent counted by the variant (``cycle`` agents in a round), every leaf valued by the
    agent's ``evaluation``; see :class:`VariantAgent`."""

    def __init__(self, cycle: int, bugs: frozenset[str], root: tuple[TreeState, int],
                 evaluation: Callable[[TreeState], float]) -> None:
        self.cycle, self.bugs, self.root, self.evaluation = cycle, bugs, root, evaluation

    def is_end(self, s: tuple[TreeState, int]) -> bool:
        return s[0].is_terminal and "ignores_terminal" not in self.bugs

    def kind(self, s: tuple[TreeState, int]) -> NodeKind:
        if s is self.root:  # the root maximises whatever the mistake
            return NodeKind.MAX
        maximise = (s[1] == 0) != ("min_max_swapped" in self.bugs)
        return NodeKind.MAX if maximise else NodeKind.MIN

    def actions(self, s: tuple[TreeState, int]) -> tuple[str, ...]:
        return tuple(s[0].legal_actions())

    def successor(self, s: tuple[TreeState, int], action: str) -> tuple[TreeState, int]:
        return s[0].successor(action), (s[1] + 1) % self.cycle

    def ends_depth_unit(self, s: tuple[TreeState, int]) -> bool:
        return "depth_per_agent" in self.bugs or (s[1] + 1) % self.cycle == 0

    def utility(self, s: tuple[TreeState, int]) -> float:
        return self.evaluation(s[0])

    def evaluate(self, s: tuple[TreeState, int]) -> float:
        return self.evaluation(s[0])

    def probabilities(self, s: tuple[TreeState, int]) -> list[float]:
        raise AssertionError("a tree read by a variant has no chance nodes")


class VariantAgent:
    """A minimax / alpha-beta / expectimax agent with optional classic mistakes (``bugs``).

    ``depth`` (after a depth mistake) must be at least 1.
    """

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
        self.root: tuple[TreeState, int] | None = None

    def get_action(self, state: TreeState) -> str | None:
        if "evaluates_root" in self.bugs:
            self.evaluation(state)
        cycle = 2 if "ghosts_one_layer" in self.bugs and state.num_agents > 2 else state.num_agents
        self.root = root = (state, 0)
        game = _VariantGame(cycle, self.bugs, root, self.evaluation)
        if self.algorithm == "expectimax" and "ghosts_minimised" not in self.bugs:
            summed = "ghosts_summed" in self.bugs
            decision = textbook.expectimax(
                game, root, self.depth,
                opponent=(lambda s, actions: [1.0] * len(actions)) if summed else None)
        else:
            decision = textbook.alphabeta(game, root, self.depth, cut=self._cut,
                                          children=self._children)
        return decision.action

    def _children(self, game: Any, state: Any, trace: textbook.Trace) -> Iterable[tuple[Any, Any]]:
        """Lazily, or with ``eager_children`` every child generated before the first is searched."""
        if "eager_children" in self.bugs:
            return [(a, textbook.generate(game, state, a, trace)) for a in game.actions(state)]
        return textbook.lazy_children(game, state, trace)

    def _cut(self, state: Any, v: float, alpha: float, beta: float, maximise: bool) -> bool:
        """The pruning test, with the variant's bound and convention on equality; the root
        never stops (students' root loops do not prune)."""
        if not self.prune or state is self.root:
            return False
        wrong = "wrong_bound" in self.bugs
        bound = (alpha if wrong else beta) if maximise else (beta if wrong else alpha)
        if v == bound:
            return self.prune_equal
        return v > bound if maximise else v < bound


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

"""Abstract game trees dressed up as game states, so a student's Pacman agent can search them.

A tree test hands the student's agent a fake game state whose legal actions and successors walk
a :class:`~pacman.grading.tree_tests.LayeredTree`, and an evaluation function that returns the
static value of a node. Everything the agent does is recorded by a :class:`TreeRecorder`: every
node generated (in order) and every node passed to the evaluation function (in order).

Two faces over the same recorder:

* :class:`TreeState` speaks the native API (``legal_actions``, ``successor``, ``turn``,
  ``num_agents``, ``is_terminal``, ``is_win``, ``is_lose``, ``score``);
* :class:`ClassicTreeState` speaks the classic course's API (``getLegalActions``,
  ``generateSuccessor``, ``getNumAgents``, ``isWin``, ``isLose``, ``getScore``).

Conventions: the node at ply ``p`` belongs to agent ``p % num_agents``; the agent index an agent
passes is not checked (a tree has one set of moves per node). A leaf above the depth cut is an
end state: a win when its value is positive, a loss otherwise. Its "score" and evaluation are
its value; an internal node without a value evaluates to 0.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pacman.agents.search.trees import TreeNode
from pacman.errors import GameOverError, IllegalActionError, NodeBudgetExceeded
from pacman.grading.state_api import ClassicAPI, NativeAPI
from pacman.engine.outcome import Outcome


class TreeRecorder:
    """The record of one search on one tree: node ids generated and evaluated, in order.

    ``budget`` (or ``None``) caps the number of successors the agent may generate.
    ``terminal_expansions`` lists end states whose legal actions the agent asked for.
    """

    def __init__(self, num_agents: int, plies: dict[str, int], budget: int | None = None) -> None:
        self.num_agents = num_agents
        self.plies = plies
        self.budget = budget
        self.generated: list[str] = []
        self.evaluated: list[str] = []
        self.terminal_expansions: list[str] = []

    def child(self, node: TreeNode, action: Any) -> TreeNode:
        if not node.children:
            raise GameOverError(f"node {node.id!r} is an end state; no move can follow")
        child = node.by_action.get(action) if isinstance(action, str) else None
        if child is None:
            raise IllegalActionError(f"{action!r} is not legal at node {node.id!r}; legal: "
                                     f"{', '.join(node.actions)}")
        self.generated.append(child.id)
        if self.budget is not None and len(self.generated) > self.budget:
            raise NodeBudgetExceeded(f"generated more than {self.budget} successors")
        return child

    def actions(self, node: TreeNode) -> tuple[str, ...]:
        if not node.children:
            self.terminal_expansions.append(node.id)
        return node.actions

    def evaluate(self, state: Any) -> float:
        node = getattr(state, "_node", None)
        if not isinstance(node, TreeNode):
            raise TypeError(f"the evaluation function was given {type(state).__name__}, "
                            "not a state of this tree")
        self.evaluated.append(node.id)
        return node_value(node)

    def evaluation(self) -> Callable[[Any], float]:
        """The evaluation function to give the agent: records, then returns the node's value."""
        return self.evaluate


def node_value(node: TreeNode) -> float:
    """A node's static value: its ``value``, or 0 for an internal node without one."""
    return 0 if node.value is None else node.value


class _Base:
    __slots__ = ("_node", "_rec")
    _node: TreeNode
    _rec: TreeRecorder

    def __init__(self, node: TreeNode, recorder: TreeRecorder) -> None:
        object.__setattr__(self, "_node", node)
        object.__setattr__(self, "_rec", recorder)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._node is self._node

    def __hash__(self) -> int:
        return hash(self._node.id)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._node.id!r})"

    def _mover(self) -> int:
        return self._rec.plies[self._node.id] % self._rec.num_agents

    def _count(self) -> int:
        return self._rec.num_agents

    def _ending(self) -> Outcome | None:
        if self._node.children:
            return None
        return Outcome.WIN if node_value(self._node) > 0 else Outcome.LOSS

    def _points(self) -> float:
        return node_value(self._node)

    def _legal(self, agent: int) -> tuple[str, ...]:
        return self._rec.actions(self._node)

    def _child(self, agent: Any, action: Any) -> _Base:
        return type(self)(self._rec.child(self._node, action), self._rec)


class TreeState(_Base, NativeAPI):
    """A tree node seen through the native game-state API (see the module docstring)."""

    __slots__ = ()


class ClassicTreeState(_Base, ClassicAPI):
    """A tree node seen through the classic course's ``GameState`` API."""

    __slots__ = ()

"""The grader's side of remote states: the real objects, and the record of what was asked.

A :class:`StateServer` holds the real states of one test by handle and answers the calls of
the submission's proxies (:mod:`pacman.grading.remote_state`) while the grader waits for the
worker's answer to a request. Only handles the server gave out are accepted, so a submission
cannot name a node it never generated. Everything is counted here, in the grader's process.

:class:`TreeServer` serves a tree test: handles are node ids of a
:class:`~pacman.grading.tree_tests.LayeredTree`, and a
:class:`~pacman.grading.tree_state.TreeRecorder` records every node generated and evaluated
(in order), the end states asked for moves, and the node budget. A server for real Pacman
positions would subclass :class:`StateServer` the same way (handles for game states, its
``successor`` through the rules, its ``evaluate`` recorded).
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable

from pacman.agents.search.trees import TreeNode
from pacman.errors import GameOverError, IllegalActionError, NodeBudgetExceeded
from pacman.grading.tree_state import TreeRecorder, node_value


class CallRefused(Exception):
    """A call the server does not answer (unknown call or handle); the worker gets it raised."""


class StateServer:
    """Answers ``{"call": NAME, ...}`` messages with the method ``call_NAME`` (see the module
    docstring). Engine errors and refusals become ``{"raise": [TYPE, MESSAGE]}``."""

    #: Exceptions raised inside the submission's code under their own name.
    PASSED_ON = (GameOverError, IllegalActionError, NodeBudgetExceeded, CallRefused, TypeError)

    def answer(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The answer to send back, or ``None`` for a one-way call (nothing is sent)."""
        name = message.get("call")
        method: Callable[[dict[str, Any]], dict[str, Any] | None] | None = getattr(
            self, f"call_{name}", None) if isinstance(name, str) and name.isidentifier() else None
        try:
            if method is None:
                raise CallRefused(f"the grader has no call {str(name)[:40]!r}")
            return method(message)
        except self.PASSED_ON as error:
            return {"raise": [type(error).__name__, str(error)[:500]]}

    def finish(self, reply: dict[str, Any]) -> dict[str, Any]:
        """The worker's final answer completed with the server's record (overrides it)."""
        return reply


class TreeServer(StateServer):
    """Serves one tree test (see the module docstring)."""

    def __init__(self, tree: Any, budget: int | None) -> None:
        self.tree = tree
        self.recorder = TreeRecorder(tree.num_agents, tree.plies, budget)
        self.nodes: dict[str, TreeNode] = {tree.root.id: tree.root}
        self.overrun: str | None = None

    def info(self, node: TreeNode) -> dict[str, Any]:
        return {"handle": node.id, "turn": self.tree.plies[node.id] % self.tree.num_agents,
                "agents": self.tree.num_agents, "actions": list(node.actions),
                "end": not node.children, "score": node_value(node)}

    def root(self) -> dict[str, Any]:
        return self.info(self.tree.root)

    def _node(self, message: dict[str, Any]) -> TreeNode:
        node = self.nodes.get(message.get("handle"))  # type: ignore[arg-type]
        if node is None:
            raise CallRefused("not a state the grader gave out")
        return node

    def call_successor(self, message: dict[str, Any]) -> dict[str, Any]:
        if self.overrun is not None:
            raise NodeBudgetExceeded(self.overrun)
        node = self._node(message)
        try:
            child = self.recorder.child(node, message.get("action"))
        except NodeBudgetExceeded as error:
            self.overrun = str(error)
            raise
        self.nodes[child.id] = child
        return {"node": self.info(child)}

    def call_evaluate(self, message: dict[str, Any]) -> dict[str, Any]:
        node = self._node(message)
        self.recorder.evaluated.append(node.id)
        return {"value": node_value(node)}

    def call_actions(self, message: dict[str, Any]) -> dict[str, Any]:
        return {"actions": list(self.recorder.actions(self._node(message)))}

    def finish(self, reply: dict[str, Any]) -> dict[str, Any]:
        record = self.recorder
        reply.update(generated=list(record.generated), evaluated=list(record.evaluated),
                     terminal_expansions=list(record.terminal_expansions))
        if self.overrun is not None:
            reply["error"] = {"type": "NodeBudgetExceeded", "message": self.overrun,
                              "traceback": ""}
            reply["action"] = None
        return reply

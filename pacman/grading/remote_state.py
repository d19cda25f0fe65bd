"""The submission's side of remote states: handles that ask the grader for every successor.

In a tree test the tree, its values and the node recorder live in the grader's process only
(:mod:`pacman.grading.state_server`). The submission's process holds proxies: each knows the
handle the grader gave its node and what the grader told about it (whose turn it is, its legal
actions, whether it is an end state, its score). Generating a successor, evaluating a node and
asking the legal actions of an end state are calls over the worker's pipe, answered and counted
by the grader; nothing the submission does in its own process can change the record.

The same proxies speak two APIs over one handle:

* :class:`RemoteState`: the native API (``legal_actions``, ``successor``, ``successors``,
  ``turn``, ``num_agents``, ``num_ghosts``, ``is_terminal``, ``is_win``, ``is_lose``,
  ``outcome``, ``score``);
* :class:`RemoteClassicState`: the classic course's API (``getLegalActions``,
  ``generateSuccessor``, ``getNumAgents``, ``isWin``, ``isLose``, ``getScore``, ...).

A position test (:mod:`pacman.grading.position_server`) serves real Pacman states the same way:
a :class:`RemotePositionState` speaks both APIs; the legal actions of the agent to move come
with each handle, other agents' are a call, and any other read-only accessor (positions, food,
ghost states) answers from a local copy of the state's fields, asked once per handle. Its first
successor is a call that also hands out the handles of its siblings and of the states below
them a correct search will ask; asking those is a one-way notice (``{"call": "took", ...}``, no
answer, sent in order before the next call and before the move), recorded by the grader.

Protocol (JSON messages on the worker's connection, while the grader waits for the answer to
its own request): the worker sends ``{"call": NAME, "handle": H, ...}`` and receives
``{"node": INFO}``, ``{"value": X}``, ``{"actions": [...]}`` or ``{"raise": [TYPE, MESSAGE]}``;
an error is raised again here as the engine's exception of that name.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pacman.errors import GameOverError, IllegalActionError, NodeBudgetExceeded, PacmanError
from pacman.grading.state_api import ClassicAPI, NativeAPI, state_of_fields
from pacman.engine.outcome import Outcome, parse_outcome


class GraderError(PacmanError):
    """The grader refused a call (an unknown handle, a malformed call)."""


_RAISED = {"GameOverError": GameOverError, "IllegalActionError": IllegalActionError,
           "NodeBudgetExceeded": NodeBudgetExceeded, "TypeError": TypeError}


class Channel:
    """Calls to the grader over the worker's connection (one call, one answer); ``layout`` is
    the maze of the current position test (for :class:`RemotePositionState`'s local views)."""

    def __init__(self, connection: Any) -> None:
        self._connection = connection
        self._taken: list[int] = []
        self.layout: Any = None

    def call(self, name: str, **fields: Any) -> dict[str, Any]:
        self.flush()
        self._connection.send_bytes(json.dumps({"call": name, **fields}).encode())
        answer = json.loads(self._connection.recv_bytes())
        if "raise" in answer:
            kind, message = answer["raise"]
            raise _RAISED.get(kind, GraderError)(message)
        return answer

    def took(self, handle: int) -> None:
        """Tell the grader that a successor it handed out ahead was asked (one way, sent with
        the next call or :meth:`flush`)."""
        self._taken.append(handle)
        if len(self._taken) >= 1000:
            self.flush()

    def flush(self) -> None:
        """Send the pending notices (one-way: the grader answers nothing)."""
        if self._taken:
            taken, self._taken = self._taken, []
            self._connection.send_bytes(json.dumps({"call": "took", "handles": taken}).encode())


class _Handle:
    """A state held by the grader, known here by its handle and what the grader told of it.

    Immutable; two handles are equal when they name the same state of the same kind.
    """

    __slots__ = ("_channel", "_handle", "_turn", "_agents", "_actions", "_score")
    _channel: Channel
    _handle: Any
    _turn: int
    _agents: int
    _actions: tuple[str, ...]
    _score: float

    def __init__(self, channel: Channel, info: dict[str, Any]) -> None:
        setter = object.__setattr__
        setter(self, "_channel", channel)
        setter(self, "_handle", info["handle"])
        setter(self, "_turn", info["turn"])
        setter(self, "_agents", info["agents"])
        setter(self, "_actions", tuple(info["actions"]))
        setter(self, "_score", info["score"])

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._handle == self._handle

    def __hash__(self) -> int:
        return hash(self._handle)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._handle!r})"

    def _mover(self) -> int:
        return self._turn

    def _count(self) -> int:
        return self._agents

    def _points(self) -> float:
        return self._score


class _Proxy(_Handle):
    """A node of a tree test: an end state is a win when its score is positive."""

    __slots__ = ("_end",)
    _end: bool

    def __init__(self, channel: Channel, info: dict[str, Any]) -> None:
        super().__init__(channel, info)
        object.__setattr__(self, "_end", bool(info["end"]))

    def _ending(self) -> Outcome | None:
        if not self._end:
            return None
        return Outcome.WIN if self._score > 0 else Outcome.LOSS

    def _legal(self, agent: int) -> tuple[str, ...]:
        if self._end:  # asking an end state for moves is a mistake the grader diagnoses
            self._channel.call("actions", handle=self._handle)
        return self._actions

    def _child(self, agent: Any, action: Any) -> _Proxy:
        if not isinstance(action, str):
            action = repr(action)[:100]
        return type(self)(self._channel, self._channel.call("successor", handle=self._handle,
                                                            action=action)["node"])


class RemoteState(_Proxy, NativeAPI):
    """A remote node seen through the native game-state API."""

    __slots__ = ()


class RemoteClassicState(_Proxy, ClassicAPI):
    """A remote node seen through the classic course's ``GameState`` API."""

    __slots__ = ()


class RemotePositionState(_Handle, ClassicAPI, NativeAPI):
    """A real Pacman state held by the grader, seen through the classic and the native API."""

    __slots__ = ("_outcome", "_view", "_children")
    _outcome: Outcome | None
    _view: Any
    _children: dict[Any, dict[str, Any]]

    def __init__(self, channel: Channel, info: dict[str, Any]) -> None:
        super().__init__(channel, info)
        setter = object.__setattr__
        setter(self, "_outcome", parse_outcome(info["outcome"]))
        setter(self, "_view", None)
        # agent -> action -> info: successors the grader handed out ahead
        setter(self, "_children", {info["turn"]: info["children"]} if "children" in info else {})

    def _ending(self) -> Outcome | None:
        return self._outcome

    def _legal(self, agent: int) -> tuple[str, ...]:
        if agent == self._turn:
            return self._actions
        return tuple(self._channel.call("actions", handle=self._handle, agent=agent)["actions"])

    def _child(self, agent: Any, action: Any) -> RemotePositionState:
        if not isinstance(action, str):
            action = repr(action)[:100]
        if not isinstance(agent, int) or isinstance(agent, bool):
            agent = repr(agent)[:20]
        known = self._children.get(agent)
        if known is not None and action in known:  # the grader records it on this notice
            self._channel.took(known[action]["handle"])
            return RemotePositionState(self._channel, known[action])
        answer = self._channel.call("expand", handle=self._handle, agent=agent, action=action)
        self._children[agent] = answer["children"]
        return RemotePositionState(self._channel, answer["children"][answer["action"]])

    def __getattr__(self, name: str) -> Any:
        """Any other accessor of either API, answered by a local copy of the state."""
        if name.startswith("_"):
            raise AttributeError(name)
        view = self._view
        if view is None:
            view = _local_view(self._channel, self._channel.call("view", handle=self._handle)["state"])
            object.__setattr__(self, "_view", view)
        for source in (view, view.engine):
            if hasattr(source, name):
                return getattr(source, name)
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")


def _local_view(channel: Channel, fields: list[Any]) -> Any:
    """A classic-API copy of a served state (its successors are not the grader's record)."""
    from pacman.compat.state import GameState as ClassicState

    return ClassicState(state_of_fields(channel.layout, fields))


def remote_evaluation(channel: Channel) -> Callable[[Any], float]:
    """The evaluation function given to the agent: the grader records the node and answers
    its static value. Anything but a state of this test is a ``TypeError``."""

    def evaluate(state: Any) -> float:
        if not isinstance(state, _Proxy) or state._channel is not channel:
            raise TypeError(f"the evaluation function was given {type(state).__name__}, "
                            "not a state of this tree")
        return channel.call("evaluate", handle=state._handle)["value"]

    return evaluate

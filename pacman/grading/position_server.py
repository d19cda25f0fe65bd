"""The grader's side of a position test: real Pacman states served to the submission.

A :class:`PositionServer` holds the real game states of one search from one position (see
:mod:`pacman.grading.position_tests`) by handle, and answers the calls of the submission's
:class:`~pacman.grading.remote_state.RemotePositionState` proxies while the grader waits for the
submission's move. Every successor goes through the server's
:class:`~pacman.grading.position_tests.PositionRecorder`, so the count of distinct states
explored is the grader's record, never the submission's word.

Calls (JSON, see :mod:`pacman.grading.remote_state` for the protocol):

* ``expand`` ``{handle, agent, action}``: records the successor asked and answers it with the
  handles of all its siblings for the same agent (``children``: action to info), and below them
  (an info's own ``children``) the states a correct search of the test's depth will ask for
  next, none recorded; the submission's proxy keeps them, so that a correct search needs one
  round trip per position;
* ``took`` ``{handles}`` (one way, no answer): the search asked successors it already held, in
  that order; they are recorded then. Notices are sent before any other call and before the
  move, on the one pipe, so the record is the one a call per successor would give;
* ``actions`` ``{handle, agent}``: the legal actions of another agent than the one to move
  (those of the agent to move come with every handle, so a correct search needs no such call);
* ``view`` ``{handle}``: the state's fields, for the read-only accessors a search may also use
  (positions, food, ghost states); the submission builds a local copy from them, whose own
  successors are not counted.

A sibling handed out but never asked for is not counted: only ``expand`` and ``took`` record.
"""

from __future__ import annotations

from typing import Any

from pacman.errors import GameOverError, IllegalActionError, NodeBudgetExceeded
from pacman.grading.position_tests import PositionRecorder, legal_in_order
from pacman.grading.state_server import CallRefused, StateServer
from pacman.grading.state_api import state_fields
from pacman.engine.state import GameState

#: Most states one search may generate (each stays in the grader's memory until the answer).
MAX_STATES = 200_000
#: Most states handed out ahead of a search from one position (see ``_speculate``).
SPECULATION = 4000



class PositionServer(StateServer):
    """Serves the search of one position (see the module docstring)."""

    def __init__(self, root: GameState, facing: str | None = None, depth: int | None = None,
                 max_states: int = MAX_STATES) -> None:
        self.recorder = PositionRecorder(root, facing)
        self.states: list[GameState] = [root]
        self.agents = root.num_agents
        #: For every handle but the root: (parent handle, agent, action).
        self.origins: list[tuple[int, int, str]] = [(0, 0, "")]
        self.plies: list[int] = [0]
        self.horizon = depth * self.agents if depth is not None else 0
        self.speculated = 0
        #: ``expand`` calls answered (round trips besides the request itself).
        self.expands = 0
        self.max_states = max_states
        self.overrun: str | None = None

    def info(self, handle: int, turn: int) -> dict[str, Any]:
        """What every handle carries: whose turn, the legal actions of that agent, the score
        and the outcome (``Outcome.WIN``, ``LOSS`` or ``None``, sent as its string)."""
        state = self.states[handle]
        return {"handle": handle, "turn": turn, "agents": self.agents,
                "actions": list(legal_in_order(state, turn)), "score": float(state.score),
                "outcome": state.outcome}

    def root(self) -> dict[str, Any]:
        return self.info(0, self.states[0].turn)

    def _state(self, message: dict[str, Any]) -> GameState:
        handle = message.get("handle")
        if not isinstance(handle, int) or isinstance(handle, bool) or not (
                0 <= handle < len(self.states)):
            raise CallRefused("not a state the grader gave out")
        return self.states[handle]

    def _agent(self, message: dict[str, Any]) -> int:
        agent = message.get("agent")
        if not isinstance(agent, int) or isinstance(agent, bool) or not 0 <= agent < self.agents:
            raise CallRefused(f"agent index {str(agent)[:20]} is not one of the "
                              f"{self.agents} agents")
        return agent

    def call_expand(self, message: dict[str, Any]) -> dict[str, Any]:
        if self.overrun is not None:
            raise NodeBudgetExceeded(self.overrun)
        state, agent = self._state(message), self._agent(message)
        action = message.get("action")
        if not isinstance(action, str):
            raise TypeError(f"an action is a name, not {str(action)[:60]}")
        if state.outcome is not None:
            raise GameOverError("Can't generate a successor of a terminal state.")
        if action not in state.legal_actions(agent):
            state.successor(action, agent)  # the engine's own error for this move
            raise IllegalActionError(f"{action!r} is not a legal action of agent {agent}")
        self.expands += 1
        children = self._children(message["handle"], agent)
        self._speculate(list(children.values()))
        self._record(children[action]["handle"])
        return {"action": action, "children": children}

    def _children(self, parent: int, agent: int) -> dict[str, dict[str, Any]]:
        """Handles for every successor of ``parent`` by ``agent`` (none recorded)."""
        state = self.states[parent]
        legal = legal_in_order(state, agent)
        if len(self.states) + len(legal) > self.max_states:
            self.overrun = f"generated more than {self.max_states} states from one position"
            raise NodeBudgetExceeded(self.overrun)
        turn, ply = (agent + 1) % self.agents, self.plies[parent] + 1
        children = {}
        for move in legal:
            self.states.append(state.successor(move, agent))
            self.origins.append((parent, agent, move))
            self.plies.append(ply)
            children[move] = self.info(len(self.states) - 1, turn)
        return children

    def _speculate(self, infos: list[dict[str, Any]]) -> None:
        """Hand out, below ``infos``, the successors a correct search of the test's depth will
        ask for (breadth first, at most :data:`SPECULATION` states), so that it needs no
        further round trip; a search that goes elsewhere gets them by ``expand``."""
        queue = list(infos)
        while queue and self.speculated < SPECULATION:
            info = queue.pop(0)
            handle = info["handle"]
            if self.plies[handle] >= self.horizon or info["outcome"] is not None:
                continue
            info["children"] = self._children(handle, info["turn"])
            self.speculated += len(info["children"])
            queue.extend(info["children"].values())

    def call_took(self, message: dict[str, Any]) -> None:
        """One way: the submission asked successors it was handed (in that order)."""
        handles = message.get("handles")
        for handle in handles if isinstance(handles, list) else [None]:
            if (not isinstance(handle, int) or isinstance(handle, bool)
                    or not 0 < handle < len(self.states)):
                self.overrun = self.overrun or "asked for a state the grader never gave out"
                return None
            self._record(handle)
        return None

    def _record(self, handle: int) -> None:
        parent, agent, action = self.origins[handle]
        self.recorder.record(self.states[parent], action, agent, self.states[handle])

    def call_actions(self, message: dict[str, Any]) -> dict[str, Any]:
        return {"actions": list(legal_in_order(self._state(message), self._agent(message)))}

    def call_view(self, message: dict[str, Any]) -> dict[str, Any]:
        return {"state": state_fields(self._state(message))}

    def finish(self, reply: dict[str, Any]) -> dict[str, Any]:
        """The worker's move with the grader's count of distinct states explored."""
        reply["explored"] = len(self.recorder.explored)
        if self.overrun is not None:
            reply["error"] = {"type": "NodeBudgetExceeded", "message": self.overrun,
                              "traceback": ""}
            reply["action"] = None
        return reply

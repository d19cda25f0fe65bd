"""The two game-state APIs a graded agent may speak, over whatever a graded state really is.

A graded agent is handed states that are not :class:`~pacman.engine.state.GameState` objects: nodes
of an abstract tree (:mod:`pacman.grading.tree_state`) or handles of states held by the grader
(:mod:`pacman.grading.remote_state`). Each kind supplies five primitives and mixes in the API
it must speak:

* ``_mover()`` -- the index of the agent to move;
* ``_count()`` -- the number of agents;
* ``_ending()`` -- the :class:`~pacman.engine.outcome.Outcome` of an end state, ``None`` otherwise;
* ``_points()`` -- the score;
* ``_legal(agent)`` / ``_child(agent, action)`` -- the legal actions of ``agent`` and the
  state after it plays ``action`` (a kind whose states have one set of moves may ignore
  ``agent``).

:class:`NativeAPI` is the engine's (``turn``, ``legal_actions``, ``successor``, ``is_win``, ...);
:class:`ClassicAPI` is the classic course's (``getLegalActions``, ``generateSuccessor``,
``isWin``, ``getScore``, ...). The grader counts what the primitives do, so every method here
calls exactly the primitives the one it stands for needs, no more.

Engine states cross the pipe between grader and worker as JSON fields, every field of the
state but its maze (:func:`state_fields`, :func:`state_of_fields`): eight, and a ninth for a
state of the classic rules variant (its ghosts between cells).
"""

from __future__ import annotations

from typing import Any

from pacman.engine.layout import Layout
from pacman.engine.outcome import Outcome, parse_outcome
from pacman.engine.state import FIELDS, ClassicSpeedState, GameState


def state_fields(state: GameState) -> list[Any]:
    """An engine state as JSON-ready fields, its maze apart."""
    return [list(state.positions), list(state.directions), list(state.scared_timers), state.food,
            state.capsules, state.score, state.turn, state.outcome,
            *(getattr(state, name) for name in type(state).fields[len(FIELDS):])]


def state_of_fields(layout: Layout, fields: list[Any],
                    kind: type[GameState] | None = None) -> GameState:
    """The state (of class ``kind``) on ``layout`` whose fields :func:`state_fields` gave
    (``ValueError`` if they are not as many as ``kind`` has). Without ``kind``, the class their
    number names: eight a default state, nine one of the classic rules variant."""
    positions, directions, scared, food, capsules, score, turn, outcome, *extra = fields
    if kind is None:
        kind = ClassicSpeedState if extra else GameState
    if len(extra) != len(kind._start_extra):
        raise ValueError(f"{len(fields)} state fields for a {kind.__name__}")
    return tuple.__new__(kind, (layout, tuple(positions), tuple(directions), tuple(scared), food,
                                capsules, score, turn, parse_outcome(outcome), *extra))


class _Primitives:
    """What both APIs are written over (see the module docstring)."""

    __slots__ = ()

    def _mover(self) -> int:
        raise NotImplementedError

    def _count(self) -> int:
        raise NotImplementedError

    def _ending(self) -> Outcome | None:
        raise NotImplementedError

    def _points(self) -> float:
        raise NotImplementedError

    def _legal(self, agent: int) -> tuple[str, ...]:
        raise NotImplementedError

    def _child(self, agent: Any, action: Any) -> Any:
        raise NotImplementedError


class NativeAPI(_Primitives):
    """The engine's game-state API."""

    __slots__ = ()

    @property
    def turn(self) -> int:
        return self._mover()

    @property
    def num_agents(self) -> int:
        return self._count()

    @property
    def num_ghosts(self) -> int:
        return self._count() - 1

    @property
    def is_terminal(self) -> bool:
        return self._ending() is not None

    @property
    def is_win(self) -> bool:
        return self._ending() == Outcome.WIN

    @property
    def is_lose(self) -> bool:
        return self._ending() == Outcome.LOSS

    @property
    def outcome(self) -> Outcome | None:
        return self._ending()

    @property
    def score(self) -> float:
        return self._points()

    def legal_actions(self, agent: int | None = None) -> tuple[str, ...]:
        return self._legal(self._mover() if agent is None else agent)

    def successor(self, action: str, agent: int | None = None) -> Any:
        return self._child(self._mover() if agent is None else agent, action)

    def successors(self) -> list[tuple[str, Any]]:
        return [(a, self.successor(a)) for a in self.legal_actions()]


class ClassicAPI(_Primitives):
    """The classic course's ``GameState`` API."""

    __slots__ = ()

    def getLegalActions(self, agentIndex: int = 0) -> list[str]:
        return list(self._legal(agentIndex))

    def getLegalPacmanActions(self) -> list[str]:
        return list(self._legal(0))

    def generateSuccessor(self, agentIndex: int, action: str) -> Any:
        return self._child(agentIndex, action)

    def generatePacmanSuccessor(self, action: str) -> Any:
        return self._child(0, action)

    def getNumAgents(self) -> int:
        return self._count()

    def isWin(self) -> bool:
        return self._ending() == Outcome.WIN

    def isLose(self) -> bool:
        return self._ending() == Outcome.LOSS

    def getScore(self) -> float:
        return float(self._points())  # the classic API's scores are floats

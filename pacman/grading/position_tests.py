"""Position tests: a student's search agent on real Pacman positions, as the classic course checks.

Tree tests cannot see the agent index a search passes (a tree has one set of moves per node). A
position test can: it plays one seeded game on a real maze with real ghosts, in which Pacman
always plays the reference search's first best move, and at every position asks the student's
agent for its move. A :class:`PositionRecorder` counts the distinct states the agent explored
(every state it asked a successor of, and every successor; two states are the same when their
positions, directions, scared timers, food, capsules and score are). A search that moves the
wrong ghost, stops one ghost short or searches one round too deep explores other states, so its
count differs even where its move happens to be right.

The verdict follows the classic course's rule: at every position the count must equal the
reference's, searched either with Pacman's ``Stop`` move or without it; and the moves must all
be best moves of one of those two references (ties: any best move).

The interface between the grader and the student's process is one request per position,
``{"cmd": "position", "role", "algorithm", "depth", "layout", "layout_name", "state"}``, answered
by :func:`student_position` with a :class:`PositionObservation` as JSON:
``{"action": str | None, "explored": int, "error": dict | None}``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from pacman.compat.state import GameState as ClassicGameState
from pacman.errors import GameOverError
from pacman.state import GameState

STOP = "Stop"
_TOLERANCE = 1e-9


def state_identity(state: GameState) -> tuple:
    """What makes two states the same for counting: all but the layout, whose turn and outcome."""
    return state[1:7]


class PositionRecorder:
    """The record of one search from one position: the distinct states explored.

    ``explored`` holds the identity of every state a successor was asked of and of every
    successor, as :func:`state_identity`; ``successors`` counts the calls.
    """

    def __init__(self) -> None:
        self.explored: set[tuple] = set()
        self.successors = 0

    def successor(self, state: GameState, action: str, agent: int) -> GameState:
        child = state.successor(action, agent)
        self.successors += 1
        self.explored.add(state_identity(state))
        self.explored.add(state_identity(child))
        return child


class RecordingClassicState(ClassicGameState):
    """The classic ``GameState`` API whose successors go through a :class:`PositionRecorder`."""

    __slots__ = ("recorder",)

    def __init__(self, engine: GameState, recorder: PositionRecorder) -> None:
        super().__init__(engine)
        object.__setattr__(self, "recorder", recorder)

    def generateSuccessor(self, agentIndex: int, action: str) -> RecordingClassicState:
        if self.engine.outcome is not None:
            raise GameOverError("Can't generate a successor of a terminal state.")
        return RecordingClassicState(self.recorder.successor(self.engine, action, agentIndex),
                                     self.recorder)


class RecordingState(GameState):
    """An engine state whose successors go through the recorder of the current search."""

    __slots__ = ()
    recorder: PositionRecorder | None = None

    def successor(self, action: str, agent: int | None = None) -> RecordingState:
        recorder = RecordingState.recorder
        assert recorder is not None
        child = recorder.successor(self, action, self[7] if agent is None else agent)
        return tuple.__new__(RecordingState, child)

    def successors(self) -> list[tuple[str, GameState]]:
        return [(a, self.successor(a)) for a in self.legal_actions()]


@dataclass(frozen=True)
class PositionObservation:
    """What the student's agent did from one position."""

    action: str | None
    explored: int
    error: str | None = None


@dataclass(frozen=True)
class PositionReference:
    """The reference's answer from one position, with and without Pacman's ``Stop``."""

    best_with_stop: frozenset[str]
    best_without_stop: frozenset[str]
    explored_with_stop: int
    explored_without_stop: int
    action: str


def reference_position(state: GameState, algorithm: str, depth: int) -> PositionReference:
    """The classic search (``minimax``, ``alphabeta`` without pruning on equality, or
    ``expectimax``) to ``depth`` rounds from ``state``, evaluating states by their score.

    Pacman's moves are searched in legal order, ``Stop`` last, so the search without ``Stop``
    is the search with it cut before its last root move (alpha-beta carries alpha across root
    moves, and nothing before ``Stop`` depends on it).
    """
    n = state.num_agents
    root = state_identity(state)

    def value(s: GameState, agent: int, d: int, alpha: float, beta: float, seen: set) -> float:
        if d == 0 or s.outcome is not None:
            return float(s.score)
        nxt = (agent + 1) % n
        nd = d - 1 if nxt == 0 else d
        children = []
        if agent == 0:
            v = -math.inf
            for a in s.legal_actions(agent):
                child = s.successor(a, agent)
                seen.add(state_identity(child))
                v = max(v, value(child, nxt, nd, alpha, beta, seen))
                if algorithm == "alphabeta":
                    if v > beta:
                        return v
                    alpha = max(alpha, v)
            return v
        v = math.inf
        for a in s.legal_actions(agent):
            child = s.successor(a, agent)
            seen.add(state_identity(child))
            cv = value(child, nxt, nd, alpha, beta, seen)
            if algorithm == "expectimax":
                children.append(cv)
                continue
            v = min(v, cv)
            if algorithm == "alphabeta":
                if v < alpha:
                    return v
                beta = min(beta, v)
        return sum(children) / len(children) if algorithm == "expectimax" else v

    nxt = 1 % n
    nd = depth - 1 if nxt == 0 else depth
    values: dict[str, float] = {}
    explored_before_stop: set = set()
    explored: set = set()
    alpha = -math.inf
    for action in state.legal_actions(0):
        if action == STOP:
            explored_before_stop = set(explored)
        seen: set = set()
        child = state.successor(action, 0)
        seen.add(state_identity(child))
        values[action] = value(child, nxt, nd, alpha, math.inf, seen)
        explored |= seen
        if algorithm == "alphabeta":
            alpha = max(alpha, values[action])
    if STOP not in values:
        explored_before_stop = explored
    with_stop = _best(values)
    without = _best({a: v for a, v in values.items() if a != STOP})
    first = next(a for a in values if a in with_stop)
    count = (lambda s: len(s | {root}) if values else 0)
    return PositionReference(with_stop, without, count(explored), count(explored_before_stop), first)


def _best(values: dict[str, float]) -> frozenset[str]:
    if not values:
        return frozenset()
    best = max(values.values())
    return frozenset(a for a, v in values.items() if abs(v - best) <= _TOLERANCE)


@dataclass
class PositionVerdict:
    """The classic rule over a whole game of positions (see the module docstring)."""

    positions: int = 0
    error: str | None = None
    wrong_counts: list[tuple[int, int, int, int]] = field(default_factory=list)
    consistent_with_stop: bool = True
    consistent_without_stop: bool = True
    wrong_moves: list[tuple[int, str | None, str]] = field(default_factory=list)

    def add(self, reference: PositionReference, seen: PositionObservation) -> None:
        """Record one position (``seen.error`` ends the test: the agent crashed)."""
        self.positions += 1
        if seen.error is not None:
            self.error = seen.error
            return
        if seen.explored not in (reference.explored_with_stop, reference.explored_without_stop):
            self.wrong_counts.append((self.positions, seen.explored, reference.explored_with_stop,
                                      reference.explored_without_stop))
        if seen.action not in reference.best_with_stop:
            self.consistent_with_stop = False
        if seen.action not in reference.best_without_stop:
            self.consistent_without_stop = False
        if seen.action not in reference.best_with_stop | reference.best_without_stop:
            self.wrong_moves.append((self.positions, seen.action, reference.action))

    @property
    def passed(self) -> bool:
        return (self.error is None and self.positions > 0 and not self.wrong_counts
                and (self.consistent_with_stop or self.consistent_without_stop))

    def describe(self) -> list[str]:
        """One line per problem, for the report."""
        if self.error is not None:
            return [f"position {self.positions}: the agent failed: {self.error}"]
        lines = []
        if self.wrong_counts:
            at, got, stop, no_stop = self.wrong_counts[0]
            lines.append(f"position {at}: explored {got} distinct states; a correct search "
                         f"explores {no_stop} (or {stop} when it also tries Stop)"
                         + (f"; {len(self.wrong_counts) - 1} more positions differ"
                            if len(self.wrong_counts) > 1 else ""))
        if self.wrong_moves:
            at, got, best = self.wrong_moves[0]
            lines.append(f"position {at}: moved {got}, a best move is {best}"
                         + (f"; {len(self.wrong_moves) - 1} more wrong moves"
                            if len(self.wrong_moves) > 1 else ""))
        elif not (self.consistent_with_stop or self.consistent_without_stop):
            lines.append("the moves mix the best moves with Stop and without it")
        if not lines:
            lines.append(f"all {self.positions} positions correct")
        return lines


def student_position(agent_class: Any, state: GameState, depth: int, classic: bool,
                     build_native: Any = None) -> dict[str, Any]:
    """Run the student's agent class from ``state`` through a :class:`PositionRecorder`.

    Returns ``{"action", "explored"}``; the caller reports exceptions. Classic agents get
    ``depth`` as text and keep their own default evaluation function, as the classic course
    builds them; native agents are built by ``build_native(cls, depth)``.
    """
    recorder = PositionRecorder()
    if classic:
        try:
            agent = agent_class(depth=str(depth))
        except TypeError:
            agent = agent_class()
            agent.depth = depth
        agent.index = 0
        action = agent.getAction(RecordingClassicState(state, recorder))
    else:
        agent = build_native(agent_class, depth)
        RecordingState.recorder = recorder
        try:
            action = agent.get_action(tuple.__new__(RecordingState, state))
        finally:
            RecordingState.recorder = None
    return {"action": action if isinstance(action, str) else None,
            "explored": len(recorder.explored)}

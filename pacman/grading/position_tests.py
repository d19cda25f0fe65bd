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

The recorder lives in the grader's process only: the student's agent searches handles of states
a :class:`~pacman.grading.position_server.PositionServer` holds and counts (one ``position``
request per position, see :mod:`pacman.grading.position_grading`); the student's process answers
only its move, and the count is the server's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pacman.agents.search import textbook
from pacman.agents.search.game import Game, NodeKind
from pacman.engine.state import GameState

STOP = "Stop"
_TOLERANCE = 1e-9


class PositionRecorder:
    """The record of one search from one position: the distinct states explored.

    ``explored`` holds the identity of every state a successor was asked of and of every
    successor; ``successors`` counts the calls. Two states are the same as in the classic
    course: same positions (a ghost half way between two cells is on neither), directions,
    scared timers, food, capsules and score, where a Pacman that stops keeps facing the way it
    last moved (the classic rules keep the direction; the engine records ``Stop``, so the
    recorder remembers the direction along the search, starting from ``facing`` at ``root``:
    the way Pacman last moved in the game).
    """

    def __init__(self, root: GameState | None = None, facing: str | None = None) -> None:
        self.explored: set[tuple] = set()
        self.successors = 0
        self._facing: dict[tuple, str] = {}
        if root is not None and facing is not None:
            self._facing[root.key] = facing

    def identity(self, state: GameState) -> tuple:
        facing = self._facing.get(state.key, state.directions[0])
        return (state.positions, (facing, *state.directions[1:]), state.scared_timers, state.food,
                state.capsules, state.score, state.between_cells)

    def successor(self, state: GameState, action: str, agent: int) -> GameState:
        """The child of ``state`` by ``agent`` playing ``action``, recorded."""
        child = state.successor(action, agent)
        self.record(state, action, agent, child)
        return child

    def record(self, state: GameState, action: str, agent: int, child: GameState) -> None:
        """Record that the search asked ``child``, the successor of ``state`` by ``agent``
        playing ``action`` (computed by the caller); in the order the search asked them."""
        self.successors += 1
        facing = self._facing.get(state.key, state.directions[0])
        if agent == 0 and action != STOP:
            facing = child.directions[0]
        self._facing.setdefault(child.key, facing)
        self.explored.add(self.identity(state))
        self.explored.add(self.identity(child))


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


def reference_position(state: GameState, algorithm: str, depth: int,
                       facing: str | None = None) -> PositionReference:
    """The classic searches (``minimax``, ``alphabeta`` without pruning on equality, or
    ``expectimax``) to ``depth`` rounds from ``state``, evaluating states by their score, in
    legal-action order (:func:`legal_in_order`): once with Pacman's ``Stop`` and once without it at any Pacman move, as
    the classic course's two references do. The move played is the first best one with ``Stop``.
    """
    with_stop, explored_with = _search(state, algorithm, depth, True, facing)
    without, explored_without = _search(state, algorithm, depth, False, facing)
    best = _best(with_stop)
    first = next((a for a in with_stop if a in best), STOP)
    return PositionReference(best, _best(without), explored_with, explored_without, first)


class _ClassicGame(Game):
    """A Pacman position read as the classic course's references read it (a state is
    ``(GameState, agent)``): moves in legal-action order, Pacman's ``Stop`` kept or dropped
    (``keep_stop``), every successor asked through ``recorder``, leaves valued by the score."""

    def __init__(self, recorder: PositionRecorder, keep_stop: bool) -> None:
        self.recorder, self.keep_stop = recorder, keep_stop

    def is_end(self, s: tuple[GameState, int]) -> bool:
        return s[0].outcome is not None

    def kind(self, s: tuple[GameState, int]) -> NodeKind:
        return NodeKind.MAX if s[1] == 0 else NodeKind.MIN

    def actions(self, s: tuple[GameState, int]) -> list[str]:
        state, agent = s
        legal = legal_in_order(state, agent)
        return list(legal) if self.keep_stop or agent != 0 else [a for a in legal if a != STOP]

    def successor(self, s: tuple[GameState, int], action: str) -> tuple[GameState, int]:
        state, agent = s
        return self.recorder.successor(state, action, agent), (agent + 1) % state.num_agents

    def ends_depth_unit(self, s: tuple[GameState, int]) -> bool:
        return (s[1] + 1) % s[0].num_agents == 0

    def utility(self, s: tuple[GameState, int]) -> float:
        return float(s[0].score)

    def evaluate(self, s: tuple[GameState, int]) -> float:
        return float(s[0].score)

    def probabilities(self, s: tuple[GameState, int]) -> list[float]:
        raise AssertionError("a Pacman position has no chance nodes")


def _search(state: GameState, algorithm: str, depth: int, keep_stop: bool,
            facing: str | None) -> tuple[dict[str, float], int]:
    """Root values per move and the count of distinct states explored: the textbook search
    (:mod:`pacman.agents.search.textbook`) configured as the classic reference (alpha-beta
    prunes on strict inequality only; expectimax's ghosts are equally likely)."""
    recorder = PositionRecorder(state, facing)
    game = _ClassicGame(recorder, keep_stop)
    root = (state, 0)
    if algorithm == "expectimax":
        decision = textbook.expectimax(game, root, depth)
    else:
        decision = textbook.alphabeta(game, root, depth, prune=algorithm == "alphabeta", strict=True)
    return dict(decision.values), len(recorder.explored)


def legal_in_order(state: GameState, agent: int) -> tuple[str, ...]:
    """``agent``'s legal actions in the order a search sees them: the classic engine's order
    (West, Stop, East, North, South) under the classic rules variant, else the engine's."""
    legal = state.legal_actions(agent)
    if state.classic_action_order:
        from pacman.compat.state import CLASSIC_ORDER
        return tuple(sorted(legal, key=CLASSIC_ORDER.index))
    return legal


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
            lines.append("likely mistake: the search is not the classic one on real positions: "
                         "check that every ghost moves in turn with its own agent index, that "
                         "the depth drops once per round, and that Stop is kept (or dropped) at "
                         "every Pacman move, not only at the root")
        if self.wrong_moves:
            moved_at, moved, best = self.wrong_moves[0]
            lines.append(f"position {moved_at}: moved {moved}, a best move is {best}"
                         + (f"; {len(self.wrong_moves) - 1} more wrong moves"
                            if len(self.wrong_moves) > 1 else ""))
        elif not (self.consistent_with_stop or self.consistent_without_stop):
            lines.append("the moves mix the best moves with Stop and without it")
        if not lines:
            lines.append(f"all {self.positions} positions correct")
        return lines

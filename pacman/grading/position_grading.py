"""Running a position test (see :mod:`pacman.grading.position_tests`) from the grader.

The grader plays the game: Pacman is a :class:`PositionProbe` that computes the reference search
at each position, asks the student's process for its move (one ``position`` request, whose
successor calls a :class:`~pacman.grading.position_server.PositionServer` answers and counts in
the grader's process), records the move and the server's count in a :class:`PositionVerdict`,
and plays the reference's move, so the game, and every position asked, is the same whatever the
submission does.
"""

from __future__ import annotations

from typing import Any

from pacman.engine.game import GameResult
from pacman.engine.game_loop import run_game
from pacman.grading.assignment import Test
from pacman.grading.classic_stream import ClassicDirectionalGhost, SteppedStream
from pacman.grading.position_server import PositionServer
from pacman.grading.position_tests import (PositionObservation, PositionVerdict,
                                           reference_position)
from pacman.grading.sandbox import WorkerFailure
from pacman.engine.layout import Layout, load_layout
from pacman.lineup.build import agent_spec
from pacman.engine.state import GameState


class _AgentFailed(Exception):
    """Ends the game once the student's agent has failed (the verdict already says why)."""


class PositionProbe:
    """Pacman in a position test: asks the student, then plays the reference's move."""

    def __init__(self, session: Any, test: Test, layout_text: str, layout_name: str) -> None:
        self.session = session
        self.test = test
        self.verdict = PositionVerdict()
        self.layout = {"layout": layout_text, "layout_name": layout_name}
        self.facing: str | None = None

    def get_action(self, state: GameState) -> str:
        if self.facing is None:
            self.facing = state.directions[0]
        assert self.test.algorithm is not None  # a position test always names one
        reference = reference_position(state, self.test.algorithm, self.test.depth, self.facing)
        self.verdict.add(reference, self._ask(state))
        if self.verdict.error is not None:
            raise _AgentFailed(self.verdict.error)
        if reference.action != "Stop":
            self.facing = reference.action
        return reference.action

    def _ask(self, state: GameState) -> PositionObservation:
        from pacman.grading.session import error_text

        server = PositionServer(state, self.facing, self.test.depth)
        try:
            self.session.ensure()
            reply = self.session.request({"cmd": "position", "role": self.test.role,
                                          "depth": self.test.depth, "root": server.root(),
                                          **self.layout}, self.test.limits.move_seconds,
                                         server)
        except WorkerFailure as failure:
            return PositionObservation(None, 0, f"{failure}")
        explored = reply.get("explored")
        action = reply.get("action")
        return PositionObservation(
            action=action if isinstance(action, str) else None,
            explored=explored if isinstance(explored, int) and not isinstance(explored, bool) else -1,
            error=error_text(reply["error"]) if reply.get("error") else None)


class _ClassicGradingPacman:
    """Pacman as the classic grading Pacman plays: after its ``k``-th move the random numbers
    are reseeded with ``seed + k`` (``random.seed(self.seed + self.stepCount)``)."""

    def __init__(self, pacman: Any, stream: SteppedStream) -> None:
        self.pacman = pacman
        self.stream = stream
        self.steps = 0

    def get_action(self, state: GameState) -> str:
        action = self.pacman.get_action(state)
        self.steps += 1
        self.stream.reseed(self.steps)
        return action


def play_classic_game(layout: Layout, pacman: Any, seed: int, ghost_count: int,
                      max_moves: int | None) -> GameResult:
    """The classic autograder's game test with ``pacman`` (any object with ``get_action``) in
    the grading Pacman's place: the classic rules variant, ``ghost_count`` classic directional
    ghosts drawing from one stream seeded with ``seed`` and reseeded with ``seed + k`` after
    Pacman's ``k``-th move. When ``pacman`` plays the classic solution's first optimal moves,
    the positions are the classic autograder's, whatever else it does."""
    stream = SteppedStream(seed)
    ghosts = [ClassicDirectionalGhost(i + 1, stream) for i in range(ghost_count)]
    return run_game(layout, [_ClassicGradingPacman(pacman, stream), *ghosts], seed,
                    max_moves=max_moves, rules="classic")


def position_test(session: Any, test: Test, result: Any) -> None:
    """Play the test's game with a :class:`PositionProbe` and score the verdict (all or nothing)."""
    from pacman.grading.session import finish_test

    layout = load_layout(test.layout)
    count = layout.num_ghosts if test.ghost_count is None else test.ghost_count
    names = [g.strip() for g in test.ghosts.split(",")]
    session.ensure()
    probe = PositionProbe(session, test, layout.text, layout.name)
    if test.game == "classic":  # the classic autograder's game (see assignment_games)
        play_classic_game(layout, probe, test.seed, count, test.max_moves)
    else:
        ghosts = [agent_spec(names[min(i, len(names) - 1)], "ghost") for i in range(count)]
        run_game(layout, [probe, *ghosts], test.seed, max_moves=test.max_moves)
    verdict = probe.verdict
    result.metrics = {"positions": verdict.positions, "wrong_counts": len(verdict.wrong_counts),
                      "wrong_moves": len(verdict.wrong_moves)}
    result.score = test.points if verdict.passed else 0.0
    head = (f"{verdict.positions} positions on {test.layout} with {count} {test.ghosts} "
            f"ghost{'s' if count != 1 else ''} ({test.algorithm}, depth {test.depth})")
    result.output.append(head)
    result.output.extend(verdict.describe())
    finish_test(result, session)

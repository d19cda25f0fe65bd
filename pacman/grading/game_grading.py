"""Running a game test from the grader: the game loop runs here, with the ghosts; each of
Pacman's decisions is a request to the submission's process (:class:`RemoteAgent`), so a
submission can change neither the state nor the rules."""

from __future__ import annotations

import math
import time
from typing import cast

from pacman.errors import PacmanError
from pacman.engine.game import AgentTimeout
from pacman.engine.game_loop import game_limit_text, run_game
from pacman.grading.assignment import Test
from pacman.grading.assignment_model import TestLimits
from pacman.grading.classic_stream import RESEEDED, ClassicRandomGhost, SharedStream
from pacman.grading.session import (MOVE_GRACE, STARTUP_SECONDS, TestResult, error_text,
                                   finish_test, LoadFailed, Session, Stop)
from pacman.grading.sandbox import WorkerFailure
from pacman.grading.state_api import state_fields
from pacman.engine.layout import Layout, load_layout
from pacman.lineup.build import agent_spec
from pacman.engine.outcome import FAILURES, Outcome
from pacman.engine.state import GameState, state_class

class SubmissionError(PacmanError):
    """The submission's agent failed to decide (its message says how)."""


class RemoteAgent:
    """Pacman in the grader's game loop: each decision is asked of the worker.

    Its thinking is kept per game, as the classic course's ``getMaxTotalTime``: each move's
    CPU time (the worker's and its processes', wall time where the system cannot tell) adds to
    the game's total, and a move that takes the total past ``limits.game_seconds`` is a
    timeout. A move may take at most ``limits.move_seconds`` of wall time; the last move of a
    game at most twice the CPU time left plus one second (a loaded machine slows the wall clock,
    not the CPU time a move needs). :attr:`timeout_message` says which limit was hit."""

    def __init__(self, session: Session, limits: TestLimits,
                 stream: SharedStream | None = None) -> None:
        self.session = session
        self.move_seconds = limits.move_seconds
        self.game_seconds = limits.game_seconds
        self.stream = stream
        self.budget_exceeded = False
        self.thinking = 0.0
        self.timeout_message: str | None = None

    def get_action(self, state: GameState) -> str:
        request: dict[str, object] = {"cmd": "move", "state": state_fields(state)}
        lent = self.stream.lend() if self.stream is not None else None
        if lent is not None:
            request["random"] = lent
        left = math.inf if self.game_seconds is None else max(0.0, self.game_seconds - self.thinking)
        wall = min(self.move_seconds, 2 * left + 1)
        worker = self.session.worker
        cpu_before = worker.cpu_seconds() if worker is not None else None
        began = time.perf_counter()
        try:
            reply = self.session.request(request, wall + MOVE_GRACE)
        except WorkerFailure as failure:
            if self.stream is not None:
                self.stream.lost()
            if failure.kind == "timeout":
                spent = time.perf_counter() - began
                self.thinking += spent
                self.timeout_message = self._timeout_text(failure, spent, wall)
                raise AgentTimeout() from None
            raise SubmissionError(str(failure)) from None
        spent = time.perf_counter() - began
        cpu_after = worker.cpu_seconds() if worker is not None else None
        if cpu_before is not None and cpu_after is not None:
            spent = cpu_after - cpu_before
        self.thinking += spent
        if lent is not None:
            self.stream.take_back(reply.get("random"))  # type: ignore[union-attr]
        error = reply.get("error")
        if error:
            if isinstance(error, dict) and error.get("type") == "NodeBudgetExceeded":
                self.budget_exceeded = True
            raise SubmissionError(error_text(error))
        if self.game_seconds is not None and self.thinking > self.game_seconds:
            self.timeout_message = (f"thought for {self.thinking:.1f} s in this game (limit: "
                                    f"{self._game_limit()})")
            raise AgentTimeout()
        return cast(str, reply.get("action"))  # the game loop refuses what is not a legal action

    def _game_limit(self) -> str:
        return game_limit_text(self.game_seconds or 0.0)

    def _timeout_text(self, failure: WorkerFailure, spent: float, wall: float) -> str:
        if "whole test" in str(failure):
            return str(failure)
        place = f" {failure.place}" if failure.place else ""
        if wall < self.move_seconds:
            return (f"still thinking after {spent:.2f} s, with {self.thinking:.1f} s of thinking "
                    f"in this game (limit: {self._game_limit()}){place}")
        return (f"still thinking after {spent:.2f} s (limit: {self.move_seconds:g} s per "
                f"move){place}")


def game_test(session: Session, test: Test, result: TestResult) -> None:
    """Play the test's seeded games (under its rules variant) and score them by its credit
    bands."""
    layout = load_layout(test.layout)
    names = [g.strip() for g in test.ghosts.split(",")]
    num_ghosts = len(names) if len(names) > 1 else layout.num_ghosts
    if test.ghost_count is not None:
        num_ghosts = min(num_ghosts, test.ghost_count)
    ghosts = [agent_spec(names[0] if len(names) == 1 else names[i], "ghost") for i in range(num_ghosts)]
    stream = SharedStream(test.seed) if test.random == "shared" else None
    players: list[object] = (list(ghosts) if stream is None else
                             [ClassicRandomGhost(k + 1, stream) for k in range(num_ghosts)])
    outcomes: list[str] = []
    scores: list[float] = []
    for i in range(test.games):
        seed = test.seed + i
        try:
            _start_game(session, test, layout, num_ghosts, i, seed, stream)
        except LoadFailed:
            # a fresh worker that cannot load because the test's time is spent says nothing
            # of the submission: the games played so far are scored, the rest are not played
            if i == 0 or not _out_of_time(session):
                raise
            result.output.append(f"games {i + 1} to {test.games} not played: the test ran out of "
                                 f"time (limit {test.limits.test_seconds:g} s for the whole test)")
            break
        pacman = RemoteAgent(session, test.limits, stream)
        game = run_game(layout, [pacman, *players], seed,  # type: ignore[list-item]
                        max_moves=test.max_moves, move_time_limit=test.limits.move_seconds,
                        rules=test.rules)
        outcome = Outcome.TIMEOUT if pacman.budget_exceeded else game.outcome
        outcomes.append(outcome)
        scores.append(game.score)
        which = f"game {i + 1}" if stream is not None else f"game {i + 1} (seed {seed})"
        line = f"{which}: {outcome}, score {game.score}, {game.moves} moves"
        if game.failure is not None:
            told = pacman.timeout_message if game.failure.kind == Outcome.TIMEOUT else None
            line += f": {told or game.failure.message.removeprefix('SubmissionError: ')}"
        result.output.append(line)
        doomed = _doomed(test, outcomes)
        if doomed is not None and i + 1 < test.games:
            result.output.append(f"games {i + 2} to {test.games} not played: the required band "
                                 f"{doomed} cannot be met any more, so the test scores 0")
            break
    if stream is not None and stream.refused:
        result.output.append(RESEEDED)
    played = len(outcomes)
    metrics = {
        "games": played, "wins": outcomes.count(Outcome.WIN),
        "win_rate": outcomes.count(Outcome.WIN) / played,
        "mean_score": sum(scores) / played,
        "timeouts": outcomes.count(Outcome.TIMEOUT),
        "failures": sum(outcomes.count(k) for k in FAILURES),
    }
    result.metrics = metrics
    result.output.insert(0, f"{metrics['wins']}/{played} wins, mean score "
                            f"{metrics['mean_score']:.1f}, {metrics['timeouts']} timeouts, "
                            f"{metrics['failures']} failures ({test.layout} vs {test.ghosts})")
    result.score = _credit(test, metrics, result.output)
    finish_test(result, session)


def _start_game(session: Session, test: Test, layout: Layout, num_ghosts: int, i: int,
                seed: int, stream: SharedStream | None) -> None:
    """Have the worker build Pacman for game ``i`` (with a shared ``stream``: for the first
    game only, then keep it) and start it (telling it the rules variant, so that it rebuilds
    states of the same class); a failure stops the test (:class:`Stop`)."""
    initial = state_class(test.rules).initial(layout, num_ghosts=num_ghosts)
    request = {
        "cmd": "game", "role": test.role, "search": test.search,
        "evaluation_role": test.evaluation_role, "options": dict(test.options),
        "layout": layout.text, "layout_name": layout.name, "seed": seed,
        "budget": test.limits.node_budget, "rules": test.rules,
        "state": state_fields(initial), "keep": stream is not None and i > 0}
    lent = stream.lend(whole=True) if stream is not None else None
    if lent is not None:
        request["random"] = lent
    try:
        session.ensure()
        reply = session.request(request, STARTUP_SECONDS)
    except WorkerFailure as failure:
        raise Stop(f"game {i + 1} (seed {seed}): {failure}") from None
    if reply.get("error"):
        raise Stop(f"building the agent failed: {error_text(reply['error'])}")
    if stream is not None and lent is not None:
        stream.take_back(reply.get("random"))


def _out_of_time(session: Session) -> bool:
    return session.deadline is not None and time.monotonic() >= session.deadline


def _doomed(test: Test, outcomes: list[str]) -> str | None:
    """A required band on timeouts or failures (which only grow) that ``outcomes`` already
    break, described; ``None`` if there is none."""
    counts = {"timeouts": outcomes.count(Outcome.TIMEOUT),
              "failures": sum(outcomes.count(k) for k in FAILURES)}
    for band in test.credit:
        if band.required and not band.at_least and band.metric in counts \
                and not band.met(counts[band.metric]):
            return band.describe().removesuffix(" (required: otherwise the test scores 0)")
    return None


def _credit(test: Test, metrics: dict[str, float], output: list[str]) -> float:
    """The points the credit bands give for ``metrics`` (0 if a required band is not met),
    each band's verdict appended to ``output``."""
    score, missed = 0.0, []
    for band in test.credit:
        met = band.met(metrics[band.metric])
        score += band.points if met else 0.0
        if band.required and not met:
            missed.append(band.describe())
        output.append(f"{'+' if met else ' '}{band.points:g} for {band.describe()}: "
                      f"{'yes' if met else 'no'} ({_metric_text(band.metric, metrics[band.metric])})")
    if missed:
        output.append(f"0 points: a required band is not met ({'; '.join(missed)})")
        return 0.0
    return score


def _metric_text(metric: str, value: float) -> str:
    return f"{value:.0%}" if metric == "win_rate" else f"{value:g}"

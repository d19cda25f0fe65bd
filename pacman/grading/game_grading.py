"""Running a game test from the grader: the game loop runs here, with the ghosts; each of
Pacman's decisions is a request to the submission's process (:class:`RemoteAgent`), so a
submission can change neither the state nor the rules."""

from __future__ import annotations

from typing import cast

from pacman.errors import PacmanError
from pacman.game import AgentTimeout
from pacman.game_loop import run_game
from pacman.grading.assignment import Test
from pacman.grading.classic_stream import RESEEDED, ClassicRandomGhost, SharedStream
from pacman.grading.grader import (MOVE_GRACE, STARTUP_SECONDS, TestResult, _error_text,
                                   _finish, _Session, _Stop)
from pacman.grading.sandbox import WorkerFailure
from pacman.grading.state_api import state_fields
from pacman.layout import Layout, load_layout
from pacman.lineup import agent_spec
from pacman.outcome import FAILURES, Outcome
from pacman.state import GameState, state_class

class SubmissionError(PacmanError):
    """The submission's agent failed to decide (its message says how)."""


class RemoteAgent:
    """Pacman in the grader's game loop: each decision is asked of the worker."""

    def __init__(self, session: _Session, move_seconds: float,
                 stream: SharedStream | None = None) -> None:
        self.session = session
        self.move_seconds = move_seconds
        self.stream = stream
        self.budget_exceeded = False

    def get_action(self, state: GameState) -> str:
        request: dict[str, object] = {"cmd": "move", "state": state_fields(state)}
        lent = self.stream.lend() if self.stream is not None else None
        if lent is not None:
            request["random"] = lent
        try:
            reply = self.session.request(request, self.move_seconds)
        except WorkerFailure as failure:
            if self.stream is not None:
                self.stream.lost()
            if failure.kind == "timeout":
                raise AgentTimeout() from None
            raise SubmissionError(str(failure)) from None
        if lent is not None:
            self.stream.take_back(reply.get("random"))  # type: ignore[union-attr]
        error = reply.get("error")
        if error:
            if isinstance(error, dict) and error.get("type") == "NodeBudgetExceeded":
                self.budget_exceeded = True
            raise SubmissionError(_error_text(error))
        return cast(str, reply.get("action"))  # the game loop refuses what is not a legal action


def game_test(session: _Session, test: Test, result: TestResult) -> None:
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
        _start_game(session, test, layout, num_ghosts, i, seed, stream)
        pacman = RemoteAgent(session, test.limits.move_seconds + MOVE_GRACE, stream)
        game = run_game(layout, [pacman, *players], seed,  # type: ignore[list-item]
                        max_moves=test.max_moves, move_time_limit=test.limits.move_seconds,
                        rules=test.rules)
        outcome = Outcome.TIMEOUT if pacman.budget_exceeded else game.outcome
        outcomes.append(outcome)
        scores.append(game.score)
        which = f"game {i + 1}" if stream is not None else f"game {i + 1} (seed {seed})"
        line = f"{which}: {outcome}, score {game.score}, {game.moves} moves"
        if game.failure is not None:
            line += f": {game.failure.message.removeprefix('SubmissionError: ')}"
        result.output.append(line)
    if stream is not None and stream.refused:
        result.output.append(RESEEDED)
    metrics = {
        "games": test.games, "wins": outcomes.count(Outcome.WIN),
        "win_rate": outcomes.count(Outcome.WIN) / test.games,
        "mean_score": sum(scores) / test.games,
        "timeouts": outcomes.count(Outcome.TIMEOUT),
        "failures": sum(outcomes.count(k) for k in FAILURES),
    }
    result.metrics = metrics
    result.output.insert(0, f"{metrics['wins']}/{test.games} wins, mean score "
                            f"{metrics['mean_score']:.1f}, {metrics['timeouts']} timeouts, "
                            f"{metrics['failures']} failures ({test.layout} vs {test.ghosts})")
    result.score = _credit(test, metrics, result.output)
    _finish(result, session)


def _start_game(session: _Session, test: Test, layout: Layout, num_ghosts: int, i: int,
                seed: int, stream: SharedStream | None) -> None:
    """Have the worker build Pacman for game ``i`` (with a shared ``stream``: for the first
    game only, then keep it) and start it (telling it the rules variant, so that it rebuilds
    states of the same class); a failure stops the test (:class:`_Stop`)."""
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
        raise _Stop(f"game {i + 1} (seed {seed}): {failure}") from None
    if reply.get("error"):
        raise _Stop(f"building the agent failed: {_error_text(reply['error'])}")
    if stream is not None and lent is not None:
        stream.take_back(reply.get("random"))


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

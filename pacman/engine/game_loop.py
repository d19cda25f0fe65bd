"""The game loop: agents take turns on a state until the game ends; every failure of an agent
is the game's outcome (see :mod:`pacman.engine.game` for the agent protocol, failures and limits).

:func:`run_game` builds the agents of one game (:class:`_Players`), lets them move
(:func:`_play`) and turns what happened into a :class:`~pacman.engine.game.GameResult`.
"""

from __future__ import annotations

import contextlib
import json
import math
import signal
import threading
import time
import traceback
from functools import partial
from typing import Any
from collections.abc import Callable, Sequence

from pacman.engine.game import (HARD_LIMIT_GRACE, Agent, AgentSpec, AgentTimeout, Display, Failure,
                         GameInterrupted, GameResult, Move, agent_rng)
from pacman.errors import PacmanError
from pacman.engine.layout import Layout
from pacman.engine.outcome import AgentFailure, Outcome
from pacman.engine.outcome import failure_message as failure_message  # re-exported: its old home
from pacman.engine.state import GameState, state_class


#: The longest limit a timer is set for (about three years): the interval timer counts in
#: nanoseconds, so one of about 9.2e9 seconds or more cannot be set; a longer limit is none.
LONGEST_TIMER = 1e8


class _HardLimit:
    """Interrupts the current thread with :class:`AgentTimeout` after ``seconds`` (POSIX only;
    no limit at all past :data:`LONGEST_TIMER`)."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.active = (seconds is not None and seconds <= LONGEST_TIMER and hasattr(signal, "setitimer")
                       and threading.current_thread() is threading.main_thread())
        self.previous: Any = None

    def __enter__(self) -> _HardLimit:
        if self.active:
            self.previous = signal.signal(signal.SIGALRM, self._fire)
            signal.setitimer(signal.ITIMER_REAL, self.seconds or 0.0)
        return self

    @staticmethod
    def _fire(signum: int, frame: Any) -> None:
        raise AgentTimeout()

    def __exit__(self, *exc: Any) -> None:
        if self.active:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)


def _limit(move_time_limit: float | None, what: str = "move") -> float | None:
    """The per-move (or per-game) limit in seconds; ``None`` (and infinity) means no limit, 0
    that every move is too slow."""
    if move_time_limit is None or math.isinf(move_time_limit):
        return None
    if not move_time_limit >= 0:
        raise ValueError(f"the {what} time limit must be 0 or more seconds, got {move_time_limit}")
    return float(move_time_limit)


def game_limit_text(seconds: float) -> str:
    """How a timeout names the per-game limit: ``a total thinking time of 120 s per game``."""
    return f"a total thinking time of {seconds:g} s per game"


class _Players:
    """The agents of one game, built and called so that every failure is the game's outcome."""

    def __init__(self, layout: Layout, agents: Sequence[AgentSpec | Agent], seed: int,
                 limit: float | None) -> None:
        self.layout, self.limit = layout, limit
        self.hard_seconds = None if limit is None else limit + HARD_LIMIT_GRACE
        self.agents: list[Any] = []
        self.failure: Failure | None = None
        self.built: set[int] = set()
        for index, agent in enumerate(agents):
            if not isinstance(agent, AgentSpec):
                self.agents.append(agent)
                continue
            # An agent that refuses its setup (say, the keyboard without a window, or an
            # environment that cannot run the agent) is the program's error, not a game's
            # outcome. Building is not timed: factories bound their own work.
            try:
                built = self.call(index, "building the agent",
                                  partial(agent.build, index, agent_rng(seed, index)),
                                  timer=False, passes=(PacmanError,))
            except PacmanError:
                self.close()
                raise
            if self.failure is not None:
                break
            self.built.add(index)
            self.agents.append(built)

    def call(self, index: int, what: str, function: Callable[[], Any],
             timer: bool = True, passes: tuple[type[BaseException], ...] = (),
             hard_seconds: float | None = None) -> Any:
        """``function()``; a failure of agent ``index`` is recorded and gives ``None``.
        Exceptions of the types in ``passes`` are raised, not recorded. The call is
        interrupted after ``hard_seconds`` when given, else after the move limit's.

        ``KeyboardInterrupt`` and :class:`GameInterrupted` pass (the user's Ctrl-C; agents
        that could raise one on their own play in a child process, where it is a crash).
        An :class:`~pacman.engine.outcome.AgentFailure` is recorded as it says.
        """
        seconds = (hard_seconds if hard_seconds is not None else self.hard_seconds) if timer else None
        try:
            with _HardLimit(seconds):
                return function()
        except AgentTimeout:
            self.fail(index, Outcome.TIMEOUT, f"{what} did not return within {seconds} s")
        except AgentFailure as error:
            self.fail(index, error.kind, error.message, error.trace)
        except (KeyboardInterrupt, GameInterrupted):
            raise
        except passes:
            raise
        except BaseException as error:  # SystemExit, GeneratorExit, ...: the agent's failure
            self.fail(index, Outcome.CRASH, failure_message(what, error), traceback.format_exc())
        return None

    def fail(self, agent: int, kind: Outcome, message: str, trace: str = "") -> None:
        if self.failure is None:
            self.failure = Failure(agent, kind, message, trace)

    def stats(self) -> list[dict[str, Any] | None]:
        """Each agent's ``stats()``; one that raises or is not JSON data fails the game."""
        collected: list[dict[str, Any] | None] = []
        for index, player in enumerate(self.agents):
            get_stats = getattr(player, "stats", None)
            value = self.call(index, "stats", get_stats) if callable(get_stats) else None
            try:
                json.dumps(value)
            except (TypeError, ValueError) as error:
                self.fail(index, Outcome.CRASH, f"stats returned what is not plain data ({error})")
                value = None
            collected.append(value)
        return collected

    def close(self) -> None:
        """Call the ``close()`` of the agents built for this game (ready-made ones are their
        owner's); what it raises is ignored."""
        for index, player in enumerate(self.agents):
            close = getattr(player, "close", None)
            if callable(close) and index in self.built:
                with contextlib.suppress(Exception):
                    close()


def run_game(layout: Layout, agents: Sequence[AgentSpec | Agent], seed: int = 0, *,
             max_moves: int | None = 1000, move_time_limit: float | None = None,
             game_time_limit: float | None = None, display: Display | None = None,
             rules: str = "default") -> GameResult:
    """Play one game and return its result.

    ``agents[0]`` plays Pacman and ``agents[1:]`` the ghosts (the maze must have at least that
    many ghost starts). Specs are built fresh for this game with their own seeded generator
    (a spec may build an agent that plays in a child process); ready-made agent objects are used
    as they are. ``max_moves`` caps Pacman's moves (outcome ``Outcome.MOVE_LIMIT``);
    ``move_time_limit`` is the per-move think time in seconds (``None`` or infinity: none);
    ``game_time_limit`` each agent's total think time in the game (the sum of its moves'
    think times, as ``think_time`` records them; the classic course's ``getMaxTotalTime``):
    the move that takes an agent's total past it is a timeout naming that limit, and a move
    is interrupted once the agent's time left in the game (plus the grace) has passed.
    Whatever an agent does (raise anything, exit, return garbage, never return) is the
    game's outcome, not an exception of this function; only a built-in agent that refuses
    its setup with a :class:`~pacman.errors.PacmanError` (the keyboard agent without a
    window) raises it, as the user's configuration error. ``rules`` names the rules variant
    (:data:`pacman.engine.state.RULES_VARIANTS`: ``"classic"`` plays the classic scared speed, see
    :mod:`pacman.engine.rules`); an unknown name is a ``ValueError``.
    """
    limit = _limit(move_time_limit)
    game_limit = _limit(game_time_limit, "game")
    initial = state = state_class(rules).initial(layout, num_ghosts=len(agents) - 1)
    described: list[dict[str, Any]] = [a.describe() if isinstance(a, AgentSpec)
                 else {"name": type(a).__name__, "options": {}} for a in agents]
    n = len(agents)
    tally = _Tally(n)
    players = None
    interrupted = False
    try:
        players = _Players(layout, agents, seed, limit)
        if display is not None:
            display.start(state, [d["name"] for d in described])
        if players.failure is None:
            state = _play(state, players, tally, max_moves, (limit, game_limit), display)
    except (KeyboardInterrupt, GameInterrupted):
        interrupted = True
        # The game so far: the actions played reach the state of the moment of the quit
        # (rebuilt from them, so that the state, the score and the move count always agree
        # with the recorded actions, whenever the interrupt came).
        state, tally.moves = _replayed(initial, tally.actions)
    finally:
        stats = []
        if players is not None:
            if not interrupted and len(players.agents) == n:
                stats = players.stats()
            players.close()
    failure = players.failure if players is not None else None
    outcome = (Outcome.INTERRUPTED if interrupted else failure.kind if failure is not None
               else tally.outcome or Outcome.INTERRUPTED)
    result = GameResult(
        seed=seed, layout=layout.name, layout_text=layout.text, num_ghosts=n - 1,
        agents=described, outcome=outcome, score=state.score, moves=tally.moves,
        actions=tally.actions, think_time=tally.think, max_move_time=tally.longest,
        decisions=tally.decisions, max_moves=max_moves, move_time_limit=move_time_limit,
        failure=failure, agent_stats=stats, rules=rules)
    if display is not None:
        with contextlib.suppress(KeyboardInterrupt, GameInterrupted):
            display.finish(state, result)
    return result


def _replayed(initial: GameState, actions: Sequence[str]) -> tuple[GameState, int]:
    """The state ``actions`` lead to from ``initial``, and how many of them are Pacman's."""
    state, moves = initial, 0
    for action in actions:
        moves += state.turn == 0
        state = state.successor(action)
    return state, moves


class _Tally:
    """What the loop counts while it plays."""

    def __init__(self, n: int) -> None:
        self.think = [0.0] * n
        self.longest = [0.0] * n
        self.decisions = [0] * n
        self.actions: list[str] = []
        self.moves = 0
        self.outcome: Outcome | None = None


def _play(state: GameState, players: _Players, tally: _Tally, max_moves: int | None,
          limits: tuple[float | None, float | None], display: Display | None) -> GameState:
    """Play from ``state`` until the game ends or an agent fails; return the last state.
    ``limits``: the per-move and the per-game limit."""
    clock = time.perf_counter
    limit, game_limit = limits
    for index, player in enumerate(players.agents):
        start_game = getattr(player, "start_game", None)
        if start_game is not None:
            players.call(index, "start_game", partial(start_game, state))
            if players.failure is not None:
                return state
    while True:
        if state.outcome is not None:
            tally.outcome = state.outcome
            return state
        if max_moves is not None and tally.moves >= max_moves and state.turn == 0:
            tally.outcome = Outcome.MOVE_LIMIT
            return state
        agent = state.turn
        player = players.agents[agent]
        # the last move of a game may run only for what is left of the game's limit
        left = None if game_limit is None else max(0.0, game_limit - tally.think[agent])
        bound_by_game = left is not None and (limit is None or left < limit)
        began = clock()
        action = players.call(agent, "get_action", partial(player.get_action, state),
                              hard_seconds=(left + HARD_LIMIT_GRACE
                                            if left is not None and bound_by_game else None))
        spent = clock() - began
        tally.think[agent] += spent
        if players.failure is not None:
            if players.failure.kind == Outcome.TIMEOUT:
                players.failure.message = (
                    f"still thinking after {spent:.2f} s, with {tally.think[agent]:.2f} s of "
                    f"thinking in this game (limit: {game_limit_text(game_limit)})"
                    if bound_by_game and game_limit is not None else
                    f"still thinking after {spent:.2f} s (limit {limit} s per move)")
            return state
        tally.decisions[agent] += 1
        tally.longest[agent] = max(tally.longest[agent], spent)
        if limit is not None and spent > limit:
            players.fail(agent, Outcome.TIMEOUT, f"took {spent:.3f} s for one move (limit {limit} s)")
            return state
        if game_limit is not None and tally.think[agent] > game_limit:
            players.fail(agent, Outcome.TIMEOUT, f"thought for {tally.think[agent]:.2f} s in this "
                         f"game (limit: {game_limit_text(game_limit)})")
            return state
        legal = state.legal_actions()
        if not isinstance(action, str) or action not in legal:
            players.fail(agent, Outcome.ILLEGAL, f"returned {action!r}; legal here: {', '.join(legal)}")
            return state
        state = state.successor(action)
        tally.actions.append(action)
        if agent == 0:
            tally.moves += 1
        if display is not None:
            report_fn = getattr(player, "last_report", None)
            report = (players.call(agent, "last_report", report_fn)
                      if callable(report_fn) else None)
            if players.failure is not None:
                return state
            display.update(state, Move(agent, action, spent, report))

"""The one game loop: agents take turns on a state until the game ends; the result is data.

Agent protocol
    An agent is any object with ``get_action(state) -> action``. It may also define
    ``start_game(state)`` (called once before the first move) and ``last_report()`` (what its
    last decision was based on, for displays and experiments; any JSON-friendly mapping).
    Agents are built per game from an :class:`AgentSpec`, which passes ``index`` and a
    ``random.Random`` of the agent's own, seeded from the game seed and the agent's index.

Failures
    An agent that raises, returns an illegal action, or exceeds the per-move time limit ends the
    game; the :class:`GameResult` says which agent failed and how (``outcome`` is ``"crash"``,
    ``"illegal"`` or ``"timeout"``). Nothing is printed. Ctrl-C (or a display that is closed)
    ends the game with outcome ``"interrupted"`` and the result so far.

Time limits
    The think time of every move is measured. When a per-move limit is set and the loop runs in
    the main thread of a POSIX process, an interval timer also interrupts an agent that is still
    thinking one second after its limit (so an endless loop cannot hang the game); elsewhere the
    limit is checked when the move returns. The grader adds process isolation on top.
"""

from __future__ import annotations

import json
import random
import signal
import threading
import time
import traceback
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterator, Mapping, Protocol, Sequence, runtime_checkable

from pacman import __version__
from pacman.errors import PacmanError
from pacman.layout import Layout, parse_layout
from pacman.recording import RecordError, check_ending, check_result_data, game_of_line
from pacman.state import GameState

WIN, LOSS = "win", "loss"
MOVE_LIMIT = "move_limit"
CRASH, ILLEGAL, TIMEOUT, INTERRUPTED = "crash", "illegal", "timeout", "interrupted"
#: Every outcome a game can end with.
OUTCOMES = (WIN, LOSS, MOVE_LIMIT, CRASH, ILLEGAL, TIMEOUT, INTERRUPTED)

#: Extra time past the limit before a thinking agent is interrupted.
HARD_LIMIT_GRACE = 1.0


@runtime_checkable
class Agent(Protocol):
    """What the loop needs of an agent."""

    def get_action(self, state: GameState) -> str: ...


@dataclass(frozen=True)
class AgentSpec:
    """How to build one agent for a game: a factory, its typed options, and how it was named.

    ``factory(index=..., rng=..., **options)`` must return an :class:`Agent`. ``name`` and
    ``raw_options`` (the options as the user wrote them) are recorded in results.
    """

    name: str
    factory: Callable[..., Any]
    options: Mapping[str, Any] = field(default_factory=dict)
    raw_options: Mapping[str, str] = field(default_factory=dict)

    def build(self, index: int, rng: random.Random) -> Agent:
        return self.factory(index=index, rng=rng, **self.options)

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "options": dict(self.raw_options)}


@dataclass(frozen=True)
class Move:
    """One move as the displays see it."""

    agent: int
    action: str
    seconds: float
    report: Mapping[str, Any] | None = None


class Display(Protocol):
    """Draws states; never changes them. See :mod:`pacman.display`."""

    def start(self, state: GameState, agents: Sequence[str]) -> None: ...

    def update(self, state: GameState, move: Move) -> None: ...

    def finish(self, state: GameState, result: GameResult) -> None: ...


class GameInterrupted(Exception):
    """Raised by a display (window closed, quit key) to end the game early."""


class AgentTimeout(BaseException):
    """Raised inside a thinking agent when its hard time limit passes.

    A ``BaseException`` so that an agent's ``except Exception`` cannot swallow it.
    """


@dataclass
class Failure:
    """Which agent broke the game, how, and the details."""

    agent: int
    kind: str
    message: str
    traceback: str = ""


@dataclass
class GameResult:
    """Everything about one finished game; JSON-serialisable and exactly replayable."""

    seed: int
    layout: str
    layout_text: str
    num_ghosts: int
    agents: list[dict[str, Any]]
    outcome: str
    score: int
    moves: int
    actions: list[str]
    think_time: list[float]
    max_move_time: list[float]
    decisions: list[int]
    max_moves: int | None = None
    move_time_limit: float | None = None
    failure: Failure | None = None
    agent_stats: list[dict[str, Any] | None] = field(default_factory=list)
    version: str = __version__

    @property
    def won(self) -> bool:
        return self.outcome == WIN

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def summary(self) -> dict[str, Any]:
        """The short form printed by ``--json``."""
        data = {"seed": self.seed, "layout": self.layout, "outcome": self.outcome,
                "score": self.score, "moves": self.moves,
                "agents": [a["name"] for a in self.agents],
                "think_time": [round(t, 6) for t in self.think_time]}
        if self.failure:
            data["failure"] = {"agent": self.failure.agent, "kind": self.failure.kind,
                               "message": self.failure.message}
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameResult:
        values = check_result_data(data, OUTCOMES)  # a ValueError names a bad field
        if values.get("failure"):
            values["failure"] = Failure(**values["failure"])
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in values.items() if k in known})

    @classmethod
    def from_json(cls, text: str) -> GameResult:
        return cls.from_dict(json.loads(text))


def agent_rng(seed: int, index: int) -> random.Random:
    """The random generator of agent ``index`` in the game with ``seed``."""
    return random.Random(f"pacman-game:{seed}:agent:{index}")


class _HardLimit:
    """Interrupts the current thread with :class:`AgentTimeout` after ``seconds`` (POSIX only)."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.active = (seconds is not None and hasattr(signal, "setitimer")
                       and threading.current_thread() is threading.main_thread())
        self.previous: Any = None

    def __enter__(self) -> _HardLimit:
        if self.active:
            self.previous = signal.signal(signal.SIGALRM, self._fire)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    @staticmethod
    def _fire(signum: int, frame: Any) -> None:
        raise AgentTimeout()

    def __exit__(self, *exc: Any) -> None:
        if self.active:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)


def run_game(layout: Layout, agents: Sequence[AgentSpec | Agent], seed: int = 0, *,
             max_moves: int | None = 1000, move_time_limit: float | None = None,
             display: Display | None = None) -> GameResult:
    """Play one game and return its result.

    ``agents[0]`` plays Pacman and ``agents[1:]`` the ghosts (the maze must have at least that
    many ghost starts). Specs are built fresh for this game with their own seeded generator;
    ready-made agent objects are used as they are. ``max_moves`` caps Pacman's moves (outcome
    ``"move_limit"``); ``move_time_limit`` is the per-move think time in seconds.
    """
    state = GameState.initial(layout, num_ghosts=len(agents) - 1)
    players: list[Any] = []
    for index, agent in enumerate(agents):
        players.append(agent.build(index, agent_rng(seed, index))
                       if isinstance(agent, AgentSpec) else agent)
    described = [a.describe() if isinstance(a, AgentSpec)
                 else {"name": type(a).__name__, "options": {}} for a in agents]
    n = len(players)
    think = [0.0] * n
    longest = [0.0] * n
    decisions = [0] * n
    actions: list[str] = []
    failure: Failure | None = None
    outcome: str | None = None
    moves = 0
    hard_seconds = None if move_time_limit is None else move_time_limit + HARD_LIMIT_GRACE
    clock = time.perf_counter

    def fail(agent: int, kind: str, message: str, trace: str = "") -> str:
        nonlocal failure
        failure = Failure(agent, kind, message, trace)
        return kind

    try:
        if display is not None:
            display.start(state, [d["name"] for d in described])
        for index, player in enumerate(players):
            start_game = getattr(player, "start_game", None)
            if start_game is not None:
                try:
                    with _HardLimit(hard_seconds):
                        start_game(state)
                except AgentTimeout:
                    outcome = fail(index, TIMEOUT, "start_game did not return in time")
                    break
                except (Exception, SystemExit) as error:
                    outcome = fail(index, CRASH, f"start_game raised {type(error).__name__}: "
                                   f"{error}", traceback.format_exc())
                    break
        while outcome is None:
            if state[8] is not None:
                outcome = state[8]
                break
            if max_moves is not None and moves >= max_moves and state[7] == 0:
                outcome = MOVE_LIMIT
                break
            agent = state[7]
            player = players[agent]
            began = clock()
            try:
                with _HardLimit(hard_seconds):
                    action = player.get_action(state)
            except AgentTimeout:
                spent = clock() - began
                think[agent] += spent
                outcome = fail(agent, TIMEOUT, f"still thinking after {spent:.2f} s "
                               f"(limit {move_time_limit} s per move)")
                break
            except (KeyboardInterrupt, GameInterrupted):
                raise
            except (Exception, SystemExit) as error:
                think[agent] += clock() - began
                outcome = fail(agent, CRASH, f"{type(error).__name__}: {error}",
                               traceback.format_exc())
                break
            spent = clock() - began
            think[agent] += spent
            decisions[agent] += 1
            longest[agent] = max(longest[agent], spent)
            if move_time_limit is not None and spent > move_time_limit:
                outcome = fail(agent, TIMEOUT, f"took {spent:.3f} s for one move "
                               f"(limit {move_time_limit} s)")
                break
            legal = state.legal_actions()
            if not isinstance(action, str) or action not in legal:
                outcome = fail(agent, ILLEGAL, f"returned {action!r}; legal here: "
                               f"{', '.join(legal)}")
                break
            state = state.successor(action)
            actions.append(action)
            if agent == 0:
                moves += 1
            if display is not None:
                report_fn = getattr(player, "last_report", None)
                try:
                    report = report_fn() if callable(report_fn) else None
                except Exception as error:
                    outcome = fail(agent, CRASH, f"last_report raised {type(error).__name__}: "
                                   f"{error}", traceback.format_exc())
                    break
                display.update(state, Move(agent, action, spent, report))
    except (KeyboardInterrupt, GameInterrupted):
        outcome = INTERRUPTED
    stats = []
    for player in players:
        get_stats = getattr(player, "stats", None)
        try:
            stats.append(get_stats() if callable(get_stats) else None)
        except Exception:
            stats.append(None)
    result = GameResult(
        seed=seed, layout=layout.name, layout_text=layout.text, num_ghosts=n - 1,
        agents=described, outcome=outcome or INTERRUPTED, score=state[6], moves=moves,
        actions=actions, think_time=think, max_move_time=longest, decisions=decisions,
        max_moves=max_moves, move_time_limit=move_time_limit, failure=failure,
        agent_stats=stats)
    if display is not None:
        try:
            display.finish(state, result)
        except (KeyboardInterrupt, GameInterrupted):
            pass
    return result


def random_play(start: GameState, rng: random.Random) -> Iterator[GameState]:
    """Endless uniformly random play from ``start``: every state before a move, never a
    terminal one (a game that ends starts over from ``start``). For sampling positions."""
    state = start
    while True:
        if state[8] is not None:
            state = start
        yield state
        state = state.successor(rng.choice(state.legal_actions()))


ReplayError = RecordError  #: a recording that cannot be replayed: bad, malformed or tampered


def replay_states(result: GameResult) -> Iterator[GameState]:
    """Every state of a recorded game, the initial one first, by re-applying its actions.

    Raises :class:`ReplayError` naming the first move that differs if an action is illegal at
    its state or follows the end of the game, or, after the last state, if the move count, the
    score or the outcome differs from the recorded one.
    """
    actions = result.actions
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise ReplayError("the recording's actions are not a list of action names")
    try:
        layout = parse_layout(result.layout_text, name=result.layout,
                              source=f"maze of the recording ({result.layout})")
    except PacmanError as error:
        raise ReplayError(f"the recorded maze is damaged: {error}") from None
    except (AttributeError, TypeError):
        raise ReplayError("the recording holds no maze text") from None
    try:
        state = GameState.initial(layout, num_ghosts=result.num_ghosts)
    except (ValueError, TypeError) as error:
        raise ReplayError(f"the recording does not fit its maze: {error}") from None
    yield state
    pacman_moves = 0  # moves Pacman made, compared with the recorded count at the end
    for number, action in enumerate(actions, start=1):
        pacman_moves += state[7] == 0
        try:
            state = state.successor(action)
        except PacmanError as error:
            raise ReplayError(f"move {number} of the recording cannot be replayed: "
                              f"{error}") from None
        yield state
    check_ending(result, state, pacman_moves, (CRASH, ILLEGAL, TIMEOUT), MOVE_LIMIT, INTERRUPTED)


def load_result(path: str) -> GameResult:
    """Read a game recorded with ``--record`` (first game if the file holds several)."""
    return load_results(path)[0]


def load_results(path: str) -> list[GameResult]:
    """Every game in a recording file: one JSON object per line, a game written by
    ``--record`` or a record of a results store (``games.jsonl`` of ``batch``)."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = list(handle)
    except (OSError, ValueError) as error:  # ValueError: undecodable text, a null byte
        raise ReplayError(f"{path[:80]}: cannot be read "
                          f"({getattr(error, 'strerror', None) or error})") from None
    results = []
    for number, line in enumerate(lines, start=1):
        try:
            data = game_of_line(line) if line.strip() else None
            if data is not None:
                results.append(GameResult.from_dict(data))
        except (ValueError, TypeError, KeyError, RecursionError) as error:
            raise ReplayError(f"{path}:{number}: not a recorded game ({error})") from None
    if not results:
        raise ReplayError(f"{path}: the recording holds no game")
    return results

"""The one game loop: agents take turns on a state until the game ends; the result is data.

Agent protocol
    An agent is any object with ``get_action(state) -> action``. It may also define
    ``start_game(state)`` (called once before the first move) and ``last_report()`` (what its
    last decision was based on, for displays and experiments; any JSON-friendly mapping).
    Agents are built per game from an :class:`AgentSpec`, which passes ``index`` and a
    ``random.Random`` of the agent's own, seeded from the game seed and the agent's index.

Failures
    An agent that raises (anything, ``SystemExit`` and ``GeneratorExit`` included, in its
    constructor, ``start_game``, ``get_action``, ``last_report`` or ``stats``), returns an
    illegal action, returns ``stats`` that are not JSON data, or exceeds the per-move time
    limit ends the game; the :class:`GameResult` says which agent failed and how (``outcome`` is ``"crash"``,
    ``"illegal"`` or ``"timeout"``). Nothing is printed. Ctrl-C (or a display that is closed)
    ends the game with outcome ``"interrupted"`` and the result so far.

Time limits
    The think time of every move is measured. Agents whose spec has an ``isolation`` (every
    agent loaded from a file or a module) play in a child process that is killed when it is
    late, so no agent code can defeat the limit (:mod:`pacman.sandboxed_agent`). For the
    built-in agents, which play in this process for speed, an interval timer interrupts an
    agent still thinking one second after its limit when the loop runs in the main thread of a
    POSIX process; elsewhere the limit is checked when the move returns.
"""

from __future__ import annotations

import json
import math
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
    #: ``(name, role)`` to run the agent in a child process that resolves it by that name
    #: (see :mod:`pacman.sandboxed_agent`); ``None`` runs it in this process.
    isolation: tuple[str, str] | None = None

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
        values = dict(data)
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


def _limit(move_time_limit: float | None) -> float | None:
    """The per-move limit in seconds; ``None`` (and infinity) means no limit."""
    if move_time_limit is None or math.isinf(move_time_limit):
        return None
    if not move_time_limit > 0:
        raise ValueError(f"the move time limit must be positive, got {move_time_limit}")
    return float(move_time_limit)


def failure_message(what: str, error: BaseException) -> str:
    """How an agent's exception is reported: ``"ValueError: ..."`` for a move, else
    ``"start_game raised ValueError: ..."``."""
    text = f"{type(error).__name__}: {error}"
    return text if what == "get_action" else f"{what} raised {text}"


class _Players:
    """The agents of one game, built and called so that every failure is the game's outcome."""

    def __init__(self, layout: Layout, agents: Sequence[AgentSpec | Agent], seed: int,
                 limit: float | None) -> None:
        self.layout, self.limit = layout, limit
        self.hard_seconds = None if limit is None else limit + HARD_LIMIT_GRACE
        self.agents: list[Any] = []
        self.failure: Failure | None = None
        for index, agent in enumerate(agents):
            if not isinstance(agent, AgentSpec):
                self.agents.append(agent)
                continue
            built = self.call(index, "building the agent",
                              lambda a=agent, i=index: self._build(a, i, seed),
                              timer=agent.isolation is None)
            if self.failure is not None:
                break
            self.agents.append(built)

    def _build(self, spec: AgentSpec, index: int, seed: int) -> Any:
        rng = agent_rng(seed, index)
        if spec.isolation is None:
            return spec.build(index, rng)
        from pacman.sandboxed_agent import SandboxedAgent

        name, role = spec.isolation
        return SandboxedAgent((name, role, dict(spec.raw_options)), index, rng, self.layout,
                              self.limit)

    def call(self, index: int, what: str, function: Callable[[], Any],
             timer: bool = True) -> Any:
        """``function()``; a failure of agent ``index`` is recorded and gives ``None``.

        ``KeyboardInterrupt`` and :class:`GameInterrupted` pass (the user's Ctrl-C; agents
        that could raise one on their own play in a child process, where it is a crash).
        """
        from pacman.sandboxed_agent import AgentFailure

        # An agent in a child process keeps its own deadline; a timer here would leave it
        # half-way through a request.
        sandboxed = (index < len(self.agents)
                     and type(self.agents[index]).__name__ == "SandboxedAgent")
        try:
            with _HardLimit(None if sandboxed or not timer else self.hard_seconds):
                return function()
        except AgentTimeout:
            self.fail(index, TIMEOUT, f"{what} did not return within {self.hard_seconds} s")
        except AgentFailure as error:
            self.fail(index, error.kind, error.message, error.trace)
        except (KeyboardInterrupt, GameInterrupted):
            raise
        except BaseException as error:  # SystemExit, GeneratorExit, ...: the agent's failure
            self.fail(index, CRASH, failure_message(what, error), traceback.format_exc())
        return None

    def fail(self, agent: int, kind: str, message: str, trace: str = "") -> None:
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
                self.fail(index, CRASH, f"stats returned what is not plain data ({error})")
                value = None
            collected.append(value)
        return collected

    def close(self) -> None:
        for player in self.agents:
            close = getattr(player, "close", None)
            if close is not None and type(player).__name__ == "SandboxedAgent":
                close()


def run_game(layout: Layout, agents: Sequence[AgentSpec | Agent], seed: int = 0, *,
             max_moves: int | None = 1000, move_time_limit: float | None = None,
             display: Display | None = None) -> GameResult:
    """Play one game and return its result.

    ``agents[0]`` plays Pacman and ``agents[1:]`` the ghosts (the maze must have at least that
    many ghost starts). Specs are built fresh for this game with their own seeded generator
    (specs with an ``isolation`` play in a child process); ready-made agent objects are used
    as they are. ``max_moves`` caps Pacman's moves (outcome ``"move_limit"``);
    ``move_time_limit`` is the per-move think time in seconds (``None`` or infinity: none).
    Whatever an agent does (raise anything, exit, return garbage, never return) is the
    game's outcome, not an exception of this function.
    """
    limit = _limit(move_time_limit)
    state = GameState.initial(layout, num_ghosts=len(agents) - 1)
    described = [a.describe() if isinstance(a, AgentSpec)
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
            state = _play(state, players, tally, max_moves, limit, display)
    except (KeyboardInterrupt, GameInterrupted):
        interrupted = True
    finally:
        stats = []
        if players is not None:
            if not interrupted and len(players.agents) == n:
                stats = players.stats()
            players.close()
    failure = players.failure if players is not None else None
    outcome = (INTERRUPTED if interrupted else failure.kind if failure is not None
               else tally.outcome or INTERRUPTED)
    result = GameResult(
        seed=seed, layout=layout.name, layout_text=layout.text, num_ghosts=n - 1,
        agents=described, outcome=outcome, score=state[6], moves=tally.moves,
        actions=tally.actions, think_time=tally.think, max_move_time=tally.longest,
        decisions=tally.decisions, max_moves=max_moves, move_time_limit=move_time_limit,
        failure=failure, agent_stats=stats)
    if display is not None:
        try:
            display.finish(state, result)
        except (KeyboardInterrupt, GameInterrupted):
            pass
    return result


class _Tally:
    """What the loop counts while it plays."""

    def __init__(self, n: int) -> None:
        self.think = [0.0] * n
        self.longest = [0.0] * n
        self.decisions = [0] * n
        self.actions: list[str] = []
        self.moves = 0
        self.outcome: str | None = None


def _play(state: GameState, players: _Players, tally: _Tally, max_moves: int | None,
          limit: float | None, display: Display | None) -> GameState:
    """Play from ``state`` until the game ends or an agent fails; return the last state."""
    clock = time.perf_counter
    for index, player in enumerate(players.agents):
        start_game = getattr(player, "start_game", None)
        if start_game is not None:
            players.call(index, "start_game", lambda f=start_game: f(state))
            if players.failure is not None:
                return state
    while True:
        if state[8] is not None:
            tally.outcome = state[8]
            return state
        if max_moves is not None and tally.moves >= max_moves and state[7] == 0:
            tally.outcome = MOVE_LIMIT
            return state
        agent = state[7]
        player = players.agents[agent]
        began = clock()
        action = players.call(agent, "get_action", lambda: player.get_action(state))
        spent = clock() - began
        tally.think[agent] += spent
        if players.failure is not None:
            if players.failure.kind == TIMEOUT:
                players.failure.message = (f"still thinking after {spent:.2f} s (limit "
                                           f"{limit} s per move)")
            return state
        tally.decisions[agent] += 1
        tally.longest[agent] = max(tally.longest[agent], spent)
        if limit is not None and spent > limit:
            players.fail(agent, TIMEOUT, f"took {spent:.3f} s for one move (limit {limit} s)")
            return state
        legal = state.legal_actions()
        if not isinstance(action, str) or action not in legal:
            players.fail(agent, ILLEGAL, f"returned {action!r}; legal here: {', '.join(legal)}")
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


def random_play(start: GameState, rng: random.Random) -> Iterator[GameState]:
    """Endless uniformly random play from ``start``: every state before a move, never a
    terminal one (a game that ends starts over from ``start``). For sampling positions."""
    state = start
    while True:
        if state[8] is not None:
            state = start
        yield state
        state = state.successor(rng.choice(state.legal_actions()))


class ReplayError(PacmanError):
    """A recorded game cannot be replayed (bad file, or it no longer reproduces)."""


def replay_states(result: GameResult) -> Iterator[GameState]:
    """Every state of a recorded game, the initial one first, by re-applying its actions.

    Raises :class:`ReplayError` if an action is illegal or the final score differs from the
    recorded one (the recording does not match these rules).
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
    for number, action in enumerate(actions, start=1):
        try:
            state = state.successor(action)
        except PacmanError as error:
            raise ReplayError(f"move {number} of the recording cannot be replayed: "
                              f"{error}") from None
        yield state
    if state[6] != result.score:
        raise ReplayError(f"the replay ends with score {state[6]}, but the recording says "
                          f"{result.score}")


def load_result(path: str) -> GameResult:
    """Read a game recorded with ``--record`` (first game if the file holds several)."""
    return load_results(path)[0]


def load_results(path: str) -> list[GameResult]:
    """Every game in a recording file (one JSON object per line)."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = [line for line in handle if line.strip()]
    except OSError as error:
        raise ReplayError(f"{path}: cannot be read ({error.strerror})") from None
    if not lines:
        raise ReplayError(f"{path}: the recording is empty")
    results = []
    for number, line in enumerate(lines, start=1):
        try:
            results.append(GameResult.from_json(line))
        except (ValueError, TypeError, KeyError) as error:
            raise ReplayError(f"{path}:{number}: not a recorded game ({error})") from None
    return results

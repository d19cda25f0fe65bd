"""The one game loop: agents take turns on a state until the game ends; the result is data.

This module holds the data of a game (agent specs, moves, results) and replays;
:func:`run_game`, the loop itself, is in :mod:`pacman.engine.game_loop` and exported from here.

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
    limit ends the game; the :class:`GameResult` says which agent failed and how (``outcome`` is ``Outcome.CRASH``,
    ``ILLEGAL`` or ``TIMEOUT``). Nothing is printed. Ctrl-C (or a display that is closed)
    ends the game with outcome ``Outcome.INTERRUPTED`` and the result so far.

Time limits
    The think time of every move is measured. An agent may end its own late call by raising
    :class:`AgentTimeout`, or report any failure exactly with
    :class:`~pacman.engine.outcome.AgentFailure` (as an agent that plays in another process does).
    For agents that play in this process, an interval timer interrupts an agent still
    thinking one second after its limit when the loop runs in the main thread of a POSIX
    process; elsewhere the limit is checked when the move returns. A per-game limit bounds each
    agent's total think time in the game the same way (the classic ``getMaxTotalTime``).
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable
from collections.abc import Callable, Iterator, Mapping, Sequence

from pacman.version import __version__
from pacman.errors import PacmanError
from pacman.errors import RecordError as RecordError  # re-exported: its old import path
from pacman.errors import ReplayError as ReplayError
from pacman.engine.layout import Layout, parse_layout
from pacman.engine.files import check_readable_file
from pacman.engine.recording import (check_cap, check_ending, check_result_data, check_shipped_maze,
                              game_of_line, is_text_list)
from pacman.engine.outcome import OUTCOMES as OUTCOMES  # re-exported: every outcome, in table order
from pacman.engine.outcome import Outcome
from pacman.engine.state import GameState, state_class

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
    kind: Outcome  # CRASH, ILLEGAL or TIMEOUT
    message: str
    traceback: str = ""

    def __post_init__(self) -> None:
        self.kind = Outcome(self.kind)  # the member, when built from a recording's text


@dataclass
class GameResult:
    """Everything about one finished game; JSON-serialisable and exactly replayable."""

    seed: int
    layout: str
    layout_text: str
    num_ghosts: int
    agents: list[dict[str, Any]]
    outcome: Outcome
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
    rules: str = "default"  # the rules variant (pacman.engine.state.RULES_VARIANTS) the game was played by

    def __post_init__(self) -> None:
        self.outcome = Outcome(self.outcome)  # the member, when built from a recording's text

    @property
    def won(self) -> bool:
        return self.outcome == Outcome.WIN

    def to_dict(self) -> dict[str, Any]:
        return without_default_rules(asdict(self))

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
        values = check_result_data(data)  # a ValueError names a bad field
        if values.get("failure"):
            values["failure"] = Failure(**values["failure"])
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in values.items() if k in known})

    @classmethod
    def from_json(cls, text: str) -> GameResult:
        return cls.from_dict(json.loads(text))


def without_default_rules(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a game's fields) without ``rules`` when it is the default: games by the default
    rules keep the form they were written in before rules variants existed."""
    if data.get("rules") == "default":
        del data["rules"]
    return data


def agent_rng(seed: int, index: int) -> random.Random:
    """The random generator of agent ``index`` in the game with ``seed``."""
    return random.Random(f"pacman-game:{seed}:agent:{index}")


def random_play(start: GameState, rng: random.Random) -> Iterator[GameState]:
    """Endless uniformly random play from ``start``: every state before a move, never a
    terminal one (a game that ends starts over from ``start``). For sampling positions."""
    state = start
    while True:
        if state.outcome is not None:
            state = start
        yield state
        state = state.successor(rng.choice(state.legal_actions()))



def replay_states(result: GameResult) -> Iterator[GameState]:
    """Every state of a recorded game, the initial one first, by re-applying its actions.

    Raises :class:`ReplayError` naming the first move that differs if an action is illegal at
    its state or follows the end of the game or its move cap, if a maze named like a shipped
    maze is not that maze, or, after the last state, if the move count, the score or the
    outcome (a failure included: no agent fails after the game ended) differs from the
    recorded one.
    """
    state = _replay_start(result)
    yield state
    pacman_moves = 0  # moves Pacman made, compared with the recorded count at the end
    for number, action in enumerate(result.actions, start=1):
        check_cap(result, state, pacman_moves, number)
        pacman_moves += state.turn == 0
        state = _replayed_move(state, action, number)
        yield state
    check_ending(result, state, pacman_moves)


def replay_end(result: GameResult) -> GameState:
    """The last state of :func:`replay_states` (the same checks, the same errors), without
    keeping or yielding the states between: what checking a stored game costs.

    The actions are played by the rules' own replay (:func:`pacman.engine.rules.replay`); the turn
    order fixes who plays each action, so Pacman's moves and the move cap are counted rather
    than followed move by move. A recording that breaks any rule (an illegal action, one after
    the end or the cap) is replayed again move by move, for the error that names its move."""
    from pacman.engine import rules

    state = _replay_start(result)
    actions, agents = result.actions, len(state[1])
    # the count below needs Pacman to move first; a game longer than its cap is refused move
    # by move, where the cap's error comes in its order among the others
    if state[7] != 0 or (result.max_moves is not None
                         and len(actions) > result.max_moves * agents):
        return _replay_end_move_by_move(result)
    try:
        state = rules.replay(state, actions)
    except PacmanError:
        return _replay_end_move_by_move(result)
    # agent 0 plays actions 1, 1 + agents, 1 + 2 * agents, ...
    check_ending(result, state, (len(actions) + agents - 1) // agents)
    return state


def _replay_end_move_by_move(result: GameResult) -> GameState:
    """:func:`replay_end`, one move at a time: each error names the move it is about."""
    state = _replay_start(result)
    cap = result.max_moves if result.max_moves is not None else len(result.actions) + 1
    pacman_moves = 0
    for number, action in enumerate(result.actions, start=1):
        if state.turn == 0:
            if pacman_moves >= cap:
                check_cap(result, state, pacman_moves, number)
            pacman_moves += 1
        state = _replayed_move(state, action, number)
    check_ending(result, state, pacman_moves)
    return state


def _replayed_move(state: GameState, action: str, number: int) -> GameState:
    try:
        return state.successor(action)
    except PacmanError as error:
        raise ReplayError(f"move {number} of the recording cannot be replayed: "
                          f"{error}") from None


def _replay_start(result: GameResult) -> GameState:
    """The initial state of a recorded game, after checking its actions' type, its maze (a
    shipped maze's name must come with its text) and its rules."""
    actions = result.actions
    if not is_text_list(actions):
        raise ReplayError("the recording's actions are not a list of action names")
    if not isinstance(result.layout_text, str) or not isinstance(result.layout, str):
        raise ReplayError("the recording holds no maze text")
    layout = _recorded_maze(result.layout_text, result.layout)
    check_shipped_maze(result.layout, layout.text)
    try:
        kind = state_class(result.rules)
    except ValueError as error:
        raise ReplayError(f"the recording names {error}") from None
    try:
        return kind.initial(layout, num_ghosts=result.num_ghosts)
    except (ValueError, TypeError) as error:
        raise ReplayError(f"the recording does not fit its maze: {error}") from None


#: Mazes of recent recordings, with what each held when parsed: a store holds many games on
#: few mazes, each parsed once. A maze that anything in this process changed since (with
#: ``object.__setattr__``) no longer matches its fingerprint and is parsed afresh.
_RECORDED_MAZES: dict[tuple[str, str], tuple[Layout, tuple]] = {}


def _maze_fingerprint(layout: Layout) -> tuple:
    return (layout.text, layout.width, layout.height, layout.walls, layout.food,
            layout.capsules, layout.pacman_start, tuple(layout.ghost_starts))


def _recorded_maze(text: str, name: str) -> Layout:
    """The parsed maze of a recording."""
    cached = _RECORDED_MAZES.get((text, name))
    if cached is not None and _maze_fingerprint(cached[0]) == cached[1]:
        return cached[0]
    try:
        layout = parse_layout(text, name=name, source=f"maze of the recording ({name})")
    except PacmanError as error:
        raise ReplayError(f"the recorded maze is damaged: {error}") from None
    if len(_RECORDED_MAZES) >= 32:
        _RECORDED_MAZES.clear()
    _RECORDED_MAZES[(text, name)] = (layout, _maze_fingerprint(layout))
    return layout


def load_result(path: str) -> GameResult:
    """Read a game recorded with ``--record`` (first game if the file holds several)."""
    return load_results(path)[0]


#: The longest line a recording may hold: a game of a million moves fits many times over; a
#: device or file with no line ends (``/dev/zero``, ``/dev/full``) is refused, not read for ever.
MAX_RECORD_LINE = 64 * 1024 * 1024


def load_results(path: str) -> list[GameResult]:
    """Every game in a recording file: one JSON object per line, a game written by
    ``--record`` or a record of a results store (``games.jsonl`` of ``batch``).

    Raises :class:`ReplayError` naming the file (and the line) for anything else, including a
    line longer than :data:`MAX_RECORD_LINE` characters."""
    return [result for _, result in load_indexed_results(path)]


def load_indexed_results(path: str) -> list[tuple[int | None, GameResult]]:
    """:func:`load_results` with each game's ``index``: the ``index`` field of a results-store
    record (its position in its batch), ``None`` for a game written by ``--record``."""
    results = list(indexed_results(path))
    if not results:
        raise ReplayError(f"{path}: the recording holds no game")
    return results


def indexed_results(path: str) -> Iterator[tuple[int | None, GameResult]]:
    """Each game of the recording at ``path`` with its index, read one line at a time (one
    game in memory at once). Raises :class:`ReplayError` naming the file and line of a line
    that is too long or not a recorded game, or when the file cannot be read."""
    check_readable_file(path, "recording", ReplayError)
    try:
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(iter(lambda: handle.readline(MAX_RECORD_LINE + 1), ""),
                                          start=1):
                if len(line) > MAX_RECORD_LINE:
                    raise ReplayError(f"{path}:{number}: a line longer than "
                                      f"{MAX_RECORD_LINE:,} characters is not a recorded game")
                try:
                    data, index = game_of_line(line) if line.strip() else (None, None)
                    del line
                    if data is not None:
                        game = GameResult.from_dict(data)
                        del data
                        yield index, game
                except (ValueError, TypeError, KeyError, RecursionError) as error:
                    raise ReplayError(f"{path}:{number}: not a recorded game "
                                      f"({error})") from None
    except ReplayError:
        raise
    except (OSError, ValueError) as error:  # ValueError: undecodable text, a null byte
        raise ReplayError(f"{path}: cannot be read "
                          f"({getattr(error, 'strerror', None) or error})") from None


__all__ = ["random_play", "replay_states", "load_result",
           "load_results", "GameResult", "AgentSpec", "Failure", "Move", "Outcome", "OUTCOMES"]

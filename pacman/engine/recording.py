"""Recorded games: checking their fields, reading their files, verifying their replays.

A recording is trusted for nothing: :func:`check_result_data` checks the type of every field
before a :class:`~pacman.engine.game.GameResult` is built, and :func:`check_ending` compares the end
of a replay (outcome, Pacman's moves, score, the move cap) with what the recording claims.
Recording files hold one game per line, either a bare result (``--record``) or a results-store
record ``{"key", "index", "job", "result"}`` (``batch`` and ``experiment``).
"""

from __future__ import annotations

import functools
import json
import math
from typing import TYPE_CHECKING, Any, Protocol, TypeVar
from collections.abc import Mapping, Sequence

from pacman.engine.agent_stats import bounded_stats
from pacman.errors import RecordError
from pacman.engine.json_lines import load_json
from pacman.engine.outcome import OUTCOMES, Outcome, parse_outcome

if TYPE_CHECKING:
    from pacman.engine.state import GameState


class RecordedEnd(Protocol):
    """What the checks of a recorded game read of it (a :class:`pacman.engine.game.GameResult`)."""

    @property
    def seed(self) -> int | None: ...

    @property
    def layout_text(self) -> str: ...

    @property
    def actions(self) -> Sequence[str]: ...

    @property
    def moves(self) -> int: ...

    @property
    def score(self) -> int: ...

    @property
    def outcome(self) -> Outcome: ...

    @property
    def max_moves(self) -> int | None: ...

    @property
    def failure(self) -> Any: ...


#: A recorded game of any class (:func:`select_game` returns the one it was given).
Game = TypeVar("Game", bound=RecordedEnd)

#: Fields a recording must have, with a test and what the test asks for (for messages).
_INT = (lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number")
_COUNT = (lambda v: _INT[0](v) and v >= 0, "a whole number, 0 or more")
_TEXT = (lambda v: isinstance(v, str), "text")
_SECONDS = (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
            and math.isfinite(v) and v >= 0, "a finite number, 0 or more")
REQUIRED = {
    "seed": _INT, "layout": _TEXT, "layout_text": _TEXT, "num_ghosts": _COUNT, "score": _INT,
    "moves": _COUNT, "outcome": _TEXT,
}
_CAP = (lambda v: _INT[0](v) and v >= 1, "a whole number, 1 or more")
OPTIONAL_NUMBERS = {"max_moves": _CAP, "move_time_limit": _SECONDS, "version": _TEXT,
                    "rules": _TEXT}

#: What a replay checks, and what no replay can check, as its output states them.
CHECKED = ("every move legal", "outcome", "score", "moves", "move cap", "rules variant")
NOT_CHECKABLE = ("the seed", "which agents played", "the agents' choices", "think times",
                 "agent statistics")
#: How a failure in these calls begins its message: they run after the last move
#: (``stats``) or after a move was made (``last_report``), so the game may be over then.
_LATE_CALLS = ("stats ", "stats:", "last_report ", "last_report:")


def check_result_data(data: Any) -> dict[str, Any]:
    """A copy of ``data`` after checking that it describes a game; raises :class:`RecordError`.

    Every field must have its type, the outcome must name an :class:`~pacman.engine.outcome.Outcome`
    (the copy holds the member), the agents must be one named mapping per agent, and per-agent
    lists must have one entry per agent. Agents' statistics outside the limits of
    :mod:`pacman.engine.agent_stats` are replaced by ``None`` in the copy.
    """
    if not isinstance(data, Mapping):
        raise RecordError(f"a game is a JSON object, not {type(data).__name__}")
    values = dict(data)
    for name, (test, wanted) in REQUIRED.items():
        if name not in values:
            raise RecordError(f"the field {name!r} is missing")
        if not test(values[name]):
            raise RecordError(f"{name!r} must be {wanted}, not {_shown(values[name])}")
    for name, (test, wanted) in OPTIONAL_NUMBERS.items():
        if values.get(name) is not None and not test(values[name]):
            raise RecordError(f"{name!r} must be {wanted} or null, not {_shown(values[name])}")
    outcome = parse_outcome(values["outcome"])
    if outcome is None:
        raise RecordError(f"unknown outcome {_shown(values['outcome'])} (known: "
                          f"{', '.join(OUTCOMES)})")
    values["outcome"] = outcome
    count = values["num_ghosts"] + 1
    agents = values.get("agents")
    if not (isinstance(agents, list) and len(agents) == count and all(
            isinstance(a, dict) and isinstance(a.get("name"), str)
            and isinstance(a.get("options", {}), dict) for a in agents)):
        raise RecordError(f"'agents' must be a list of {count} objects with a 'name' (one per "
                          f"agent), not {_shown(agents)}")
    if not is_text_list(values.get("actions")):
        raise RecordError("'actions' must be a list of action names")
    for name, test, wanted in (("think_time", _SECONDS[0], "seconds"),
                               ("max_move_time", _SECONDS[0], "seconds"),
                               ("decisions", _COUNT[0], "counts")):
        listed = values.get(name)
        if not (isinstance(listed, list) and len(listed) == count and all(map(test, listed))):
            raise RecordError(f"{name!r} must be a list of {count} {wanted}, not "
                              f"{_shown(listed)}")
    failure = values.get("failure")
    if failure is not None:
        if not (isinstance(failure, dict) and _INT[0](failure.get("agent"))
                and 0 <= failure["agent"] < count and parse_outcome(failure.get("kind")) is not None
                and isinstance(failure.get("message"), str)
                and isinstance(failure.get("traceback", ""), str)):
            raise RecordError(f"'failure' must name an agent, a kind and a message, not "
                              f"{_shown(failure)}")
    stats = values.get("agent_stats", [])
    if not isinstance(stats, list):
        raise RecordError(f"'agent_stats' must be a list, not {_shown(stats)}")
    # statistics written before they had limits (NaN, odd types, megabytes) are left out
    values["agent_stats"] = bounded_stats(stats)[0]
    return values


def is_text_list(value: Any) -> bool:
    """Whether ``value`` is a list whose every item is text (a game's actions: checked three
    times a stored game, hundreds of items each)."""
    if not isinstance(value, list):
        return False
    try:
        "".join(value)  # refuses any item that is not text, without a Python call per item
    except TypeError:
        return False
    return True


def _shown(value: Any) -> str:
    text = json.dumps(value) if _jsonable(value) else repr(value)
    return text if len(text) <= 50 else text[:47] + "..."


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def game_of_line(line: str) -> tuple[Any, int | None]:
    """The game data of one recording line and its ``index``: a bare result (index ``None``),
    or the ``result`` and ``index`` of a results-store record; ``(None, None)`` for a results
    store's header line. Raises ``ValueError`` for text that is not JSON, or a store record
    whose index is not a whole number of 0 or more."""
    data = load_json(line)
    if isinstance(data, dict) and "store" in data and "format" in data and "seed" not in data:
        return None, None
    if (isinstance(data, dict) and isinstance(data.get("result"), dict)
            and "key" in data and "job" in data):
        index = data.get("index")
        if index is not None and not (_INT[0](index) and index >= 0):
            raise RecordError(f"its index must be a whole number, 0 or more, not "
                              f"{_shown(index)}")
        return data["result"], index
    return data, None


def select_game(games: list[tuple[int | None, Game]], wanted: int, path: str) -> Game:
    """The game ``--game wanted`` names in the recording at ``path``: in a results store the
    record whose ``index`` is ``wanted`` (the game's position in its batch, as reports print
    it); in a file of ``--record``, which has no indexes, its ``wanted``-th game (from 1).
    Raises :class:`~pacman.errors.ConfigurationError` when there is no such game, or more
    than one game with that index (records of different batches)."""
    from pacman.errors import ConfigurationError

    indexed = [(index, game) for index, game in games if index is not None]
    if not indexed:
        if not 1 <= wanted <= len(games):
            raise ConfigurationError(
                f"{path}: holds {len(games)} game{'s' if len(games) != 1 else ''}; there is no "
                f"game {wanted} (a file of --record counts its games from 1)")
        return games[wanted - 1][1]
    found = [game for index, game in indexed if index == wanted]
    if not found:
        known = sorted({index for index, _ in indexed})
        span = f"{known[0]} to {known[-1]}" if len(known) > 1 else str(known[0])
        raise ConfigurationError(f"{path}: no record has index {wanted} (--game K picks the "
                                 f"record whose index is K; this store holds {span})")
    if len({(g.seed, g.layout_text, tuple(g.actions)) for g in found}) > 1:
        raise ConfigurationError(f"{path}: {len(found)} different games have index {wanted} "
                                 "(records of different batches); --game cannot tell them apart")
    return found[-1]


def check_ending(result: RecordedEnd, state: GameState, pacman_moves: int) -> None:
    """Compare the last replayed ``state`` with what ``result`` claims; raise
    :class:`RecordError` naming the first difference."""
    played = len(result.actions)
    if pacman_moves != result.moves:
        raise RecordError(f"the recording holds {pacman_moves} Pacman moves in {played} "
                          f"actions, but says {result.moves}")
    if state.score != result.score:
        raise RecordError(f"the replay ends with score {state.score} after move {played}, but "
                          f"the recording says {result.score}")
    outcome = result.outcome
    capped = (result.max_moves is not None and pacman_moves >= result.max_moves
              and state.turn == 0)
    if outcome == Outcome.INTERRUPTED:
        return
    if outcome.is_failure:
        if result.failure is None or result.failure.kind != outcome:
            raise RecordError(f"the outcome '{outcome}' names no agent that failed")
        late = result.failure.message.startswith(_LATE_CALLS)
        if state.outcome is not None and not late:
            raise RecordError(f"the game ends with a {state.outcome} at move {played}, so no "
                              f"agent can have failed a move after it, but the recording says "
                              f"'{outcome}'")
        if capped and not late:
            raise RecordError(f"the game reaches its move cap ({result.max_moves}) at move "
                              f"{played}, so no agent moved after it, but the recording says "
                              f"'{outcome}'")
        return
    if state.outcome is not None:
        if outcome != state.outcome:
            raise RecordError(f"the game ends with a {state.outcome} at move {played}, but the "
                              f"recording says '{outcome}'")
        return
    if outcome == Outcome.MOVE_LIMIT and capped:
        return
    if capped:
        raise RecordError(f"the game reaches its move cap ({result.max_moves}) at move "
                          f"{played}, but the recording says '{outcome}'")
    raise RecordError(f"the recording ends after move {played} with the game still going on "
                      f"(neither over nor at its move cap), but says '{outcome}'")


def check_cap(result: RecordedEnd, state: GameState, pacman_moves: int, number: int) -> None:
    """Raise :class:`RecordError` if action ``number`` comes after the game's move cap: the
    loop ends a game once Pacman has made ``max_moves`` moves and the ghosts have replied."""
    cap = result.max_moves
    if cap is not None and pacman_moves >= cap and state.turn == 0:
        raise RecordError(f"move {number} of the recording comes after the game's move cap "
                          f"({cap} Pacman moves), where the game ended")


def check_shipped_maze(name: str, text: str) -> bool:
    """Whether ``name`` is a shipped maze (``False`` if not: its text cannot be compared);
    raise :class:`RecordError` if it is and ``text`` (parsed) is not that maze."""
    shipped = _shipped_text(name)
    if shipped is None:
        return False
    if text != shipped:
        raise RecordError(f"the recorded maze is called {name!r}, but its text is not the "
                          f"shipped maze of that name")
    return True


@functools.lru_cache(maxsize=64)
def _shipped_text(name: str) -> str | None:
    from pacman.engine.layout import load_layout, shipped_layout_names

    if name not in shipped_layout_names():
        return None
    return load_layout(name).text


def verification_note(shipped_maze: bool) -> dict[str, list[str]]:
    """What the replay of a recording checked and what it could not (for its output)."""
    checked = list(CHECKED)
    checked.insert(4, "the shipped maze's text" if shipped_maze else "the maze (its own text)")
    not_checked = list(NOT_CHECKABLE)
    if not shipped_maze:
        not_checked.insert(0, "the maze file it came from")
    return {"checked": checked, "not_checked": not_checked}

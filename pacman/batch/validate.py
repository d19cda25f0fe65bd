"""What a results-store record must hold: every field of the job and of its result, typed,
the settings its job asks for, and a game that replays.

A store is a file anyone can edit; a record that is not what :func:`record_line` writes must
be refused (with its line number, by :mod:`pacman.batch.store`), never counted: an outcome
``"banana"`` or a score ``"NaN"`` would otherwise skew a table in silence, and a well-typed
edit (a loss turned into a win) is caught only by replaying the game's actions on its maze
text (:func:`check_replay`; checking a record in full costs about 0.3 ms of CPU).
"""

from __future__ import annotations

import math
from typing import Any
from collections.abc import Callable, Mapping

from pacman.engine.outcome import FAILURES, OUTCOMES, parse_outcome
from pacman.engine.recording import is_text_list


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _natural(value: Any) -> bool:
    return _integer(value) and value >= 0


def _seconds(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and value >= 0)


def _optional(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: value is None or check(value)


def _list_of(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, list) and all(check(item) for item in value)


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _agent(value: Any) -> bool:
    return (isinstance(value, dict) and isinstance(value.get("name"), str)
            and isinstance(value.get("options", {}), dict))


def _failure(value: Any) -> bool:
    return (isinstance(value, dict) and _natural(value.get("agent"))
            and parse_outcome(value.get("kind")) is not None and isinstance(value.get("message"), str)
            and isinstance(value.get("traceback", ""), str))


def _limit(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and value > 0 and not math.isnan(value))


#: Result fields: name -> (check, what it must be).
RESULT_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "seed": (_integer, "a whole number"),
    "layout": (_text, "text"),
    "layout_text": (_text, "text"),
    "num_ghosts": (_natural, "a whole number of 0 or more"),
    "agents": (_list_of(_agent), "a list of agents, each with a name"),
    "outcome": (lambda v: parse_outcome(v) is not None, f"one of {', '.join(OUTCOMES)}"),
    "score": (_integer, "a whole number"),
    "moves": (_natural, "a whole number of 0 or more"),
    "actions": (is_text_list, "a list of action names"),
    "think_time": (_list_of(_seconds), "a list of seconds"),
    "max_move_time": (_list_of(_seconds), "a list of seconds"),
    "decisions": (_list_of(_natural), "a list of whole numbers"),
}
OPTIONAL_RESULT_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "max_moves": (_optional(lambda v: _integer(v) and v >= 1), "a whole number or null"),
    "move_time_limit": (_optional(_limit), "a positive number of seconds or null"),
    "failure": (_optional(_failure), "null or an agent, a known kind and a message"),
    "agent_stats": (_list_of(lambda v: v is None or isinstance(v, dict)),
                    "a list of tables or nulls"),
    "version": (_text, "text"),
}


def check_result(result: Any) -> None:
    """Raise ``ValueError`` naming the first field of ``result`` that is missing or wrong."""
    if not isinstance(result, Mapping):
        raise ValueError("its result is not a table of fields")
    for name, (check, wanted) in RESULT_FIELDS.items():
        if name not in result:
            raise ValueError(f"its result has no {name!r}")
        if not check(result[name]):
            raise ValueError(f"its result's {name} is {_shown(result[name])}; it must be "
                             f"{wanted}")
    for name, (check, wanted) in OPTIONAL_RESULT_FIELDS.items():
        if name in result and not check(result[name]):
            raise ValueError(f"its result's {name} is {_shown(result[name])}; it must be "
                             f"{wanted}")
    players = result["num_ghosts"] + 1
    for name in ("agents", "think_time", "max_move_time", "decisions"):
        if len(result[name]) != players:
            raise ValueError(f"its result's {name} has {len(result[name])} entries for "
                             f"{players} agents")
    failure = result.get("failure")
    if failure is not None and failure["agent"] >= players:
        raise ValueError(f"its result's failure names agent {failure['agent']} of {players}")
    failed = failure["kind"] if failure is not None else None
    if result["outcome"] in FAILURES or failed is not None:
        if failed != result["outcome"]:
            raise ValueError(f"its result's outcome {result['outcome']!r} does not match its "
                             f"failure ({failed or 'none'})")


def check_record(record: Any) -> tuple[Any, Any]:
    """Raise ``ValueError`` unless ``record`` is a complete game record whose key is its job's
    key (so an edited job cannot pass as another), played as its job asks, whose game replays.
    Returns the :class:`~pacman.batch.jobs.GameJob` and :class:`~pacman.engine.game.GameResult` built
    while checking (so that a reader need not build them again)."""
    from pacman.batch.jobs import GameJob
    from pacman.errors import PacmanError

    if not isinstance(record, dict):
        raise ValueError("not a game record")
    for name, kind in (("key", str), ("job", dict), ("result", dict)):
        if not isinstance(record.get(name), kind):
            raise ValueError(f"no {name}" if name not in record
                             else f"its {name} is {_shown(record[name])}")
    index = record.get("index")
    if index is not None and not _natural(index):
        raise ValueError(f"its index is {_shown(index)}; it must be a whole number or null")
    check_result(record["result"])
    for name in ("condition", "layout", "pacman"):
        if not isinstance(record["job"].get(name), str):
            raise ValueError(f"its job's {name} is {_shown(record['job'].get(name))}; it must "
                             "be text")
    try:
        job = GameJob.from_dict(record["job"])
        key = job.key
    except (PacmanError, TypeError, ValueError, AttributeError) as error:
        raise ValueError(f"its job is not a game job ({error})") from None
    if key != record["key"]:
        raise ValueError("its key is not the key of its job (edited by hand?)")
    if job.seed != record["result"]["seed"]:
        raise ValueError("its result was played with another seed than its job's")
    check_settings(job, record["result"])
    if job.layout_digest is not None:
        from pacman.batch.jobs import text_digest

        if text_digest(record["result"]["layout_text"]) != job.layout_digest:
            raise ValueError("its result was played on another maze text than its job's")
    return job, check_replay(record["result"])


def check_settings(job: Any, result: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` unless ``result`` was played with what its ``job`` asks for: the
    move cap, the time limit, the ghosts, the agents and their options, the default rules."""
    if result.get("max_moves") != job.max_moves:
        raise ValueError(f"its result's move cap {_shown(result.get('max_moves'))} is not its "
                         f"job's ({job.max_moves})")
    if result.get("move_time_limit") != job.move_time_limit:
        raise ValueError(f"its result's time limit {_shown(result.get('move_time_limit'))} is "
                         f"not its job's ({job.move_time_limit})")
    if result.get("rules", "default") != "default":
        raise ValueError(f"its result was played by the {_shown(result.get('rules'))} rules; a "
                         "batch plays the default rules")
    if job.num_ghosts is not None and result["num_ghosts"] != job.num_ghosts:
        raise ValueError(f"its result has {result['num_ghosts']} ghosts; its job asks for "
                         f"{job.num_ghosts}")
    agents = result["agents"]
    ghosts = list(job.ghosts) * result["num_ghosts"] if len(job.ghosts) == 1 else list(job.ghosts)
    wanted = [(job.pacman, dict(job.pacman_options))]
    wanted += [(name, dict(job.ghost_options)) for name in ghosts[:result["num_ghosts"]]]
    played = [(agent.get("name"), agent.get("options", {})) for agent in agents]
    if played != wanted:
        raise ValueError("its result's agents or their options are not its job's")


def check_replay(result: Mapping[str, Any]) -> Any:
    """Raise ``ValueError`` unless the result's actions, replayed on its maze text by the engine
    alone, give its outcome, score and moves (see :func:`pacman.engine.game.replay_states`); returns
    the :class:`~pacman.engine.game.GameResult` replayed."""
    from pacman.engine.game import GameResult, replay_end
    from pacman.errors import PacmanError

    try:
        game = GameResult.from_dict(result)
        replay_end(game)
        return game
    except (PacmanError, ValueError, TypeError) as error:
        raise ValueError(f"its game does not replay: {error}") from None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."

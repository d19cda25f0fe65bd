"""What agents report with ``stats()`` is data with limits, checked before it is kept.

An agent's statistics of a game are kept (in recordings and results stores) only if they are a
table of JSON data: keys are text; values are text, booleans, null, lists, tables, whole
numbers of at most 18 digits and finite numbers; at most :data:`MAX_DEPTH` levels deep and
:data:`MAX_STATS_BYTES` of JSON in all; and the counts the tables read (``nodes``,
``decisions``) are numbers of 0 or more. Anything else is dropped for that game, with one
line saying why (:func:`bounded_stats`); the game itself counts as played.
"""

from __future__ import annotations

import json
import math
from typing import Any
from collections.abc import Sequence

#: The most JSON text one agent's statistics of one game may take.
MAX_STATS_BYTES = 64 * 1024
#: How deeply tables and lists may nest.
MAX_DEPTH = 32
#: The largest whole number kept (18 digits: exact in every JSON reader that reads 64 bits).
MAX_WHOLE = 10 ** 18
#: Counts the batch tables read from Pacman's statistics.
COUNTS = ("nodes", "decisions")


def _problem(value: Any, where: str, depth: int) -> str | None:
    """Why ``value`` is not JSON data within the limits (``None`` if it is)."""
    if depth > MAX_DEPTH:
        return f"nested deeper than {MAX_DEPTH} levels at {where}"
    if value is None or isinstance(value, (str, bool)):
        return None
    if isinstance(value, int):
        return None if abs(value) < MAX_WHOLE else f"a whole number of more than 18 digits at {where}"
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{value} at {where} (not a finite number)"
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"a key that is not text ({type(key).__name__}) at {where}"
            found = _problem(item, f"{where}.{key}" if where else key, depth + 1)
            if found:
                return found
        return None
    if isinstance(value, list):
        for number, item in enumerate(value):
            found = _problem(item, f"{where}[{number}]", depth + 1)
            if found:
                return found
        return None
    return f"a {type(value).__name__} at {where or 'the top'} (not JSON data)"


def stats_problem(value: Any) -> str | None:
    """Why one agent's ``stats()`` of a game cannot be kept, or ``None`` if it can."""
    if value is None:
        return None
    if not isinstance(value, dict):
        return f"a {type(value).__name__}, not a table"
    try:
        found = _problem(value, "", 0)
    except RecursionError:
        found = "nested too deeply"
    if found:
        return found
    for name in COUNTS:
        count = value.get(name)
        if name in value and not (isinstance(count, (int, float)) and not isinstance(count, bool)
                                  and count >= 0):
            return f"{name!r} is {_shown(count)}, not a count"
    size = len(json.dumps(value, separators=(",", ":")))
    if size > MAX_STATS_BYTES:
        return f"{size:,} bytes of JSON (at most {MAX_STATS_BYTES:,} are kept)"
    return None


def bounded_stats(stats: Any) -> tuple[list[dict[str, Any] | None], list[str]]:
    """``stats`` (one entry per agent) with every entry that cannot be kept replaced by
    ``None``, and one line per dropped entry: ``"agent 1's statistics: <why>"``."""
    if not isinstance(stats, Sequence) or isinstance(stats, (str, bytes)):
        return [], [f"the statistics are a {type(stats).__name__}, not a list"]
    kept: list[dict[str, Any] | None] = []
    dropped: list[str] = []
    for agent, value in enumerate(stats):
        problem = stats_problem(value)
        if problem is not None:
            dropped.append(f"agent {agent}'s statistics: {problem}")
            value = None
        kept.append(value)
    return kept, dropped


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."

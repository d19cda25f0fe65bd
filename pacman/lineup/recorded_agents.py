"""What a recording's agents were, as text: the evaluation an overlay may recompute.

A recording is a file from anyone. The agents and the ``evaluation=`` option it names are
text, never loaded: :func:`recorded_evaluation` decides by the text alone whether the
evaluation is a built-in one (a name of :data:`pacman.agents.evaluation.EVALUATIONS`, inline linear
weights, or the default of a built-in Pacman agent), and only then builds it. A file
(``payload.py:evil``), a module (``this``) or a weights file named by a recording is never
imported, opened or run; the caller is told in one line that it cannot be shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Callable, Mapping

#: Characters that make an agent or evaluation name a reference to code outside the
#: project (``module:attr``, ``path/file.py:Name``) rather than a catalog name.
_EXTERNAL_MARKS = (":", "/", "\\", ".")


@dataclass(frozen=True)
class RecordedEvaluation:
    """The evaluation an overlay can recompute for a recorded Pacman (``None`` if none) and,
    when it cannot, one line saying why (``None`` when there is nothing to say)."""

    evaluation: Callable[[Any], float] | None
    note: str | None = None


def _catalog_name(name: Any) -> str | None:
    """``name`` as a key of the Pacman catalog if it is one (classic names accepted)."""
    from pacman.agents.catalog import PACMAN_AGENTS, short_name

    if not isinstance(name, str) or any(mark in name for mark in _EXTERNAL_MARKS):
        return None
    short = short_name(name, "pacman")
    return short if short in PACMAN_AGENTS else None


def _builtin_evaluation(text: str) -> Callable[[Any], float] | None:
    """The evaluation a built-in name or inline linear weights give; ``None`` for anything
    else (a file, a module, a weights file)."""
    from pacman.agents.evaluation import EVALUATIONS

    stripped = text.strip()
    if stripped in EVALUATIONS:
        return EVALUATIONS[stripped]
    head, colon, weights = stripped.partition(":")
    if head == "linear" and (not colon or "=" in weights or weights.strip() in ("", "default")):
        from pacman.agents.linear import make_linear_evaluation
        from pacman.errors import PacmanError

        try:
            return make_linear_evaluation(weights)
        except (PacmanError, ValueError):
            return None
    return None


def recorded_evaluation(agents: Any) -> RecordedEvaluation:
    """The evaluation of the Pacman in a recording's ``agents`` list, built only from
    built-in names; never imports, opens or runs anything the recording names."""
    from pacman.lineup.options import declared_options

    pacman = agents[0] if isinstance(agents, list) and agents else None
    if not isinstance(pacman, Mapping):
        return RecordedEvaluation(None, "the recording names no Pacman agent")
    name = pacman.get("name")
    options = pacman.get("options") or {}
    given = options.get("evaluation") if isinstance(options, Mapping) else None
    if isinstance(given, str):
        found = _builtin_evaluation(given)
        if found is None:
            return RecordedEvaluation(None, f"the recorded evaluation {_short(given)} is not "
                                            "built in; a replay shows built-in ones only")
        return RecordedEvaluation(found)
    catalog = _catalog_name(name)
    if catalog is None:
        return RecordedEvaluation(None, f"the recorded Pacman {_short(name)} is not built in; "
                                        "a replay shows built-in evaluations only")
    from pacman.agents.catalog import PACMAN_AGENTS

    default = declared_options(PACMAN_AGENTS[catalog]).get("evaluation", (None, None))[1]
    if callable(default) and not isinstance(default, type):
        return RecordedEvaluation(default)
    return RecordedEvaluation(None, f"the recorded Pacman {_short(name)} has no evaluation "
                                    "function")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."

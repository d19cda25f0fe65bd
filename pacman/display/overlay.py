"""What the search overlay shows, computed without drawing anything (no pygame here).

* :func:`search_view` turns a search agent's report (see ``pacman.agents.search_agents``:
  ``root_values``, ``principal_variation``, ``action``) into the values of Pacman's actions and
  the cells every agent walks along the principal variation.
* :func:`heat_map` values an evaluation function on every cell Pacman could stand on: the
  current state with only Pacman moved there (food, ghosts, score and turn unchanged), so the
  map shows what the evaluation rewards, e.g. a flat map for ``score`` (why Pacman thrashes).
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable, Mapping

from pacman.errors import PacmanError
from pacman.engine.state import GameState


@dataclass(frozen=True)
class SearchView:
    """One decision of a search agent, ready to draw.

    ``cell`` is Pacman's cell in the searched state; ``root_values`` maps each root action to
    its backed-up value; ``chosen`` is the action taken; ``paths[i]`` lists the cells agent
    ``i`` occupies along the principal variation, starting where it stood.
    """

    cell: int
    root_values: Mapping[str, float]
    chosen: str | None
    paths: tuple[tuple[int, ...], ...]


def principal_paths(state: GameState, variation: list[Any] | tuple[Any, ...]
                    ) -> tuple[tuple[int, ...], ...]:
    """The cells each agent visits when the actions of ``variation`` are played from ``state``.

    Stops early at the end of the game or at anything that is not a legal action, so a stale or
    foreign variation draws as far as it makes sense.
    """
    paths = [[cell] for cell in state.positions]
    for action in variation:
        if state.is_terminal or not isinstance(action, str):
            break
        mover = state.turn
        try:
            state = state.successor(action)
        except PacmanError:
            break
        if state.positions[mover] != paths[mover][-1]:
            paths[mover].append(state.positions[mover])
    return tuple(tuple(path) for path in paths)


def search_view(searched: GameState, report: Mapping[str, Any] | None) -> SearchView | None:
    """The overlay of a search report made in ``searched``; ``None`` if it holds no search."""
    if not report:
        return None
    values = report.get("root_values") or {}
    root_values = {action: float(value) for action, value in values.items()
                   if isinstance(action, str) and isinstance(value, (int, float))}
    variation = report.get("principal_variation") or ()
    chosen = report.get("action")
    if not root_values and not variation:
        return None
    return SearchView(cell=searched.pacman_cell, root_values=root_values,
                      chosen=chosen if isinstance(chosen, str) else None,
                      paths=principal_paths(searched, list(variation)))


def heat_map(state: GameState, evaluation: Callable[[GameState], float]) -> dict[int, float]:
    """``cell -> evaluation`` for every cell Pacman can reach from where he stands.

    Each value is ``evaluation`` of ``state`` with Pacman moved to that cell and nothing else
    changed. Non-finite values are left out.
    """
    layout = state.layout
    positions = state.positions
    row = layout.distance_rows[positions[0]]
    rest = positions[1:]
    values: dict[int, float] = {}
    for cell in layout.open_cells:
        if row[cell] < 0:
            continue
        moved = state.replace(positions=(cell, *rest))
        value = float(evaluation(moved))
        if math.isfinite(value):
            values[cell] = value
    return values


def format_value(value: float) -> str:
    """A short label for a value: whole numbers, and values of 100 or more, without decimals,
    others with one."""
    if math.isnan(value):
        return "?"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    if value == round(value) or abs(value) >= 100:
        return str(int(round(value)))
    return f"{value:.1f}"


@dataclass(frozen=True)
class HeatScale:
    """How the heat map colours values: by percentile among the values of the map.

    ``values`` are the map's values in ascending order; ``here`` is the value of the cell where
    Pacman stands (``None`` if it has none). With percentiles every colour is used about
    equally often, so differences show even when one extreme value dwarfs the rest.
    """

    values: tuple[float, ...]
    here: float | None = None

    @classmethod
    def of(cls, heat: Mapping[int, float], here_cell: int | None = None) -> HeatScale:
        return cls(tuple(sorted(heat.values())),
                   heat.get(here_cell) if here_cell is not None else None)

    @property
    def low(self) -> float:
        return self.values[0]

    @property
    def high(self) -> float:
        return self.values[-1]

    @property
    def median(self) -> float:
        return self.values[len(self.values) // 2]

    @property
    def flat(self) -> bool:
        """Whether every value is the same (the map shows nothing)."""
        return self.low == self.high

    def fraction(self, value: float) -> float:
        """``value``'s percentile in [0, 1] (ties share the middle of their ranks); 0.5 for a
        flat map."""
        count = len(self.values)
        if count < 2 or self.flat:
            return 0.5
        below = bisect.bisect_left(self.values, value)
        upto = bisect.bisect_right(self.values, value)
        middle = (below + max(below, upto - 1)) / 2
        return max(0.0, min(1.0, middle / (count - 1)))

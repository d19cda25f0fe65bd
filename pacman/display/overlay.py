"""What the search overlay shows, computed without drawing anything (no pygame here).

* :func:`search_view` turns a search agent's report (see ``agents.search_agents``:
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
from collections.abc import Callable, Iterable, Mapping, Sequence

from pacman.errors import PacmanError
from pacman.state import GameState


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
        moved = GameState((layout, (cell, *rest), *state[2:]))
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


Box = tuple[float, float, float, float]
#: Where the label of each action goes: the direction from Pacman, on screen (y down).
LABEL_DIRECTIONS = {"North": (0, -1), "South": (0, 1), "East": (1, 0), "West": (-1, 0),
                    "Stop": (1, 1)}


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _inside(box: Box, area: Box) -> bool:
    return (box[0] >= area[0] and box[1] >= area[1] and box[0] + box[2] <= area[0] + area[2]
            and box[1] + box[3] <= area[1] + area[3])


def _edge(centre: float, direction: int, gap: float, length: float, shift: float) -> float:
    """The start of a label of ``length`` along one axis: ``gap`` beyond the centre on the
    side of ``direction``, or centred (moved by ``shift``) when ``direction`` is 0."""
    if direction > 0:
        return centre + gap
    if direction < 0:
        return centre - gap - length
    return centre - length / 2 + shift


def place_labels(centre: tuple[float, float], tile: float,
                 sizes: Sequence[tuple[str, tuple[float, float]]], obstacles: Iterable[Box],
                 area: Box) -> dict[str, Box]:
    """Boxes ``(left, top, width, height)`` for the labels of Pacman's actions.

    ``sizes`` lists ``(action, (width, height))`` in the order to place them (the chosen action
    first). Each label goes beside Pacman's cell (centred at ``centre``, ``tile`` pixels wide)
    on the side of its action, pushed outwards or sideways as little as possible so that it
    covers no obstacle (the agents' cells), no label placed before it and stays inside
    ``area``. Where that is impossible (a crowded tiny maze) it still avoids the other labels
    and stays inside ``area`` if it can.
    """
    cx, cy = centre
    half = tile / 2
    blocked = [*obstacles, (cx - half, cy - half, tile, tile)]
    placed: dict[str, Box] = {}
    for action, (width, height) in sizes:
        dx, dy = LABEL_DIRECTIONS.get(action, (1, 1))
        candidates = []
        for out in (0, 0.5, 1, 1.5, 2, 3):
            for side in (0, 0.5, -0.5, 1, -1, 1.5, -1.5):
                x = _edge(cx, dx, half + 1 + out * tile, width, side * tile)
                y = _edge(cy, dy, half + 1 + out * tile, height, side * tile)
                candidates.append((x, y, width, height))
        inside = [box for box in candidates if _inside(box, area)] or candidates
        labels = list(placed.values())
        chosen = next((box for box in inside
                       if not any(_overlaps(box, other) for other in blocked)), None)
        if chosen is None:  # crowded: clear of the other labels at least, over an agent
            chosen = next((box for box in inside
                           if not any(_overlaps(box, other) for other in labels)), inside[0])
        placed[action] = chosen
        blocked.append(chosen)
    return placed

"""Evaluation functions: ``state -> float``, higher is better for Pacman.

Named in :data:`EVALUATIONS`; agents receive :class:`Evaluation` objects. Text such as
``evaluation=better``, ``module:attr``, ``path/file.py:name`` or ``linear:WEIGHTS`` becomes an
object at the boundary (:func:`pacman.lineup.evaluation_from_text`), never in an agent.
"""

from __future__ import annotations

from collections.abc import Callable

from pacman.agents.maze_tables import TABLES_BY_LAYOUT_ID, maze_tables
from pacman.agents.strong_evaluation import strong
from pacman.registry import Registry
from pacman.engine.state import CAPSULES, FOOD, LAYOUT, OUTCOME, POSITIONS, SCARED_TIMERS, GameState
from pacman.engine.state import SCORE as SCORE_FIELD  # SCORE names the score evaluation here


def nearest_food_distance(state: GameState) -> int | None:
    """Maze distance from Pacman to the nearest reachable dot (``None`` if there is none)."""
    nearest = maze_tables(state[LAYOUT]).food_distances(state[FOOD])[state[POSITIONS][0]]
    return None if nearest < 0 else nearest


def pacman_territory(state: GameState, limit: int | None = None) -> int:
    """Open cells Pacman reaches strictly before every ghost that is not scared: his room to
    escape (counted no further than ``limit`` when one is given).

    Pacman moves first in a round, so a cell he reaches in ``t`` moves is safe from a ghost that
    needs ``t`` or more. With no hunting ghost, every cell Pacman can reach counts.
    """
    positions = state[POSITIONS]
    scared = state[SCARED_TIMERS]
    hunters = [positions[g] for g in range(1, len(positions)) if not scared[g - 1]]
    return maze_tables(state[LAYOUT]).territory(positions[0], hunters, limit)


def score(state: GameState) -> float:
    """The game score: 10 per eaten dot minus one per move, plus the end bonuses.

    The evaluation of the thrashing demo: every plan that eats the same dots within the horizon
    looks equally good, however long it waits.
    """
    return state[SCORE_FIELD]


def closest_dot(state: GameState) -> float:
    """The score minus a tenth of the maze distance to the nearest dot: the thrashing fix.

    A tenth, so that eating a dot (+10) always outweighs the walk to the next one in any maze
    under a hundred steps across, while every step towards food still counts.
    """
    if state[OUTCOME] is not None:
        return state[SCORE_FIELD]
    nearest = nearest_food_distance(state)
    return state[SCORE_FIELD] if nearest is None else state[SCORE_FIELD] - 0.1 * nearest


#: ``better`` counts a hunting ghost as danger up to this maze distance.
DANGER_REACH = 4
#: ``better`` counts Pacman as cornered with fewer territory cells than this.
ESCAPE_ROOM = 10


def better(state: GameState) -> float:
    """A strong evaluation: the score, the way to food, ghost danger, hunting scared ghosts.

    * the game score (so eating, winning and losing count as in the game);
    * ``-9 d / D`` for the maze distance ``d`` to the nearest dot, ``D`` the maze's diameter:
      every step towards food gains the same amount however far the food is (no hovering when
      food is far), and eating a dot (+10) always pays more than the walk to the next one;
    * for each ghost that is not scared at distance ``d <= 4``: ``-150 / (d + 1)`` (danger
      within reach before the search horizon sees the capture);
    * ``-150`` when fewer than 10 cells are Pacman's territory (cells he reaches before every
      hunting ghost, :func:`pacman_territory`): the ghosts are closing the ways out, and a
      capture that a shallow search cannot see yet is coming;
    * for each scared ghost Pacman can reach before it recovers: ``+100 / (d + 1)`` (hunt it;
      eating it gives +200 and ends the bonus, so eating always pays);
    * ``-20`` per capsule left, so capsules are eaten on the way rather than ignored.

    The danger reach and the territory threshold were chosen by win rate over 100 seeded games
    against two directional ghosts on ``small_classic`` (see the search benchmark).
    """
    if state[OUTCOME] is not None:
        return state[SCORE_FIELD]
    layout = state[LAYOUT]
    tables = TABLES_BY_LAYOUT_ID.get(id(layout))  # maze_tables(layout), without the call when known
    if tables is None or tables.layout is not layout:
        tables = maze_tables(layout)
    positions = state[POSITIONS]
    pacman = positions[0]
    row = tables.rows[pacman]
    value = state[SCORE_FIELD]
    food_map = tables.food_maps.get(state[FOOD])  # tables.food_distances(), without the call
    if food_map is None:
        food_map = tables.food_distances(state[FOOD])
    nearest = food_map[pacman]
    if nearest >= 0:
        value -= 9.0 * nearest / tables.diameter
    scared = state[SCARED_TIMERS]
    hunters = []
    for ghost in range(1, len(positions)):
        d = row[positions[ghost]]
        timer = scared[ghost - 1]
        if timer > d >= 0:
            value += 100.0 / (d + 1)
        elif not timer:
            hunters.append(positions[ghost])
            if 0 <= d <= DANGER_REACH:
                value -= 150.0 / (d + 1)
    if hunters:
        room = tables.territories.get((pacman, ESCAPE_ROOM, *hunters))  # remembered, or:
        if room is None:
            room = tables.territory(pacman, hunters, ESCAPE_ROOM)
        if room < ESCAPE_ROOM:
            value -= 150.0
    return value - 20 * state[CAPSULES].bit_count()


class Evaluation:
    """A named evaluation function; what agents receive for their ``evaluation`` option."""

    __slots__ = ("name", "function")

    def __init__(self, name: str, function: Callable[[GameState], float]) -> None:
        self.name = name
        self.function = function

    def __call__(self, state: GameState) -> float:
        return self.function(state)

    def __repr__(self) -> str:
        return f"Evaluation({self.name!r})"


#: The built-in evaluations, by the names agents use for their defaults.
SCORE = Evaluation("score", score)
CLOSEST_DOT = Evaluation("closest_dot", closest_dot)
BETTER = Evaluation("better", better)
STRONG = Evaluation("strong", strong)

#: Evaluation functions by short name (the catalog the line-up reads; agents use the names above).
EVALUATIONS: Registry[Evaluation] = Registry("evaluation function", {
    evaluation.name: evaluation for evaluation in (SCORE, CLOSEST_DOT, BETTER, STRONG)})

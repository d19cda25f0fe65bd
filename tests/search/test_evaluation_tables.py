"""The fast evaluation features against their definitions, computed by brute force.

``better``, ``nearest_food_distance`` and ``pacman_territory`` read per-maze tables (nearest-dot
maps per food set, a territory grown from Pacman and remembered per placement); here each is
compared, on many drawn positions, with a direct computation over all pairs of maze distances.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pacman.agents.evaluation import DANGER_REACH, ESCAPE_ROOM, better, nearest_food_distance, pacman_territory
from pacman.agents.maze_tables import maze_tables
from pacman.engine.layout import load_layout
from pacman.engine.state import GameState

MAZES = {name: load_layout(name) for name in ("small_classic", "smallClassic", "mediumClassic",
                                               "trickyClassic", "testClassic")}


@st.composite
def positions(draw):
    layout = MAZES[draw(st.sampled_from(sorted(MAZES)))]
    cells = layout.open_cells
    ghosts = draw(st.integers(0, 4))
    placed = tuple(draw(st.sampled_from(cells)) for _ in range(ghosts + 1))
    scared = tuple(draw(st.sampled_from((0, 0, 1, 3, 8, 40))) for _ in range(ghosts))
    food = 0
    for cell in draw(st.lists(st.sampled_from(cells), max_size=30)):
        food |= 1 << cell
    capsules = 0
    for cell in draw(st.lists(st.sampled_from(cells), max_size=3)):
        capsules |= 1 << cell
    score = draw(st.integers(-500, 2000))
    return GameState((layout, placed, ("Stop",) * (ghosts + 1), scared, food, capsules, score, 0,
                      None))


def reference_nearest(state):
    row = state[0].distance_rows[state[1][0]]
    found = [row[c] for c in state[0].cells_of(state[4]) if row[c] >= 0]
    return min(found) if found else None


def reference_territory(state):
    layout, placed, scared = state[0], state[1], state[3]
    rows = layout.distance_rows
    hunters = [placed[g] for g in range(1, len(placed)) if not scared[g - 1]]
    count = 0
    for cell in layout.open_cells:
        mine = rows[placed[0]][cell]
        if mine < 0:
            continue
        if all(not 0 <= rows[g][cell] <= mine for g in hunters):
            count += 1
    return count


def reference_better(state):
    """``better`` as its docstring defines it, in the operation order of its formula."""
    layout, placed, scared = state[0], state[1], state[3]
    row = layout.distance_rows[placed[0]]
    value = state[6]
    nearest = reference_nearest(state)
    if nearest is not None:
        value -= 9.0 * nearest / layout.diameter
    hunted = False
    for ghost in range(1, len(placed)):
        d = row[placed[ghost]]
        timer = scared[ghost - 1]
        if timer > d >= 0:
            value += 100.0 / (d + 1)
        elif not timer:
            hunted = True
            if 0 <= d <= DANGER_REACH:
                value -= 150.0 / (d + 1)
    if hunted and reference_territory(state) < ESCAPE_ROOM:
        value -= 150.0
    return value - 20 * state[5].bit_count()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=positions())
def test_better_equals_its_definition(state):
    assert better(state) == reference_better(state)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=positions(), limit=st.integers(1, 60))
def test_territory_and_nearest_dot_equal_their_definitions(state, limit):
    full = reference_territory(state)
    assert pacman_territory(state) == full
    capped = pacman_territory(state, limit)
    assert capped == full if full < limit else capped >= limit
    assert nearest_food_distance(state) == reference_nearest(state)


def test_food_map_is_remembered_per_food_set_and_differs_between_sets():
    layout = MAZES["small_classic"]
    tables = maze_tables(layout)
    all_food = tables.food_distances(layout.food)
    assert tables.food_distances(layout.food) is all_food
    one = layout.food & -layout.food
    assert tables.food_distances(one) != all_food
    assert tables.food_distances(0) == (-1,) * len(all_food)


def test_terminal_states_score_their_game_score():
    state = GameState.initial(MAZES["small_classic"])
    won = GameState((*state[:6], 777, 0, "win"))
    assert better(won) == 777

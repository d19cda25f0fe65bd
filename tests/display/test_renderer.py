"""Frames drawn headless: walls, Pacman, ghosts, scared ghosts, the status bar, smooth
movement, the overlay, and fitting the maze to a frame."""

from __future__ import annotations

import random
from itertools import islice

import pytest
from display_support import CORRIDOR, pixel, random_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pacman.display import sprites
from pacman.display._pygame import pygame
from pacman.display.overlay import SearchView, heat_map, principal_paths, search_view
from pacman.display.renderer import MIN_WIDTH, Renderer, Status, heat_colour
from pacman.engine.game import random_play
from pacman.engine.layout import load_layout, shipped_layout_names
from pacman.engine.state import GameState

TILE = 24


def frame(state, tile=TILE, **options):
    renderer = Renderer(state.layout, tile)
    surface = pygame.Surface(renderer.size)
    renderer.draw(surface, state, **options)
    return renderer, surface


def with_scared(state, timers):
    return GameState((*state[:3], tuple(timers), *state[4:]))


def body_point(renderer, cell):
    """A point inside a ghost's head, above its eyes, whatever it looks at or fears."""
    cx, cy = renderer.cell_centre(cell)
    return cx, cy - 0.85 * 0.42 * renderer.tile


def behind_mouth(renderer, cell, facing):
    dx, dy = sprites.SCREEN_VECTORS[facing]
    cx, cy = renderer.cell_centre(cell)
    return cx - dx * renderer.tile / 4, cy - dy * renderer.tile / 4


@pytest.mark.parametrize("name", shipped_layout_names())
def test_walls_are_filled_and_outlined_where_they_meet_the_floor(name):
    layout = load_layout(name)
    state = GameState.initial(layout)
    renderer, surface = frame(state)
    outer = TILE // 4
    outlined = 0
    for cell in range(layout.width * layout.height):
        x, y = layout.cell_xy[cell]
        cx, cy = renderer.cell_centre(cell)
        if layout.walls >> cell & 1:
            assert pixel(surface, (cx, cy)) == sprites.WALL_FILL, (name, x, y)
            for dx, dy, action in ((1, 0, "East"), (-1, 0, "West"), (0, 1, "North"),
                                   (0, -1, "South")):
                nx, ny = x + dx, y + dy
                if 0 <= nx < layout.width and 0 <= ny < layout.height \
                        and not layout.walls >> (ny * layout.width + nx) & 1:
                    sx, sy = sprites.SCREEN_VECTORS[action]
                    reach = TILE / 2 - outer - 1  # the outermost column (row) of the outline
                    edge = (cx + sx * reach, cy + sy * reach)
                    assert pixel(surface, edge) == sprites.WALL, (name, x, y, action)
                    outlined += 1
        elif cell not in state.positions and not (state.food | state.capsules) >> cell & 1:
            assert pixel(surface, (cx, cy)) == sprites.BACKGROUND, (name, x, y)
    assert outlined > 0


def test_food_and_capsules_are_drawn_on_their_cells():
    state = GameState.initial(load_layout("tiny"))
    renderer, surface = frame(state)
    for cell in state.layout.cells_of(state.food):
        assert pixel(surface, renderer.cell_centre(cell)) == sprites.FOOD
    (capsule,) = state.layout.cells_of(state.capsules)
    cx, cy = renderer.cell_centre(capsule)
    assert pixel(surface, (cx + TILE * 0.2, cy)) == sprites.CAPSULE


def sampled_states(name: str, seed: int, count: int = 40) -> list[GameState]:
    start = GameState.initial(load_layout(name))
    return list(islice(random_play(start, random.Random(seed)), count))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["small_classic", "medium_classic", "four_ghosts", "capsule_rich",
                             "tiny"]),
       seed=st.integers(0, 10_000), pick=st.integers(0, 39))
def test_every_agent_is_drawn_in_its_colour_on_its_cell(name, seed, pick):
    state = sampled_states(name, seed)[pick]
    renderer, surface = frame(state)
    positions = state.positions
    facing = state.directions[0] if state.directions[0] != "Stop" else "East"
    assert pixel(surface, behind_mouth(renderer, positions[0], facing)) == sprites.PACMAN
    for ghost in range(1, len(positions)):
        cell = positions[ghost]
        if cell == positions[0] or cell in positions[1:ghost]:
            continue  # covered by Pacman or a ghost drawn over it
        timer = state.scared_timers[ghost - 1]
        expected = sprites.scared_colour(timer) if timer else sprites.ghost_colour(ghost)
        assert pixel(surface, body_point(renderer, cell)) == expected, (ghost, timer)


@pytest.mark.parametrize("facing", ["North", "South", "East", "West"])
def test_pacman_faces_his_direction_with_an_open_mouth(facing):
    state = GameState.initial(load_layout("open_field"))
    renderer, surface = frame(state, facing=facing)
    cx, cy = renderer.cell_centre(state.pacman_cell)
    dx, dy = sprites.SCREEN_VECTORS[facing]
    ahead = (cx + dx * TILE * 0.3, cy + dy * TILE * 0.3)
    assert pixel(surface, ahead) != sprites.PACMAN  # the mouth
    assert pixel(surface, behind_mouth(renderer, state.pacman_cell, facing)) == sprites.PACMAN


def test_scared_ghosts_are_blue_and_flash_white_before_they_recover():
    state = GameState.initial(load_layout("small_classic"))
    scared = with_scared(state, [40, 0])
    renderer, surface = frame(scared)
    ghost_1, ghost_2 = state.positions[1:]
    assert pixel(surface, body_point(renderer, ghost_1)) == sprites.SCARED
    assert pixel(surface, body_point(renderer, ghost_2)) == sprites.ghost_colour(2)
    colours = []
    for timer in range(sprites.FLASH_MOVES + 2, 0, -1):
        _, surface = frame(with_scared(state, [timer, 0]))
        colours.append(pixel(surface, body_point(renderer, ghost_1)))
    assert colours[:2] == [sprites.SCARED, sprites.SCARED]
    flashing = colours[2:]
    assert sprites.SCARED_FLASH in flashing and sprites.SCARED in flashing
    assert all(a != b for a, b in zip(flashing, flashing[1:]))  # alternates every move


def test_status_bar_shows_the_score_of_the_state_drawn():
    result, states = random_game("small_classic", seed=4, max_moves=30)
    state = next(s for s in reversed(states) if s.score not in (0,))
    renderer, surface = frame(state, status=Status(move=7, agents=["random", "random"]))
    text, rect = renderer.last_status[0]
    assert text == f"score {state.score}"
    assert renderer.status_rect.contains(rect)
    expected = pygame.Surface(rect.size)
    expected.fill(sprites.STATUS_BACKGROUND)
    expected.blit(renderer.render_text(text, sprites.STATUS_SCORE), (0, 0))
    drawn = surface.subsurface(rect)
    assert pygame.image.tobytes(drawn, "RGB") == pygame.image.tobytes(expected, "RGB")
    other = renderer.render_text(f"score {state.score + 10}", sprites.STATUS_SCORE)
    other_surface = pygame.Surface(rect.size)
    other_surface.fill(sprites.STATUS_BACKGROUND)
    other_surface.blit(other, (0, 0))
    assert pygame.image.tobytes(drawn, "RGB") != pygame.image.tobytes(other_surface, "RGB")
    texts = [t for t, _ in renderer.last_status]
    assert "move 7" in texts and f"food {state.food_count}" in texts
    assert "pacman: random" in texts and "ghosts: random" in texts


def test_the_outcome_appears_in_the_status_bar():
    state = GameState.initial(load_layout("tiny"))
    renderer, _ = frame(state, status=Status(outcome="move_limit"))
    assert "MOVE LIMIT" in [t for t, _ in renderer.last_status]


def test_movement_is_interpolated_between_neighbouring_cells():
    before = GameState.initial(CORRIDOR)
    after = before.successor("West")
    renderer, surface = frame(after, previous=before, progress=0.5, facing="West")
    (x0, y0), (x1, y1) = (renderer.cell_centre(before.pacman_cell),
                          renderer.cell_centre(after.pacman_cell))
    halfway = ((x0 + x1) / 2 + TILE * 0.25, (y0 + y1) / 2)  # behind his mouth, facing West
    assert pixel(surface, halfway) == sprites.PACMAN
    assert pixel(surface, (x1 - TILE * 0.3, y1)) == sprites.BACKGROUND  # not yet arrived
    _, done = frame(after, previous=before, progress=1.0, facing="West")
    assert pixel(done, (x1 + TILE * 0.25, y1)) == sprites.PACMAN


def test_an_agent_that_jumps_is_drawn_where_it_is_now():
    state = GameState.initial(load_layout("small_classic"))
    far = state.layout.open_cells[0]
    jumped = GameState((state.layout, (state.positions[0], far, state.positions[2]), *state[2:]))
    renderer, surface = frame(jumped, previous=state, progress=0.5)
    assert pixel(surface, body_point(renderer, far)) == sprites.ghost_colour(1)


def test_fit_picks_the_largest_cells_that_fit_and_centres_the_maze():
    layout = load_layout("large_classic")
    renderer = Renderer.fit(layout, (900, 800))
    assert renderer.size == (900, 800)
    width, height = Renderer.natural_size(layout, renderer.tile)
    assert width <= 900 and height <= 800
    assert Renderer.natural_size(layout, renderer.tile + 1)[1] > 800
    assert renderer.origin[0] == (900 - layout.width * renderer.tile) // 2
    tiny = Renderer.fit(load_layout("tiny"), (100, 100))
    assert tiny.size[0] >= MIN_WIDTH and tiny.tile == 4
    with pytest.raises(ValueError):
        Renderer(layout, 2)


def test_heat_map_colours_cells_from_cold_to_hot():
    state = GameState.initial(CORRIDOR)
    heat = heat_map(state, lambda s: float(s.pacman_position[0]))
    open_xs = sorted(state.layout.cell_xy[c][0] for c in heat)
    assert open_xs == [1, 2, 3, 4, 5, 6]
    renderer, surface = frame(state, heat=heat)
    cells = {state.layout.cell_xy[c][0]: c for c in heat}
    left = renderer.cell_rect(cells[2])   # x = 2 and x = 3 hold no food and no agent
    right = renderer.cell_rect(cells[5])
    cold, hot = pixel(surface, left.topleft), pixel(surface, (right.left + 1, right.top + 1))
    assert cold[2] > cold[0] and hot[0] > hot[2]
    assert heat_colour(0.0)[2] > heat_colour(1.0)[2]


def test_heat_map_values_each_cell_with_only_pacman_moved():
    state = sampled_states("small_classic", 3)[25]
    calls = []
    heat = heat_map(state, lambda s: calls.append(s) or float(s.pacman_cell))
    assert heat[state.pacman_cell] == float(state.pacman_cell)
    for moved in calls:
        assert moved[2:] == state[2:] and moved.positions[1:] == state.positions[1:]
    row = state.layout.distance_rows[state.pacman_cell]
    assert set(heat) == {c for c in state.layout.open_cells if row[c] >= 0}


def test_principal_variation_becomes_each_agents_path():
    state = GameState.initial(load_layout("small_classic"))
    variation, walk = [], state
    for _ in range(6):
        action = walk.legal_actions()[0]
        variation.append(action)
        walk = walk.successor(action)
    paths = principal_paths(state, variation + ["Bogus", "North"])
    for agent, path in enumerate(paths):
        assert path[0] == state.positions[agent]
        assert path[-1] == walk.positions[agent]
    view = search_view(state, {"root_values": {"East": 3, "West": -1.5}, "action": "East",
                               "principal_variation": variation})
    assert view == SearchView(state.pacman_cell, {"East": 3.0, "West": -1.5}, "East", paths)
    assert search_view(state, None) is None and search_view(state, {"nodes": 3}) is None


def test_overlay_draws_the_path_in_the_maze_and_each_value_with_its_move_in_the_legend():
    state = GameState.initial(CORRIDOR)
    walk = state.successor("West").successor("West")
    values = {"West": 12.0, "East": -3.0, "Stop": 0.0}
    view = SearchView(state.pacman_cell, values, "West", principal_paths(state, ["West", "West"]))
    status = Status(overlay=True, values=values, chosen="West", move=1)
    _, plain = frame(state, status=Status(overlay=True, move=1))
    renderer, drawn = frame(state, view=view, status=status)
    # No number in the maze: the cell beyond the east move and the walls above are untouched.
    for cell in (state.pacman_cell + 1, state.pacman_cell + CORRIDOR.width):
        east = renderer.cell_rect(cell)
        assert (pygame.image.tobytes(drawn.subsurface(east), "RGB")
                == pygame.image.tobytes(plain.subsurface(east), "RGB"))
    texts = dict(renderer.last_status)
    assert {"move values:", "E -3", "W 12", "stop 0"} <= set(texts)

    def yellow(rect):  # Pacman's colour, give or take the text's smoothing
        return any(r > 200 and g > 200 and b < 80 for r, g, b in
                   (pixel(drawn, (x, y)) for x in range(rect.left, rect.right)
                    for y in range(rect.top, rect.bottom)))

    assert yellow(texts["W 12"]) and not yellow(texts["E -3"])
    end = renderer.cell_centre(walk.pacman_cell)
    assert pixel(drawn, end) == sprites.PACMAN and pixel(plain, end) != sprites.PACMAN


@pytest.mark.parametrize("move, says", [(0, "after Pacman's first move"),
                                        (4, "none (no search reported for this move)")])
def test_an_agent_without_values_gets_a_legend_that_says_so(move, says):
    state = GameState.initial(CORRIDOR)
    renderer, _ = frame(state, status=Status(overlay=True, move=move))
    texts = [text for text, _ in renderer.last_status]
    assert f"move values: {says}" in texts and not any("yellow" in t for t in texts)

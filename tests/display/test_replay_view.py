"""Replays in the window: exactly the original states, move by move, with scrubbing."""

from __future__ import annotations

import pytest
from display_support import press, random_game

from pacman.cli import main
from pacman.display import controls
from pacman.display._pygame import pygame
from pacman.display.renderer import Renderer
from pacman.display.replay_view import ReplayViewer
from pacman.engine.game import GameResult, replay_states


@pytest.fixture(scope="module")
def game():
    result, states = random_game("small_classic", seed=12, max_moves=25)
    recorded = GameResult.from_json(result.to_json())  # as read back from a recording
    return recorded, states


def maze_pixels(surface, renderer: Renderer) -> bytes:
    area = pygame.Rect(0, 0, renderer.size[0], renderer.status_rect.top)
    return pygame.image.tobytes(surface.subsurface(area), "RGB")


def viewer_for(window, game, **options) -> ReplayViewer:
    result, _ = game
    return ReplayViewer(window, list(replay_states(result)), result, playing=False, **options)


def test_the_replay_draws_exactly_the_states_of_the_original_game(window, game):
    result, original = game
    viewer = viewer_for(window, game)
    viewer.tick()
    # A replay parses its own copy of the maze, so states compare by everything but the layout.
    assert viewer.shown.layout.text == original[0].layout.text
    assert viewer.shown.key == original[0].key
    reference = pygame.Surface(window.renderer.size)
    for position in range(1, len(original)):
        press(pygame.K_RIGHT)
        viewer.tick()
        assert viewer.position == position
        assert viewer.shown.key == original[position].key
        window.renderer.draw(reference, original[position], facing=window.facing)
        assert maze_pixels(window.screen, window.renderer) \
            == maze_pixels(reference, window.renderer), position
        assert window.renderer.last_status[0][0] == f"score {original[position].score}"
    press(pygame.K_RIGHT)  # past the end: stays on the last state
    viewer.tick()
    assert viewer.shown.key == original[-1].key
    texts = [t for t, _ in window.renderer.last_status]
    assert result.outcome.replace("_", " ").upper() in texts


def test_left_home_end_and_number_entry_scrub(window, game):
    result, original = game
    viewer = viewer_for(window, game)
    press(pygame.K_END)
    viewer.tick()
    assert viewer.position == len(original) - 1
    press(pygame.K_LEFT, pygame.K_LEFT)
    viewer.tick()
    assert viewer.position == len(original) - 3
    press(pygame.K_HOME)
    viewer.tick()
    assert viewer.shown.key == original[0].key
    press(pygame.K_1, pygame.K_2, pygame.K_BACKSPACE, pygame.K_3, pygame.K_RETURN)
    viewer.tick()
    agents = result.num_ghosts + 1
    assert viewer.position == 13 * agents
    assert viewer.move_number(viewer.position) == 13
    assert [t for t, _ in window.renderer.last_status][1] == "move 13"


def test_the_slider_seeks_by_click_and_drag(window, game):
    _, original = game
    viewer = viewer_for(window, game)
    viewer.tick()
    rect = viewer.slider_rect()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1,
                                         pos=(rect.right - 1, rect.centery)))
    viewer.tick()
    assert viewer.position == len(original) - 1
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(rect.left, rect.centery),
                                         rel=(0, 0), buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1,
                                         pos=(rect.left, rect.centery)))
    viewer.tick()
    assert viewer.position == 0
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(rect.right, rect.centery),
                                         rel=(0, 0), buttons=(0, 0, 0)))
    viewer.tick()
    assert viewer.position == 0  # no longer dragging
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1,
                                         pos=(rect.centerx, rect.bottom + 40)))
    viewer.tick()
    assert viewer.position == 0  # a click away from the slider does not seek


def test_playing_advances_at_any_speed(window, game):
    _, original = game
    window.frame_time = 0.0
    viewer = viewer_for(window, game)
    press(pygame.K_SPACE)
    for _ in range(5):
        viewer.tick()
    assert viewer.position == 5 and viewer.playing
    press(pygame.K_SPACE)
    viewer.tick()
    assert viewer.position == 5 and not viewer.playing
    press(pygame.K_MINUS)
    viewer.tick()
    assert window.frame_time == 0.01


def test_q_stops_every_replay_and_n_goes_to_the_next(window, game):
    viewer = viewer_for(window, game)
    press(pygame.K_n)
    viewer.tick()
    assert viewer.done and viewer.request is None
    viewer = viewer_for(window, game)
    press(pygame.K_q)
    assert viewer.run() == controls.QUIT


def test_cli_replay_in_the_window(capsys, tmp_path, game):
    result, _ = game
    path = tmp_path / "games.jsonl"
    path.write_text(result.to_json() + "\n" + result.to_json() + "\n", encoding="utf-8")
    pygame.display.init()
    pygame.event.clear()
    press(pygame.K_END, pygame.K_n, pygame.K_q)
    code = main(["--replay", str(path), "--display", "window", "--frame-time", "0"])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("replayed seed 12") for line in lines)


def press_at(point, button: int = 1) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=button, pos=point))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=button, pos=point))


def test_the_slider_has_a_strip_of_its_own_between_the_maze_and_the_text(window, game):
    from pacman.display.slider import GRIP, ROOM

    window.open(game[1][0].layout)  # as for a game
    game_tile, (game_width, game_height) = window.renderer.tile, window.screen.get_size()
    viewer = viewer_for(window, game)
    viewer.tick()
    renderer = window.renderer
    track, area, bar = viewer.slider_rect(), renderer.slider_area, renderer.status_rect
    assert track.height >= 6 and track.width > bar.width * 0.9
    assert area.top == bar.top and bar.contains(area)
    assert area.contains(track.inflate(0, 2 * GRIP))  # a grabbing press misses the maze
    texts = [rect for _, rect in renderer.last_status]
    assert texts and all(rect.top >= area.bottom and bar.contains(rect) for rect in texts)
    # The window grew by the strip: the maze keeps the cells a game's window has.
    assert renderer.tile == game_tile
    assert window.screen.get_size() == renderer.size == (game_width, game_height + ROOM)


@pytest.mark.parametrize("offset", [-8, -5, 5, 9])
def test_a_press_a_few_pixels_off_the_track_seeks(window, game, offset):
    _, original = game
    viewer = viewer_for(window, game)
    viewer.tick()
    track = viewer.slider_rect()
    y = track.top + offset if offset < 0 else track.bottom - 1 + offset
    press_at((track.left + track.width * 3 // 4, y))
    viewer.tick()
    assert viewer.position == round(0.75 * (len(original) - 1))


@pytest.mark.parametrize("where", ["above", "below", "maze", "text"])
def test_a_press_farther_from_the_track_does_not_seek(window, game, where):
    from pacman.display.slider import GRIP

    viewer = viewer_for(window, game)
    viewer.tick()
    track = viewer.slider_rect()
    y = {"above": track.top - GRIP - 2, "below": track.bottom + GRIP + 1,
         "maze": track.top - 40, "text": window.renderer.last_status[0][1].centery}[where]
    press_at((track.centerx, y))
    viewer.tick()
    assert viewer.position == 0


def knob_columns(surface, slider) -> list[int]:
    """The columns where the knob's colour is, along a row through the knob above the track."""
    from pacman.display.slider import KNOB

    y = slider.track.top - 3
    return [x for x in range(slider.area.left, slider.area.right)
            if tuple(surface.get_at((x, y)))[:3] == KNOB]


@pytest.mark.parametrize("share", [0.0, 0.3, 0.5, 1.0])
def test_the_knob_is_drawn_where_the_replay_is(window, game, share):
    _, original = game
    viewer = viewer_for(window, game)
    viewer.seek(round(share * (len(original) - 1)))
    viewer.tick()
    slider = viewer.slider()
    columns = knob_columns(window.screen, slider)
    assert columns, "no knob"
    middle = (columns[0] + columns[-1]) / 2
    assert middle == pytest.approx(slider.x_of(viewer.fraction), abs=1)
    assert slider.knob(viewer.fraction).width >= 12
    assert viewer.slider().area.contains(slider.knob(viewer.fraction))


def test_the_knob_follows_a_drag_and_is_lit_while_held(window, game):
    from pacman.display import sprites

    _, original = game
    viewer = viewer_for(window, game)
    viewer.tick()
    slider = viewer.slider()
    track = slider.track
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1,
                                         pos=(track.left + 2, track.top - 4)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(track.centerx, track.top - 30),
                                         rel=(0, 0), buttons=(1, 0, 0)))
    viewer.tick()
    assert viewer.position == round((len(original) - 1) * slider.fraction_at(track.centerx))
    centre = (slider.x_of(viewer.fraction), track.centery)
    assert tuple(window.screen.get_at(centre))[:3] == sprites.PACMAN  # held: lit
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=centre))
    viewer.tick()
    assert knob_columns(window.screen, slider)


def test_a_resized_replay_window_keeps_its_slider(window, game):
    viewer = viewer_for(window, game)
    viewer.tick()
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(900, 700), w=900, h=700))
    viewer.tick()
    renderer = window.renderer
    assert renderer.size == (900, 700) and renderer.slider_area is not None
    assert all(rect.top >= renderer.slider_area.bottom for _, rect in renderer.last_status)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(50, 50), w=50, h=50))
    viewer.tick()  # too small: raised to the smallest cells with the slider's strip
    assert window.renderer.slider_area is not None
    assert window.screen.get_size() == window.renderer.size


def test_the_next_recording_in_the_same_window_does_not_grow_it(window, game):
    viewer_for(window, game).tick()
    size = window.screen.get_size()
    for _ in range(3):
        viewer_for(window, game).tick()
    assert window.screen.get_size() == size

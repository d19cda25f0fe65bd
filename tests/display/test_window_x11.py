"""The real window under a virtual X display (Xvfb): the overlay's values and the end banner,
read from what the window draws."""

from __future__ import annotations

import pytest

from pacman.agents.basic import GreedyPacman
from pacman.agents.ghosts import RandomGhost
from pacman.agents.search_agents import AlphaBetaAgent
from pacman.display import sprites
from pacman.display._pygame import pygame
from pacman.display.statusbar import MOVE_LETTERS
from pacman.engine.game import AgentSpec
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout


@pytest.fixture
def x11_window(monkeypatch, x_display):
    from pacman.display.window import WindowDisplay

    monkeypatch.setenv("SDL_VIDEODRIVER", "x11")
    monkeypatch.setenv("DISPLAY", x_display)
    pygame.display.quit()
    pygame.display.init()
    assert pygame.display.get_driver() == "x11"
    display = WindowDisplay(frame_time=0.0, linger=0.0, overlay=True)
    yield display
    display.close()
    # Every SDL subsystem lets go of the X server before it stops (else Xlib exits the
    # process when the server goes away).
    pygame.quit()


def colours_in(surface, rect) -> set[tuple[int, int, int]]:
    return {tuple(surface.get_at((x, y)))[:3] for x in range(rect.left, rect.right)
            for y in range(rect.top, rect.bottom)}


def shows(surface, rect, colour, tolerance: int = 30) -> bool:
    """Whether some pixel in ``rect`` is ``colour`` (text is smoothed: nearly that colour)."""
    return any(all(abs(a - b) <= tolerance for a, b in zip(seen, colour))
               for seen in colours_in(surface, rect))


@pytest.mark.parametrize("maze", ["smallClassic", "originalClassic"])
def test_each_value_is_shown_with_its_move_and_the_chosen_one_in_pacmans_colour(x11_window,
                                                                                 maze):
    layout = load_layout(maze)
    specs = [AgentSpec("alphabeta", AlphaBetaAgent, {"depth": 1})] + [
        AgentSpec("random", RandomGhost) for _ in range(layout.num_ghosts)]
    run_game(layout, specs, 2, max_moves=6, display=x11_window)
    window = x11_window
    view = window._view
    assert view is not None and view.root_values
    texts = dict(window.renderer.last_status)
    for move, value in view.root_values.items():
        label = next(t for t in texts if t.startswith(f"{MOVE_LETTERS[move]} "))
        assert float(label.split()[1]) == pytest.approx(value, abs=0.051)
        chosen = shows(window.screen, texts[label], sprites.PACMAN)
        assert chosen == (move == view.chosen)
    assert window.renderer.status_rect.collidelist(
        [r for t, r in window.renderer.last_status]) != -1


def test_an_agent_that_reports_no_values_is_said_so(x11_window):
    layout = load_layout("smallClassic")
    specs = [AgentSpec("greedy", GreedyPacman)] + [
        AgentSpec("random", RandomGhost) for _ in range(layout.num_ghosts)]
    run_game(layout, specs, 2, max_moves=4, display=x11_window)
    texts = [t for t, _ in x11_window.renderer.last_status]
    assert "move values: none (no search reported for this move)" in texts
    assert not any(t.startswith("(yellow") for t in texts)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_end_of_a_game_is_a_banner_below_the_maze_which_stays_whole(x11_window, seed):
    from pacman.display.banner import COLOURS

    layout = load_layout("trappedClassic")
    specs = [AgentSpec("greedy", GreedyPacman)] + [
        AgentSpec("random", RandomGhost) for _ in range(layout.num_ghosts)]
    assert x11_window.banner is None
    result = run_game(layout, specs, seed, max_moves=200, display=x11_window)
    window = x11_window
    band = window.banner
    assert band is not None and band.width == window.screen.get_width()
    maze = pygame.Rect(window.renderer.origin, (layout.width * window.renderer.tile,
                                                layout.height * window.renderer.tile))
    # the board's last moment stays in sight: the banner is over the bar, under the maze
    assert window.renderer.status_rect.contains(band) and not band.colliderect(maze)
    assert not any(band.colliderect(window.renderer.cell_rect(p))
                   for p in window.shown.positions)
    headline = COLOURS.get(result.outcome, sprites.STATUS_TEXT)
    assert shows(window.screen, band, headline)


@pytest.mark.parametrize("size", [11, 12, 13, 14, 15])
def test_small_status_text_has_no_gaps_inside_words(x11_window, size):
    from pacman.display.renderer import Renderer
    from pacman.display.statusbar import render_text

    renderer = Renderer(load_layout("trappedClassic"), 24)
    for word in ("pacman", "alphabeta", "think", "limit", "play"):
        image = render_text(renderer, word, (255, 255, 255), size)
        mask = pygame.mask.from_surface(image, 60)
        inked = [any(mask.get_at((x, y)) for y in range(mask.get_size()[1]))
                 for x in range(mask.get_size()[0])]
        first, last = inked.index(True), len(inked) - inked[::-1].index(True)
        gaps = "".join("." if ink else " " for ink in inked[first:last]).split(".")
        assert max(len(gap) for gap in gaps) <= size / 6, (word, size)

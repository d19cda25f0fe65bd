"""The real window under a virtual X display (Xvfb): the overlay's values and the end banner,
read from what the window draws."""

from __future__ import annotations

import pytest

from agents.basic import GreedyPacman
from agents.ghosts import RandomGhost
from agents.search_agents import AlphaBetaAgent
from pacman.display import sprites
from pacman.display._pygame import pygame
from pacman.display.statusbar import MOVE_LETTERS
from pacman.game import AgentSpec, run_game
from pacman.layout import load_layout


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


def colours_in(surface, rect) -> set[tuple[int, int, int]]:
    return {tuple(surface.get_at((x, y)))[:3] for x in range(rect.left, rect.right)
            for y in range(rect.top, rect.bottom)}


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
        chosen = sprites.PACMAN in colours_in(window.screen, texts[label])
        assert chosen == (move == view.chosen)
    assert window.renderer.status_rect.collidelist(
        [r for t, r in window.renderer.last_status]) != -1


def test_an_agent_that_reports_no_values_is_said_so(x11_window):
    layout = load_layout("smallClassic")
    specs = [AgentSpec("greedy", GreedyPacman)] + [
        AgentSpec("random", RandomGhost) for _ in range(layout.num_ghosts)]
    run_game(layout, specs, 2, max_moves=4, display=x11_window)
    texts = [t for t, _ in x11_window.renderer.last_status]
    assert "move values: none (Pacman's agent reports no search)" in texts
    assert not any(t.startswith("(yellow") for t in texts)

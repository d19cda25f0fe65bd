"""What makes the window readable: labels placed clear of the agents and of each other, a
percentile colour scale, a legend that always fits, a minimum window size, the wait between
games, and naming which game is shown."""

from __future__ import annotations

import time

import pytest
from display_support import press
from hypothesis import given, strategies as st

from pacman.agents.evaluation import better
from pacman.agents.search_agents import AlphaBetaAgent
from pacman.display import pacing, people
from pacman.display._pygame import pygame
from pacman.display.overlay import HeatScale, SearchView, heat_map
from pacman.display.renderer import Renderer, Status, heat_colour
from pacman.display.window import WindowDisplay
from pacman.engine.game import AgentSpec
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout, shipped_layout_names
from pacman.lineup.build import lineup
from pacman.engine.state import GameState


def overlaps(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


# --- the colour scale ---------------------------------------------------------------------

@given(st.lists(st.floats(-1e6, 1e6), min_size=2, max_size=60))
def test_percentile_scale_is_monotone_from_worst_to_best(values):
    scale = HeatScale.of(dict(enumerate(values)))
    fractions = [scale.fraction(v) for v in sorted(values)]
    assert fractions == sorted(fractions)
    if not scale.flat:
        assert scale.fraction(min(values)) < scale.fraction(max(values))
    assert all(0.0 <= f <= 1.0 for f in fractions)


def test_one_outlier_does_not_paint_every_other_cell_the_same():
    """A min-max scale would put 1, 2, 3 all at the cold end next to 1000."""
    scale = HeatScale.of({0: 1.0, 1: 2.0, 2: 3.0, 3: 1000.0})
    colours = {heat_colour(scale.fraction(v)) for v in (1.0, 2.0, 3.0)}
    assert len(colours) == 3
    assert HeatScale.of({0: 5.0, 1: 5.0}).fraction(5.0) == 0.5


# --- the legend ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", shipped_layout_names())
def test_legend_fits_every_maze_at_the_default_and_the_smallest_size(name):
    layout = load_layout(name)
    state = GameState.initial(layout)
    heat = heat_map(state, better)
    view = SearchView(state.pacman_cell, {a: -123.4 for a in state.legal_actions()},
                      state.legal_actions()[0],
                      tuple((c,) for c in state.positions))
    for tile in (pacing.default_tile(layout, (1600, 1000)), pacing.SMALLEST_TILE):
        renderer = Renderer(layout, tile)
        surface = pygame.Surface(renderer.size)
        status = Status(move=3, agents=["alphabeta", *["directional"] * layout.num_ghosts],
                        note="flat out (real 0.02)  think 1.2 ms", overlay=True,
                        legend=HeatScale.of(heat, state.pacman_cell), paths=True,
                        extra=["game 1/3, seed 12345"])
        renderer.draw(surface, state, status=status, view=view, heat=heat)
        texts = [text for text, _ in renderer.last_status]
        assert "<colour bar>" in texts and any(t.startswith("lines:") for t in texts)
        for _, rect in renderer.last_status:
            assert renderer.status_rect.contains(rect), (name, tile, rect)


# --- the window ---------------------------------------------------------------------------

def test_shrinking_the_window_stops_at_a_minimum_size(window):
    layout = load_layout("medium_classic")
    window.open(layout)
    window.resize((60, 40))
    least = window.minimum_size()
    assert window.screen.get_size()[0] >= least[0] and window.screen.get_size()[1] >= least[1]
    assert window.renderer.tile >= pacing.SMALLEST_TILE
    window.resize((1000, 700))
    assert window.screen.get_size() == (1000, 700)
    assert window.renderer.tile > pacing.SMALLEST_TILE


def test_the_default_window_uses_most_of_the_screen():
    layout = load_layout("medium_classic")
    tile = pacing.default_tile(layout, (1600, 1000))
    width, height = Renderer.natural_size(layout, tile)
    assert width <= 1280 and height <= 800
    assert width > 1000 or height > 700
    assert tile > pacing.BASE_TILE


def test_between_games_the_window_goes_on_by_itself(monkeypatch):
    monkeypatch.setattr(people, "AUTO_ADVANCE", 0.2)
    window = WindowDisplay(frame_time=0.0)
    try:
        layout = load_layout("tiny")
        window.games_left = 1
        said = []
        window.announce = lambda result: said.append((result.outcome, time.perf_counter()))
        began = time.perf_counter()
        result = run_game(layout, lineup(layout, "random", "random"), 3, max_moves=5,
                          display=window)
        assert said and said[0][0] == result.outcome
        assert time.perf_counter() - began < 10
        assert "next game" in window.next_hint(1.0)
    finally:
        window.close()


def test_pause_between_waits_for_a_key(monkeypatch):
    monkeypatch.setattr(people, "AUTO_ADVANCE", 0.05)
    window = WindowDisplay(frame_time=0.0, pause_between=True)
    try:
        layout = load_layout("tiny")
        window.games_left = 2
        waited = []
        original = window.redraw

        def redraw(note=""):
            if window.outcome is not None:
                waited.append(window.status().hint)
                if len(waited) == 5:
                    press(pygame.K_SPACE)
            original(note)

        window.redraw = redraw
        run_game(layout, lineup(layout, "random", "random"), 3, max_moves=3, display=window)
        assert len(waited) >= 5 and "space: next game" in waited[-1]
    finally:
        window.close()


def test_the_result_is_announced_before_the_window_waits(window, monkeypatch):
    order = []
    window.announce = lambda result: order.append("announced")
    monkeypatch.setattr(window, "_wait_after_game", lambda: order.append("waited"))
    layout = load_layout("tiny")
    run_game(layout, lineup(layout, "random", "random"), 3, max_moves=3, display=window)
    assert order == ["announced", "waited"]


def test_status_shows_think_time_and_real_speed(window):
    layout = load_layout("small_classic")
    specs = [AgentSpec("alphabeta", AlphaBetaAgent, {"depth": 1})] + lineup(
        layout, "random", "random")[1:]
    run_game(layout, specs, 5, max_moves=4, display=window)
    note = window.status().note
    assert "think " in note and "(real " in note
    assert window.thinking_note() == ""
    window._think = 1.5
    assert "thinking" in window.thinking_note()


def test_next_recording_keeps_the_window_size(window):
    first, second = load_layout("medium_classic"), load_layout("small_classic")
    window.open(first)
    window.resize((900, 600))
    window.open(second)
    assert window.screen.get_size() == (900, 600)


def test_ctrl_c_in_the_text_display_prints_the_result_once(monkeypatch, capsys):
    from pacman.cli import main
    from pacman.display.text import TextDisplay

    drawn = TextDisplay.update
    calls = []

    def update_then_ctrl_c(self, state, move):  # the user presses Ctrl-C during the 3rd move
        calls.append(move)
        if len(calls) == 3:
            raise KeyboardInterrupt
        drawn(self, state, move)

    monkeypatch.setattr(TextDisplay, "update", update_then_ctrl_c)
    code = main(["--layout", "tiny", "--display", "text", "--frame-time", "0", "--pacman",
                 "random", "--ghosts", "random", "--seed", "4"])
    out = capsys.readouterr().out
    assert code == 130
    assert out.count("interrupted") == 1 and "game 1/1 (seed 4): interrupted" in out


@pytest.mark.parametrize("name", shipped_layout_names())
def test_the_legend_is_legible_and_whole_on_every_maze_at_1366x768(name):
    from pacman.display.statusbar import PATHS_NOTE
    from pacman.display.window import first_frame

    layout = load_layout(name)
    state = GameState.initial(layout)
    heat = heat_map(state, better)
    values = {a: -1234.5 for a in ("North", "East", "South", "West", "Stop")}
    view = SearchView(state.pacman_cell, values, "West", tuple((c,) for c in state.positions))
    renderer = first_frame(layout, (1366, 768))
    assert renderer.size[0] <= 1366 * 0.8 and renderer.size[1] <= 768 * 0.8
    surface = pygame.Surface(renderer.size)
    status = Status(move=3, agents=["alphabeta", *["directional"] * layout.num_ghosts],
                    note="flat out (real 0.02)  think 1.2 ms", overlay=True,
                    legend=HeatScale.of(heat, state.pacman_cell), paths=True,
                    values=values, chosen="West", extra=["game 1/3, seed 12345"])
    renderer.draw(surface, state, status=status, view=view, heat=heat)
    assert renderer.legend_size >= 11, (name, renderer.legend_size)
    drawn = dict(renderer.last_status)
    assert PATHS_NOTE[0] in drawn  # one phrase, never cut in two
    first_value = next(t for t in drawn if t.startswith("N "))
    assert drawn["move values:"].top == drawn[first_value].top  # the label stays with them
    worst = next(t for t in drawn if t.startswith("heat: worst"))
    best = next(t for t in drawn if t.startswith("best "))
    assert drawn[worst].top == drawn[best].top  # on one line, the bar between them
    assert drawn[worst].top <= drawn["<colour bar>"].centery <= drawn[worst].bottom


LONGEST_DETAILS = ("score -492 in 123 moves   next game in 3 s: space now, p wait   "
                   "r: play it again   q: quit",
                   "score 1234 in 1000 moves   closing in 10 s: space or q now, p keep open   "
                   "r: play it again")


@pytest.mark.parametrize("name", shipped_layout_names())
def test_every_text_of_the_window_and_its_end_banner_is_11_px_at_1366x768(name):
    """11 px: the height of pygame's default font at the size drawn, measured on the font,
    and the text is never scaled down after it is drawn."""
    from pacman.display.banner import draw_end_banner
    from pacman.display.statusbar import LEGIBLE_SIZE
    from pacman.display.window import first_frame

    layout = load_layout(name)
    state = GameState.initial(layout)
    heat = heat_map(state, better)
    values = {a: -1234.5 for a in ("North", "East", "South", "West", "Stop")}
    view = SearchView(state.pacman_cell, values, "West", tuple((c,) for c in state.positions))
    renderer = first_frame(layout, (1366, 768))
    assert renderer.font_of(LEGIBLE_SIZE).get_height() >= 11
    least = renderer.font_of(LEGIBLE_SIZE).render("Ay", True, (255, 255, 255)).get_height()
    maze = pygame.Rect(renderer.origin, (layout.width * renderer.tile,
                                         layout.height * renderer.tile))
    for overlay in (True, False):
        for detail in LONGEST_DETAILS:
            surface = pygame.Surface(renderer.size)
            status = Status(move=3, agents=["alphabeta", *["directional"] * layout.num_ghosts],
                            note="flat out (real 0.02)  think 1.2 ms", overlay=overlay,
                            legend=HeatScale.of(heat, state.pacman_cell), paths=True,
                            values=values, chosen="West", outcome="loss",
                            extra=["game 1/3, seed 12345"])
            renderer.draw(surface, state, status=status, view=view if overlay else None,
                          heat=heat if overlay else None)
            for text, rect in renderer.last_status:
                if text != "<colour bar>":
                    assert rect.height >= least, (name, text, rect)
            drawn: list = []
            band = draw_end_banner(surface, renderer, "loss", detail,
                                   lines=2 if overlay else 4, drawn=drawn)
            assert len(drawn) >= 2 and not band.colliderect(maze)
            assert renderer.status_rect.contains(band)
            for text, rect, size in drawn:
                assert renderer.font_of(size).get_height() >= 11, (name, text, size)
                assert band.contains(rect) and rect.height >= least, (name, text, rect)
            assert " ".join(t for t, _, _ in drawn[1:]).split() == detail.split()
            if overlay:  # the legend's move values stay in sight below the banner
                values_row = dict(renderer.last_status)["move values:"]
                assert not band.colliderect(values_row), (name, detail)

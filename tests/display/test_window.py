"""The window, headless (SDL's dummy driver), driven by synthetic key events."""

from __future__ import annotations

import subprocess
import sys

import pytest
from display_support import CORRIDOR, Recorder, pixel, press

from pacman.agents.basic import GreedyPacman, RandomPacman
from pacman.agents.ghosts import RandomGhost
from pacman.agents.keyboard import KeyboardPacman
from pacman.agents.search_agents import AlphaBetaAgent
from pacman.cli import main
from pacman.display import controls, resolve_kind, sprites
from pacman.display._pygame import pygame
from pacman.display.window import SLOWEST, WindowDisplay, faster, slower
from pacman.errors import ConfigurationError
from pacman.engine.game import AgentSpec
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout
from pacman.engine.state import GameState


def lineup(layout, pacman=RandomPacman, **options):
    return [AgentSpec("pacman", pacman, options)] + [
        AgentSpec("random", RandomGhost) for _ in range(layout.num_ghosts)]


def test_a_game_in_the_window_ends_on_its_final_state(window):
    layout = load_layout("small_classic")
    recorder = Recorder()
    reference = run_game(layout, lineup(layout), 9, max_moves=40, display=recorder)
    result = run_game(layout, lineup(layout), 9, max_moves=40, display=window)
    assert result.actions == reference.actions
    final = recorder.states[-1]
    assert window.shown == final and window.moves == result.moves
    renderer = window.renderer
    facing = window.facing
    dx, dy = sprites.SCREEN_VECTORS[facing]
    cx, cy = renderer.cell_centre(final.pacman_cell)
    assert pixel(window.screen, (cx - dx * renderer.tile / 4, cy - dy * renderer.tile / 4)) \
        == sprites.PACMAN
    assert window.renderer.last_status[0][0] == f"score {result.score}"
    assert result.outcome.replace("_", " ").upper() in [t for t, _ in renderer.last_status]


def test_space_pauses_right_steps_one_move_and_q_quits_with_the_result_so_far(window):
    layout = load_layout("small_classic")
    press(pygame.K_SPACE, pygame.K_RIGHT, pygame.K_RIGHT, pygame.K_q)
    result = run_game(layout, lineup(layout), 3, max_moves=40, display=window)
    assert result.outcome == "interrupted" and result.moves == 2
    assert window.request == controls.QUIT and window.paused
    assert len(result.actions) == 2 * (1 + layout.num_ghosts)


def test_closing_the_window_and_escape_quit_cleanly(window):
    layout = load_layout("tiny")
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    result = run_game(layout, lineup(layout), 1, display=window)
    assert result.outcome == "interrupted" and window.request == controls.QUIT
    press(pygame.K_ESCAPE)
    result = run_game(layout, lineup(layout), 1, display=window)
    assert result.outcome == "interrupted" and result.moves == 0


def test_r_asks_for_a_restart(window):
    layout = load_layout("tiny")
    press(pygame.K_SPACE, pygame.K_RIGHT, pygame.K_r)
    result = run_game(layout, lineup(layout), 1, display=window)
    assert result.outcome == "interrupted" and result.moves == 1
    assert window.request == controls.RESTART
    window.paused = False
    finished = run_game(layout, lineup(layout), 1, display=window)
    assert window.request is None and finished.outcome != "interrupted"


def test_keys_at_the_end_of_a_game_restart_or_quit():
    layout = load_layout("tiny")
    display = WindowDisplay(frame_time=0.0, linger=None)
    try:
        pygame.display.init()
        pygame.event.clear()
        press(pygame.K_q)  # read by the game; the end screen waits for a key of its own
        result = run_game(layout, lineup(layout), 2, display=display)
        assert result.outcome == "interrupted" and display.request == controls.QUIT
    finally:
        display.close()


def test_plus_and_minus_change_the_speed(window):
    assert faster(0.1) == 0.05 and faster(0.006) == 0.0
    assert slower(0.0) == 0.01 and slower(0.1) == 0.2 and slower(SLOWEST) == SLOWEST
    layout = load_layout("tiny")
    press(pygame.K_MINUS, pygame.K_MINUS, pygame.K_PLUS, pygame.K_q)
    window.frame_time = 0.0
    run_game(layout, lineup(layout), 1, display=window)
    assert window.frame_time == 0.01


def test_s_toggles_the_search_overlay_with_root_values_and_heat_map(window):
    layout = load_layout("small_classic")
    window.evaluation = lambda s: -float(s.pacman_position[0])
    press(pygame.K_SPACE, pygame.K_RIGHT, pygame.K_s, pygame.K_SPACE)
    result = run_game(layout, [AgentSpec("alphabeta", AlphaBetaAgent, {"depth": 1})]
                      + lineup(layout)[1:], 5, max_moves=3, display=window)
    assert window.overlay and result.moves == 3, (result.outcome, result.failure)
    assert any(t.startswith("heat: ") for t, _ in window.renderer.last_status)
    plain = window.screen.copy()
    window.overlay = False
    window.redraw()
    without = window.screen.copy()
    assert pygame.image.tobytes(plain, "RGB") != pygame.image.tobytes(without, "RGB")


def test_resizing_the_window_refits_the_maze(window):
    layout = load_layout("medium_classic")
    press(pygame.K_SPACE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(1000, 700), w=1000, h=700))
    press(pygame.K_q)
    run_game(layout, lineup(layout), 1, display=window)
    assert window.screen.get_size() == (1000, 700)
    assert window.renderer.size == (1000, 700)
    w, h = window.renderer.natural_size(layout, window.renderer.tile + 1)
    assert w > 1000 or h > 700


def test_zoom_sets_the_cell_size():
    display = WindowDisplay(zoom=1.5, linger=0)
    try:
        press(pygame.K_q)
        run_game(load_layout("tiny"), lineup(load_layout("tiny")), 1, display=display)
        assert display.renderer.tile == 36
    finally:
        display.close()
    with pytest.raises(ConfigurationError, match="zoom"):
        WindowDisplay(zoom=0)


def test_keyboard_pacman_follows_the_arrow_keys(window):
    press(pygame.K_LEFT)
    result = run_game(CORRIDOR, [AgentSpec("keyboard", KeyboardPacman, {"human_input": window})],
                      1, max_moves=4, display=window)
    # P at x=4: West to x=3, x=2, x=1 (eats the dot: no food left there), then the wall.
    assert result.actions[:2] == ["West", "West"], (result.outcome, result.failure)
    assert result.moves >= 2


def test_keyboard_pacman_keeps_going_and_takes_a_turn_once_it_is_open(window):
    state = GameState.initial(load_layout("small_classic"), num_ghosts=0)
    window.start(state, ["keyboard"])
    press(pygame.K_a)
    assert window.human_action(state) == "West"
    press(pygame.K_w)  # pressed before the corner: he keeps going West until North opens
    turned = False
    for _ in range(state.layout.width):
        legal = state.legal_actions()
        action = window.human_action(state)
        if "North" in legal:
            assert action == "North"
            turned = True
            break
        assert action == ("West" if "West" in legal else "Stop")
        state = state.successor(action)
    assert turned
    press(pygame.K_DOWN)
    state = state.successor("North")
    assert window.human_action(state) == "South"


def test_keyboard_pacman_without_a_window_is_a_configuration_error():
    with pytest.raises(ConfigurationError, match="window"):
        KeyboardPacman(0)


def test_cli_keyboard_without_a_window_is_one_line(capsys):
    code = main(["--layout", "tiny", "--pacman", "keyboard", "--display", "none"])
    out, err = capsys.readouterr()
    assert code == 2 and err.startswith("pacman-arena: ") and "window" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_cli_restart_replays_the_same_seed_and_quit_reports_the_result(capsys, tmp_path):
    pygame.display.init()
    pygame.event.clear()
    press(pygame.K_SPACE, pygame.K_RIGHT, pygame.K_RIGHT, pygame.K_r, pygame.K_RIGHT,
          pygame.K_q)
    record = tmp_path / "games.jsonl"
    code = main(["--layout", "small_classic", "--pacman", "greedy", "--ghosts", "random",
                 "--display", "window", "--frame-time", "0", "--seed", "77",
                 "--record", str(record)])
    out, err = capsys.readouterr()
    assert code == 0, err  # q is a normal way to stop (Ctrl-C exits 130)
    lines = out.strip().splitlines()
    assert len(lines) == 2 and lines[0] == "game 1/1 (seed 77): restarted"
    assert lines[1].startswith("game 1/1 (seed 77): interrupted") and "1 moves" in lines[1]
    from pacman.engine.game import load_results

    (recorded,) = load_results(str(record))
    layout = load_layout("small_classic")
    fresh = run_game(layout, [AgentSpec("greedy", GreedyPacman)] + lineup(layout)[1:], 77,
                     max_moves=1)
    assert recorded.actions == fresh.actions  # the restart replayed the same seed
    assert not pygame.display.get_init()  # the window was closed


@pytest.mark.parametrize("zoom", ["nine", "0", "-1", "6"])
def test_cli_bad_zoom_is_one_line(capsys, zoom):
    with pytest.raises(SystemExit) as stop:  # argparse's own usage error
        main(["--layout", "tiny", "--display", "none", "--zoom", zoom])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "--zoom" in err and len(err.strip().splitlines()) == 1


def test_auto_falls_back_to_text_without_a_screen(monkeypatch):
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert resolve_kind("auto") == "text"


def test_importing_the_package_and_cli_does_not_import_pygame():
    code = ("import sys, pacman.display, pacman.cli, pacman.agents.catalog, pacman.cli.play, "
            "pacman.cli.export; pacman.cli.build_parser(); "
            "assert 'pygame' not in sys.modules, 'pygame imported'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_window_that_cannot_open_is_one_line(capsys, monkeypatch):
    pygame.display.quit()
    monkeypatch.setenv("SDL_VIDEODRIVER", "no_such_driver")
    code = main(["--layout", "tiny", "--pacman", "greedy", "--display", "window"])
    out, err = capsys.readouterr()
    assert code == 2 and err.startswith("pacman-arena: cannot open the game window")
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_ctrl_c_in_the_window_quits_like_q(window):
    layout = load_layout("small_classic")
    press(pygame.K_SPACE, pygame.K_RIGHT)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_c, mod=pygame.KMOD_LCTRL,
                                         unicode="\x03"))
    result = run_game(layout, lineup(layout), 3, max_moves=40, display=window)
    assert result.outcome == "interrupted" and window.request == controls.QUIT


def test_the_end_of_the_last_game_closes_by_itself_unless_pause_at_end(monkeypatch):
    import time

    from pacman.display import people

    monkeypatch.setattr(people, "END_LINGER", 0.3)
    layout = load_layout("tiny")
    display = WindowDisplay(frame_time=0.0)  # no linger given: nobody presses a key
    try:
        pygame.display.init()
        pygame.event.clear()
        began = time.perf_counter()
        result = run_game(layout, lineup(layout), 2, display=display)
        assert result.outcome != "interrupted" and time.perf_counter() - began < 10
    finally:
        display.close()
    display = WindowDisplay(frame_time=0.0, pause_at_end=True)
    assert display.next_hint(None) == "space or q: close   r: play it again"
    assert WindowDisplay().next_hint(3.2).startswith("closing in 4 s: space or q now")

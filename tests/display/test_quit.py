"""A quit reports the game so far: ``q``, Escape and Ctrl-C, in a real terminal (tmux) and in
the real window under a virtual X display (Xvfb, keys typed with xdotool). The result line,
``--json`` and the recording all give the score and moves of the moment of the quit, and the
recording replays to them."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
from terminal_support import ROOT, needs_tmux, start_in_terminal

from pacman.engine.game import load_results, replay_states

GAME = ["-l", "mediumClassic", "-p", "greedy", "-g", "random", "-s", "5", "--max-moves", "900"]
LATER_THAN_MOVE_11 = r"^move (1[2-9]|[2-9][0-9]|[0-9]{3}) "
RESULT = re.compile(r"game 1/1 \(seed 5\): interrupted, score (-?\d+), (\d+) moves")


def replayed(record) -> tuple[int, int]:
    """(score, moves) of the recording's one game, replayed move by move."""
    (result,) = load_results(str(record))
    *_, last = replay_states(result)  # raises if the recording does not reproduce
    assert last.score == result.score
    return result.score, result.moves


@needs_tmux
@pytest.mark.parametrize("key", ["q", "Escape", "C-c"])
def test_a_quit_in_the_terminal_reports_the_game_so_far(tmp_path, key):
    record = tmp_path / "game.jsonl"
    terminal = start_in_terminal(tmp_path, 80, 24, "-t", "--frame-time", "0.05", *GAME,
                                 "--record", str(record))
    try:
        terminal.wait_for(LATER_THAN_MOVE_11)
        terminal.press(key)
        code = terminal.wait_until_done()
        screen = "\n".join(terminal.screen())
    finally:
        terminal.close()
    found = RESULT.search(screen)
    assert found, screen
    score, moves = int(found.group(1)), int(found.group(2))
    assert moves >= 12 and score != 0 and (score, moves) == replayed(record)
    assert f"move {moves}  score {score} " in screen + " "  # the frame left shows that moment
    assert code == (130 if key == "C-c" else 0)


@needs_tmux
def test_a_quit_in_the_terminal_with_json_reports_the_game_so_far(tmp_path):
    record, out = tmp_path / "game.jsonl", tmp_path / "out.json"
    terminal = start_in_terminal(tmp_path, 80, 24, "-t", "--frame-time", "0.05", *GAME,
                                 "--record", str(record), "--json", stdout=out)
    try:
        terminal.wait_for(LATER_THAN_MOVE_11)
        terminal.press("q")
        assert terminal.wait_until_done() == 0
    finally:
        terminal.close()
    summary = json.loads(out.read_text())
    assert summary["outcome"] == "interrupted" and summary["score"] != 0
    assert (summary["score"], summary["moves"]) == replayed(record)


def start_window(x_display: str, *argv: str) -> tuple[subprocess.Popen, str]:
    """``run.py ARGV`` in the window on ``x_display``, and the window's X id once shown."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("SDL_")} | {"DISPLAY": x_display}
    game = subprocess.Popen([sys.executable, "run.py", "--display", "window", *argv], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    found = subprocess.run(["xdotool", "search", "--sync", "--pid", str(game.pid)], env=env,
                           capture_output=True, text=True, timeout=20)
    return game, found.stdout.split()[0]


@pytest.mark.parametrize("how", ["q", "Escape", "ctrl-c"])
def test_a_quit_in_the_window_reports_the_game_so_far(tmp_path, x_display, how):
    record = tmp_path / "game.jsonl"
    game, window = start_window(x_display, "--frame-time", "0.02", *GAME, "--record",
                                str(record), "--json")
    try:
        time.sleep(2.5)  # some rounds are played
        if how == "ctrl-c":
            game.send_signal(signal.SIGINT)
        else:
            env = {**os.environ, "DISPLAY": x_display}
            subprocess.run(["xdotool", "windowfocus", "--sync", window], env=env, timeout=10)
            subprocess.run(["xdotool", "key", how], env=env, check=True, timeout=10)
        out, err = game.communicate(timeout=20)
    finally:
        game.kill()
    summary = json.loads(out)
    assert summary["outcome"] == "interrupted", err
    assert summary["moves"] > 0 and summary["score"] != 0
    assert (summary["score"], summary["moves"]) == replayed(record)
    assert game.returncode == (130 if how == "ctrl-c" else 0)


def test_arrow_keys_in_the_terminal_are_not_escape():
    from pacman.display.terminal_keys import asks_to_quit

    assert asks_to_quit("q") and asks_to_quit("Q") and asks_to_quit("\x1b")
    assert asks_to_quit("\x1b[A\x1b") and asks_to_quit("xq")
    assert not asks_to_quit("\x1b[A\x1b[B\x1bOC") and not asks_to_quit(" r")


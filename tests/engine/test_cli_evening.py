"""A student's bad evening on the command line: a broken ``multiAgents.py``, a habit of the
classic course, a screen that is not there. Each answer is clear, and nothing waits for ever."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli_support import run_cli

ROOT = Path(__file__).resolve().parents[2]
CORRECT = ROOT / "tests" / "grading" / "zoo" / "correct_classic.py"


def student_folder(tmp_path: Path, change=None) -> Path:
    """A folder holding the zoo's correct classic file as ``multiAgents.py``, with ``change``
    (old line text, new line text) applied."""
    text = CORRECT.read_text()
    if change is not None:
        assert change[0] in text
        text = text.replace(change[0], change[1], 1)
    (tmp_path / "multiAgents.py").write_text(text)
    return tmp_path


def test_window_without_a_screen_is_one_line_and_exit_2(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    done = subprocess.run([sys.executable, str(ROOT / "run.py"), "--display", "window", "-l",
                           "tiny", "-p", "greedy", "-s", "1"], capture_output=True, text=True,
                          env=env, timeout=60, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("run.py: --display window: there is no screen here")
    assert len(done.stderr.strip().splitlines()) == 1 and done.stdout == ""


def test_a_crash_in_play_shows_the_students_own_frames_and_exits_1(tmp_path, capsys,
                                                                   monkeypatch):
    monkeypatch.chdir(student_folder(tmp_path, ("for a in state.getLegalActions(agent)]",
                                                "for a in state.getLegalAction(agent)]")))
    code, out, err = run_cli(capsys, "-p", "MinimaxAgent", "-l", "minimaxClassic", "-q",
                             "-s", "1", "-a", "depth=2")
    assert code == 1, err
    assert "crash: AttributeError: 'GameState' object has no attribute 'getLegalAction'" in out
    trace = err[err.index("Traceback (your code"):].splitlines()
    assert trace[1].startswith('  File "multiAgents.py", line ') and "in getAction" in trace[1]
    assert trace[3].startswith('  File "multiAgents.py", line 47, in value')
    assert trace[4] == "    for a in state.getLegalAction(agent)]"
    assert trace[-1] == ("AttributeError: 'GameState' object has no attribute "
                         "'getLegalAction'")
    assert "agent_child" not in err and "Traceback (most recent" not in err


def test_a_timeout_in_play_names_the_students_file_and_line(tmp_path, capsys, monkeypatch):
    folder = student_folder(tmp_path, ("        nextAgent = 1 % gameState.getNumAgents()\n",
                                       "        while True:\n            pass\n"
                                       "        nextAgent = 1 % gameState.getNumAgents()\n"))
    looping = (folder / "multiAgents.py").read_text().splitlines().index("        while True:")
    monkeypatch.chdir(folder)
    began = time.monotonic()
    code, out, err = run_cli(capsys, "-p", "MinimaxAgent", "-l", "minimaxClassic", "-q",
                             "-s", "1", "--timeout", "0.5")
    line = next(t for t in out.splitlines() if t.startswith("game 1/1"))
    assert line.endswith(" timeout: still thinking after "
                         f"{line.split('after ')[1].split(' s')[0]} s (limit 0.5 s per move) "
                         f"in multiAgents.py line {looping + 1}, in getAction"), line
    assert time.monotonic() - began < 20  # ended at the limit, not the hard one


def test_a_bad_depth_for_the_students_class_is_one_line_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(student_folder(tmp_path))
    code, out, err = run_cli(capsys, "-p", "MinimaxAgent", "-a", "depth=three", "-q", "-l",
                             "tiny")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == ["pacman-arena: -a depth=three: depth expects a "
                                        "whole number (0 or more), e.g. depth=3"]


def test_a_file_agent_has_a_stated_default_move_limit_and_timeout_is_its_classic_name(
        tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(student_folder(tmp_path))
    code, out, err = run_cli(capsys, "-p", "MinimaxAgent", "-l", "tiny", "--json",
                             "--max-moves", "2", "-s", "3", "--record", tmp_path / "g.jsonl")
    assert code == 0, err
    assert "time limit: 30 s a move for agents from files (--timeout SECONDS changes it)" in err
    record = json.loads((tmp_path / "g.jsonl").read_text())
    assert record["move_time_limit"] == 30
    code, out, err = run_cli(capsys, "-p", "MinimaxAgent", "-l", "tiny", "--json",
                             "--max-moves", "2", "-s", "3", "--timeout", "7",
                             "--record", tmp_path / "g.jsonl")
    assert code == 0 and "time limit:" not in err + out
    assert json.loads((tmp_path / "g.jsonl").read_text())["move_time_limit"] == 7


def test_the_handouts_summary_lines_follow_several_games(capsys):
    code, out, err = run_cli(capsys, "-p", "greedy", "-l", "tiny", "-q", "-n", "3", "-s", "5")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[-4].startswith("Average Score: ")
    assert lines[-3].startswith("Scores:        ") and lines[-3].count(",") == 2
    assert lines[-2].startswith("Win Rate:      ") and "/3 (" in lines[-2]
    assert lines[-1].startswith("Record:        ")
    assert set(lines[-1][15:].split(", ")) <= {"Win", "Loss"}


def test_a_built_in_chosen_beside_a_students_file_says_so(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(student_folder(tmp_path))
    code, out, err = run_cli(capsys, "-p", "minimax", "-l", "tiny", "-q", "-s", "1")
    assert code == 0, err
    assert ("pacman-arena: minimax is the built-in agent, not multiAgents.py's; "
            "-p MinimaxAgent plays the MinimaxAgent of multiAgents.py") in err


@pytest.mark.parametrize("flag", ["--timeout", "--time-limit"])
def test_timeout_takes_inf_for_no_limit(capsys, flag):
    code, out, err = run_cli(capsys, "-p", "greedy", "-l", "tiny", "-q", flag, "inf", "-s", "1")
    assert code == 0, err

"""Inputs that cannot hang a command or pass as a game: FIFOs are refused with one line, and a
maze file without food is refused with its name."""

from __future__ import annotations

import os
import threading

import pytest

from tests.engine.test_cli import assert_one_line_error, run_cli

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "input.fifo"
    os.mkfifo(path)
    return str(path)


def run_without_hanging(capsys, fifo: str, argv: list[str]) -> tuple[int, str, str]:
    """Run the command line in a thread; one still waiting on the FIFO after 30 s is let go
    (a writer opens and closes the FIFO) and the test fails instead of hanging."""
    outcome: list = []
    worker = threading.Thread(target=lambda: outcome.append(run_cli(capsys, *argv)))
    worker.start()
    worker.join(30)
    if worker.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(30)
        pytest.fail(f"{argv} waited on the FIFO")
    return outcome[0]


@pytest.mark.parametrize("argv", [
    ["--layout", "FIFO", "--display", "none", "-p", "random"],
    ["batch", "--config", "FIFO", "--no-progress"],
    ["batch", "--layout", "FIFO", "--pacman", "random", "--no-store", "--no-progress"],
    ["--replay", "FIFO", "--display", "none"],
    ["export", "FIFO", "out.html"],
])
def test_a_fifo_is_refused_with_one_line(capsys, fifo, argv):
    argv = [fifo if a == "FIFO" else a for a in argv]
    assert_one_line_error(*run_without_hanging(capsys, fifo, argv), "FIFO")


def test_a_maze_file_without_food_is_refused_with_its_name(capsys, tmp_path):
    maze = tmp_path / "empty.lay"
    maze.write_text("%%%%%\n%P  %\n%  G%\n%%%%%\n", encoding="utf-8")
    for argv in (["--layout", str(maze), "--display", "none", "-p", "random"],
                 ["batch", "--layout", str(maze), "--pacman", "random", "--no-store",
                  "--no-progress"]):
        assert_one_line_error(*run_cli(capsys, *argv), str(maze), "no food")

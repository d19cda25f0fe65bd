"""The text display in a real terminal: tmux panes of a fixed size (80x24 as a default
terminal, and narrower), read back as the user sees them."""

from __future__ import annotations

import pytest
from terminal_support import needs_tmux, play_in_terminal

from pacman.display.text import TextDisplay, crop_span, fit_lines
from pacman.engine.layout import load_layout
from pacman.engine.state import GameState



@needs_tmux
@pytest.mark.parametrize("columns, rows", [(80, 24), (40, 24)])
def test_frames_fit_the_terminal_and_are_redrawn_in_place(tmp_path, columns, rows):
    # Four ghosts with long names: the old single status line was over 80 columns.
    terminal = play_in_terminal(tmp_path, columns, rows, "-l", "trickyClassic", "-p", "greedy",
                                "-g", "adversarial", "--ghost-opt",
                                "depth=1", "-s", "3", "--max-moves", "25")
    try:
        lines = [line.rstrip() for line in terminal.logical_lines()]
        assert terminal.scrolled() == 0
        frame = [line for line in lines if not line.startswith("game 1/1")]  # the result line
        assert all(len(line) <= columns for line in frame), max(frame, key=len)
        assert sum(line.startswith("move ") for line in lines) == 1  # one frame left, the last
        assert sum(line.startswith("%%%%%%%%%%") for line in lines) == 2  # its top and bottom
        assert any(line.startswith("game 1/1 (seed 3): ") for line in lines)
    finally:
        terminal.close()


@needs_tmux
def test_a_maze_taller_than_the_terminal_is_cropped_around_pacman_without_scrolling(tmp_path):
    terminal = play_in_terminal(tmp_path, 80, 24, "-l", "originalClassic", "-p", "greedy", "-g",
                                "random", "-s", "1", "--max-moves", "30")
    try:
        lines = [line.rstrip() for line in terminal.logical_lines()]
        assert terminal.scrolled() == 0 and len(lines) <= 24
        assert any(line.startswith("maze cropped around Pacman: rows ") for line in lines)
        assert any("P" in line for line in lines if line.startswith("%"))
    finally:
        terminal.close()


def test_crop_span_keeps_the_centre_inside_and_the_edges_in_range():
    assert crop_span(31, 40, 5) == (0, 31)
    assert crop_span(31, 10, 0) == (0, 10) and crop_span(31, 10, 30) == (21, 31)
    start, end = crop_span(31, 10, 15)
    assert end - start == 10 and start <= 15 < end


def test_status_lines_wrap_to_the_width():
    text = "greedy vs adversarial, adversarial, adversarial, adversarial"
    assert all(len(line) <= 20 for line in fit_lines(text, 20))
    assert " ".join(fit_lines(text, 20)) == text and fit_lines(text, None) == [text]


def test_frame_lines_fit_a_small_terminal_and_show_pacman():
    layout = load_layout("originalClassic")
    state = GameState.initial(layout, num_ghosts=layout.num_ghosts)
    display = TextDisplay(frame_time=0)
    display.agents = ["alphabeta", "directional", "directional", "directional", "directional"]
    for columns, rows in [(80, 24), (20, 12), (12, 8)]:
        maze, status = display.frame_lines(state, "move 1", (columns, rows))
        assert len(maze) + len(status) <= rows - 2 or len(maze) == 1
        assert all(len(line) <= columns for line in maze + status)
        assert any("P" in row for row in maze)


PRINTING_AGENT = '''
from game import Agent


class Talker(Agent):
    def getAction(self, gameState):
        legal = gameState.getLegalActions(0)
        print("Stop thinking, values:", legal)
        return legal[0]
'''


@needs_tmux
def test_an_agents_prints_are_shown_whole_after_the_game_never_inside_the_board(tmp_path):
    agent = tmp_path / "talker.py"
    agent.write_text(PRINTING_AGENT)
    terminal = play_in_terminal(tmp_path, 80, 24, "-l", "testClassic", "-p",
                                f"{agent}:Talker", "-g", "random", "-s", "1",
                                "--max-moves", "6")
    try:
        lines = [line.rstrip() for line in terminal.logical_lines()]
        assert sum(line == "%%%%%" for line in lines) == 2, lines  # one frame: top and bottom
        result = next(i for i, line in enumerate(lines) if line.startswith("game 1/1 (seed 1)"))
        printed = [line for line in lines if "Stop thinking" in line]
        assert len(printed) == 6 and all(lines.index(p) > result for p in printed)
        assert all(line.startswith("Stop thinking, values: ['") and line.endswith("']")
                   for line in printed)
        assert lines[result + 1:].count("printed while the game was drawn:") == 1
    finally:
        terminal.close()

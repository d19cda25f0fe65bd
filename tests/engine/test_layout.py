"""Maze files: every parse error with its exact line and column, the classic format, cells."""

from __future__ import annotations

import pickle
import random
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacman.errors import LayoutError
from pacman.engine.layout import (FULL_TABLE_CELLS, UNREACHABLE, load_layout, parse_layout, read_layout,
                           shipped_layout_names)

from .mazes import big_maze
from .reference import parse_maze


def layout_error(text: str, source: str = "maze.lay") -> LayoutError:
    with pytest.raises(LayoutError) as info:
        parse_layout(text, name="maze", source=source)
    return info.value


def assert_at(error: LayoutError, line: int | None, column: int | None,
              source: str = "maze.lay") -> None:
    assert error.source == source
    assert (error.line, error.column) == (line, column), str(error)
    if line is None:
        assert str(error).startswith(f"{source}: "), str(error)
    else:
        assert str(error).startswith(f"{source}:{line}:{column}: "), str(error)
    assert "\n" not in str(error)


# --- unknown characters --------------------------------------------------------------------------
@pytest.mark.parametrize("text, line, column", [
    ("%%%%%\n%P.x%\n%%%%%\n", 2, 4),
    ("%%%%%\n%P\t.%\n%%%%%\n", 2, 3),           # a tab inside a row
    ("%%%%%\n%P. %\n%g. %\n%%%%%\n", 3, 2),     # lower-case g is not a ghost
    ("%%%%%\n%P.5%\n%%%%%\n", 2, 4),            # only ghosts 1-4 exist
    ("%%%%%\n%P.0%\n%%%%%\n", 2, 4),
    ("%%%#%\n%P..%\n%%%%%\n", 1, 4),
    ("%%%%%\n%P.é%\n%%%%%\n", 2, 4),            # column counts characters, not bytes
])
def test_unknown_character_is_located(text, line, column):
    error = layout_error(text)
    assert_at(error, line, column)
    assert "unknown character" in error.reason


def test_unknown_character_message_shows_invisible_characters_readably():
    error = layout_error("%%%%%\n%P\t.%\n%%%%%\n")
    assert "\t" not in str(error)


# --- Pacman ----------------------------------------------------------------------------------------
def test_no_pacman_is_a_whole_file_error():
    assert_at(layout_error("%%%%%\n%. .%\n%%%%%\n"), None, None)


def test_second_pacman_is_pointed_at():
    error = layout_error("%%%%%%\n%P...%\n%..P.%\n%%%%%%\n")
    assert_at(error, 3, 4)
    assert "line 2, column 2" in error.reason  # and the message names the first one


def test_second_pacman_on_the_same_line():
    assert_at(layout_error("%%%%%%\n%P.P.%\n%%%%%%\n"), 2, 4)


# --- widths ---------------------------------------------------------------------------------------
def test_shorter_row_points_just_past_its_end():
    assert_at(layout_error("%%%%%\n%P.%\n%%%%%\n"), 2, 5)


def test_longer_row_points_at_its_first_extra_cell():
    assert_at(layout_error("%%%%%\n%P..%.\n%%%%%\n"), 2, 6)


def test_rows_longer_only_by_walls_are_cut_as_the_classic_reader_does():
    longer = parse_layout("%%%%%\n%P..%%\n%%%%%%%\n")
    assert longer.text == parse_layout("%%%%%\n%P..%\n%%%%%\n").text


def test_byte_order_mark_and_trailing_tabs_are_accepted():
    plain = parse_layout("%%%%%\n%P..%\n%%%%%\n")
    assert parse_layout("\ufeff%%%%%\t\n%P..%  \t\n%%%%%\n").text == plain.text


def test_blank_line_inside_the_maze_is_a_width_error():
    assert_at(layout_error("%%%%%\n%P..%\n\n%...%\n%%%%%\n"), 3, 1)


def test_width_error_on_the_last_row():
    assert_at(layout_error("%%%%%\n%P..%\n%%%%% %\n"), 3, 6)


def test_trailing_blanks_and_missing_final_newline_are_fine():
    layout = parse_layout("%%%%%   \n%P..%  \n%%%%%")
    assert (layout.width, layout.height) == (5, 3)
    assert layout.text == "%%%%%\n%P..%\n%%%%%"


def test_crlf_line_ends_are_fine():
    plain = parse_layout("%%%%%\n%P.o%\n%%%%%\n")
    crlf = parse_layout("%%%%%\r\n%P.o%\r\n%%%%%\r\n")
    assert crlf.text == plain.text
    assert (crlf.walls, crlf.food, crlf.capsules, crlf.pacman_start) == (
        plain.walls, plain.food, plain.capsules, plain.pacman_start)


def test_blank_lines_after_the_last_row_are_ignored():
    layout = parse_layout("%%%%%\n%P..%\n%%%%%\n\n\n   \n")
    assert layout.height == 3


# --- edges ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, line, column", [
    ("%%.%%\n%P..%\n%%%%%\n", 1, 3),    # top
    ("%%%%%\n%P..%\n% %%%\n", 3, 2),    # bottom (a space inside the row)
    ("%%%%%\n.P..%\n%%%%%\n", 2, 1),    # left
    ("%%%%%\n%P...\n%%%%%\n", 2, 5),    # right
    ("%%%%%\n%...P\n%%%%%\n", 2, 5),    # Pacman on the right edge
    ("%%%%%\n%P..%\nG%%%%\n", 3, 1),    # a ghost in a corner
    ("%%%%%%\n%P...%\n%o...%\n%%%%o%\n", 4, 5),
])
def test_edge_cell_that_is_not_a_wall(text, line, column):
    error = layout_error(text)
    assert_at(error, line, column)
    assert "edge" in error.reason


# --- empty ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "\n", "\n\n\n", "   \n  \n", " \t \r\n\r\n"])
def test_empty_or_blank_file(text):
    error = layout_error(text)
    assert_at(error, None, None)
    assert "empty" in error.reason


# --- ghosts ---------------------------------------------------------------------------------------
def test_duplicate_numbered_ghost_points_at_the_second():
    error = layout_error("%%%%%%%\n%P1 . %\n%  . 1%\n%%%%%%%\n")
    assert_at(error, 3, 6)
    assert "line 2, column 3" in error.reason


def test_several_G_ghosts_are_fine():
    layout = parse_layout("%%%%%%%\n%PG G.%\n%G    %\n%%%%%%%\n")
    assert layout.num_ghosts == 3


def test_walled_in_ghost_is_located():
    text = ("%%%%%\n"
            "%P..%\n"
            "%%%%%\n"
            "%%G%%\n"
            "%%%%%\n")
    error = layout_error(text)
    assert_at(error, 4, 3)
    assert "ghost 1" in error.reason


def test_walled_in_ghost_names_its_classic_number():
    text = ("%%%%%%\n"
            "%P.G.%\n"
            "%%%%%%\n"
            "%%%2%%\n"
            "%%%%%%\n")
    error = layout_error(text)
    assert_at(error, 4, 4)
    assert "ghost 2" in error.reason


def test_walled_in_pacman_is_allowed():
    layout = parse_layout("%%%%%\n%%%.%\n%P%.%\n%%%%%\n")
    assert layout.pacman_actions[layout.pacman_start] == ("Stop",)


def test_classic_ghost_order():
    # G counts as ghost 1; numbered ghosts by digit; ties by column, then row from the bottom.
    text = ("%%%%%%%%%\n"
            "%2  G  3%\n"
            "%G     .%\n"
            "%  P   1%\n"
            "%4     .%\n"
            "%%%%%%%%%\n")
    layout = parse_layout(text)
    starts = [layout.xy(c) for c in layout.ghost_starts]
    # rank-1 ghosts: G(1,3), G(4,4), 1(7,2) -> by column: (1,3), (4,4), (7,2)
    assert starts == [(1, 3), (4, 4), (7, 2), (1, 4), (7, 4), (1, 1)]


def test_classic_ghost_order_ties_in_one_column_go_bottom_up():
    text = ("%%%%%\n"
            "%G .%\n"
            "%1P %\n"
            "%G  %\n"
            "%%%%%\n")
    layout = parse_layout(text)
    assert [layout.xy(c) for c in layout.ghost_starts] == [(1, 1), (1, 2), (1, 3)]


def test_classic_format_file_loads_unchanged(tmp_path):
    # trailing spaces, no final newline, digits mixed with G, as the classic course wrote them
    text = ("%%%%%%%%%%  \n"
            "%o...%..1%\n"
            "%.%%.%.%%%   \n"
            "%G..P...2%\n"
            "%%%%%%%%%%")
    path = tmp_path / "classic.lay"
    path.write_bytes(text.encode("utf-8"))
    layout = read_layout(path)
    assert layout.name == "classic" and layout.source == str(path)
    assert (layout.width, layout.height) == (10, 5)
    assert [layout.xy(c) for c in layout.ghost_starts] == [(1, 1), (8, 3), (8, 1)]
    assert layout.xy(layout.pacman_start) == (4, 1)
    assert len(layout.cells_of(layout.food)) == 5 + 3 + 5
    assert layout.positions_of(layout.capsules) == [(1, 3)]


# --- files ----------------------------------------------------------------------------------------
def test_non_utf8_file(tmp_path):
    path = tmp_path / "binary.lay"
    path.write_bytes(b"%%%%%\n%P.\xff%\n%%%%%\n")
    with pytest.raises(LayoutError) as info:
        read_layout(path)
    assert info.value.source == str(path)
    assert str(info.value).startswith(f"{path}: ")
    with pytest.raises(LayoutError):
        load_layout(str(path))


def test_error_in_a_file_names_the_file(tmp_path):
    path = tmp_path / "broken.lay"
    path.write_text("%%%%%\n%P.x%\n%%%%%\n", encoding="utf-8")
    for loader in (read_layout, load_layout):
        with pytest.raises(LayoutError) as info:
            loader(str(path))
        assert_at(info.value, 2, 4, source=str(path))


def test_missing_file(tmp_path):
    path = tmp_path / "nowhere.lay"
    for loader in (read_layout, load_layout):
        with pytest.raises(LayoutError) as info:
            loader(str(path))
        assert info.value.line is None
        assert str(path) in str(info.value)


def test_folder_is_not_a_maze(tmp_path):
    for loader in (read_layout, load_layout):
        with pytest.raises(LayoutError) as info:
            loader(str(tmp_path))
        assert info.value.line is None
        assert "folder" in str(info.value)


def test_unknown_shipped_name_suggests_close_names():
    names = shipped_layout_names()
    assert names, "no shipped mazes found in layouts/"
    target = max(names, key=len)
    typo = target[:-1]  # drop the last letter
    with pytest.raises(LayoutError) as info:
        load_layout(typo)
    assert info.value.source == typo
    assert target in str(info.value)
    with pytest.raises(LayoutError) as info:
        load_layout("zzzzqqqq")
    assert "zzzzqqqq" in str(info.value)


def test_every_shipped_maze_loads_by_name_and_by_file_name():
    for name in shipped_layout_names():
        layout = load_layout(name)
        assert layout.name == name
        assert load_layout(f"{name}.lay").text == layout.text


# --- cells, distances -----------------------------------------------------------------------------
CELL_MAZE = ("%%%%%%\n"
             "%P.%o%\n"
             "%..% %\n"
             "%%%%%%\n")


def test_cells_are_numbered_from_the_bottom_row():
    layout = parse_layout(CELL_MAZE)
    assert (layout.width, layout.height) == (6, 4)
    assert layout.pacman_start == 2 * 6 + 1          # P is at x=1, y=2
    assert layout.xy(layout.pacman_start) == (1, 2)
    assert layout.cell((4, 2)) == 16 and layout.xy(16) == (4, 2)
    assert layout.cells_of(layout.capsules) == [16]
    assert layout.positions_of(layout.food) == [(1, 1), (2, 1), (2, 2)]
    assert layout.is_wall((0, 0)) and layout.is_wall((3, 1)) and not layout.is_wall((4, 1))
    grid = layout.wall_grid()
    assert len(grid) == 6 and len(grid[0]) == 4 and grid[3][1] and not grid[1][2]
    for bad in ((6, 0), (0, 4), (-1, 1)):
        with pytest.raises(ValueError):
            layout.cell(bad)


def test_move_tables():
    layout = parse_layout(CELL_MAZE)
    start = layout.pacman_start
    assert layout.pacman_actions[start] == ("South", "East", "Stop")
    assert layout.pacman_moves[start] == {"South": layout.cell((1, 1)),
                                          "East": layout.cell((2, 2)), "Stop": start}
    assert layout.pacman_moves[layout.cell((0, 0))] is None


def bfs(maze, source):
    dist = {source: 0}
    queue = deque([source])
    while queue:
        x, y = queue.popleft()
        for nxt in ((x, y + 1), (x, y - 1), (x + 1, y), (x - 1, y)):
            if nxt not in maze.walls and nxt not in dist:
                dist[nxt] = dist[(x, y)] + 1
                queue.append(nxt)
    return dist


@pytest.mark.parametrize("text", [CELL_MAZE,
                                  "%%%%%%%\n%P  . %\n% %%% %\n%o  G %\n%%%%%%%\n"])
def test_maze_distances_match_breadth_first_search(text):
    layout = parse_layout(text)
    maze = parse_maze(text)
    opens = [(x, y) for x in range(maze.width) for y in range(maze.height)
             if (x, y) not in maze.walls]
    for a in opens:
        reach = bfs(maze, a)
        for b in opens:
            expected = reach.get(b, UNREACHABLE)
            assert layout.maze_distance(a, b) == expected, (a, b)
            assert layout.distances[layout.cell(a), layout.cell(b)] == expected


def test_disconnected_cells_are_unreachable_and_distances_read_only():
    layout = parse_layout(CELL_MAZE)
    assert layout.maze_distance((1, 2), (4, 1)) == UNREACHABLE == -1
    assert layout.maze_distance((4, 2), (4, 1)) == 1
    array = layout.distances
    assert isinstance(array, np.ndarray) and array.shape == (24, 24)
    with pytest.raises(ValueError):
        array[0, 0] = 5


def test_layout_survives_pickling():
    layout = parse_layout(CELL_MAZE, name="cells", source="cells.lay")
    copy = pickle.loads(pickle.dumps(layout))
    assert (copy.text, copy.name, copy.source) == (layout.text, "cells", "cells.lay")
    assert copy.pacman_moves == layout.pacman_moves
    assert copy.ghost_moves == layout.ghost_moves


def _nearest_by_bfs(text: str, source: int, mask: int) -> int | None:
    layout = parse_layout(text)
    reach = bfs(parse_maze(text), layout.xy(source))
    found = [reach[layout.xy(c)] for c in range(layout.width * layout.height)
             if mask >> c & 1 and layout.xy(c) in reach]
    return min(found, default=None)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_distance_to_nearest_is_the_least_maze_distance_to_a_cell_of_the_mask(data):
    """A distance (not a cell): the breadth-first distance to the nearest reachable cell of the
    mask, ``None`` when none is reachable (walls and cut-off cells are skipped)."""
    text = data.draw(st.sampled_from([CELL_MAZE, "%%%%%%%\n%P  . %\n% %%% %\n%o  G %\n%%%%%%%\n"]))
    layout = parse_layout(text)
    source = data.draw(st.sampled_from(layout.open_cells))
    mask = data.draw(st.integers(0, (1 << layout.width * layout.height) - 1))
    assert layout.distance_to_nearest(source, mask) == _nearest_by_bfs(text, source, mask)


def test_distance_to_nearest_on_a_maze_with_rows_on_demand():
    text = big_maze(60, 40, ghosts=1, seed=3)
    layout = parse_layout(text)
    assert layout.width * layout.height > FULL_TABLE_CELLS  # the lazy rows' memoryview path
    rng = random.Random(5)
    for _ in range(4):
        source = rng.choice(layout.open_cells)
        mask = sum(1 << c for c in rng.sample(range(layout.width * layout.height), 30))
        assert layout.distance_to_nearest(source, mask) == _nearest_by_bfs(text, source, mask)
    assert layout.distance_to_nearest(layout.pacman_start, 0) is None

"""Property and fuzz tests of the maze reader: random mazes round-trip, the lenient forms are
the same maze, and random corruption is a LayoutError pointing inside the file, never another
exception."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pacman.errors import LayoutError
from pacman.engine.layout import MAX_CELLS, parse_layout

INSIDE = ".o G1234"


@st.composite
def mazes(draw, max_width: int = 12, max_height: int = 9) -> str:
    """A valid maze: walls around, one Pacman, distinct numbered ghosts, none walled in."""
    width = draw(st.integers(3, max_width))
    height = draw(st.integers(3, max_height))
    inner = [[draw(st.sampled_from("%%..  o")) for _ in range(width - 2)]
             for _ in range(height - 2)]
    cells = [(r, c) for r in range(height - 2) for c in range(width - 2)]
    pacman = draw(st.sampled_from(cells))
    inner[pacman[0]][pacman[1]] = "P"
    for digit in draw(st.lists(st.sampled_from("G1234"), max_size=4, unique=True)):
        spot = draw(st.sampled_from(cells))
        if spot != pacman:
            inner[spot[0]][spot[1]] = digit
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):  # never walled in
                r, c = spot[0] + dr, spot[1] + dc
                if 0 <= r < height - 2 and 0 <= c < width - 2 and inner[r][c] == "%":
                    inner[r][c] = " "
    rows = ["%" * width] + ["%" + "".join(row) + "%" for row in inner] + ["%" * width]
    text = "\n".join(rows)
    assume(_parses(text))  # a ghost enclosed by other ghosts' cells may still be walled in
    return text


def _parses(text: str) -> bool:
    try:
        parse_layout(text)
    except LayoutError:
        return False
    return True


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(mazes())
def test_random_mazes_round_trip(text):
    layout = parse_layout(text, name="fuzz")
    assert layout.text == text
    again = parse_layout(layout.text, name="fuzz")
    assert again is layout  # the same maze text and name is one interned layout
    assert (layout.width, layout.height) == (len(text.split("\n")[0]), text.count("\n") + 1)
    assert layout.food.bit_count() == text.count(".")
    assert layout.capsules.bit_count() == text.count("o")
    assert layout.num_ghosts == sum(text.count(g) for g in "G1234")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(mazes(), st.sampled_from(["\ufeff", ""]), st.sampled_from(["\n", "\r\n", "\r"]),
       st.lists(st.sampled_from([" ", "\t", "  \t"]), min_size=12, max_size=12),
       st.integers(0, 3), st.integers(0, 3))
def test_lenient_forms_are_the_same_maze(text, bom, newline, trailing, blank_lines, extra):
    rows = text.split("\n")
    lenient = [row + trailing[i % len(trailing)] for i, row in enumerate(rows)]
    lenient[-1] = rows[-1] + "%" * extra  # the last row longer only by walls
    written = bom + newline.join(lenient) + newline * blank_lines
    assert parse_layout(written, name="same") is parse_layout(text, name="same")


def _corrupt(text: str, data) -> str:
    kind = data.draw(st.sampled_from(["replace", "insert", "delete", "swap_lines", "cut"]))
    if kind == "swap_lines":
        lines = text.split("\n")
        i = data.draw(st.integers(0, len(lines) - 1))
        j = data.draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)
    if kind == "cut":
        return text[:data.draw(st.integers(0, len(text)))]
    at = data.draw(st.integers(0, len(text)))
    char = data.draw(st.one_of(st.sampled_from("%.oPG12345\n\r\t x#\x00\ufeff\u00e9"),
                               st.characters()))
    if kind == "replace":
        return text[:at] + char + text[at + 1:]
    if kind == "insert":
        return text[:at] + char + text[at:]
    return text[:at] + text[at + 1:]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(mazes(), st.data())
def test_corruption_is_a_located_layout_error_or_a_valid_maze(text, data):
    corrupted = text
    for _ in range(data.draw(st.integers(1, 3))):
        corrupted = _corrupt(corrupted, data)
    try:
        layout = parse_layout(corrupted, source="fuzz.lay")
    except LayoutError as error:
        assert str(error).startswith("fuzz.lay")
        assert "\n" not in str(error)
        if error.line is not None:  # whole-file problems (no Pacman, empty) have no place
            lines = corrupted.removeprefix("\ufeff").replace("\r\n", "\n").replace(
                "\r", "\n").split("\n")
            assert 1 <= error.line <= len(lines), (error, corrupted)
            assert error.column is not None
            assert 1 <= error.column <= len(lines[error.line - 1].rstrip(" \t")) + 1, error
        else:
            assert error.reason.startswith(("no Pacman", "the maze file is empty")), error
        return
    # What still parses is a real maze: walls all round, one Pacman.
    rows = layout.text.split("\n")
    assert all(row[0] == row[-1] == "%" for row in rows)
    assert set(rows[0]) == set(rows[-1]) == {"%"}
    assert layout.text.count("P") == 1


def test_a_maze_over_the_size_limit_is_refused_as_a_whole():
    side = int(MAX_CELLS ** 0.5) + 2
    rows = ["%" * side] + ["%P" + "." * (side - 3) + "%"] + [
        "%" + "." * (side - 2) + "%" for _ in range(side - 3)] + ["%" * side]
    with pytest.raises(LayoutError, match="at most"):
        parse_layout("\n".join(rows))

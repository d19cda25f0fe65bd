"""Reading maze text: lenient where the classic course is, strict everywhere else.

Accepted as the classic reader accepts them: a byte-order mark, Windows or old Mac line ends,
trailing blanks and tabs, blank lines after the last row, and rows longer than the first only by
walls (the classic ``capsuleClassic`` maze). Anything else is refused with a
:class:`~pacman.errors.LayoutError` naming the file, line and column.
"""

from __future__ import annotations

from pathlib import Path

from pacman.errors import LayoutError, PacmanError
from pacman.engine.files import check_readable_file
#: The characters of a maze file (the table in :mod:`pacman.engine.layout`).
WALL, FOOD, CAPSULE, PACMAN, GHOST, EMPTY = "%", ".", "o", "P", "G", " "
GHOST_DIGITS = "1234"
ALLOWED = WALL + FOOD + CAPSULE + PACMAN + GHOST + EMPTY + GHOST_DIGITS

#: The most cells a maze may have (its tables take about 3 kB per cell).
MAX_CELLS = 100_000
#: The largest maze file read (generous: a maze of MAX_CELLS cells with long comment lines).
MAX_FILE_BYTES = 64 * MAX_CELLS


def maze_rows(text: str, source: str = "<string>") -> list[str]:
    """The rows of maze ``text``, top row first, checked cell by cell; a :class:`LayoutError`
    names the line and column of the first fault. What needs the built maze (a ghost walled in)
    is checked by :func:`pacman.engine.layout.parse_layout`."""
    text = text.removeprefix("\ufeff")  # a byte-order mark left by some editors
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not text.strip():
        raise LayoutError(source, "the maze file is empty")
    rows = [line.rstrip(" \t") for line in lines]
    while rows and rows[-1] == "":
        rows.pop()
    width = len(rows[0])
    if width * len(rows) > MAX_CELLS:
        raise LayoutError(source, f"the maze is {width}x{len(rows)} cells; at most "
                                  f"{MAX_CELLS:,} cells are supported")
    pacman: tuple[int, int] | None = None
    numbered: dict[str, tuple[int, int]] = {}
    for line_no, row in enumerate(rows, start=1):
        for col_no, char in enumerate(row, start=1):
            if char not in ALLOWED:
                shown = repr(char) if char.isprintable() else f"U+{ord(char):04X}"
                raise LayoutError(source, f"unknown character {shown} (allowed: % . o P G 1-4 "
                                          "and space)", line_no, col_no)
            if char == PACMAN:
                if pacman is not None:
                    raise LayoutError(source, "a second Pacman 'P' (the first is at line "
                                              f"{pacman[0]}, column {pacman[1]})", line_no, col_no)
                pacman = (line_no, col_no)
            elif char in GHOST_DIGITS:
                if char in numbered:
                    first = numbered[char]
                    raise LayoutError(source, f"ghost '{char}' appears twice (first at line "
                                              f"{first[0]}, column {first[1]})", line_no, col_no)
                numbered[char] = (line_no, col_no)
        if len(row) > width and set(row[width:]) == {WALL}:
            # The classic course reads each row up to the first row's width, so a row longer
            # only by walls (as in its capsuleClassic maze) is the same maze.
            rows[line_no - 1] = row = row[:width]
        if len(row) != width:
            column = min(len(row), width) + 1
            raise LayoutError(source, f"row is {len(row)} cells wide but the first row is "
                                      f"{width}; every row must have the same width",
                              line_no, column)
    if pacman is None:
        raise LayoutError(source, "no Pacman start: the maze needs exactly one 'P'")
    height = len(rows)
    for line_no, row in enumerate(rows, start=1):
        for col_no, char in enumerate(row, start=1):
            on_edge = line_no in (1, height) or col_no in (1, width)
            if on_edge and char != WALL:
                raise LayoutError(source, f"edge cell is {char!r}, but every cell on the "
                                          "border must be a wall '%'", line_no, col_no)
    return rows


def read_maze_text(path: str | Path) -> str:
    """The text of the maze file at ``path`` (a FIFO or a socket is refused, not waited on; a
    device is read up to :data:`MAX_FILE_BYTES`); :class:`LayoutError` if it cannot be read."""
    path = Path(path)
    try:
        check_readable_file(path, "maze")
    except PacmanError as error:
        raise LayoutError(str(path), "is a FIFO or socket, not a maze file") from error
    try:
        with path.open("rb") as file:  # bounded: a device such as /dev/zero never ends
            data = file.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise LayoutError(str(path), "no such maze file") from None
    except IsADirectoryError:
        raise LayoutError(str(path), "is a folder, not a maze file") from None
    except (OSError, ValueError) as error:
        raise LayoutError(str(path), f"cannot be read "
                                          f"({getattr(error, 'strerror', None) or error})") from None
    if len(data) > MAX_FILE_BYTES:
        raise LayoutError(str(path), f"is larger than any maze ({MAX_FILE_BYTES} bytes at most)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise LayoutError(str(path), f"is not a text file (undecodable byte at offset "
                                     f"{error.start})") from None
    return text

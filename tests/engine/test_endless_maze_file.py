"""A maze path that never ends (a device such as /dev/zero) is refused, not read forever."""

import os

import pytest

from pacman.errors import LayoutError
from pacman.engine.layout import load_layout
from pacman.engine.layout import read_layout
from pacman.engine.maze_reader import MAX_FILE_BYTES


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero (POSIX)")
def test_an_endless_file_is_refused_as_too_large():
    with pytest.raises(LayoutError, match="larger than any maze"):
        load_layout("/dev/zero")


def test_a_file_one_byte_over_the_bound_is_refused_and_one_at_it_is_read(tmp_path):
    row = "%%%%%\n%P.G%\n%%%%%\n"
    at_bound = tmp_path / "padded.lay"
    at_bound.write_text(row + " " * (MAX_FILE_BYTES - len(row)))
    assert read_layout(at_bound).width == 5
    over = tmp_path / "over.lay"
    over.write_text(row + " " * (MAX_FILE_BYTES - len(row) + 1))
    with pytest.raises(LayoutError, match="larger than any maze"):
        read_layout(over)

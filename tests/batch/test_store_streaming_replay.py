"""Showing or exporting game K of a recording keeps one game in memory, however many games the
file holds: the peak memory (tracemalloc, in a fresh process) of finding game 30 of 40 large
games is that of a file of one game, not of the whole file."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pacman.cli import main
from pacman.engine.recorded_game import find_game

MEASURE = """
import sys, tracemalloc
from pacman.engine.recorded_game import find_game
from pacman.engine.game import load_indexed_results
from pacman.engine.recording import select_game
tracemalloc.start()
path, wanted = sys.argv[2], int(sys.argv[3])
if sys.argv[1] == "stream":
    game = find_game(path, wanted)
else:
    game = select_game(load_indexed_results(path), wanted, path)
print(tracemalloc.get_traced_memory()[1], game.moves)
"""
COPIES = 40


@pytest.fixture(scope="module")
def recordings(tmp_path_factory):
    folder = tmp_path_factory.mktemp("streaming")
    one = folder / "one.jsonl"
    # seed 1: a random Pacman's long walk (17 kB); an unseeded game was sometimes under 10 kB
    assert main(["--record", str(one), "-p", "random", "-l", "openClassic", "-k", "0",
                 "--max-moves", "20000", "-n", "1", "-q", "--seed", "1"]) == 0
    many = folder / "many.jsonl"
    many.write_text(one.read_text() * COPIES)
    return one, many


def _peak(how: str, path, wanted: int) -> tuple[int, int]:
    done = subprocess.run([sys.executable, "-c", MEASURE, how, str(path), str(wanted)],
                          capture_output=True, text=True, timeout=120, check=True)
    peak, moves = done.stdout.split()
    return int(peak), int(moves)


def test_game_k_of_many_large_games_takes_the_memory_of_one(recordings):
    one, many = recordings
    assert one.stat().st_size > 10_000  # a long game: its line outweighs the reader's own needs
    alone, moves = _peak("stream", one, 1)
    streamed, same_moves = _peak("stream", many, 30)
    whole, _ = _peak("whole", many, 30)
    assert same_moves == moves
    assert streamed < 3 * alone, (alone, streamed, whole)
    assert whole > 10 * alone  # what holding every game costs: the measure can see it


def test_the_game_found_is_the_one_the_full_reader_picks(recordings, tmp_path):
    _, many = recordings
    lines = many.read_text().splitlines(keepends=True)
    assert find_game(str(many), 7).to_dict() == find_game(str(many), 1).to_dict()
    assert find_game(str(many), None).seed == find_game(str(many), COPIES).seed
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(lines[:3]) + "{}\n")
    from pacman.errors import ReplayError

    with pytest.raises(ReplayError, match=r"bad\.jsonl:4: not a recorded game"):
        find_game(str(bad), 1)

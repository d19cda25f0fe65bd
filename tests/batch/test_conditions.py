"""A condition is everything that changes a game: games with other ghost counts, move caps or
maze text are never tabled as one condition, even under one label or one maze path."""

from __future__ import annotations

import json

import pytest

from pacman.batch.jobs import GameJob, maze_digest, play_job
from pacman.errors import ConfigurationError
from tests.engine.test_cli import run_cli

from .helpers import MAZE_TEXT, write_maze

BATCH = ("batch", "--pacman", "random", "--ghosts", "random", "--workers", "1",
         "--no-progress", "--seed", "0")


def conditions(capsys, store) -> tuple[list[dict], str]:
    code, out, err = run_cli(capsys, "report", str(store), "--json")
    assert code == 0, err
    return json.loads(out)["conditions"], err


def test_ghost_counts_and_move_caps_are_separate_conditions(capsys, tmp_path):
    store = tmp_path / "games.jsonl"
    for extra in (["--num-ghosts", "2"], ["--num-ghosts", "1"], ["--max-moves", "20"]):
        code, _, err = run_cli(capsys, *BATCH, "--games", "5", "--store", str(store), *extra)
        assert code == 0, err
    found, err = conditions(capsys, store)
    assert sorted(c["games"] for c in found) == [5, 5, 5]
    labels = [c["condition"] for c in found]
    assert len(set(labels)) == 3
    assert any("ghosts=1" in label for label in labels)
    assert any("max moves=20" in label for label in labels)
    assert "differ in ghosts and max moves" in err


def test_a_maze_edited_between_runs_is_another_condition(capsys, tmp_path):
    maze = write_maze(tmp_path)
    store = tmp_path / "games.jsonl"
    code, _, err = run_cli(capsys, *BATCH, "--layout", maze, "--games", "4", "--store", str(store))
    assert code == 0, err
    (tmp_path / "mini.lay").write_text(MAZE_TEXT.replace("%P...o", "%P. .o"), encoding="utf-8")
    code, _, err = run_cli(capsys, *BATCH, "--layout", maze, "--games", "6", "--store", str(store))
    assert code == 0, err
    assert len(store.read_text().splitlines()) == 1 + 4 + 6  # none of the old games reused
    found, err = conditions(capsys, store)
    assert sorted(c["games"] for c in found) == [4, 6]
    assert "maze changed under the same name" in err


def test_the_key_of_a_job_holds_its_maze_text(tmp_path):
    maze = write_maze(tmp_path)
    first = GameJob("c", maze, "random", layout_digest=maze_digest(maze))
    (tmp_path / "mini.lay").write_text(MAZE_TEXT.replace("%P...o", "%P. .o"), encoding="utf-8")
    second = GameJob("c", maze, "random", layout_digest=maze_digest(maze))
    assert first.key != second.key
    assert "layout_digest" not in GameJob("c", maze, "random").to_dict()  # older keys kept
    with pytest.raises(ConfigurationError, match="changed since the batch was planned"):
        play_job(first)

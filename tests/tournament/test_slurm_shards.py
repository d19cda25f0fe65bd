"""A cup as a Slurm array: every task a process of its own, told its shard by the array's
``SLURM_ARRAY_TASK_ID`` and ``SLURM_ARRAY_TASK_COUNT`` (as the array script in
docs/tournament.md passes them), all running at once into one folder; ``--merge`` then makes
the table of the whole cup, the same as the cup played in one go."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from pacman.batch import read_store
from pacman.cli import main

from .conftest import ENTRANTS, cup_config

ROOT = Path(__file__).resolve().parents[2]
CUP = """\
mazes = ["testClassic"]
games = 3
max_moves = 40
move_time_limit = 1.0
"""
#: One array task's command line, as a job script has it.
TASK = ('exec "$PYTHON" "$RUN" tournament "$CLASS" --config "$CONFIG" --out "$OUT" '
        '--shard "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" --workers 1 --no-progress '
        '--no-replays')


def test_array_tasks_merge_into_the_table_of_the_whole_cup(tmp_path, capsys):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("bob.py", "grace.py", "oscar.py"):
        shutil.copy(ENTRANTS / name, folder / name)
    config = cup_config(tmp_path, CUP)
    out = tmp_path / "cup"
    common = {"PYTHON": sys.executable, "RUN": str(ROOT / "run.py"), "CLASS": str(folder),
              "CONFIG": str(config), "OUT": str(out), "SLURM_ARRAY_TASK_COUNT": "2"}
    tasks = [subprocess.Popen(["bash", "-c", TASK], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE,
                              env={**os.environ, **common, "SLURM_ARRAY_TASK_ID": str(task)})
             for task in (1, 2)]
    for task in tasks:
        _, err = task.communicate(timeout=300)
        assert task.returncode == 0, err.decode()
    # Task 1 played games 1 and 3 of every entrant, task 2 game 2: seeds 0, 2 and 1.
    for name, seeds in (("cup.shard-1-of-2.jsonl", [0, 2]), ("cup.shard-2-of-2.jsonl", [1])):
        games, dropped = read_store(out / name)
        assert dropped is None
        assert sorted(g.result.seed for g in games) == sorted(seeds * 3), name
    assert not (out / "cup.jsonl").exists() and not (out / "standings.json").exists()
    assert main(["tournament", str(folder), "--config", str(config), "--out", str(out),
                 "--merge"]) == 0
    whole = tmp_path / "whole"
    assert main(["tournament", str(folder), "--config", str(config), "--out", str(whole),
                 "--workers", "1", "--no-progress", "--no-replays"]) == 0
    capsys.readouterr()
    merged = json.loads((out / "standings.json").read_text())
    one_go = json.loads((whole / "standings.json").read_text())
    assert merged["tables"] == one_go["tables"]
    assert [row["games"] for row in merged["tables"]["pacman"]] == [3, 3, 3]

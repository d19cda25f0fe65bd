"""A cup on a real two-worker Dask cluster gives the local backend's table."""

from __future__ import annotations

import json
import shutil

import distributed  # in the test extra: a missing cluster backend fails, never skips

import pytest

from pacman.cli import main

from .conftest import ENTRANTS, cup_config

CUP = """\
mazes = ["testClassic"]
games = 3
max_moves = 40
move_time_limit = 1.0
"""


@pytest.mark.slow
def test_a_cup_on_dask_gives_the_local_table(tmp_path, capsys):
    folder = tmp_path / "submissions"
    folder.mkdir()
    for name in ("bob.py", "grace.py", "oscar.py"):
        shutil.copy(ENTRANTS / name, folder / name)
    config = str(cup_config(tmp_path, CUP))
    common = ["tournament", str(folder), "--config", config, "--no-replays"]
    assert main([*common, "--out", str(tmp_path / "local"), "--workers", "1"]) == 0
    progress = capsys.readouterr().err.splitlines()
    # A cup's progress: games done, the rate, the time left.
    assert progress[0].startswith("[") and "0/9 games" in progress[0]
    assert "9/9 games" in progress[-2] and "games/s" in progress[-2] and "left" in progress[-2]
    with distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        assert main([*common, "--out", str(tmp_path / "dask"), "--backend", "dask",
                     "--scheduler", cluster.scheduler_address, "--chunk-size", "2",
                     "--no-progress"]) == 0
    capsys.readouterr()
    local = json.loads((tmp_path / "local" / "standings.json").read_text())
    remote = json.loads((tmp_path / "dask" / "standings.json").read_text())
    assert remote == local
    assert [r["games"] for r in local["tables"]["pacman"]] == [3, 3, 3]

"""The Dask backend on a real local cluster started here gives the local backend's table."""

from __future__ import annotations

import json

import distributed  # in the test extra: a missing cluster backend fails, never skips

from pacman.batch import read_store
from pacman.cli import main

from .helpers import comparable, write_crasher, write_maze


def table(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    for condition in data["conditions"]:
        condition.pop("think_ms_per_move")  # measured time, the one thing that may differ
    return data


def test_dask_cluster_gives_the_local_table(capsys, tmp_path):
    maze = write_maze(tmp_path)
    crasher = write_crasher(tmp_path)
    common = ["batch", "--layout", maze, "--pacman", "random",
              "--pacman", "alphabeta depth=1 evaluation=closest_dot",
              "--pacman", f"{crasher} after=3", "--ghosts", "random", "--games", "12",
              "--seed", "3", "--max-moves", "60", "--chunk-size", "4", "--json",
              "--no-progress"]
    local = table(capsys, [*common, "--workers", "2", "--store", str(tmp_path / "local.jsonl")])
    with distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        remote = table(capsys, [*common, "--backend", "dask", "--scheduler",
                                cluster.scheduler_address, "--store",
                                str(tmp_path / "dask.jsonl")])
        with distributed.Client(cluster) as client:
            # The games really ran on the cluster's two worker processes.
            assert len(client.scheduler_info()["workers"]) == 2
    assert remote == local
    assert remote["conditions"][2]["causes"]["crash"] > 0
    games = {store: {g.job.key: comparable(g.result)
                     for g in read_store(tmp_path / f"{store}.jsonl")[0]}
             for store in ("local", "dask")}
    assert games["dask"] == games["local"] and len(games["local"]) == 36

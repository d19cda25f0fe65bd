"""Batches against misbehaving agents, shared-state mutation, huge plans, shards and dead workers."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from pacman.batch import read_store
from pacman.batch.plan import AgentEntry, BatchPlan
from pacman.batch.runner import _pool

from tests.engine.test_cli import run_cli

from .helpers import comparable, write_maze
from .test_batch_cli import one_line_error

ROOT = Path(__file__).resolve().parents[2]
AGENTS = ROOT / "tests" / "engine" / "misbehaving_agents.py"


def table(capsys, *argv: str) -> dict:
    code, out, err = run_cli(capsys, "batch", "--no-progress", "--json", *argv)
    assert code == 0, err
    data = json.loads(out)
    for condition in data["conditions"]:
        condition.pop("think_ms_per_move")  # measured time, the one thing that may differ
    return data


def test_misbehaving_agents_are_outcomes_and_the_batch_goes_on(capsys, tmp_path):
    maze = write_maze(tmp_path)
    entries = {"HardExit after=1": "crash", "RaiseKeyboardInterrupt": "crash",
               "ConstructorRaises": "crash", "StatsUnserialisable": "crash",
               "CatchEverything after=2": "timeout", "ReturnsGarbage": "illegal"}
    argv = [arg for entry in entries for arg in ("--pacman", f"{AGENTS}:{entry}")]
    data = table(capsys, "--layout", maze, *argv, "--pacman", "random", "--ghosts", "random",
                 "--games", "2", "--max-moves", "30", "--time-limit", "0.2", "--workers", "2",
                 "--chunk-size", "1", "--store", str(tmp_path / "s.jsonl"))
    causes = {c["condition"].split(" vs ")[0]: c["causes"] for c in data["conditions"]}
    for entry, kind in entries.items():
        label = f"{AGENTS}:{entry}"
        assert causes[label][kind] == 2, (entry, causes[label])
    games, _ = read_store(tmp_path / "s.jsonl")
    assert len(games) == 2 * (len(entries) + 1)


def test_a_mutating_agent_does_not_change_the_table(capsys, tmp_path):
    maze = write_maze(tmp_path)
    common = ["--layout", maze, "--layout", "small_classic", "--pacman",
              f"{AGENTS}:EatsTheFood", "--pacman", "random", "--ghosts", "random",
              "--games", "6", "--max-moves", "40", "--chunk-size", "3", "--no-store"]
    one = table(capsys, *common, "--workers", "1")
    two = table(capsys, *common, "--workers", "2")
    assert one == two
    clean = table(capsys, "--layout", maze, "--layout", "small_classic", "--pacman", "random",
                  "--ghosts", "random", "--games", "6", "--max-moves", "40", "--no-store",
                  "--workers", "1")
    random_rows = [c for c in one["conditions"] if c["condition"].startswith("random")]
    assert random_rows == clean["conditions"]  # as if the mutating agent had never played
    assert all(c["wins"] < c["games"] for c in random_rows)


def test_four_shards_merge_into_the_unsplit_table(capsys, tmp_path):
    maze = write_maze(tmp_path)
    common = ["--layout", maze, "--pacman", "random", "--pacman", "greedy", "--ghosts",
              "random", "--games", "7", "--max-moves", "40", "--workers", "1"]
    whole = table(capsys, *common, "--store", str(tmp_path / "whole.jsonl"))
    stores = []
    for number in range(1, 5):
        part = table(capsys, *common, "--shard", f"{number}/4", "--store",
                     str(tmp_path / "shards.jsonl"))
        stores.append(str(tmp_path / f"shards.shard-{number}-of-4.jsonl"))
        # every condition in each shard, games number-1, number+3 of each (7 games)
        assert [c["games"] for c in part["conditions"]] == ([2, 2] if number < 4 else [1, 1])
    code, out, err = run_cli(capsys, "report", *stores, "--json")
    assert code == 0, err
    merged = json.loads(out)
    for condition in merged["conditions"]:
        condition.pop("think_ms_per_move")
    assert merged == whole
    # The same store twice (overlapping, agreeing) merges to the same table.
    code, out, _ = run_cli(capsys, "report", *stores, stores[0], "--json")
    assert code == 0 and len(json.loads(out)["conditions"]) == 2


def test_conflicting_stores_are_refused(capsys, tmp_path):
    maze = write_maze(tmp_path)
    store = tmp_path / "a.jsonl"
    table(capsys, "--layout", maze, "--pacman", "random", "--ghosts", "random", "--games", "3",
          "--max-moves", "40", "--workers", "1", "--store", str(store))
    lines = store.read_text().splitlines(keepends=True)
    record, played = json.loads(lines[2]), json.loads(lines[3])
    # another game that replays (the moves of another seed), claimed for this job's seed
    assert played["result"]["actions"] != record["result"]["actions"]
    record["result"] = dict(played["result"], seed=record["job"]["seed"])
    record.pop("seal", None)
    other = tmp_path / "b.jsonl"
    other.write_text(lines[0] + json.dumps(record) + "\n")
    code, out, err = run_cli(capsys, "report", str(store), str(other))
    one_line_error(code, err, "disagree", f"seed {record['job']['seed']}")


def test_a_bad_record_is_refused_with_its_line_number(capsys, tmp_path):
    maze = write_maze(tmp_path)
    store = tmp_path / "s.jsonl"
    table(capsys, "--layout", maze, "--pacman", "random", "--ghosts", "random", "--games", "3",
          "--max-moves", "40", "--workers", "1", "--store", str(store))
    lines = store.read_text().splitlines(keepends=True)
    for number, change in ((2, {"outcome": "banana"}), (3, {"score": "NaN"}),
                           (4, {"score": True}), (2, {"moves": -1})):
        record = json.loads(lines[number - 1])
        record["result"].update(change)
        broken = lines[:]
        broken[number - 1] = json.dumps(record) + "\n"
        store.write_text("".join(broken))
        name = next(iter(change))
        code, _, err = run_cli(capsys, "report", str(store))
        one_line_error(code, err, f"s.jsonl:{number}", name)
        code, _, err = run_cli(capsys, "batch", "--layout", maze, "--pacman", "random",
                               "--ghosts", "random", "--games", "3", "--max-moves", "40",
                               "--store", str(store), "--no-progress")
        one_line_error(code, err, f"s.jsonl:{number}", name)


def test_bad_store_places_are_one_line(capsys, tmp_path):
    maze = write_maze(tmp_path)
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    cases = [("/dev/null", "not a regular file"), (str(tmp_path), "a folder"),
             (str(tmp_path / "no" / "s.jsonl"), "cannot be created")]
    if os.geteuid() != 0:  # root writes anywhere
        cases.append((str(locked / "s.jsonl"), "permission denied"))
    for place, words in cases:
        code, _, err = run_cli(capsys, "batch", "--layout", maze, "--games", "1",
                               "--store", place, "--no-progress")
        one_line_error(code, err, words)
    code, _, err = run_cli(capsys, "batch", "--layout", maze, "--games", "1", "--no-store",
                           "--backend", "dask", "--scheduler", "garbage", "--no-progress")
    one_line_error(code, err, "--scheduler")


def test_plans_are_lazy_and_shards_partition_them():
    plan = BatchPlan(pacman=[AgentEntry("random"), AgentEntry("greedy")],
                     ghosts=[AgentEntry("random")], layouts=["small_classic"],
                     games=100_000_000)
    began = time.perf_counter()
    first = next(plan.numbered_jobs())
    assert time.perf_counter() - began < 1 and plan.size() == 200_000_000
    assert first[0] == 0 and first[1].seed == 0
    small = BatchPlan(pacman=plan.pacman, ghosts=plan.ghosts, layouts=plan.layouts, games=5)
    whole = list(small.numbered_jobs())
    shards = [list(small.numbered_jobs((i, 3))) for i in (1, 2, 3)]
    merged = sorted((item for shard in shards for item in shard), key=lambda p: p[0])
    assert merged == whole  # every job in exactly one shard, at its own position
    assert [small.size((i, 3)) for i in (1, 2, 3)] == [len(s) for s in shards] == [4, 4, 2]
    for number, shard in enumerate(shards, start=1):  # every N-th game of every condition
        for condition in ("random vs random @ small_classic", "greedy vs random @ small_classic"):
            seeds = [job.seed for _, job in shard if job.condition == condition]
            assert seeds == list(range(number - 1, 5, 3))


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_a_huge_batch_starts_at_once_in_bounded_memory(tmp_path):
    store = tmp_path / "huge.jsonl"
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "run.py"), "batch", "--layout", "small_classic",
         "--pacman", "random", "--ghosts", "random", "--games", "100000000",
         "--max-moves", "30", "--workers", "1", "--store", str(store), "--no-progress"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    def lines() -> int:
        return store.read_bytes().count(b"\n") if store.exists() else 0

    def wait_for(count: int) -> tuple[int, float]:
        deadline = time.monotonic() + 180
        while lines() < count:
            assert process.poll() is None, process.stderr.read().decode()
            assert time.monotonic() < deadline, f"the batch did not reach {count} games"
            time.sleep(0.05)
        return lines(), rss_mb(process.pid)

    try:
        early_games, early = wait_for(300)  # a batch of 10^8 games starts at once
        late_games, late = wait_for(2000)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    per_game_kb = 1024 * (late - early) / (late_games - early_games)
    assert early < 250 and per_game_kb < 2, (early, per_game_kb)


def test_workers_start_from_a_fork_server_not_a_fork():
    pool = _pool(2)
    try:
        assert pool._mp_context.get_start_method() in ("forkserver", "spawn")
    finally:
        pool.shutdown()


def test_a_killed_worker_is_replaced_and_the_batch_completes(tmp_path):
    store = tmp_path / "s.jsonl"
    argv = [sys.executable, str(ROOT / "run.py"), "batch", "--layout", "small_classic",
            "--pacman", "random", "--ghosts", "random", "--games", "600", "--max-moves", "100",
            "--workers", "2", "--chunk-size", "5", "--store", str(store), "--no-progress",
            "--json"]
    process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not store.exists() or store.read_bytes().count(b"\n") < 50:
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.02)
        workers = _pool_workers(process.pid)
        assert workers, "no worker process found"
        os.kill(workers[0], signal.SIGKILL)
        out, err = process.communicate(timeout=120)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0, err.decode()
    (condition,) = json.loads(out)["conditions"]
    assert condition["games"] == 600
    assert len(read_store(store)[0]) == 600


def _pool_workers(root: int) -> list[int]:
    """Pool workers of the batch ``root``: children of its children (its fork server)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                parents[int(entry.name)] = int(fields[1])
            except (OSError, IndexError, ValueError):
                continue
    children = {pid for pid, parent in parents.items() if parent == root}
    return sorted(pid for pid, parent in parents.items() if parent in children)


def test_a_changed_cached_maze_is_never_played_again(tmp_path):
    from pacman.batch import GameJob, play_job
    from pacman.batch.jobs import _specs

    maze = write_maze(tmp_path)
    job = GameJob("random", maze, "random", ghosts="random", seed=4, max_moves=40)
    before = comparable(play_job(job))
    layout, _ = _specs(job.setup)
    with contextlib.suppress(AttributeError, TypeError):  # the maze is frozen: nothing to undo
        object.__setattr__(layout, "food", 0)  # what an agent in this process could try
    after = comparable(play_job(job))
    assert after == before


class _PoolThatBreaksOnSubmit:
    """An executor whose ``fail_at``-th submit finds the pool already broken (a worker died
    between two submits), as a real pool does when the death is seen at submit time."""

    submits = 0

    def __init__(self, fail_at: int) -> None:
        self.fail_at = fail_at

    def submit(self, function, chunk):
        from concurrent.futures import Future
        from concurrent.futures.process import BrokenProcessPool
        type(self).submits += 1
        if type(self).submits == self.fail_at:
            raise BrokenProcessPool("a child process terminated abruptly")
        future: Future = Future()
        future.set_result([f"line {index}" for index, _ in chunk])
        return future

    def shutdown(self, wait=True, cancel_futures=False):
        pass


def test_a_pool_found_broken_at_submit_is_replaced_and_no_chunk_is_lost(monkeypatch):
    from pacman.batch import runner
    _PoolThatBreaksOnSubmit.submits = 0
    monkeypatch.setattr(runner, "_pool", lambda workers: _PoolThatBreaksOnSubmit(fail_at=3))
    monkeypatch.setattr(runner, "_stop", lambda executor: None)
    chunks = iter([[(i, None)] for i in range(6)])
    finished = list(runner._run_local(chunks, workers=2))
    assert sorted(lines[0] for _, lines in finished) == [f"line {i}" for i in range(6)]


def test_a_pool_that_breaks_at_every_submit_stops_the_batch(monkeypatch):
    import pytest

    from pacman.batch import runner
    from pacman.errors import BatchError

    class AlwaysBroken(_PoolThatBreaksOnSubmit):
        def submit(self, function, chunk):
            from concurrent.futures.process import BrokenProcessPool
            raise BrokenProcessPool("a child process terminated abruptly")

    monkeypatch.setattr(runner, "_pool", lambda workers: AlwaysBroken(fail_at=0))
    monkeypatch.setattr(runner, "_stop", lambda executor: None)
    with pytest.raises(BatchError, match="died again and again"):
        list(runner._run_local(iter([[(0, None)]]), workers=2))

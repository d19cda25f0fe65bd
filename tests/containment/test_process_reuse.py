"""A contained agent's process kept for the next game of its condition: the games are those
of fresh processes, and a process its game changed or that failed is never kept."""

from __future__ import annotations

import json
import os
import signal
import time
from multiprocessing import forkserver
from pathlib import Path

import pytest

import pacman.sandboxed_agent as sandboxed_agent
from pacman.batch.jobs import GameJob
from pacman.batch.runner import run_jobs
from pacman.contained_pool import REUSE_ENVIRONMENT, reused_processes
from pacman.game_loop import run_game
from pacman.layout import load_layout
from pacman.lineup import lineup
from pacman.outcome import Outcome

from tests.containment.support import run_program


AGENTS = Path(__file__).with_name("reuse_agents.py")
TIMING = ("think_time", "max_move_time")


def agent(name: str) -> str:
    return f"{AGENTS}:{name}"


@pytest.fixture
def started(monkeypatch):
    """Counts the contained processes started (each start of a new one)."""
    count = [0]
    original = sandboxed_agent.ContainedProcess

    def counting(*args, **kwargs):
        count[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(sandboxed_agent, "ContainedProcess", counting)
    return count


def contained_processes() -> set[int]:
    """Live processes descending from the fork server (every contained agent's are)."""
    server = getattr(forkserver._forkserver, "_forkserver_pid", None)
    parents = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as file:
                    fields = file.read().rpartition(")")[2].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(name)] = int(fields[1])
    found = set()
    for pid in parents:
        ancestor = parents.get(pid)
        while ancestor is not None and ancestor not in (0, 1, server):
            ancestor = parents.get(ancestor)
        if server is not None and ancestor == server:
            found.add(pid)
    return found


def gone(wait: float = 5.0) -> bool:
    """Whether every contained process has ended (waiting up to ``wait`` seconds)."""
    deadline = time.monotonic() + wait
    while contained_processes():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _records(store: Path) -> list[dict]:
    records = []
    for line in store.read_text().splitlines():
        record = json.loads(line)
        if "result" not in record:  # the store's header
            continue
        record.pop("seal", None)
        for field in TIMING:
            record["result"].pop(field)
        records.append(record)
    return records


def test_a_batch_keeping_processes_stores_exactly_the_records_of_fresh_processes(
        tmp_path, monkeypatch, started):
    jobs = [GameJob("c", "small_classic", agent("Remembers"), ghosts=(agent("Remembers"),
                                                                      "directional"),
                    num_ghosts=2, seed=seed, max_moves=12) for seed in range(4)]
    monkeypatch.setenv(REUSE_ENVIRONMENT, "0")
    run_jobs(jobs, workers=1, store=tmp_path / "fresh.jsonl")
    fresh_starts = started[0]
    monkeypatch.delenv(REUSE_ENVIRONMENT)
    run_jobs(jobs, workers=1, store=tmp_path / "kept.jsonl")
    kept_starts = started[0] - fresh_starts
    assert kept_starts < fresh_starts  # Pacman and one ghost: two processes for four games
    fresh, kept = _records(tmp_path / "fresh.jsonl"), _records(tmp_path / "kept.jsonl")
    assert kept == fresh
    stats = [record["result"]["agent_stats"] for record in kept]
    assert all(s[0]["built_in_module"] == 1 and s[1]["built_in_module"] == 1 for s in stats)


def test_games_in_one_scope_share_a_process_and_it_ends_with_the_scope(started):
    layout = load_layout("small_classic")
    specs = lineup(layout, agent("Remembers"), "directional")
    with reused_processes() as pool:
        results = [run_game(layout, specs, seed=seed, max_moves=8) for seed in range(3)]
        assert pool is not None and len(pool) == 1
        assert len(contained_processes()) == 3  # kept: supervisor, namespace's init, agent
    assert started[0] == 1 and pool.reused == 2
    assert all(r.failure is None for r in results)
    assert gone()


CHANGES = ["StartsThread", "LeavesProcess", "SetsSignalHandler", "ChangesFolder",
           "SetsEnvironment", "KeepsFileOpen", "RebindsEngine", "PatchesClass", "GrowsMemory"]


@pytest.mark.parametrize("name", CHANGES)
def test_a_process_its_game_changed_is_ended_and_the_next_game_gets_a_fresh_one(name, started):
    layout = load_layout("small_classic")
    specs = lineup(layout, agent(name), "directional")
    with reused_processes() as pool:
        first = run_game(layout, specs, seed=1, max_moves=4)
        assert first.failure is None, first.failure
        assert pool is not None and len(pool) == 0
        assert gone()
        second = run_game(layout, specs, seed=1, max_moves=4)
    assert started[0] == 2
    assert second.actions == first.actions and second.agent_stats == first.agent_stats


@pytest.mark.parametrize(("name", "kind"), [("Crashes", Outcome.CRASH),
                                            ("Illegal", Outcome.ILLEGAL)])
def test_an_agent_that_failed_gets_a_fresh_process(name, kind, started):
    layout = load_layout("small_classic")
    specs = lineup(layout, agent(name), "directional")
    with reused_processes() as pool:
        assert run_game(layout, specs, seed=1, max_moves=4).outcome == kind
        assert pool is not None and len(pool) == 0
        assert gone()
        assert run_game(layout, specs, seed=2, max_moves=4).outcome == kind
    assert started[0] == 2


def test_a_timeout_ends_the_process_and_only_that_agent_s(started):
    layout = load_layout("small_classic")
    specs = lineup(layout, "pacman.agents.basic:RandomPacman", agent("Remembers"), 1)
    with reused_processes() as pool:
        assert run_game(layout, specs, seed=1, max_moves=4).failure is None
        assert pool is not None and len(pool) == 2
        slow = run_game(layout, specs, seed=1, max_moves=4, move_time_limit=0.000001)
        assert slow.outcome == Outcome.TIMEOUT and slow.failure.agent == 0
        assert len(pool) == 1  # the ghost's process was kept; Pacman's was ended
        assert run_game(layout, specs, seed=1, max_moves=4).failure is None
    assert started[0] == 3
    assert gone()


def test_adding_names_to_the_engine_is_not_a_change(started):
    layout = load_layout("small_classic")
    specs = lineup(layout, agent("AddsNames"), "directional")
    with reused_processes() as pool:
        first = run_game(layout, specs, seed=3, max_moves=4)
        second = run_game(layout, specs, seed=3, max_moves=4)
        assert pool is not None and len(pool) == 1
    assert started[0] == 1
    assert second.actions == first.actions and second.agent_stats == first.agent_stats


@pytest.mark.parametrize("reuse", ["", "0"])
def test_play_keeps_a_contained_agent_s_process_for_all_its_games(tmp_path, reuse):
    record = tmp_path / "games.jsonl"
    done = run_program("play", "--json", "--games", "3", "-p", agent("ReportsItsProcess"),
                       "--layout", "small_classic", "--max-moves", "5", "--seed", "1",
                       "--record", str(record), env={REUSE_ENVIRONMENT: reuse})
    assert done.returncode == 0, done.stderr
    stats = [json.loads(line)["agent_stats"][0] for line in record.read_text().splitlines()]
    assert len(stats) == 3 and all(s["built_in_module"] == 1 for s in stats)
    started = {s["process_started"] for s in stats}
    assert len(started) == (1 if reuse == "" else 3)


def test_a_kept_process_that_ended_while_idle_is_replaced_not_blamed(started):
    layout = load_layout("small_classic")
    specs = lineup(layout, agent("Remembers"), "directional")
    with reused_processes() as pool:
        assert run_game(layout, specs, seed=1, max_moves=4).failure is None
        assert pool is not None
        (kept,) = pool.processes()
        os.kill(kept.init_pid, signal.SIGKILL)  # as the system might, say for want of memory
        deadline = time.monotonic() + 5
        while kept.alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        result = run_game(layout, specs, seed=1, max_moves=4)
    assert result.failure is None, result.failure
    assert started[0] == 2
    assert gone()

"""A worker keeps one contained process per agent spec and plays many games in it, a fresh
agent object per game; a failed game's process is replaced; the records do not depend on how
the games were shared out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pacman.batch.jobs import GameJob
from pacman.batch.runner import run_jobs
from pacman.contained import agent as contained_agent
from pacman.contained.process import keep_processes
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout
from pacman.lineup.build import lineup
from pacman.engine.outcome import Outcome

AGENTS = Path(__file__).with_name("wing_agents.py")
TIMING = ("think_time", "max_move_time")


def agent(name: str) -> str:
    return f"{AGENTS}:{name}"


@pytest.fixture
def starts(monkeypatch):
    """Counts the contained processes started."""
    count = [0]
    original = contained_agent.ContainedProcess

    def counting(*args, **kwargs):
        count[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(contained_agent, "ContainedProcess", counting)
    contained_agent._FACTORIES.clear()  # noqa: SLF001 - each test checks its names afresh
    return count


def test_games_of_one_spec_share_one_process_with_a_fresh_agent_each(starts):
    layout = load_layout("small_classic")
    with keep_processes():
        specs = lineup(layout, agent("ReportsItsProcess"), "directional", 1)
        results = [run_game(layout, specs, seed=seed, max_moves=5) for seed in range(3)]
    assert starts[0] == 1  # checking the name started it; the three games used it
    assert all(r.failure is None for r in results)
    assert len({json.dumps(r.agent_stats[0]) for r in results}) == 1


def test_outside_a_keeping_scope_every_game_has_its_own_process(starts):
    layout = load_layout("small_classic")
    specs = lineup(layout, agent("ReportsItsProcess"), "directional", 1)
    results = [run_game(layout, specs, seed=seed, max_moves=5) for seed in range(2)]
    assert starts[0] == 3
    assert results[0].agent_stats[0] != results[1].agent_stats[0]


def test_a_crash_gets_a_fresh_process(starts):
    layout = load_layout("small_classic")
    with keep_processes():
        specs = lineup(layout, agent("CrashesOnce"), "directional", 1)
        first = run_game(layout, specs, seed=1, max_moves=5)
        second = run_game(layout, specs, seed=2, max_moves=5)
        third = run_game(layout, specs, seed=3, max_moves=5)
    # a kept process would play on after its one crash; each game got a new one instead
    assert all(r.outcome == Outcome.CRASH and r.failure.message == "RuntimeError: once"
               for r in (first, second, third))
    assert starts[0] == 3


def test_a_timeout_gets_a_fresh_process(starts):
    layout = load_layout("small_classic")
    with keep_processes():
        specs = lineup(layout, agent("Sleeps"), "directional", 1, time_limit=0.1)
        first = run_game(layout, specs, seed=1, max_moves=3, move_time_limit=0.1)
        run_game(layout, specs, seed=2, max_moves=3, move_time_limit=0.1)
    assert first.outcome == Outcome.TIMEOUT
    assert starts[0] == 2


def _records(tmp_path: Path, name: str, workers: int, chunk: int | None) -> list[dict]:
    jobs = [GameJob("global", "small_classic", agent("GlobalRandom"), seed=seed, max_moves=30)
            for seed in range(6)]
    store = tmp_path / f"{name}.jsonl"
    extra = {"chunk_size": chunk} if chunk else {}
    list(run_jobs(jobs, workers=workers, store=store, **extra))
    records = []
    for line in store.read_text().splitlines():
        record = json.loads(line)
        if "result" in record:
            result = record["result"]
            for key in TIMING:
                result.pop(key, None)
            record.pop("seal", None)
            records.append(record)
    return sorted(records, key=lambda r: r["index"])


def test_the_same_jobs_give_the_same_records_however_they_are_shared_out(tmp_path):
    one = _records(tmp_path, "one", 1, None)
    two = _records(tmp_path, "two", 2, 1)
    assert one and [r["result"] for r in one] == [r["result"] for r in two]

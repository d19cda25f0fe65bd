"""Jobs, the runner and the store: order, worker independence, resume, repair, failures."""

from __future__ import annotations

import json
import pickle

import pytest

from pacman.batch import GameJob, ResultStore, StoreError, game_seed, play_job, run_jobs
from pacman.batch.store import HEADER_LINE, read_store, record_line
from pacman.errors import ConfigurationError
from pacman.engine.game import GameResult

from .helpers import comparable, write_crasher, write_maze


@pytest.fixture
def maze(tmp_path):
    return write_maze(tmp_path)


def make_jobs(maze: str, games: int = 12, master: int = 100) -> list[GameJob]:
    conditions = [("random", {}, "random"), ("greedy", {"evaluation": "closest_dot"}, "random"),
                  ("random", {}, "directional")]
    return [GameJob(condition=f"{pac} vs {ghost}", layout=maze, pacman=pac,
                    pacman_options=opts, ghosts=ghost, seed=game_seed(master, i), max_moves=60)
            for pac, opts, ghost in conditions for i in range(games)]


def test_game_seed_rule():
    assert [game_seed(7, i) for i in range(3)] == [7, 8, 9]
    with pytest.raises(ValueError):
        game_seed(7, -1)


def test_job_is_frozen_picklable_and_keyed_by_every_field(maze):
    job = GameJob("c", maze, "greedy", {"evaluation": "score"}, "random,directional",
                  {"attack": 0.5}, num_ghosts=2, seed=3, max_moves=50, move_time_limit=2.0)
    assert job.ghosts == ("random", "directional")
    assert job.ghost_options == {"attack": "0.5"}
    copy = pickle.loads(pickle.dumps(job))
    assert copy == job and copy.key == job.key and hash(copy) == hash(job)
    assert GameJob.from_dict(json.loads(json.dumps(job.to_dict()))) == job
    with pytest.raises(AttributeError):
        job.seed = 4  # type: ignore[misc]
    variants = [GameJob("d", maze, "greedy", {"evaluation": "score"}, "random,directional",
                        {"attack": 0.5}, 2, 3, 50, 2.0),
                GameJob("c", maze, "greedy", {"evaluation": "better"}, "random,directional",
                        {"attack": 0.5}, 2, 3, 50, 2.0),
                GameJob("c", maze, "greedy", {"evaluation": "score"}, "random,directional",
                        {"attack": 0.5}, 2, 4, 50, 2.0),
                GameJob("c", maze, "greedy", {"evaluation": "score"}, "random,directional",
                        {"attack": 0.5}, 2, 3, 51, 2.0)]
    assert len({job.key, *(v.key for v in variants)}) == 5


def test_key_is_stable_across_versions():
    # A store written today must resume tomorrow: the key of a fixed job never changes.
    job = GameJob("c", "small_classic", "random", ghosts="random", seed=5)
    assert job.key == GameJob.from_dict(job.to_dict()).key
    assert len(job.key) == 20 and int(job.key, 16) >= 0


def test_play_job_is_run_game_with_the_job_seed(maze):
    job = make_jobs(maze, 1)[1]
    result = play_job(job)
    assert result.seed == job.seed and result.layout == "mini"
    assert [a["name"] for a in result.agents] == ["greedy", "random", "random"]
    assert comparable(play_job(job)) == comparable(result)


def test_results_come_in_job_order_and_do_not_depend_on_workers(maze):
    jobs = make_jobs(maze)
    serial = run_jobs(jobs, workers=1)
    parallel = run_jobs(jobs, workers=2, chunk_size=3)
    assert [r.seed for r in serial] == [j.seed for j in jobs]
    assert [comparable(r) for r in serial] == [comparable(r) for r in parallel]
    # The conditions differ, so the games do: the comparison above is not vacuous.
    assert len({tuple(r.actions) for r in serial}) > len(jobs) // 2


def test_bad_jobs_fail_before_any_game(maze, tmp_path):
    store = tmp_path / "s.jsonl"
    jobs = make_jobs(maze, 2) + [GameJob("x", maze, "randum", seed=1)]
    with pytest.raises(ConfigurationError, match="randum"):
        run_jobs(jobs, workers=1, store=store)
    assert not store.exists() or len(read_store(store)[0]) == 0
    with pytest.raises(ConfigurationError, match="backend"):
        run_jobs(make_jobs(maze, 1), backend="spark")


def test_store_resumes_without_replaying(maze, tmp_path):
    store = tmp_path / "s.jsonl"
    jobs = make_jobs(maze, 6)
    first = run_jobs(jobs[:10], workers=1, store=store)
    lines_before = store.read_text().splitlines()
    assert lines_before[0] + "\n" == HEADER_LINE and len(lines_before) == 11
    everything = run_jobs(jobs, workers=2, store=store, chunk_size=2)
    lines_after = store.read_text().splitlines()
    assert lines_after[:11] == lines_before  # appended, never rewritten
    assert len(lines_after) == 1 + len(jobs)
    assert [r.to_dict() for r in everything[:10]] == [r.to_dict() for r in first]
    again = run_jobs(jobs, workers=2, store=store)
    assert store.read_text().splitlines() == lines_after  # nothing left to play
    assert [r.to_dict() for r in again] == [r.to_dict() for r in everything]
    stored, note = read_store(store)
    assert note is None and {g.job.key for g in stored} == {j.key for j in jobs}


def test_torn_last_line_is_repaired_and_the_game_replayed(maze, tmp_path):
    store = tmp_path / "s.jsonl"
    jobs = make_jobs(maze, 4)
    run_jobs(jobs, workers=1, store=store)
    complete = store.read_bytes()
    lines = complete.splitlines(keepends=True)
    torn = b"".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2]
    store.write_bytes(torn)
    games, note = read_store(store)
    assert len(games) == len(jobs) - 1 and "cut short" in note
    assert store.read_bytes() == torn  # reading never changes the file
    notes = []
    results = run_jobs(jobs, workers=1, store=store, on_repair=notes.append)
    assert len(notes) == 1 and "repaired" in notes[0]
    assert len(read_store(store)[0]) == len(jobs) and read_store(store)[1] is None
    assert len(store.read_text().splitlines()) == 1 + len(jobs)
    assert [r.seed for r in results] == [j.seed for j in jobs]


def test_garbage_last_line_is_repaired_but_middle_damage_is_an_error(maze, tmp_path):
    store = tmp_path / "s.jsonl"
    jobs = make_jobs(maze, 2)
    run_jobs(jobs, workers=1, store=store)
    good = store.read_bytes()
    store.write_bytes(good + b'{"key": "oops"\n')
    with ResultStore(store) as opened:
        assert "not a complete record" in opened.repaired and len(opened) == len(jobs)
    assert store.read_bytes() == good
    lines = good.splitlines(keepends=True)
    store.write_bytes(b"".join(lines[:2]) + b"garbage\n" + b"".join(lines[2:]))
    with pytest.raises(StoreError, match=r"s\.jsonl:3: damaged"):
        run_jobs(jobs, workers=1, store=store)


def test_a_foreign_file_is_never_used_as_a_store(tmp_path):
    other = tmp_path / "notes.txt"
    other.write_text("my precious notes\n")
    with pytest.raises(StoreError, match="not a results store"):
        ResultStore(other)
    assert other.read_text() == "my precious notes\n"


def test_one_batch_at_a_time_per_store(maze, tmp_path):
    store = tmp_path / "s.jsonl"
    with ResultStore(store), pytest.raises(StoreError, match="another batch"):
        run_jobs(make_jobs(maze, 1), workers=1, store=store)


def test_record_line_holds_the_full_result(maze):
    job = GameJob("crash", maze, write_crasher(__import__("pathlib").Path(maze).parent),
                  ghosts="random", seed=1)
    result = play_job(job)
    record = json.loads(record_line(job, result))
    assert record["key"] == job.key and record["job"] == job.to_dict()
    assert record["result"] == result.to_dict()
    assert GameResult.from_dict(record["result"]) == result


def test_crashing_agent_is_an_outcome_not_a_stopped_batch(maze, tmp_path):
    crasher = write_crasher(tmp_path)
    jobs = [GameJob("crasher", maze, crasher, {"after": 2}, "random", seed=s, max_moves=50)
            for s in range(6)]
    results = run_jobs(jobs, workers=2, chunk_size=2, store=tmp_path / "s.jsonl")
    assert [r.outcome for r in results].count("crash") >= 4  # unless caught within 2 moves
    for result in results:
        assert result.outcome in ("crash", "loss")
        if result.outcome == "crash":
            assert result.failure.agent == 0 and "deliberate crash" in result.failure.message


def test_a_store_cut_anywhere_opens_to_the_games_before_the_cut(maze, tmp_path):
    # Whatever byte a kill stops the writing at, the store opens, keeps exactly the complete
    # records before that byte, and is then a clean store again.
    from hypothesis import given, settings
    from hypothesis import strategies as st

    full = tmp_path / "full.jsonl"
    jobs = make_jobs(maze, 3)
    run_jobs(jobs, workers=1, store=full)
    data = full.read_bytes()
    ends = [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]

    @given(st.integers(0, len(data)))
    @settings(max_examples=60, deadline=None, database=None)
    def check(cut):
        path = tmp_path / "cut.jsonl"
        path.write_bytes(data[:cut])
        complete = max([0] + [end for end in ends if end <= cut])
        with ResultStore(path) as store:
            assert len(store) == max(0, sum(end <= cut for end in ends) - 1)
        assert path.read_bytes() == (data[:complete] if complete else HEADER_LINE.encode())
        assert read_store(path)[1] is None

    check()

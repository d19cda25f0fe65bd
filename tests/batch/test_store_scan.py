"""A store is streamed and big stores are checked by worker processes: the same games, the
same first bad line named, and memory that does not grow with the move lists."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pacman.batch import GameJob, StoreError, play_job, read_store
from pacman.batch import scan
from pacman.batch.seal import seal
from pacman.batch.store import HEADER_LINE, record_line

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def own_key(tmp_path, monkeypatch):
    monkeypatch.setenv("PACMAN_ARENA_SEAL_KEY", str(tmp_path / "seal.key"))


@pytest.fixture(scope="module")
def played() -> list[dict]:
    jobs = [GameJob("random vs random", "small_classic", "random", ghosts="random", num_ghosts=0,
                    seed=s, max_moves=400) for s in range(4)]
    return [json.loads(record_line(job, play_job(job), i)) for i, job in enumerate(jobs)]


def record_lines(played: list[dict], count: int, sealed: bool) -> list[str]:
    """``count`` records made from ``played``: record ``i`` is game ``i mod len(played)``
    under seed and index ``i`` (its job and key changed to match: each replays)."""
    lines = []
    for number in range(count):
        record = played[number % len(played)]
        job = GameJob.from_dict({**record["job"], "seed": number})
        result = dict(record["result"], seed=number)
        line = json.dumps({"key": job.key, "index": number, "job": job.to_dict(),
                           "result": result}, separators=(",", ":"))
        lines.append((seal(line) if sealed else line) + "\n")
    return lines


def write(path: Path, lines: list[str], tail: str = "") -> Path:
    path.write_text(HEADER_LINE + "".join(lines) + tail, encoding="utf-8")
    return path


@pytest.fixture(params=[1, 10_000], ids=["a line a chunk", "a few lines a chunk"])
def small_chunks(monkeypatch, request):
    monkeypatch.setattr(scan, "CHUNK_BYTES", request.param)


def summary(games) -> list[tuple]:
    return [(g.job.key, g.index, g.result.outcome, g.result.score, g.result.moves,
             g.result.layout_text, g.actions_digest) for g in games]


def test_workers_and_one_process_read_the_same_games(played, tmp_path, small_chunks):
    lines = record_lines(played, 20, sealed=False)
    path = write(tmp_path / "s.jsonl", lines + lines[:2])  # two keys again: last line wins
    alone, _ = read_store(path, actions=False, workers=1)
    shared, _ = read_store(path, actions=False, workers=2)
    assert summary(alone) == summary(shared) and len(alone) == 20
    full, _ = read_store(path, workers=2)
    assert [g.result.actions for g in full] == [
        played[n % 4]["result"]["actions"] for n in range(20)]


def test_without_actions_a_digest_tells_equal_move_lists(played, tmp_path):
    path = write(tmp_path / "s.jsonl", record_lines(played, 8, sealed=True))
    games, _ = read_store(path, actions=False)
    assert all(g.result.actions == [] for g in games)
    digests = [g.actions_digest for g in games]
    assert digests[:4] == digests[4:] and len(set(digests[:4])) == 4


@pytest.mark.parametrize("workers", [1, 2])
def test_the_first_bad_line_is_named_however_many_workers(played, tmp_path, small_chunks,
                                                          workers):
    lines = record_lines(played, 20, sealed=False)
    for bad in (10, 16):  # a loss or a win made into another outcome: replay refuses it
        record = json.loads(lines[bad])
        record["result"]["score"] += 100
        lines[bad] = json.dumps(record, separators=(",", ":")) + "\n"
    path = write(tmp_path / "s.jsonl", lines)
    with pytest.raises(StoreError, match=r"s\.jsonl:12: not a valid game record: its game "
                                         "does not replay"):
        read_store(path, workers=workers)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_torn_last_line_is_skipped_and_a_damaged_one_before_the_end_refused(
        played, tmp_path, small_chunks, workers):
    lines = record_lines(played, 9, sealed=True)
    games, note = read_store(write(tmp_path / "a.jsonl", lines, tail=lines[0][:50]),
                             workers=workers)
    assert len(games) == 9 and note == "line 11 (50 bytes) was cut short"
    games, note = read_store(write(tmp_path / "b.jsonl", lines[:6] + ["{\"key\n"]),
                             workers=workers)
    assert len(games) == 6 and note == "line 8 (5 bytes) was not a complete record"
    # With a line a chunk, the line after the damaged one is in the next chunk.
    damaged = lines[:5] + ["{\"key\n"] + lines[5:]
    with pytest.raises(StoreError, match=r"b\.jsonl:7: damaged record in the middle"):
        read_store(write(tmp_path / "b.jsonl", damaged), workers=workers)


def test_a_big_store_is_checked_by_one_process_per_core(tmp_path, monkeypatch):
    path = write(tmp_path / "s.jsonl", [])
    monkeypatch.setattr(scan.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert scan._workers(path, None) == 1  # small: starting workers costs more
    monkeypatch.setattr(scan, "PARALLEL_BYTES", 0)
    assert scan._workers(path, None) == 2 and scan._workers(path, 1) == 1


def peak_rss_of_report(path: Path, env: dict) -> int:
    """Peak resident memory (kB) of ``report PATH --json`` in a child process."""
    code = ("import resource, sys; from pacman.cli import main; main(sys.argv[1:]); "
            "sys.stdout.flush(); print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "
            "file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, "report", str(path), "--json"],
                          capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    assert json.loads(done.stdout)["conditions"][0]["games"] > 0
    return int(done.stderr.strip().splitlines()[-1])


def test_report_memory_does_not_grow_with_the_move_lists(played, tmp_path):
    """3,000 more games of 400 moves: holding their move lists took about 25 kB a game
    (75 MB here); without them a game takes a few kB."""
    import os

    env = dict(os.environ)
    few = write(tmp_path / "few.jsonl", record_lines(played, 200, sealed=True))
    many = write(tmp_path / "many.jsonl", record_lines(played, 3200, sealed=True))
    growth = peak_rss_of_report(many, env) - peak_rss_of_report(few, env)
    assert growth < 20_000, f"{growth} kB more for 3,000 more games"


def test_reading_leaves_the_cycle_collector_as_it_found_it(played, tmp_path):
    import gc

    path = write(tmp_path / "s.jsonl", record_lines(played, 4, sealed=True))
    assert gc.isenabled()
    read_store(path)
    assert gc.isenabled()
    gc.disable()
    try:
        read_store(path)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_checking_process_that_dies_is_one_store_error(played, tmp_path, monkeypatch):
    path = write(tmp_path / "s.jsonl", record_lines(played, 4, sealed=True))
    monkeypatch.setattr(scan, "check_lines", _die)
    with pytest.raises(StoreError, match="a process checking its records was killed"):
        read_store(path, workers=2)


def _die(lines, keep):
    import os

    os._exit(9)


def test_report_leaves_no_object_frozen_out_of_the_cycle_collector(played, tmp_path, capsys):
    import gc

    from tests.cli_support import run_cli

    path = write(tmp_path / "s.jsonl", record_lines(played, 4, sealed=True))
    code, out, err = run_cli(capsys, "report", path, "--json")
    assert code == 0, err
    assert json.loads(out)["conditions"][0]["games"] == 4
    assert gc.get_freeze_count() == 0

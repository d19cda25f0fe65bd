"""Property tests: any edit or damage to a store is refused with its line, never counted;
any value of the batch options is a result or one line with exit code 2."""

from __future__ import annotations

import argparse
import copy
import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pacman.batch import GameJob, StoreError, play_job, read_store
from pacman.batch.store import HEADER_LINE, record_line
from pacman.batch.validate import check_record
from pacman.cli.batch import shard, time_limit
from pacman.engine.game import OUTCOMES

from tests.engine.test_cli import run_cli

from .helpers import MAZE_TEXT

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=6)


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> list[dict]:
    folder = tmp_path_factory.mktemp("maze")
    maze = folder / "mini.lay"
    maze.write_text(MAZE_TEXT, encoding="utf-8")
    jobs = [GameJob("random", str(maze), "random", ghosts="random", seed=s, max_moves=40,
                    move_time_limit=5.0) for s in range(3)]
    return [json.loads(record_line(job, play_job(job), i)) for i, job in enumerate(jobs)]


def write_store(folder: Path, records: list[dict]) -> Path:
    path = folder / "store.jsonl"
    path.write_text(HEADER_LINE + "".join(json.dumps(r) + "\n" for r in records),
                    encoding="utf-8")
    return path


def fields(record: dict) -> list[tuple[str, ...]]:
    """Every place a value sits in a record: top level, job and result fields."""
    places = [(name,) for name in record]
    places += [("job", name) for name in record["job"]]
    places += [("result", name) for name in record["result"]]
    return places


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_an_edited_field_is_refused_with_its_line_or_is_still_a_valid_game(records, tmp_path,
                                                                          data):
    edited = copy.deepcopy(records)
    place = data.draw(st.sampled_from(fields(edited[0])))
    target = edited[0]
    for name in place[:-1]:
        target = target[name]
    if data.draw(st.booleans()):
        target.pop(place[-1])
        value = None
    else:
        value = data.draw(JSON)
        target[place[-1]] = value
    path = write_store(tmp_path, edited)
    try:
        games, dropped = read_store(path)
    except StoreError as error:
        assert f"{path}:2:" in str(error)  # the edited record's line
        return
    # Accepted: the edit kept a valid game (say, an option or a name changed consistently).
    assert dropped is None and len(games) == 3
    check_record(edited[0])
    for game in games:
        assert game.result.outcome in OUTCOMES
        assert isinstance(game.result.score, int) and not isinstance(game.result.score, bool)
        assert game.result.seed == game.job.seed
    if place == ("result", "outcome"):
        assert value in OUTCOMES


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_damaged_bytes_never_give_anything_but_games_or_one_store_error(records, tmp_path,
                                                                      data):
    path = write_store(tmp_path, records)
    raw = bytearray(path.read_bytes())
    for _ in range(data.draw(st.integers(1, 3))):
        position = data.draw(st.integers(0, len(raw) - 1))
        raw[position] = data.draw(st.integers(0, 255))
    if data.draw(st.booleans()):
        raw = raw[:data.draw(st.integers(0, len(raw)))]
    path.write_bytes(bytes(raw))
    try:
        games, _ = read_store(path)
    except StoreError as error:
        assert str(error).startswith(str(path))
        return
    for game in games:
        assert game.result.outcome in OUTCOMES and isinstance(game.result.score, int)


def test_the_issue_record_is_refused(records, tmp_path):
    edited = copy.deepcopy(records)
    edited[1]["result"].update(outcome="banana", score="NaN")
    path = write_store(tmp_path, edited)
    with pytest.raises(StoreError, match=r"store\.jsonl:3: .*outcome"):
        read_store(path)


@given(st.text(max_size=12))
@example("0")
@example("-0.5")
@example("inf")
@example("nan")
def test_time_limit_text_is_a_finite_non_negative_number_none_or_refused(text):
    try:
        value = time_limit(text)
    except argparse.ArgumentTypeError:
        return
    # 0 is allowed on purpose: every move is late (time_limit's contract).
    assert value is None or (value >= 0 and math.isfinite(value))


@given(st.text(max_size=10) | st.builds(lambda a, b: f"{a}/{b}", st.integers(-3, 9),
                                        st.integers(-3, 9)))
def test_shard_text_is_a_valid_shard_or_refused(text):
    try:
        number, count = shard(text)
    except argparse.ArgumentTypeError:
        return
    assert 1 <= number <= count


def _option(flag: str, valid: st.SearchStrategy) -> st.SearchStrategy:
    junk = st.sampled_from(["", "x", "-1", "0", "nan", "inf", "-inf", "1e309", "1/0", "0/0",
                            "2/1", "1.5", " 3", "３"])
    return st.one_of(st.none(), valid.map(str), junk).map(
        lambda value: [] if value is None else [flag, value])


OPTIONS = st.tuples(
    _option("--games", st.integers(1, 3)), _option("--seed", st.integers(-10**20, 10**20)),
    _option("--max-moves", st.integers(1, 30)), _option("--time-limit", st.floats(0.5, 5)),
    _option("--shard", st.builds(lambda a, b: f"{a}/{b}", st.integers(1, 3),
                                 st.integers(1, 3))),
    _option("--chunk-size", st.integers(1, 4)), _option("--num-ghosts", st.integers(0, 3)))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(options=OPTIONS)
def test_batch_options_give_a_table_or_one_line_with_exit_2(capsys, tmp_path, options):
    maze = tmp_path / "mini.lay"
    maze.write_text(MAZE_TEXT, encoding="utf-8")
    argv = ["batch", "--layout", str(maze), "--pacman", "random", "--ghosts", "random",
            "--workers", "1", "--no-store", "--no-progress", "--json"]
    for option in options:
        argv += option
    code, out, err = run_cli(capsys, *argv)
    assert "Traceback" not in err
    if code == 0:
        table = json.loads(out)
        flags = dict(option for option in options if option)
        # A shard past the last job (shard 2/2 of a 1-game batch, as a Slurm array with more
        # tasks than games gives) is rightly empty; every other batch plays at least one game.
        shard, games = flags.get("--shard"), int(flags.get("--games", "100"))
        empty_shard = shard is not None and int(shard.split("/")[0]) > games
        assert sum(c["games"] for c in table["conditions"]) >= (0 if empty_shard else 1)
    else:
        assert code == 2, err
        assert len([line for line in err.splitlines() if line.strip()]) == 1, err

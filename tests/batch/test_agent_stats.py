"""What agents report with ``stats()`` is data with limits: NaN, infinities, odd types, huge
numbers and megabytes are left out of the store with one warning line each, the batch and its
report go on, and stores written before these limits are still read."""

from __future__ import annotations

import json

import pytest

from pacman.engine.agent_stats import MAX_STATS_BYTES, bounded_stats, stats_problem
from tests.engine.test_cli import run_cli

REPORTER = '''
import random


class Reporter:
    def __init__(self, index=0, rng=None, *, kind: str = "nan"):
        self.rng = rng or random.Random(0)
        self.kind = kind

    def get_action(self, state):
        return self.rng.choice(state.legal_actions())

    def stats(self):
        return {"nan": {"nodes": float("nan"), "decisions": 1},
                "inf": {"nodes": 3, "decisions": 1, "worst": float("-inf")},
                "text": {"nodes": "many", "decisions": 1},
                "digits": {"nodes": 1, "decisions": 1, "big": 10 ** 4000},
                "huge": {"nodes": 1, "decisions": 1, "blob": "x" * (16 * 2 ** 20)},
                "fine": {"nodes": 5, "decisions": 1}}[self.kind]
'''


def strict(line: str):
    def refuse(name):
        raise ValueError(f"non-JSON constant {name}")
    return json.loads(line, parse_constant=refuse)


def test_stats_outside_the_limits_are_dropped_with_one_warning_each(capsys, tmp_path):
    (tmp_path / "reporter.py").write_text(REPORTER, encoding="utf-8")
    store = tmp_path / "games.jsonl"
    argv = ("batch", "--pacman", f"{tmp_path / 'reporter.py'}:Reporter", "--ghosts", "random",
            "--sweep", "kind=nan,inf,text,digits,fine", "--games", "1", "--max-moves",
            "5", "--workers", "1", "--no-progress", "--store", str(store))
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert "Traceback" not in err
    warnings = [line for line in err.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 4, err
    assert store.stat().st_size < 100_000
    records = [strict(line) for line in store.read_text().splitlines()[1:]]
    kept = {r["job"]["pacman_options"]["kind"]: r["result"]["agent_stats"][0] for r in records}
    assert kept == {"nan": None, "inf": None, "text": None, "digits": None,
                    "fine": {"nodes": 5, "decisions": 1}}
    for again in (argv, ("report", str(store))):  # resumed and reported without a traceback
        code, out, err = run_cli(capsys, *again)
        assert code == 0 and "Traceback" not in err, err


def test_megabytes_of_stats_are_not_stored(capsys, tmp_path):
    from pacman.batch.jobs import GameJob
    from pacman.batch.store import parse_record, record_line
    from pacman.engine.game_loop import run_game
    from pacman.engine.layout import load_layout
    from pacman.lineup.build import lineup

    class Talkative:  # plays in this process, as built-in agents do
        def __init__(self, inner):
            self.inner = inner

        def get_action(self, state):
            return self.inner.get_action(state)

        def stats(self):
            return {"nodes": 1, "decisions": 1, "blob": "x" * (16 * 2 ** 20)}

    maze = load_layout("small_classic")
    specs = lineup(maze, "random", "random")
    pacman = Talkative(specs[0].build(0, __import__("random").Random(0)))
    result = run_game(maze, [pacman, *specs[1:]], 0, max_moves=5)
    job = GameJob("c", "small_classic", "random", ghosts="random", seed=0, max_moves=5)
    line = record_line(job, result)
    assert len(line) < 100_000 and parse_record(line)[1]["result"]["agent_stats"][0] is None
    assert capsys.readouterr().err.count("bytes of JSON") == 1


def test_a_store_poisoned_before_the_limits_is_still_read(capsys, tmp_path):
    store = tmp_path / "games.jsonl"
    code, _, err = run_cli(capsys, "batch", "--pacman", "alphabeta depth=1", "--ghosts",
                           "random", "--games", "2", "--max-moves", "5", "--workers", "1",
                           "--no-progress", "--store", str(store))
    assert code == 0, err
    lines = store.read_text().splitlines()
    poisoned = [lines[0]]
    for line, stats in zip(lines[1:], ({"nodes": float("nan"), "decisions": 1},
                                       {"nodes": "many", "decisions": 2})):
        record = json.loads(line)
        record.pop("seal", None)
        record["result"]["agent_stats"][0] = stats
        poisoned.append(json.dumps(record))  # NaN written as Python's json writes it
    store.write_text("\n".join(poisoned) + "\n")
    code, out, err = run_cli(capsys, "report", str(store), "--json")
    assert code == 0, err
    assert json.loads(out)["conditions"][0]["games"] == 2


@pytest.mark.parametrize("value, needle", [
    ({"a": float("nan")}, "not a finite number"), ({"a": {1, 2}}, "set"),
    ({"a": 10 ** 18}, "18 digits"), ({"a": "x" * MAX_STATS_BYTES}, "bytes of JSON"),
    ({"nodes": -1}, "not a count"), ({1: 2}, "not text"), ([1], "not a table"),
])
def test_each_limit_names_what_broke_it(value, needle):
    assert needle in stats_problem(value)
    kept, dropped = bounded_stats([value, {"nodes": 3}])
    assert kept == [None, {"nodes": 3}] and len(dropped) == 1 and "agent 0" in dropped[0]

"""Evaluations from files run contained: they cannot hang, stop or change the game or batch."""

from __future__ import annotations

import json
import time

from pacman.engine.game import GameResult, replay_states
from pacman.engine.layout import load_layout
from pacman.contained.agent import is_contained
from pacman.lineup.build import lineup
from pacman.engine.outcome import Outcome

from tests.containment.support import code, run_program

FAST = ["--layout", "small_classic", "--max-moves", "30"]


def conditions(output: str) -> dict[str, dict]:
    return {c["condition"]: c for c in json.loads(output)["conditions"]}


def test_an_evaluation_that_ignores_the_alarm_is_a_timeout_within_the_limit():
    began = time.monotonic()
    done = run_program("play", "-p", "alphabeta", "--pacman-opt",
                       f"evaluation={code('never_returns')}", "--time-limit", "0.5", "--json",
                       *FAST, timeout=40)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["outcome"] == Outcome.TIMEOUT and result["failure"]["agent"] == 0
    assert time.monotonic() - began < 20


def test_an_evaluation_that_raises_keyboard_interrupt_is_its_agents_crash_in_a_batch():
    done = run_program("batch", "-p", f"alphabeta depth=1 evaluation={code('interrupts')}",
                       "-p", "random", "-n", "2", "--workers", "1", "--no-store",
                       "--no-progress", "--json", *FAST)
    assert done.returncode == 0, done.stderr
    found = list(conditions(done.stdout).values())
    assert found[0]["causes"]["crash"] == 2 and found[1]["games"] == 2


def test_an_evaluation_that_ends_its_process_does_not_end_the_batch():
    done = run_program("batch", "-p", f"alphabeta depth=1 evaluation={code('ends_the_process')}",
                       "-n", "2", "--workers", "1", "--no-store", "--no-progress", "--json",
                       *FAST)
    assert done.returncode == 0, done.stderr
    assert list(conditions(done.stdout).values())[0]["causes"]["crash"] == 2


def test_an_evaluation_that_rewires_the_maze_changes_no_other_condition(tmp_path):
    rewired = f"alphabeta depth=1 evaluation={code('rewires_the_maze')}"
    common = ["-n", "6", "--workers", "1", "--no-progress", "--json", *FAST]
    both = run_program("batch", "-p", rewired, "-p", "random", "--store",
                       str(tmp_path / "both.jsonl"), *common)
    alone = run_program("batch", "-p", "random", "--no-store", *common)
    assert both.returncode == 0 and alone.returncode == 0, both.stderr + alone.stderr
    random_with = [c for c in json.loads(both.stdout)["conditions"] if c["pacman"] == "random"]
    random_alone = json.loads(alone.stdout)["conditions"]
    keys = ("mean_score", "mean_moves", "causes")
    assert [random_with[0][k] for k in keys] == [random_alone[0][k] for k in keys]
    # and every stored game still replays from its own maze text
    for line in (tmp_path / "both.jsonl").read_text().splitlines():
        record = json.loads(line)
        if "result" in record:
            result = GameResult.from_dict(record["result"])
            assert len(list(replay_states(result))) == len(result.actions) + 1


def test_a_ghost_model_from_a_file_plays_contained_and_prints_to_stderr():
    layout = load_layout("small_classic")
    options = {"model": code("ChattyModel"), "depth": "1"}
    assert is_contained(lineup(layout, "expectimax", "random", 1, options)[0])
    done = run_program("play", "-p", "expectimax", "--pacman-opt", f"model={code('ChattyModel')}",
                       "--pacman-opt", "depth=1", "--json", *FAST)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result.get("failure") is None and result["moves"] > 0
    assert "modelling..." in done.stderr

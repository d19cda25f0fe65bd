"""No agent can hang, stop or corrupt a game: every misbehaviour is that game's outcome.

The agents are in :mod:`tests.engine.misbehaving_agents`, loaded as ``file.py:Name`` (so they
play in a child process of their own, as every agent from a file or a module does).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from pacman.engine.game_loop import run_game
from pacman.engine.outcome import Outcome
from pacman.engine.layout import load_layout
from pacman.contained.agent import is_contained
from pacman.lineup.build import agent_spec, lineup

from tests.engine.test_cli import run_cli

AGENTS = Path(__file__).with_name("misbehaving_agents.py")
LIMIT = 0.2


def agent(name: str) -> str:
    return f"{AGENTS}:{name}"


def play(name: str, limit: float | None = LIMIT, **options: str):
    layout = load_layout("small_classic")
    specs = lineup(layout, agent(name), "random", 1, options)
    began = time.monotonic()
    result = run_game(layout, specs, seed=3, max_moves=30, move_time_limit=limit)
    return result, time.monotonic() - began


@pytest.mark.parametrize("name", ["CatchEverything", "IgnoreAlarm", "BlockAlarm", "SpinInC",
                                  "RegexCatastrophe", "StartHangs"])
def test_no_agent_outlives_its_time_limit(name):
    result, seconds = play(name)
    assert result.outcome == Outcome.TIMEOUT and result.failure.agent == 0, result.failure
    # The move (or start) that never ends is cut within twice the limit plus a second.
    assert result.think_time[0] <= 2 * LIMIT + 1
    assert seconds < 2 * LIMIT + 1 + 20  # plus starting the agent's process (loaded machine)


@pytest.mark.parametrize("name, kind, words", [
    ("RaiseGeneratorExit", Outcome.CRASH, "GeneratorExit: bye"),
    ("RaiseKeyboardInterrupt", Outcome.CRASH, "KeyboardInterrupt"),
    ("RaiseSystemExit", Outcome.CRASH, "SystemExit: 3"),
    ("HardExit", Outcome.CRASH, "exited with code 7"),
    ("KillItself", Outcome.CRASH, "killed by signal 9"),
    ("ReturnsGarbage", Outcome.ILLEGAL, "returned <object object"),
    ("ConstructorRaises", Outcome.CRASH, "building the agent raised ValueError: cannot be built"),
    ("ConstructorExits", Outcome.CRASH, "exited with code 5"),
    ("StartRaises", Outcome.CRASH, "start_game raised RuntimeError: no start"),
    ("StatsUnserialisable", Outcome.CRASH, "not plain data"),
    ("StatsRaises", Outcome.CRASH, "stats raised RuntimeError: no stats"),
    ("StatsExits", Outcome.CRASH, "exited with code 4"),
])
def test_every_failure_is_the_games_outcome(name, kind, words):
    result, _ = play(name, LIMIT)
    assert result.outcome == kind, result.failure
    assert result.failure.agent == 0 and words in result.failure.message
    json.dumps(result.to_dict())  # the result is always recordable


@pytest.mark.parametrize("name", ["HardExit", "RaiseKeyboardInterrupt", "ConstructorRaises"])
def test_failures_are_outcomes_without_a_time_limit_too(name):
    result, _ = play(name, None)
    assert result.outcome == Outcome.CRASH and result.failure.agent == 0


def test_a_late_move_after_good_ones_keeps_the_moves_before():
    result, _ = play("SpinInC", after="3")
    assert result.outcome == Outcome.TIMEOUT and result.decisions[0] == 3 and result.moves == 3


def test_a_well_behaved_agent_from_a_file_plays_as_in_process():
    layout = load_layout("small_classic")
    # An agent that misbehaves only after its 1000th move: well behaved for this game (one that
    # vandalised the shared maze here, in the test's own process, would spoil later tests).
    behaved = {"after": "1000"}
    isolated = [agent_spec(agent("CatchEverything"), "pacman", behaved),
                agent_spec("random", "ghost")]
    inline = [agent_spec(agent("CatchEverything"), "pacman", behaved, isolate=False),
              agent_spec("random", "ghost")]
    assert is_contained(isolated[0]) and not is_contained(inline[0])
    assert not is_contained(agent_spec("random", "pacman"))  # built-ins stay fast
    # Same seed, same game, whether the agent plays in a child process or here.
    one = run_game(layout, isolated, seed=8, max_moves=40)
    two = run_game(load_layout("small_classic"), inline, seed=8, max_moves=40)
    assert (one.outcome, one.score, one.actions) == (two.outcome, two.score, two.actions)
    assert one.failure is None


def test_infinite_time_limit_is_no_limit():
    result, _ = play("EatsTheFood", float("inf"))
    assert result.outcome not in (Outcome.CRASH, Outcome.TIMEOUT), result.failure
    assert result.move_time_limit == float("inf")


def test_play_command_records_a_hang_as_a_timeout(capsys):
    code, out, err = run_cli(capsys, "play", "--display", "none", "--pacman",
                             agent("CatchEverything"), "--layout", "small_classic",
                             "--time-limit", "0.2", "--json", "--seed", "1")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["outcome"] == Outcome.TIMEOUT and summary["failure"]["agent"] == 0
    code, out, err = run_cli(capsys, "play", "--display", "none", "--pacman",
                             agent("ConstructorRaises"), "--layout", "small_classic", "--json")
    # a crash is the run's failure (exit 1), shown as the agent's own frames, never the program's
    assert code == 1 and "Traceback (most recent call last)" not in err
    assert "Traceback (your code" in err and 'File "misbehaving_agents.py"' in err
    assert json.loads(out)["outcome"] == Outcome.CRASH
    code, out, err = run_cli(capsys, "play", "--display", "none", "--layout", "small_classic",
                             "--time-limit", "inf", "--json", "--max-moves", "20")
    assert code == 0 and json.loads(out)["outcome"] != Outcome.CRASH

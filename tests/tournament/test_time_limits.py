"""Per-game time limits: an agent's total thinking in one game is bounded (the classic course's
``getMaxTotalTime``) on top of the per-move limit. An agent that keeps every move just under the
per-move limit still runs out of its game's time: that game is a timeout naming the limit, and
the cup goes on."""

from __future__ import annotations

import json
import shutil
import time

import pytest

from pacman.batch import read_store
from pacman.batch.jobs import GameJob
from pacman.cli import main
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout
from pacman.engine.outcome import Outcome
from pacman.tournament.config import DEFAULT_GAME_TIME_LIMIT, config_from, read_config

from .conftest import ENTRANTS, cup_config


class Dawdler:
    """Stands still, taking ``seconds`` for every move."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def get_action(self, state):
        time.sleep(self.seconds)
        return "Stop"


def test_a_game_ends_when_an_agent_has_thought_past_the_games_limit():
    maze = load_layout("testClassic")
    # Every move well under the per-move limit; the game's limit is passed on move 5 or so
    # (sooner on a loaded machine), long before the move cap.
    game = run_game(maze, [Dawdler(0.05)], max_moves=30, move_time_limit=0.5,
                    game_time_limit=0.22)
    assert game.outcome == Outcome.TIMEOUT and game.failure.agent == 0
    assert game.failure.message.startswith("thought for ")
    assert game.failure.message.endswith(
        "in this game (limit: a total thinking time of 0.22 s per game)")
    assert game.think_time[0] > 0.22 and game.max_move_time[0] < 0.5
    assert game.moves < 30
    # The per-move limit alone lets the same agent play to the move cap.
    free = run_game(maze, [Dawdler(0.05)], max_moves=8, move_time_limit=0.5)
    assert free.outcome == Outcome.MOVE_LIMIT and free.failure is None


def test_a_move_is_interrupted_when_the_games_time_is_up():
    maze = load_layout("testClassic")
    began = time.monotonic()
    game = run_game(maze, [Dawdler(30)], max_moves=5, game_time_limit=0.1)
    assert time.monotonic() - began < 5  # 0.1 s of the game's time and the second of grace
    assert game.outcome == Outcome.TIMEOUT
    assert game.failure.message.startswith("still thinking after ")
    assert game.failure.message.endswith("(limit: a total thinking time of 0.1 s per game)")


def test_a_jobs_key_is_unchanged_without_a_game_limit():
    job = GameJob(condition="c", layout="testClassic", pacman="random")
    assert "game_time_limit" not in job.to_dict()
    limited = GameJob(condition="c", layout="testClassic", pacman="random", game_time_limit=3)
    assert limited.key != job.key and GameJob.from_dict(limited.to_dict()) == limited


SLOW = """\
# Thinks just under the per-move limit on every move (and stands still).
import time

from game import Agent


class ContestAgent(Agent):
    def getAction(self, gameState):
        time.sleep(0.25)
        return 'Stop'
"""

CUP = """\
mazes = ["testClassic"]
games = 1
num_ghosts = 0
max_moves = 8
move_time_limit = 0.6
game_time_limit = 0.9
"""


def test_a_cup_records_a_timeout_of_the_game_naming_its_limit(tmp_path, capsys):
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "slow.py").write_text(SLOW, encoding="utf-8")
    shutil.copy(ENTRANTS / "bob.py", folder / "bob.py")
    out = tmp_path / "out"
    assert main(["tournament", str(folder), "--config", str(cup_config(tmp_path, CUP)),
                 "--out", str(out), "--workers", "1", "--no-progress", "--no-replays"]) == 0
    capsys.readouterr()
    document = json.loads((out / "standings.json").read_text())
    assert document["cup"]["game_time_limit"] == 0.9
    rows = {row["id"]: row for row in document["tables"]["pacman"]}
    assert rows["slow.py"]["failed"]["timeout"] == 1 == sum(rows["slow.py"]["failed"].values())
    [failure] = rows["slow.py"]["failures"]
    assert failure["message"] == ("thought too long in this game (limit: a total thinking "
                                  "time of 0.9 s per game)")
    assert rows["bob.py"]["failures"] == [] and rows["bob.py"]["games"] == 1  # the cup went on
    games = {g.job.condition: g for g in read_store(out / "cup.jsonl")[0]}
    slow = games["cup: slow.py @ testClassic"]
    assert slow.job.game_time_limit == 0.9
    assert slow.result.failure.message.startswith("thought for ")
    # no move over the per-move limit: the game's limit ended it
    assert slow.result.max_move_time[0] < 0.6 < 0.9 < slow.result.think_time[0]


def test_the_game_limit_is_the_mini_contests_and_configurable(tmp_path):
    assert read_config(None).game_time_limit == DEFAULT_GAME_TIME_LIMIT == 180.0
    assert config_from({"game_time_limit": 30}).game_time_limit == 30.0
    assert config_from({"game_time_limit": float("inf")}).game_time_limit is None


@pytest.mark.parametrize("value", [0, -2])
def test_a_bad_game_limit_is_refused(tmp_path, capsys, value):
    folder = tmp_path / "class"
    folder.mkdir()
    code = main(["tournament", str(folder), "--config",
                 str(cup_config(tmp_path, f"game_time_limit = {value}")), "--out",
                 str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "game_time_limit must be a positive number of seconds" in err, err

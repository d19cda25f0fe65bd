"""Time limits of game tests as the classic course sets them: each game gets its own total
thinking time (``game_seconds``, the classic ``getMaxTotalTime``), kept per game whatever
becomes of the worker, a timeout names the limit it hit, and a test stops as soon as a required
band cannot be met any more; ``grade`` always has a run budget."""

from __future__ import annotations

import re
import time

import pytest

from pacman import cli
from pacman.grading.assignment import load_assignment
from pacman.grading.gradescope import PLATFORM_BUDGET_SECONDS
from pacman.grading.grader import grade
from pacman.grading.run_limits import RunLimits

LOOPING = '''
from game import Agent


class ReflexAgent(Agent):
    def getAction(self, gameState):
        while True:
            pass
'''
SLOW_START = '''
import time
from game import Agent

MOVES = [0]


class ReflexAgent(Agent):
    def getAction(self, gameState):
        MOVES[0] += 1
        if MOVES[0] > 3:
            while True:
                pass
        return gameState.getLegalActions(0)[0]
'''


def _assignment(tmp_path, *, required: bool, game_seconds: float, test_seconds: float,
                games: int = 3, max_moves: int = 100000):
    path = tmp_path / "games.toml"
    path.write_text(f'''
name = "games"
[roles]
reflex = ["ReflexAgent"]
[[questions]]
id = "q1"
title = "Reflex agent"
[[questions.tests]]
type = "game"
name = "reflex games"
agent = "reflex"
layout = "openClassic"
ghosts = "random"
ghost_count = 1
games = {games}
seed = 0
max_moves = {max_moves}
move_seconds = 30
game_seconds = {game_seconds}
test_seconds = {test_seconds}
credit = [{{ metric = "timeouts", at_most = 0, points = 1, required = {str(required).lower()} }}]
''')
    return load_assignment(path)


def _submission(tmp_path, source):
    path = tmp_path / "multiAgents.py"
    path.write_text(source)
    return path


def test_a_timeout_names_the_per_game_limit_and_a_doomed_test_stops(tmp_path):
    assignment = _assignment(tmp_path, required=True, game_seconds=2, test_seconds=120)
    began = time.monotonic()
    report = grade(_submission(tmp_path, LOOPING), assignment)
    seconds = time.monotonic() - began
    test = report.questions[0].tests[0]
    assert test.score == 0
    assert "limit: a total thinking time of 2 s per game" in test.output[1], test.output
    # and where the student's loop was (its two lines), as the worker said before the kill
    assert re.search(r"in multiAgents\.py line [78], in getAction", test.output[1]), test.output
    assert "games 2 to 3 not played" in test.output[2]
    assert seconds < 30


def test_a_killed_worker_does_not_give_the_next_game_a_fresh_clock(tmp_path):
    assignment = _assignment(tmp_path, required=False, game_seconds=3, test_seconds=9)
    began = time.monotonic()
    report = grade(_submission(tmp_path, LOOPING), assignment)
    seconds = time.monotonic() - began
    test = report.questions[0].tests[0]
    assert test.score == 0
    assert any("ran out of time" in line for line in test.output), test.output
    assert seconds < 9 + 5, test.output


def test_thinking_adds_up_over_a_game(tmp_path):
    # three quick moves, then a loop: the timeout comes when the game's total is spent
    assignment = _assignment(tmp_path, required=True, game_seconds=2, test_seconds=120, games=2)
    report = grade(_submission(tmp_path, SLOW_START), assignment)
    line = report.questions[0].tests[0].output[1]
    assert "game 1" in line and "timeout" in line and "per game" in line, line


def test_grade_has_a_run_budget_by_default(monkeypatch, tmp_path):
    seen = {}

    def fake_grade(path, assignment, *, questions, limits, progress):
        seen["limits"] = limits
        raise SystemExit(0)

    monkeypatch.setattr("pacman.cli.grade.grade", fake_grade)
    with pytest.raises(SystemExit):
        cli.main(["grade", str(_submission(tmp_path, LOOPING))])
    assert seen["limits"] == RunLimits(budget_seconds=PLATFORM_BUDGET_SECONDS)
    assert PLATFORM_BUDGET_SECONDS == 540


def test_the_classic_games_have_the_classic_limits():
    for question in ("q1", "q5"):
        test = next(q for q in load_assignment("classic").questions if q.id == question).tests[0]
        assert (test.limits.move_seconds, test.limits.game_seconds) == (120, 120)


BURNING = '''
import time
from game import Agent


class ReflexAgent(Agent):
    def getAction(self, gameState):
        began = time.process_time()
        while time.process_time() - began < 0.08:
            pass
        return gameState.getLegalActions(0)[0]
'''


WAITING = '''
import time
from game import Agent


class ReflexAgent(Agent):
    def getAction(self, gameState):
        time.sleep(0.3)  # off the CPU, as a move waits for a core on a loaded machine
        return gameState.getLegalActions(0)[0]
'''


def test_thinking_is_counted_in_cpu_time_so_load_does_not_change_the_grade(tmp_path):
    """Time a move spends off the CPU (here asleep; on a loaded machine, waiting for a core) is
    not thinking: a dozen moves of 0.3 s of wall time each, past the game's 2.5 s of thinking,
    cost next to no CPU and time nothing out."""
    assignment = _assignment(tmp_path, required=True, game_seconds=2.5, test_seconds=120,
                             games=1, max_moves=12)
    began = time.monotonic()
    result = grade(_submission(tmp_path, WAITING), assignment).questions[0].tests[0]
    wall = time.monotonic() - began
    assert result.metrics["timeouts"] == 0 and result.score == 1, result.output
    assert wall > 2.5, wall  # the moves did take longer than the game's limit, in wall time


def test_a_test_out_of_time_scores_its_games_and_the_next_test_still_runs(tmp_path):
    """The test's wall limit ends game 1 (its moves wait, off the CPU); game 2's fresh worker
    cannot start in a test whose time is spent, which says nothing of the submission: the games
    are not played, the test is scored on game 1, and the next test runs as usual."""
    path = tmp_path / "games.toml"
    path.write_text('''
name = "games"
[roles]
reflex = ["ReflexAgent"]
[[questions]]
id = "q1"
title = "Slow games"
[[questions.tests]]
type = "game"
name = "out of time"
agent = "reflex"
layout = "openClassic"
ghosts = "random"
ghost_count = 1
games = 3
seed = 0
max_moves = 100
move_seconds = 30
test_seconds = 2
credit = [{ metric = "mean_score", at_least = -1000, points = 1 }]
[[questions]]
id = "q2"
title = "A short game"
[[questions.tests]]
type = "game"
name = "short"
agent = "reflex"
layout = "openClassic"
ghosts = "random"
ghost_count = 1
games = 1
seed = 0
max_moves = 2
move_seconds = 30
test_seconds = 30
credit = [{ metric = "mean_score", at_least = -1000, points = 1 }]
''')
    report = grade(_submission(tmp_path, WAITING), load_assignment(path))
    first, second = (q.tests[0] for q in report.questions)
    assert "games 2 to 3 not played: the test ran out of time (limit 2 s for the whole test)" \
        in first.output, first.output
    assert first.metrics["games"] == 1 and first.score == 1, first.output
    assert not any("loading the submission failed" in line for line in first.output + second.output)
    assert second.metrics["games"] == 1 and second.score == 1, second.output

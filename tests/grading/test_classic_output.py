"""What a classic file prints: the classic course has no output limit, so a file that prints a
line per evaluation (a timing decorator left in, say: millions of characters over q5's ten
games) keeps its classic points; only a print loop reaches the classic assignment's limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from pacman.grading.assignment import load_assignment
from pacman.grading.grader import grade

ZOO = Path(__file__).resolve().parent / "zoo"

LINE = "Function 'find_nearest_thing' executed in 0.0001s"

# Twelve moves of 250,000 characters each: 3 million in one game, past the old 1,000,000.
CHATTY = f'''
from game import Agent


class ReflexAgent(Agent):
    def getAction(self, gameState):
        print({LINE!r})
        print("x" * 250000)
        return gameState.getLegalActions(0)[0]
'''


def _classic_game_limits():
    classic = load_assignment("classic")
    return [test.limits for question in classic.questions if question.id in ("q1", "q5")
            for test in question.tests]


def test_the_classic_games_let_a_file_print_millions_of_characters(tmp_path):
    limits = _classic_game_limits()
    assert len(limits) == 2
    output_chars = min(limit.output_chars for limit in limits)
    (tmp_path / "games.toml").write_text(f'''
name = "games"
[roles]
reflex = ["ReflexAgent"]
[[questions]]
id = "q1"
title = "Reflex agent"
[[questions.tests]]
type = "game"
name = "a chatty game"
agent = "reflex"
layout = "openClassic"
ghosts = "random"
ghost_count = 1
games = 1
seed = 0
max_moves = 12
move_seconds = 30
test_seconds = 60
output_chars = {output_chars}
credit = [{{ metric = "failures", at_most = 0, points = 1 }}]
''')
    submission = tmp_path / "multiAgents.py"
    submission.write_text(CHATTY)
    result = grade(submission, load_assignment(tmp_path / "games.toml")).questions[0].tests[0]
    assert result.metrics["failures"] == 0, result.output
    assert result.score == 1
    printed = "\n".join(result.output)
    assert "output limit" not in printed and LINE in printed


@pytest.mark.slow
def test_a_classic_file_that_prints_at_every_move_keeps_its_classic_q1_points(tmp_path):
    # the classic solution's reflex agent, printing 10,000 characters at every move: about 13
    # million in q1's ten games
    source = (ZOO / "correct_classic.py").read_text() + '''

_Quiet = ReflexAgent


class ReflexAgent(_Quiet):
    def getAction(self, gameState):
        for _ in range(10):
            print("x" * 999)
        return super().getAction(gameState)
'''
    submission = tmp_path / "multiAgents.py"
    submission.write_text(source)
    result = grade(submission, load_assignment("classic"), questions={"q1"}).questions[0].tests[0]
    assert result.metrics["failures"] == 0 and result.metrics["wins"] == 10, result.output
    assert result.score == 4

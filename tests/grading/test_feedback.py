"""Feedback a student can act on: their own traceback (their file and line, none of the
grader's), tests named as the classic autograder names them, the command that reruns a failed
question locally; and ``grade`` without a submission grading ``./multiAgents.py``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pacman import cli
from pacman.grading.assignment import load_assignment
from pacman.grading.grader import grade
from pacman.grading.report import gradescope_results, student_text_report

ZOO = Path(__file__).resolve().parent / "zoo"
CRASH = '''from game import Agent
import util


def helper(state):
    return 1 / 0


class MinimaxAgent(Agent):
    def __init__(self, evalFn="scoreEvaluationFunction", depth="2"):
        self.depth = int(depth)

    def getAction(self, gameState):
        return helper(gameState)
'''


@pytest.fixture(scope="module")
def crash_report(tmp_path_factory):
    path = tmp_path_factory.mktemp("crash") / "crashing.py"
    path.write_text(CRASH)
    return grade(path, load_assignment("classic"), questions={"q2"})


def test_the_students_own_traceback_is_shown(crash_report):
    output = "\n".join(crash_report.questions[0].tests[0].output)
    assert ('File "crashing.py", line 14, in getAction\n    return helper(gameState)\n'
            '  File "crashing.py", line 6, in helper\n    return 1 / 0\nZeroDivisionError') in output
    assert "pacman/" not in output and "worker.py" not in output


def test_an_error_at_import_shows_its_line(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text("from game import Agent\n\nLIMIT = int('ten')\n")
    report = grade(path, load_assignment("classic"), questions={"q2"})
    output = "\n".join(report.questions[0].tests[0].output)
    assert 'File "broken.py", line 3, in <module>' in output
    assert "ValueError: invalid literal" in output


def test_tests_carry_the_classic_names_and_the_rerun_command(crash_report):
    results = gradescope_results(crash_report)
    names = [t["name"] for t in results["tests"]]
    assert names[0] == "q2/2.1: Minimax, lecture trees"
    assert names[-1].startswith("q2/8-pacman-game: Minimax, a real game on smallClassic")
    for test in results["tests"]:
        assert test["output"].endswith("To rerun this question on your computer: "
                                       "pacman-arena grade crashing.py -q q2")
    assert "rerun on your computer: pacman-arena grade crashing.py -q q2" in student_text_report(crash_report)


def test_every_classic_game_test_has_its_classic_name():
    classic = load_assignment("classic")
    names = {t.classic_name for q in classic.questions for t in q.tests if t.kind != "tree"}
    assert names == {"q1/grade-agent", "q2/8-pacman-game", "q3/8-pacman-game", "q4/7-pacman-game",
                     "q5/grade-agent"}


def test_grade_without_a_submission_grades_multiagents_here(tmp_path, monkeypatch, capsys):
    shutil.copy(ZOO / "correct_classic.py", tmp_path / "multiAgents.py")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["grade", "-q", "q2"]) == 0
    captured = capsys.readouterr()
    assert "grading ./multiAgents.py (no submission given)" in captured.err
    assert "total: 5/5" in captured.out


def test_grade_without_a_submission_or_multiagents_is_one_clear_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["grade", "-q", "q2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "there is no ./multiAgents.py here" in err[0]


# --- the classic assignment tests only what the classic course tests -------------------------

def test_a_root_tie_broken_the_other_way_keeps_the_classic_points(tmp_path):
    source = (ZOO / "correct_classic.py").read_text()
    last_tie = source.replace("if bestAction is None or v > best:", "if bestAction is None or v >= best:", 1)
    assert last_tie != source
    path = tmp_path / "multiAgents.py"
    path.write_text(last_tie)
    report = grade(path, load_assignment("classic"), questions={"q2"})
    assert report.score == 5, [t.output for q in report.questions for t in q.tests]

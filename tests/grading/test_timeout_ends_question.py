"""A question that gives points only when all its tests pass stops at its first test that ran
out of time: the later tests of the same agent could not change its score, and an endless loop
would make each wait out its whole limit again. The tests not run say why, naming the limit."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from pacman.grading.assignment import load_assignment
from pacman.grading.grader import grade

CORRECT = Path(__file__).resolve().parent / "zoo" / "correct_classic.py"


def _looping_minimax(tmp_path: Path) -> Path:
    text = CORRECT.read_text()
    anchor = "        nextAgent = 1 % gameState.getNumAgents()\n"
    assert anchor in text
    path = tmp_path / "multiAgents.py"
    path.write_text(text.replace(anchor, "        while True:\n            pass\n" + anchor, 1))
    return path


def _tree_test(name: str) -> str:
    return f'''
[[questions.tests]]
type = "tree"
name = "{name}"
agent = "minimax"
depth = 2
trees = ["builtin:recitation"]
move_seconds = 0.5
test_seconds = 10
points = 1
'''


def _assignment(tmp_path: Path, own_question: bool):
    path = tmp_path / "loops.toml"
    path.write_text('name = "loops"\n[roles]\nminimax = ["MinimaxAgent"]\n'
                    '[[questions]]\nid = "q2"\ntitle = "Minimax"\nall_or_nothing = true\n'
                    + _tree_test("first") + _tree_test("second") + _tree_test("third")
                    + ('[[questions]]\nid = "q3"\ntitle = "Each on its own"\n'
                       + _tree_test("own first") + _tree_test("own second")
                       if own_question else ""))
    return load_assignment(path)


def _check_the_stopped_question(report) -> None:
    first, *rest = report.questions[0].tests
    assert any("no answer within 0.5 s" in line for line in first.output), first.output
    # where the student's loop was: the file, its line (the loop's two lines), the function
    assert any(re.search(r"in multiAgents\.py line 5[01], in getAction", line)
               for line in first.output), first.output
    assert first.seconds >= 0.5
    assert len(rest) == 2
    for result in rest:
        assert result.output == ["not run: test 1.1 ran out of time (limit 0.5 s per move), "
                                 "and q2 gives points only when all its tests pass: make 1.1 "
                                 "end in time first"]
        assert result.score == 0 and result.seconds == 0


def test_an_all_or_nothing_question_stops_at_its_first_timeout_and_says_which_limit(tmp_path):
    began = time.monotonic()
    report = grade(_looping_minimax(tmp_path), _assignment(tmp_path, own_question=False))
    _check_the_stopped_question(report)
    assert report.score == 0 and time.monotonic() - began < 30


def test_a_tree_test_stops_at_its_first_tree_out_of_time(tmp_path):
    """The rest of a test's trees would time out the same way: one is tried, and its timeout,
    with the student's place in it, is the test's failure."""
    path = tmp_path / "trees.toml"
    path.write_text('name = "trees"\n[roles]\nminimax = ["MinimaxAgent"]\n'
                    '[[questions]]\nid = "q2"\ntitle = "Minimax"\n'
                    + _tree_test("three trees").replace(
                        'trees = ["builtin:recitation"]',
                        'trees = ["builtin:recitation", "builtin:recitation", "builtin:recitation"]'))
    report = grade(_looping_minimax(tmp_path), load_assignment(path))
    output = report.questions[0].tests[0].output
    failed = [line for line in output if "the agent failed" in line]
    assert len(failed) == 1 and re.search(r"line 5[01], in getAction", failed[0]), output
    assert output[0].startswith("0 of 3 trees correct"), output


def test_a_timeout_names_the_students_place_on_the_plain_backend_too(tmp_path, monkeypatch):
    monkeypatch.setenv("PACMAN_AGENT_JAIL", "plain")
    report = grade(_looping_minimax(tmp_path), _assignment(tmp_path, own_question=False))
    _check_the_stopped_question(report)


@pytest.mark.slow
def test_a_question_whose_tests_count_each_on_its_own_runs_them_all(tmp_path):
    report = grade(_looping_minimax(tmp_path), _assignment(tmp_path, own_question=True))
    _check_the_stopped_question(report)
    for result in report.questions[1].tests:
        assert any("no answer within 0.5 s" in line for line in result.output), result.output

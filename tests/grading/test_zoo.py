"""The zoo: correct, buggy and hostile submissions, and the grades each must get."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from pacman.grading.grader import grade

ZOO = Path(__file__).resolve().parent / "zoo"


def _test(report, number):
    return next(t for q in report.questions for t in q.tests if t.number == number)


def _question(report, qid):
    return next(q for q in report.questions if q.id == qid)


@pytest.fixture(scope="module")
def native_report(default_assignment):
    return grade(ZOO / "correct_native.py", default_assignment)


def test_correct_native_submission_gets_full_marks(native_report):
    report = native_report
    failing = [(t.number, t.output) for q in report.questions for t in q.tests if not t.passed]
    assert failing == []
    assert report.score == report.max_score == 24
    assert report.leaderboard and report.leaderboard[0]["value"] > 1000


def test_correct_classic_submission_on_the_lecture_assignment_differs_only_in_pruning(default_assignment):
    report = grade(ZOO / "correct_classic.py", default_assignment, questions={"q2", "q3", "q4"})
    failing = {t.number for q in report.questions for t in q.tests if not t.passed}
    assert failing and all(n.startswith("3.") for n in failing)
    assert _question(report, "q3").diagnosis == ["no_prune_on_equality"]


BUGS = [
    ("bug_depth_off_by_one.py", "q2", "depth_plus_one", {"2.2", "2.4"}),
    ("bug_depth_per_agent.py", "q2", "depth_per_agent", {"2.1", "2.2", "2.3", "2.4", "2.5"}),
    ("bug_ghosts_one_layer.py", "q2", "ghosts_one_layer", {"2.3", "2.5"}),
    ("bug_min_max_swapped.py", "q2", "min_max_swapped", {"2.1", "2.2", "2.3", "2.4", "2.5"}),
    ("bug_evaluates_root.py", "q2", "evaluates_root", {"2.1", "2.2", "2.3", "2.4", "2.5"}),
    ("bug_ignores_terminal.py", "q2", "ignores_terminal", {"2.1", "2.3", "2.4", "2.5"}),
    ("bug_strict_pruning.py", "q3", "no_prune_on_equality", {"3.3", "3.4", "3.5"}),
    ("bug_wrong_bound.py", "q3", "wrong_bound", {"3.1", "3.2", "3.3", "3.4", "3.5"}),
    ("bug_eager_children.py", "q3", "eager_children", {"3.1", "3.2", "3.3", "3.4", "3.5"}),
    ("bug_expectimax_minimises.py", "q4", "ghosts_minimised", {"4.1", "4.2", "4.3", "4.4"}),
]


@pytest.mark.parametrize("name, qid, bug, failing", BUGS, ids=[b[0] for b in BUGS])
def test_each_classic_mistake_is_diagnosed(default_assignment, name, qid, bug, failing):
    report = grade(ZOO / name, default_assignment, questions={qid})
    question = _question(report, qid)
    assert {t.number for t in question.tests if not t.passed} == failing
    assert question.diagnosis == [bug]
    for test in question.tests:
        if not test.passed:
            assert test.score == 0
            assert bug in test.diagnosis
            assert any(line.startswith("likely mistake:") for line in test.output)


def test_failing_tree_output_says_what_was_expected_and_what_happened(default_assignment):
    report = grade(ZOO / "bug_eager_children.py", default_assignment, questions={"q3"})
    text = "\n".join(_test(report, "3.1").output)
    assert "recitation: generated nodes: should not have been: L R J" in text
    assert "expected action C, generated B E F K C G M Q N H D I; evaluated E K Q N H I" in text


# --- hostile submissions: each contained, grading goes on, the right test fails -------------

def _attack(attack_assignment, name):
    began = time.monotonic()
    report = grade(ZOO / name, attack_assignment)
    return report, time.monotonic() - began


def _lines(test):
    return "\n".join(test.output)


def test_sys_exit_is_a_failed_test(attack_assignment):
    report, _ = _attack(attack_assignment, "attack_sys_exit.py")
    assert report.score == 0
    assert "the submission called sys.exit('bye')" in _lines(_test(report, "1.1"))
    assert "crash, score 0, 0 moves: the submission called sys.exit(0)" in _lines(_test(report, "2.1"))


def test_os_exit_is_a_failed_test(attack_assignment):
    report, _ = _attack(attack_assignment, "attack_os_exit.py")
    assert report.score == 0
    assert "ended its own process (exit code 3" in _lines(_test(report, "1.1"))
    assert "ended its own process (exit code 4" in _lines(_test(report, "2.1"))


def test_killing_the_grader_is_blocked_and_fails_the_test(attack_assignment):
    report, _ = _attack(attack_assignment, "attack_kill_parent.py")
    assert report.score == 0  # it still plays correctly, but tried
    for number in ("1.1", "2.1"):
        text = _lines(_test(report, number))
        assert "blocked by the grader: sending a signal (os.kill)" in text
        assert "(os.killpg)" in text
    assert os.getpid()  # and we are still here


def test_infinite_loop_times_out_per_move(attack_assignment):
    report, seconds = _attack(attack_assignment, "attack_infinite_loop.py")
    assert report.score == 0
    assert "no answer within 1 s" in _lines(_test(report, "1.1"))
    games = _test(report, "2.1")
    assert games.metrics["timeouts"] == 2
    assert "(limit: 1 s per move)" in _lines(games)
    assert seconds < 8


def test_memory_bomb_runs_out_of_memory(attack_assignment):
    report, _ = _attack(attack_assignment, "attack_memory_bomb.py")
    assert report.score == 0
    assert "the submission ran out of memory (MemoryError)" in _lines(_test(report, "1.1"))
    assert _test(report, "2.1").metrics["failures"] == 2


def test_printing_megabytes_stops_at_the_output_limit(attack_assignment):
    report, _ = _attack(attack_assignment, "attack_print_flood.py")
    assert report.score == 0
    for number in ("1.1", "2.1"):
        text = _lines(_test(report, number))
        assert "printed more than 100000 characters (output limit)" in text
        assert len(text) < 5000


def test_forking_and_subprocesses_are_blocked(attack_assignment):
    report, _ = _attack(attack_assignment, "attack_fork.py")
    assert report.score == 0
    assert "blocked by the grader: forking (os.fork)" in _lines(_test(report, "1.1"))
    assert "blocked by the grader: starting a process (subprocess.Popen)" in _lines(_test(report, "2.1"))


def test_changing_rules_or_state_in_the_worker_does_not_change_the_game(attack_assignment):
    report, _ = _attack(attack_assignment, "attack_cheat_state.py")
    games = _test(report, "2.1")
    # The patched rules would make every move a win worth a million; the grader's game says
    # what really happened to a Pacman that stops next to a ghost.
    assert games.metrics["wins"] == 0 and games.metrics["mean_score"] < 0
    assert _test(report, "1.1").score == 0


def test_hidden_tests_cannot_be_read(attack_assignment):
    report, _ = _attack(attack_assignment, "attack_read_hidden.py")
    assert report.score == 0
    assert "blocked by the grader: reading the file" in _lines(_test(report, "1.1"))
    assert "default.toml" in _lines(_test(report, "1.1"))


def test_node_budget_replaces_seconds_deterministically():
    from pacman.grading.assignment import parse_assignment

    data = {"roles": {"minimax": ["MinimaxAgent"]}, "limits": {"node_budget": 30},
            "questions": [{"id": "q", "tests": [
                {"type": "game", "agent": "minimax", "options": {"depth": 2}, "layout": "tiny",
                 "games": 1, "credit": [{"metric": "timeouts", "at_most": 0}]},
                {"type": "tree", "agent": "minimax", "depth": 2, "node_budget": 5,
                 "trees": ["builtin:recitation"]}]}]}
    report = grade(ZOO / "correct_native.py", parse_assignment(data, "budget"))
    games, tree = report.questions[0].tests
    assert games.metrics["timeouts"] == 1
    assert "generated more successors than the node budget allows" in "\n".join(games.output)
    assert "generated more than 5 successors" in "\n".join(tree.output)

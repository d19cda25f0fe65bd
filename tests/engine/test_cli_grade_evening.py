"""``grade`` on a student's bad evening: a syntax error, a wrong ghost layer, a question
named the way students name it. The answers are whole sentences about the student's code."""

from __future__ import annotations

from pathlib import Path

import pytest

from pacman.grading.assignment import load_assignment
from pacman.grading.question_rules import common_diagnosis
from tests.cli_support import run_cli

ROOT = Path(__file__).resolve().parents[2]
CORRECT = ROOT / "tests" / "grading" / "zoo" / "correct_classic.py"


def student_file(tmp_path: Path, old: str, new: str) -> Path:
    text = CORRECT.read_text()
    assert old in text
    (tmp_path / "multiAgents.py").write_text(text.replace(old, new, 1))
    return tmp_path / "multiAgents.py"


def test_a_syntax_error_keeps_the_classic_assignment_says_it_once_and_fails(tmp_path, capsys):
    path = student_file(tmp_path, "class MinimaxAgent(MultiAgentSearchAgent):",
                        "class MinimaxAgent(MultiAgentSearchAgent)")
    code, out, err = run_cli(capsys, "grade", path)
    assert code == 1
    assert out.startswith("Multi-agent search (classic course): ")
    assert out.count("SyntaxError: expected ':' (multiAgents.py, line 39)") == 1
    assert "[hidden]" not in out and "total: 0/25" in out
    assert "not run: the submission did not load (test 1.1)" in out
    assert "ConfigurationError" not in out
    assert err.strip().splitlines()[-1] == ("pacman-arena: grade: nothing could be graded: "
                                            "multiAgents.py did not load (see test 1.1 above)")


@pytest.mark.parametrize("asked", ["q2", "Q2", "2", " q2"])
def test_q_takes_the_ways_students_name_a_question(asked):
    from pacman.cli.grade import question_ids

    assert question_ids([asked], load_assignment("classic")) == {"q2"}


def test_an_unknown_question_lists_the_valid_ones(capsys):
    code, out, err = run_cli(capsys, "grade", CORRECT, "-q", "q9")
    assert code == 2 and out == ""
    assert err.strip() == ("pacman-arena: no question 'q9' in Multi-agent search (classic "
                           "course); its questions are q1, q2, q3, q4, q5 (-q q2, Q2 or 2)")


def test_a_ghost_layer_using_max_is_diagnosed_whole_with_the_rerun_command(tmp_path, capsys):
    path = student_file(tmp_path, "v = min(v, value(state.generateSuccessor(agent, a), "
                        "nextAgent, nextDepth, alpha, beta))",
                        "v = max(v, value(state.generateSuccessor(agent, a), "
                        "nextAgent, nextDepth, alpha, beta))")
    code, out, err = run_cli(capsys, "grade", path, "-q", "3", "--no-graphics")
    assert code == 0, err
    lines = out.splitlines()
    question = lines.index("q3 Alpha-beta pruning: 0/5")
    assert lines[question + 1].startswith("  diagnosis: min and max swapped")
    assert "right for the test to pass" in out and not any(
        line.endswith("every tree must be") for line in lines)
    assert lines[-3] == "  rerun: pacman-arena grade multiAgents.py -q q3"


def test_diagnoses_come_by_evidence_then_the_specific_before_the_general():
    assert common_diagnosis([["ignores_terminal", "min_max_swapped"]]) == [
        "min_max_swapped", "ignores_terminal"]
    assert common_diagnosis([["ignores_terminal"], ["min_max_swapped"],
                             ["min_max_swapped"]]) == ["min_max_swapped"]


def test_no_internal_class_name_reaches_a_student():
    from pacman.grading.session import student_names

    assert student_names("AttributeError: 'RemoteClassicState' object has no attribute "
                         "'getLegalAction'") == ("AttributeError: 'GameState' object has no "
                                                 "attribute 'getLegalAction'")


def test_long_prints_are_cut_between_words_and_the_cut_is_said():
    from pacman.grading.session import printed_text

    short = printed_text("['Stop', 'North']\n")
    assert short == "the submission printed:\n['Stop', 'North']"
    text = printed_text("['Stop', 'North'] " * 200)
    head, _, body = text.partition("\n")
    assert "more than 2000 characters" in head and "cut between words" in head
    assert body.endswith("'North']\n...") and "['Sto\n" not in body

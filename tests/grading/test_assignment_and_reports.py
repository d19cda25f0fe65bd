"""Assignments (TOML validation), the reports (Gradescope schema), the CLI and batch grading."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pacman.errors import ConfigurationError
from pacman.grading.assignment import VISIBILITIES, load_assignment, parse_assignment
from pacman.grading.batch import grade_directory
from pacman.grading.grader import grade
from pacman.grading.report import gradescope_results, json_report, text_report

HERE = Path(__file__).resolve().parent
ZOO = HERE / "zoo"
ROOT = HERE.parents[1]


def test_default_assignment_mirrors_the_classic_course(default_assignment):
    assert [q.title for q in default_assignment.questions] == [
        "Reflex agent", "Minimax", "Alpha-beta pruning", "Expectimax", "Evaluation function"]
    visibilities = {t.visibility for _, t in default_assignment.tests()}
    assert {"visible", "hidden", "after_due_date"} <= visibilities
    kinds = {t.kind for _, t in default_assignment.tests()}
    assert kinds == {"tree", "game"}


def _minimal(**test):
    base = {"type": "tree", "agent": "minimax", "trees": ["builtin:recitation"]}
    base.update(test)
    return {"roles": {"minimax": ["MinimaxAgent"]}, "questions": [{"id": "q", "tests": [base]}]}


@pytest.mark.parametrize("data, message", [
    (_minimal(visibility="secret"), "'visibility' must be one of visible, hidden"),
    (_minimal(depht=2), "unknown key 'depht'; did you mean depth?"),
    (_minimal(trees=["builtin:recitaton"]), "no built-in tree 'recitaton'; did you mean recitation?"),
    (_minimal(trees=['{"id": "A", "kind": "max"']), "invalid JSON at line 1"),
    (_minimal(agent="minmax"), "'agent' 'minmax' is not a role of [roles]; did you mean minimax?"),
    (_minimal(trees=["builtin:bins_coin"]), "has chance nodes; minimax trees may not"),
    (_minimal(type="game", credit=[]), "unknown key 'trees'"),
    (_minimal(depth=0), "'depth' must be positive"),
    ({"questions": []}, "missing key 'roles'"),
])
def test_bad_assignments_are_one_line_errors(data, message):
    with pytest.raises(ConfigurationError) as info:
        parse_assignment(data, "a.toml")
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_game_test_points_are_the_sum_of_its_credit_bands(tmp_path):
    path = tmp_path / "a.toml"
    path.write_text('[roles]\nreflex = "ReflexAgent"\n[[questions]]\nid = "q1"\n'
                    '[[questions.tests]]\ntype = "game"\nagent = "reflex"\nlayout = "tiny"\n'
                    'credit = [{metric = "wins", at_least = 1, points = 2}, '
                    '{metric = "timeouts", at_most = 0, points = 0.5}]\n')
    assignment = load_assignment(path)
    assert assignment.points == 2.5


# --- reports ---------------------------------------------------------------------------------

def _check(value, kinds, where):
    assert isinstance(value, kinds) and not isinstance(value, bool), f"{where}: {value!r}"


def validate_gradescope(data):
    """Gradescope's results.json: every field's type, as its autograder specification says."""
    assert set(data) <= {"score", "execution_time", "output", "output_format", "visibility",
                         "stdout_visibility", "extra_data", "tests", "leaderboard"}
    _check(data["score"], (int, float), "score")
    _check(data["execution_time"], int, "execution_time")
    _check(data["output"], str, "output")
    assert data["visibility"] in VISIBILITIES and data["stdout_visibility"] in VISIBILITIES
    numbers = set()
    for test in data["tests"]:
        assert set(test) <= {"score", "max_score", "status", "name", "name_format", "number",
                             "output", "output_format", "tags", "visibility", "extra_data"}
        _check(test["score"], (int, float), "test score")
        _check(test["max_score"], (int, float), "test max_score")
        assert 0 <= test["score"] <= test["max_score"]
        assert test["status"] in ("passed", "failed")
        _check(test["name"], str, "name")
        _check(test["number"], str, "number")
        _check(test["output"], str, "output")
        assert isinstance(test["tags"], list) and all(isinstance(t, str) for t in test["tags"])
        assert test["visibility"] in VISIBILITIES
        numbers.add(test["number"])
    assert len(numbers) == len(data["tests"])
    for entry in data["leaderboard"]:
        assert set(entry) <= {"name", "value", "order"}
        _check(entry["name"], str, "leaderboard name")
        _check(entry["value"], (int, float, str), "leaderboard value")
        assert entry.get("order", "desc") in ("asc", "desc")
    assert abs(sum(t["score"] for t in data["tests"]) - data["score"]) < 1e-9


@pytest.fixture(scope="module")
def buggy_report(attack_assignment):
    return grade(ZOO / "bug_evaluates_root.py", attack_assignment)


def test_gradescope_results_follow_the_schema(buggy_report):
    data = gradescope_results(buggy_report)
    validate_gradescope(json.loads(json.dumps(data)))
    statuses = {t["number"]: t["status"] for t in data["tests"]}
    assert statuses == {"1.1": "failed", "2.1": "passed"}


def test_schema_check_rejects_wrong_types(buggy_report):
    data = gradescope_results(buggy_report)
    data["tests"][0]["number"] = 1
    with pytest.raises(AssertionError):
        validate_gradescope(data)


def test_text_and_json_reports_explain_the_failure(buggy_report):
    text = text_report(buggy_report)
    assert "FAIL 1.1 recitation tree: 0/1" in text
    assert "diagnosis: calls the evaluation function on the root state" in text
    assert "expected action C" in text
    data = json_report(buggy_report)
    assert data["questions"][0]["tests"][0]["diagnosis"] == ["evaluates_root"]
    assert data["score"] == buggy_report.score == 2


# --- command line and batch ------------------------------------------------------------------

def _run(*args):
    return subprocess.run([sys.executable, "run.py", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_cli_grades_and_writes_json_and_gradescope(tmp_path):
    out, gs = tmp_path / "r.json", tmp_path / "results.json"
    done = _run("grade", str(ZOO / "correct_native.py"), "--assignment",
                str(HERE / "attack.toml"), "--json", str(out), "--gradescope", str(gs))
    assert done.returncode == 0, done.stderr
    assert "total: 3/3" in done.stdout
    assert json.loads(out.read_text())["score"] == 3
    validate_gradescope(json.loads(gs.read_text()))


@pytest.mark.parametrize("args, message", [
    (["grade", "no/such/file.py"], "run.py: no/such/file.py: no such Python file or folder"),
    (["grade", "/dev/zero"], "run.py: /dev/zero: not a Python file or folder"),
    (["grade", "tests/grading/zoo/correct_native.py", "-a", "nope"], "run.py: no assignment file 'nope'"),
    (["grade", "tests/grading/zoo/correct_native.py", "-q", "q9"], "run.py: no question 'q9'"),
])
def test_cli_errors_are_one_line_with_exit_code_2(args, message):
    done = _run(*args)
    assert done.returncode == 2
    assert done.stderr.strip().startswith(message) and done.stderr.count("\n") == 1


def test_batch_grades_a_folder_into_one_csv_and_a_report_per_student(tmp_path, attack_assignment):
    folder = tmp_path / "submissions"
    folder.mkdir()
    for name in ("correct_native.py", "bug_evaluates_root.py", "attack_os_exit.py"):
        text = (ZOO / name).read_text()
        (folder / name).write_text(text)
    (folder / "_native_student.py").write_text((ZOO / "_native_student.py").read_text())
    out = tmp_path / "grades"
    summary = grade_directory(folder, attack_assignment, out, jobs=2)
    assert summary.count == 3
    rows = list(csv.DictReader(summary.csv_path.read_text().splitlines()))
    assert [(r["student"], r["total"]) for r in rows] == [
        ("attack_os_exit.py", "0"), ("bug_evaluates_root.py", "2"), ("correct_native.py", "3")]
    for student in ("attack_os_exit.py", "bug_evaluates_root.py", "correct_native.py"):
        assert (out / f"{student}.txt").read_text().startswith("attack drill:")
        validate_gradescope(json.loads((out / f"{student}.results.json").read_text()))

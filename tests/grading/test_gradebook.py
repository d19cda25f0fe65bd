"""A folder of submissions into one right gradebook, and the Gradescope bundle end to end."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pacman.grading.assignment import load_assignment
from pacman.grading.batch import grade_directory, is_batch_folder
from pacman.grading.gradescope import write_package

HERE = Path(__file__).resolve().parent
ZOO = HERE / "zoo"
ROOT = HERE.parents[1]
CORRECT = (ZOO / "correct_classic.py").read_text()


def _classic_project(folder: Path, multi_agents: str) -> Path:
    """A whole classic project as a student might upload it: only multiAgents.py is theirs."""
    folder.mkdir(parents=True)
    (folder / "multiAgents.py").write_text(multi_agents)
    (folder / "autograder.py").write_text("import projectParams\nraise SystemExit(1)\n")
    (folder / "multiagentTestClasses.py").write_text("import testClasses\n")
    return folder


@pytest.fixture(scope="module")
def submissions(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class") / "submissions"
    _classic_project(folder / "bob.smith", CORRECT)
    _classic_project(folder / "bob.jones", "from game import Agent\ndef broken(:\n")
    (folder / "alice.py").write_text(CORRECT)
    (folder / "_notes.py").write_text("not a student\n")
    return folder


@pytest.fixture(scope="module")
def gradebook(submissions, tmp_path_factory):
    out = tmp_path_factory.mktemp("out") / "grades"
    began = time.monotonic()
    summary = grade_directory(submissions, None, out, jobs=2, questions={"q2"})
    return out, summary, time.monotonic() - began


def test_every_student_once_under_the_full_name(gradebook):
    out, summary, _ = gradebook
    rows = list(csv.DictReader(summary.csv_path.read_text().splitlines()))
    assert summary.csv_path == out / "gradebook.csv"
    assert [r["student"] for r in rows] == ["alice.py", "bob.jones", "bob.smith"]
    assert list(rows[0]) == ["student", "assignment", "q2", "total", "max", "status"]
    by_id = {r["student"]: r for r in rows}
    assert (by_id["alice.py"]["q2"], by_id["alice.py"]["total"]) == ("5", "5")
    assert by_id["bob.smith"]["total"] == "5"  # graded by its multiAgents.py alone
    assert by_id["bob.jones"]["total"] == "0"
    assert by_id["bob.jones"]["status"].startswith("did not load: loading the submission failed")
    assert "SyntaxError" in by_id["bob.jones"]["status"]


PYTHON2 = """from game import Agent
import util

class MinimaxAgent(Agent):
    def getAction(self, gameState):
        print "thinking"
        for i in xrange(3):
            pass
        return gameState.getLegalActions(0)[0]
"""


@pytest.fixture(scope="module")
def mixed_gradebook(tmp_path_factory):
    """A class folder as downloaded: files, folders, and things that are not submissions."""
    folder = tmp_path_factory.mktemp("mixed") / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(CORRECT)
    (folder / "erin").mkdir()
    (folder / "frank" / "multiagent").mkdir(parents=True)
    (folder / "frank" / "README.md").write_text("my pacman\n")
    (folder / "frank" / "multiagent" / "multiAgents.py").write_text(CORRECT)
    (folder / "gus.py").write_text(PYTHON2)
    (folder / "notes.txt").write_text("grade these by Friday\n")
    (folder / "zed.zip").write_bytes(b"PK\x05\x06" + bytes(18))
    (folder / ".DS_Store").write_bytes(b"\0")
    out = tmp_path_factory.mktemp("mixed-out") / "grades"
    summary = grade_directory(folder, None, out, jobs=2, questions={"q2"})
    with open(summary.csv_path, newline="") as handle:
        return {r["student"]: r for r in csv.DictReader(handle)}


def test_every_entry_of_the_folder_gets_a_row(mixed_gradebook):
    assert sorted(mixed_gradebook) == ["alice.py", "erin", "frank", "gus.py", "notes.txt", "zed.zip"]
    assert mixed_gradebook["notes.txt"]["status"] == "unsupported: not a Python file or a folder"
    assert mixed_gradebook["zed.zip"]["status"].startswith("unsupported: an archive; unpack it")
    assert mixed_gradebook["zed.zip"]["total"] == ""


def test_an_empty_folder_is_missing_not_graded(mixed_gradebook):
    assert mixed_gradebook["erin"]["status"] == "missing: no Python file in the folder"


def test_one_assignment_for_the_whole_folder_named_in_each_row(mixed_gradebook):
    assert {r["assignment"] for r in mixed_gradebook.values()} == {"classic"}
    assert mixed_gradebook["frank"]["status"] == "graded"
    assert mixed_gradebook["frank"]["total"] == "5"  # multiagent/multiAgents.py, as on GitHub
    assert mixed_gradebook["frank"]["max"] == mixed_gradebook["alice.py"]["max"] == "5"


def test_a_python_2_file_is_told_so(mixed_gradebook):
    gus = mixed_gradebook["gus.py"]
    assert gus["max"] == "5" and gus["total"] == "0"
    assert gus["status"].startswith("did not load:")
    assert "written in Python 2" in gus["status"]


def test_a_submission_that_does_not_load_is_reported_once(gradebook):
    out, _, _ = gradebook
    report = json.loads((out / "instructor" / "bob.jones.json").read_text())
    outputs = [t["output"][0] for q in report["questions"] for t in q["tests"]]
    assert outputs[0].startswith("loading the submission failed")
    assert all(o.startswith("not run: loading the submission failed") for o in outputs[1:])
    assert report["seconds"] < 5


@pytest.fixture(scope="module")
def hidden_gradebook(tmp_path_factory):
    """Alice graded on the classic assignment with its q2 game hidden (the classic assignment
    itself hides nothing, as the classic course shows every test)."""
    root = tmp_path_factory.mktemp("hidden")
    text = (Path(__file__).parents[2] / "pacman/grading/assignments/classic.toml").read_text()
    marker = '\ngame = "classic"'
    assert marker in text
    (root / "hidden.toml").write_text(text.replace(marker, '\nvisibility = "hidden"' + marker, 1))
    (root / "submissions").mkdir()
    (root / "submissions" / "alice.py").write_text(CORRECT)
    (root / "submissions" / "bob.py").write_text(CORRECT)
    out = root / "grades"
    grade_directory(root / "submissions", load_assignment(root / "hidden.toml"), out, jobs=1,
                    questions={"q2"})
    return out


def test_student_reports_show_hidden_tests_as_hidden(hidden_gradebook):
    out = hidden_gradebook
    student = (out / "alice.py.txt").read_text()
    instructor = json.loads((out / "instructor" / "alice.py.json").read_text())
    hidden = [t for q in instructor["questions"] for t in q["tests"] if t["visibility"] != "visible"]
    assert hidden
    for test in hidden:
        assert f"HIDDEN {test['number']} {test['name']}: hidden test" in student
        assert student.count(f"{test['number']} {test['name']}") == 1
    visible_lines = sum(len(t["output"]) for q in instructor["questions"] for t in q["tests"]
                        if t["visibility"] == "visible")
    detail_lines = [line for line in student.splitlines() if line.startswith("      ")]
    assert len(detail_lines) == visible_lines
    assert "PASS 2.1 lecture trees: 2/2" in student


def test_a_classic_project_folder_is_one_submission_and_a_class_folder_is_not(submissions):
    assert is_batch_folder(submissions)
    assert not is_batch_folder(submissions / "bob.smith")


def test_the_command_finds_the_folder_of_submissions_by_itself(tmp_path):
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "carol.py").write_text(CORRECT)
    (folder / "dave.py").write_text(CORRECT)
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "run.py", "grade", str(folder), "--out", str(out),
                           "-q", "q2"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader((out / "gradebook.csv").read_text().splitlines()))
    assert [(r["student"], r["total"]) for r in rows] == [("carol.py", "5"), ("dave.py", "5")]


def test_gradescope_bundle_runs_on_a_submission(tmp_path):
    bundle = tmp_path / "bundle"
    scripts = write_package(bundle)
    assert sorted(p.name for p in scripts) == ["run_autograder", "setup.sh"]
    assert all(os.access(p, os.X_OK) for p in scripts)
    assert (bundle / "project" / "pyproject.toml").is_file()
    assert not (bundle / "project" / ".venv").exists()
    submission = _classic_project(tmp_path / "submission", CORRECT)
    results = tmp_path / "results" / "results.json"
    env = {**os.environ, "AUTOGRADER_SUBMISSION": str(submission),
           "AUTOGRADER_RESULTS": str(results), "AUTOGRADER_PYTHON": sys.executable,
           "AUTOGRADER_ARGS": "--question q2"}
    done = subprocess.run([str(bundle / "run_autograder")], env=env, capture_output=True,
                          text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads(results.read_text())
    assert data["score"] == 5
    assert {t["tags"][0] for t in data["tests"]} == {"q2"}


def test_gradescope_bundle_refuses_a_folder_in_use(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    from pacman.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="not empty"):
        write_package(tmp_path)

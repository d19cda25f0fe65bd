"""A student's own ``multiAgents.py``: classic class names run the student's class, contained."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.containment.support import ROOT, run_program, error_lines

CLASSIC = ROOT / "tests" / "grading" / "zoo" / "correct_classic.py"
FAST = ["--layout", "small_classic", "--max-moves", "12", "--seed", "1", "--json"]


def student_folder(tmp_path: Path, name: str = "multiAgents.py") -> Path:
    shutil.copy(CLASSIC, tmp_path / name)
    return tmp_path


def test_a_classic_class_name_runs_the_class_of_multiagents_in_the_folder(tmp_path):
    folder = student_folder(tmp_path)
    done = run_program("-p", "AlphaBetaAgent", "-a", "depth=2,evalFn=better", *FAST, cwd=folder)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["agents"][0] == f"{folder / 'multiAgents.py'}:AlphaBetaAgent"
    assert f"AlphaBetaAgent from {folder / 'multiAgents.py'}" in done.stderr


def test_student_names_another_file(tmp_path):
    folder = student_folder(tmp_path, "mine.py")
    done = run_program("-p", "MinimaxAgent", "--student", "mine.py", "-a", "depth=1", *FAST,
                       cwd=folder)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["agents"][0] == f"{folder / 'mine.py'}:MinimaxAgent"
    done = run_program("-p", "NoSuchAgent", "--student", "mine.py", *FAST, cwd=folder)
    assert done.returncode == 2 and "AlphaBetaAgent" in done.stderr


def test_without_a_student_file_classic_names_are_the_projects_agents(tmp_path):
    done = run_program("-p", "AlphaBetaAgent", "-a", "depth=1", *FAST, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["agents"][0] == "AlphaBetaAgent"
    assert "from" not in done.stderr


def test_a_file_alone_suggests_its_classes_without_running_it(tmp_path):
    folder = student_folder(tmp_path)
    marker = folder / "ran"
    source = folder / "multiAgents.py"
    source.write_text(f"open({str(marker)!r}, 'w')\n" + source.read_text())
    done = run_program("-p", "multiAgents.py", *FAST, cwd=folder)
    assert done.returncode == 2 and len(error_lines(done.stderr)) == 1
    assert "multiAgents.py:AlphaBetaAgent" in done.stderr
    assert not marker.exists()


def test_classic_option_names_reach_a_file_agent(tmp_path):
    folder = student_folder(tmp_path)
    for options in ("evalFn=better,depth=2", "evalFn=scoreEvaluationFunction,depth=1"):
        done = run_program("-p", "multiAgents.py:ExpectimaxAgent", "-a", options, *FAST,
                           cwd=folder)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["outcome"] != "crash", done.stdout

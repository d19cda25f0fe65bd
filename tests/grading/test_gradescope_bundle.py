"""The Gradescope bundle where instructors upload it: ``run_autograder`` copied to the root of
the platform's layout (``$ROOT/source``, ``$ROOT/submission``, ``$ROOT/results``), each way of
building the bundle, a ``results.json`` even when the grader fails, and ``setup.sh``'s choice of
Python on an image whose own is too old (faked ``python3``, ``apt-get`` and ``uv``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from pacman.grading.gradescope import write_package

HERE = Path(__file__).resolve().parent
ZOO = HERE / "zoo"
TREE_ASSIGNMENT = """
name = "one tree"
[roles]
minimax = ["MinimaxAgent"]
[[questions]]
id = "q2"
title = "Minimax"
[[questions.tests]]
type = "tree"
name = "recitation tree"
agent = "minimax"
depth = 2
trees = ["builtin:recitation"]
points = 3
"""


def _platform(tmp_path: Path, assignment: str | None) -> Path:
    """The platform's layout: the bundle unpacked in ``source``, ``run_autograder`` copied to
    the root as the platform does, an empty ``submission`` folder."""
    root = tmp_path / "autograder"
    write_package(root / "source", assignment)
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    (root / "submission").mkdir()
    return root


def _run_autograder(root: Path, python: str = sys.executable, args: str = "") -> dict:
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": python,
           "AUTOGRADER_ARGS": args}
    for name in ("AUTOGRADER_SOURCE", "AUTOGRADER_SUBMISSION", "AUTOGRADER_RESULTS"):
        env.pop(name, None)
    done = subprocess.run(["bash", str(root / "run_autograder")], env=env, cwd="/",
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads((root / "results" / "results.json").read_text())


def test_an_assignment_file_is_found_in_source_not_beside_the_copied_script(tmp_path):
    assignment = tmp_path / "hw2.toml"
    assignment.write_text(TREE_ASSIGNMENT)
    root = _platform(tmp_path, str(assignment))
    shutil.copy(ZOO / "correct_classic.py", root / "submission" / "multiAgents.py")
    results = _run_autograder(root)
    assert results["score"] == 3.0
    assert [t["max_score"] for t in results["tests"]] == [3.0]


def test_a_whole_project_upload_is_graded_by_its_multiagents_file(tmp_path):
    root = _platform(tmp_path, "classic")
    project = root / "submission"
    shutil.copy(ZOO / "correct_classic.py", project / "multiAgents.py")
    (project / "util.py").write_text("raise SystemExit('the classic util.py is not graded')\n")
    (project / "layouts").mkdir()
    results = _run_autograder(root, args="-q q2")
    assert results["score"] == 5.0


def test_a_renamed_file_is_graded(tmp_path):
    root = _platform(tmp_path, None)
    shutil.copy(ZOO / "correct_classic.py", root / "submission" / "multiagents (2).py")
    results = _run_autograder(root, args="-q q2")
    assert results["score"] == 5.0


def test_results_are_written_when_the_grader_cannot_start(tmp_path):
    root = _platform(tmp_path, None)
    shutil.copy(ZOO / "correct_classic.py", root / "submission" / "multiAgents.py")
    results = _run_autograder(root, python=str(tmp_path / "no-python-here"))
    assert results["score"] == 0.0
    assert "could not grade" in results["output"]
    assert results["extra_data"]["grader_exit_code"] == 127


def test_the_bundle_ships_no_tests_and_no_solution(tmp_path):
    write_package(tmp_path / "bundle")
    project = tmp_path / "bundle" / "project"
    assert not (project / "tests").exists() and not (project / "bench").exists()
    solution = (ZOO / "correct_classic.py").read_text()
    for path in project.rglob("*.py"):
        assert path.read_text(errors="replace") != solution, path
        assert "class MinimaxAgent(MultiAgentSearchAgent)" not in path.read_text(errors="replace"), path


# --- setup.sh on an image whose Python is too old --------------------------------------------

FAKE_PYTHON = """#!/bin/sh
echo "{name} $*" >> "$FAKE_LOG"
case "$*" in
  *"version_info >= (3, 11)"*) [ "{version}" \\> "3.11" ] && exit 0 || exit 1 ;;
  *python_version*) echo "{version}" ;;
  "-m uv venv"*|"-m venv"*)
    for last in "$@"; do :; done
    /bin/mkdir -p "$last/bin"
    /bin/sed -e 's/{name}/venv-python/' -e 's/{version}/3.11.11/' "$0" > "$last/bin/python"
    /bin/chmod +x "$last/bin/python" ;;
esac
exit 0
"""


def _fake_image(tmp_path: Path, python_version: str) -> tuple[dict, Path]:
    """A PATH holding bash, a logging ``apt-get`` and a ``python3`` that says it is
    ``python_version`` (and makes fake virtual environments), and nothing else."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "bash").symlink_to(shutil.which("bash"))
    (bin_dir / "dirname").symlink_to(shutil.which("dirname"))
    (bin_dir / "apt-get").write_text('#!/bin/sh\necho "apt-get $*" >> "$FAKE_LOG"\n')
    (bin_dir / "python3").write_text(FAKE_PYTHON.format(name="python3", version=python_version))
    for tool in ("apt-get", "python3"):
        (bin_dir / tool).chmod(0o755)
    log = tmp_path / "calls.log"
    env = {"PATH": str(bin_dir), "FAKE_LOG": str(log), "AUTOGRADER_ROOT": str(tmp_path / "ag"),
           "HOME": str(tmp_path), "AUTOGRADER_SYSTEM_BINS": ""}
    return env, log


def _setup(tmp_path: Path, python_version: str) -> tuple[str, list[str]]:
    write_package(tmp_path / "bundle")
    env, log = _fake_image(tmp_path, python_version)
    done = subprocess.run([str(tmp_path / "bin" / "bash"), str(tmp_path / "bundle" / "setup.sh")],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout, log.read_text().splitlines()


def test_setup_installs_python_311_with_uv_when_the_image_has_310(tmp_path):
    out, calls = _setup(tmp_path, "3.10.12")
    venv = tmp_path / "ag" / "venv"
    assert "the image's Python 3.10.12 is older than 3.11: installing uv from PyPI" in out
    assert f"installed Python 3.11.11 ({venv}/bin/python)" in out
    assert "python3 -m pip install -q uv" in calls
    assert f"python3 -m uv venv --quiet --python 3.11 --seed {venv}" in calls
    assert f"venv-python -I -m pip install -q {tmp_path}/bundle/project" in calls
    assert f"venv-python -I -m pacman.grading.lockdown {tmp_path}/bundle" in calls
    assert calls[0].startswith("apt-get update")


def test_setup_uses_the_images_python_when_it_is_recent(tmp_path):
    out, calls = _setup(tmp_path, "3.12.3")
    assert "using the image's Python 3.12.3" in out
    assert not any("uv" in call.split() for call in calls)
    assert f"python3 -m venv {tmp_path}/ag/venv" in calls


def test_setup_stops_with_a_clear_line_without_any_python(tmp_path):
    env, _log = _fake_image(tmp_path, "3.10.12")
    (tmp_path / "bin" / "python3").unlink()
    write_package(tmp_path / "bundle")
    done = subprocess.run([str(tmp_path / "bin" / "bash"), str(tmp_path / "bundle" / "setup.sh")],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "no python3 on the image" in done.stdout


def test_an_empty_submission_gets_results_saying_so(tmp_path):
    root = _platform(tmp_path, None)
    (root / "submission" / "notes.txt").write_text("I ran out of time\n")
    results = _run_autograder(root)
    assert results["score"] == 0.0
    assert "no Python file in the submission" in results["output"]


def test_a_github_style_nested_project_is_graded(tmp_path):
    root = _platform(tmp_path, None)
    nested = root / "submission" / "pacman-projects" / "multiagent"
    nested.mkdir(parents=True)
    shutil.copy(ZOO / "correct_classic.py", nested / "multiAgents.py")
    (root / "submission" / "pacman-projects" / "search").mkdir()
    (root / "submission" / "pacman-projects" / "search" / "search.py").write_text("x = 1\n")
    results = _run_autograder(root, args="-q q2")
    assert results["score"] == 5.0


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0 or not shutil.which("runuser"),
                    reason="needs root and runuser")
def test_setup_prefers_a_python_every_user_can_run_to_one_only_root_can(tmp_path):
    # a pyenv-like python3.12 in a folder closed to nobody comes first on PATH; a system
    # python3.11 every user can run is there too: setup.sh takes the latter
    env, log = _fake_image(tmp_path, "3.10.12")
    (tmp_path / "bin" / "runuser").symlink_to(shutil.which("runuser"))
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o700)
    (closed / "python3.12").write_text(FAKE_PYTHON.format(name="closed-python", version="3.12.3"))
    (closed / "python3.12").chmod(0o755)
    system = Path(tempfile.mkdtemp(prefix="pacman-system-bin-"))
    try:
        system.chmod(0o755)
        (system / "python3.11").write_text(FAKE_PYTHON.format(name="system-python",
                                                              version="3.11.9"))
        (system / "python3.11").chmod(0o755)
        env.update(PATH=f"{closed}:{env['PATH']}", AUTOGRADER_SYSTEM_BINS=str(system))
        write_package(tmp_path / "bundle")
        done = subprocess.run([str(tmp_path / "bin" / "bash"), str(tmp_path / "bundle" / "setup.sh")],
                              env=env, capture_output=True, text=True, timeout=60)
    finally:
        shutil.rmtree(system)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"using the image's Python 3.11.9 ({system}/python3.11)" in done.stdout
    assert f"system-python -m venv {tmp_path}/ag/venv" in log.read_text().splitlines()


def test_results_warn_the_instructor_not_the_student_when_workers_run_as_root(monkeypatch):
    from pacman.grading import report as report_module
    from pacman.grading.grader import GradeReport

    monkeypatch.setattr(report_module, "workers_run_as_root", lambda: True)
    results = report_module.gradescope_results(GradeReport("multiAgents.py", "classic", []))
    assert "student code ran as root" in results["extra_data"]["warning"]
    assert "root" not in results["output"]
    monkeypatch.setattr(report_module, "workers_run_as_root", lambda: False)
    assert "warning" not in report_module.gradescope_results(
        GradeReport("multiAgents.py", "classic", []))["extra_data"]


# --- the whole bundle, as the platform runs it ------------------------------------------------

BROKEN = '''
from game import Agent


class ReflexAgent(Agent):
    def getAction(self, gameState)
        return gameState.getLegalActions(0)[0]
'''

# Every question's code loops: the reflex agent, the three searches and the evaluation.
LOOPING = '''
from game import Agent


class MultiAgentSearchAgent(Agent):
    def __init__(self, evalFn="scoreEvaluationFunction", depth="2"):
        self.index = 0
        self.depth = int(depth)


class ReflexAgent(Agent):
    def getAction(self, gameState):
        while True:
            pass


class MinimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        while True:
            pass


class AlphaBetaAgent(MinimaxAgent):
    pass


class ExpectimaxAgent(MinimaxAgent):
    pass


def scoreEvaluationFunction(currentGameState):
    return currentGameState.getScore()


def betterEvaluationFunction(currentGameState):
    while True:
        pass


better = betterEvaluationFunction
'''

CLASSIC_TESTS = 14  # q1 1, q2 to q4 4 each, q5 1


def _submit(root: Path, source: str) -> None:
    shutil.rmtree(root / "submission", ignore_errors=True)
    (root / "submission").mkdir()
    (root / "submission" / "multiAgents.py").write_text(source)


def _every_question_reported(results: dict) -> set[str]:
    assert len(results["tests"]) == CLASSIC_TESTS, results
    return {tag for test in results["tests"] for tag in test["tags"] if tag.startswith("q")}


def test_a_file_that_does_not_parse_gets_every_classic_question_reported_with_its_line(tmp_path):
    root = _platform(tmp_path, None)
    _submit(root, BROKEN)
    results = _run_autograder(root)
    assert results["score"] == 0.0
    assert _every_question_reported(results) == {"q1", "q2", "q3", "q4", "q5"}
    assert all("SyntaxError: expected ':' (multiAgents.py, line 6)" in test["output"]
               for test in results["tests"]), results["tests"][0]["output"]


@pytest.mark.slow
def test_the_bundle_installs_and_grades_as_on_the_platform():
    """setup.sh for real (the image's own Python, the project installed into a virtual
    environment, the lockdown; only apt-get is faked), then run_autograder on a solved file, one
    that does not parse and one whose every function loops, under a 60 s budget."""
    root = Path(tempfile.mkdtemp(prefix="autograder-"))
    try:
        root.chmod(0o755)  # as /autograder: the user who runs submissions reaches the venv
        write_package(root / "source")
        fake = root / "fake-bin"
        fake.mkdir()
        (fake / "apt-get").write_text("#!/bin/sh\nexit 0\n")
        (fake / "apt-get").chmod(0o755)
        env = {**os.environ, "AUTOGRADER_ROOT": str(root), "PATH": f"{fake}:{os.environ['PATH']}"}
        for name in ("AUTOGRADER_SOURCE", "AUTOGRADER_SUBMISSION", "AUTOGRADER_RESULTS",
                     "AUTOGRADER_PYTHON", "AUTOGRADER_ARGS"):
            env.pop(name, None)
        setup = subprocess.run(["bash", str(root / "source" / "setup.sh")], cwd=root / "source",
                               env=env, capture_output=True, text=True, timeout=1200)
        assert setup.returncode == 0, setup.stdout + setup.stderr
        assert "setup.sh: ready" in setup.stdout
        shutil.copy(root / "source" / "run_autograder", root / "run_autograder")

        def run(source: str, args: str = "") -> tuple[dict, float]:
            _submit(root, source)
            began = time.monotonic()
            done = subprocess.run(["bash", str(root / "run_autograder")], cwd="/",
                                  env={**env, "AUTOGRADER_ARGS": args}, capture_output=True,
                                  text=True, timeout=900)
            assert done.returncode == 0, done.stdout + done.stderr
            return json.loads((root / "results" / "results.json").read_text()), \
                time.monotonic() - began

        solved, _ = run((ZOO / "correct_classic.py").read_text())
        assert solved["score"] == 25.0, [t["output"] for t in solved["tests"] if t["score"] < t["max_score"]]
        broken, _ = run(BROKEN)
        assert broken["score"] == 0.0 and _every_question_reported(broken)
        looping, seconds = run(LOOPING, "--time-budget 60")
        assert looping["score"] == 0.0
        assert _every_question_reported(looping) == {"q1", "q2", "q3", "q4", "q5"}
        assert seconds < 60 + 15, seconds  # the budget, and the interpreter's start and end
    finally:
        shutil.rmtree(root, ignore_errors=True)

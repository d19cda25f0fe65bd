"""The cheating and escaping submissions of the zoo, on both boundaries: bubblewrap and the
fallback without it. Each must end with the grader exiting 0, a results.json no student process
changes afterwards, and no points on the questions the cheat targets."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pacman.grading.assignment import load_assignment
from pacman.grading.grader import grade
from pacman.contained.jail import JAIL_ENVIRONMENT as ENVIRONMENT
from pacman.grading.sandbox import jail_status

HERE = Path(__file__).resolve().parent
ZOO = HERE / "zoo"
CHEATS = HERE / "attack_cheats.toml"
ROOT = HERE.parents[1]


@pytest.fixture(params=["bubblewrap", "fallback"])
def boundary(request, monkeypatch):
    """Run the test under bubblewrap (skipped where it cannot run) and without it."""
    if request.param == "fallback":
        monkeypatch.setenv(ENVIRONMENT, "plain")
    elif not jail_status().jailed:
        pytest.skip(f"bubblewrap cannot run here ({jail_status().line})")
    else:
        monkeypatch.delenv(ENVIRONMENT, raising=False)
    return request.param


@pytest.fixture(scope="module")
def cheats():
    return load_assignment(CHEATS)


def _scores(report):
    return {q.id: q.score for q in report.questions}


def _text(report):
    return "\n".join(line for q in report.questions for t in q.tests for line in t.output)


def test_the_honest_baseline_gets_every_point_on_both_boundaries(boundary, cheats):
    report = grade(ZOO / "correct_native.py", cheats)
    assert report.score == report.max_score == 7


def test_calling_the_reference_search_gets_nothing_on_the_trees(boundary, cheats):
    report = grade(ZOO / "attack_reference_search.py", cheats, questions={"q2", "q3", "q4"})
    assert _scores(report) == {"q2": 0, "q3": 0, "q4": 0}
    assert "blocked by the grader: importing pacman.grading.tree_tests" in _text(report)


def test_overwriting_the_recorder_found_on_the_stack_gets_nothing(boundary, cheats):
    report = grade(ZOO / "attack_recorder_frames.py", cheats, questions={"q2"})
    assert _scores(report) == {"q2": 0}
    # no recorder exists in its process: it fell back to the first move, and the grader's own
    # record shows it generated nothing
    assert "got action A, generated ; evaluated" in _text(report)


def test_the_shipped_agents_and_evaluations_cannot_be_imported(boundary, cheats):
    report = grade(ZOO / "attack_reference_agents.py", cheats, questions={"q1", "q5"})
    assert _scores(report) == {"q1": 0, "q5": 0}
    assert "blocked by the grader: importing pacman.agents.evaluation" in _text(report)


def test_forging_a_state_handle_is_refused(boundary, cheats):
    report = grade(ZOO / "attack_cheat_state.py", cheats, questions={"q2"})
    assert _scores(report) == {"q2": 0}
    assert "not a state the grader gave out" in _text(report)


def _grade_cli(name: str, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pacman.cli", "grade", str(ZOO / name), "-a", str(CHEATS),
         "--question", "q2", "--gradescope", str(out / "results.json"),
         "--json", str(out / "report.json")],
        capture_output=True, text=True, timeout=240, cwd=out, env={**os.environ})


def _no_process_mentions(text: str) -> bool:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if text in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    return False
            except OSError:
                continue
    return True


@pytest.mark.parametrize("name, blocked", [
    ("attack_escape_rewrite.py", "starting a process (_posixsubprocess.fork_exec)"),
    ("attack_pidfd_kill.py", "sending a signal (os.pidfd_open)"),
    ("attack_forked_kill.py", "starting a process (_posixsubprocess.fork_exec)"),
])
def test_escaping_or_killing_the_grader_fails_and_the_results_stay(boundary, tmp_path, name, blocked):
    done = _grade_cli(name, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    results = tmp_path / "results.json"
    first = results.read_bytes()
    data = json.loads(first)
    assert data["score"] == 0
    assert blocked in data["tests"][0]["output"]
    expected = "bubblewrap (own user, PID" if boundary == "bubblewrap" else "process limits only"
    assert expected in data["extra_data"]["sandbox"]
    assert expected in done.stdout.splitlines()[1]
    time.sleep(1.0)  # a process left behind would rewrite it now (the escape waits 0.25 s)
    assert results.read_bytes() == first
    if sys.platform == "linux":
        assert _no_process_mentions("grader = int(sys.argv[1])")


def test_reports_are_replaced_atomically(tmp_path):
    from pacman.grading.report import write_json

    target = tmp_path / "results.json"
    target.write_text("old")
    write_json({"score": 1}, target)
    assert json.loads(target.read_text()) == {"score": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]  # no temporary left


# --- the same cheats written for the classic course, on the classic assignment ---------------

@pytest.fixture(scope="module")
def classic():
    return load_assignment("classic")


def test_a_classic_search_that_forges_its_count_gets_nothing_on_q2(boundary, classic):
    """Its moves come from an uncounted search on a local copy of the state (all right), and no
    recorder exists in its process to forge: the grader's count shows it explored nothing."""
    report = grade(ZOO / "attack_classic_recorder_frames.py", classic, questions={"q2"})
    assert _scores(report) == {"q2": 0}
    positions = next(t for t in report.questions[0].tests if "smallClassic" in t.name)
    assert positions.score == 0
    assert positions.metrics["wrong_moves"] == 0
    assert positions.metrics["wrong_counts"] == positions.metrics["positions"] > 0
    assert "explored 0 distinct states" in "\n".join(positions.output)


def test_classic_files_cannot_import_the_shipped_agents_either(boundary, classic):
    report = grade(ZOO / "attack_classic_reference_agents.py", classic, questions={"q1", "q5"})
    assert _scores(report) == {"q1": 0, "q5": 0}
    assert "blocked by the grader: importing pacman.agents.evaluation" in _text(report)

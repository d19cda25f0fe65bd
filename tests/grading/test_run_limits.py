"""Limits from the platform: the shipped assignments fit Gradescope's default container, the
bundle grades within a run budget it states (and that can be changed), and the budget cuts
the tests of a submission that runs out of time rather than letting the platform kill it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pacman import cli
from pacman.grading.assignment import load_assignment
from pacman.grading.grader import grade
from pacman.grading.gradescope import write_package
from pacman.grading.run_limits import BUDGET_RESERVE, STARTUP_SECONDS, RunLimits, worst_case_seconds

ZOO = Path(__file__).resolve().parent / "zoo"
PLATFORM_MEMORY_MB = 768


@pytest.mark.parametrize("name", ["classic", "default"])
def test_shipped_assignments_fit_the_platforms_memory(name):
    tests = [t for q in load_assignment(name).questions for t in q.tests]
    assert max(t.limits.memory_mb for t in tests) <= PLATFORM_MEMORY_MB * 2 // 3


def test_the_classic_worst_case_is_within_an_hour_and_the_budget_cuts_it():
    # the classic games' own limits (120 s of thinking per game, ten games) allow more than a
    # container's 10 minutes; the run budget, which ``grade`` always has, cuts them
    assert worst_case_seconds(load_assignment("classic")) <= 60 * 60


def test_the_bundle_states_and_applies_its_limits(tmp_path):
    write_package(tmp_path / "default")
    run = (tmp_path / "default" / "run_autograder").read_text()
    assert "--time-budget 540 --memory-mb 512" in run
    readme = (tmp_path / "default" / "README.md").read_text()
    assert "540 s of wall time" in readme and "512 MB" in readme
    assert f"classic: {worst_case_seconds(load_assignment('classic')):.0f} s" in readme
    assert cli.main(["grade", "--gradescope-package", str(tmp_path / "big"), "--time-budget",
                     "1500", "--memory-mb", "1024"]) == 0
    assert "--time-budget 1500 --memory-mb 1024" in (tmp_path / "big" / "run_autograder").read_text()


def test_the_run_budget_cuts_each_tests_limit(attack_assignment):
    limits = RunLimits(budget_seconds=BUDGET_RESERVE + STARTUP_SECONDS + 6.0)
    began = time.monotonic()
    report = grade(ZOO / "attack_infinite_loop.py", attack_assignment, limits=limits)
    assert time.monotonic() - began < 6.0 + STARTUP_SECONDS
    for test in (q.tests[0] for q in report.questions):
        assert test.score == 0
        assert any("time limit was cut to" in line and "budget of 31 s" in line for line in test.output)


def test_no_test_starts_once_the_budget_is_spent(attack_assignment):
    limits = RunLimits(budget_seconds=BUDGET_RESERVE + STARTUP_SECONDS + 2.0)
    began = time.monotonic()
    report = grade(ZOO / "attack_infinite_loop.py", attack_assignment, limits=limits)
    assert time.monotonic() - began < 2.0
    for test in (q.tests[0] for q in report.questions):
        assert test.output == ["not run: the grading run's time budget (27 s) is spent"]


def test_memory_is_capped_for_every_test(attack_assignment):
    report = grade(ZOO / "attack_memory_bomb.py", attack_assignment, limits=RunLimits(memory_mb=200))
    assert report.score == 0


def test_a_budget_outside_reason_is_refused(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["grade", "x.py", "--time-budget", "5"])
    assert stop.value.code == 2
    assert "between 30 and 86400" in capsys.readouterr().err

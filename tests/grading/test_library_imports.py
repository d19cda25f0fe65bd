"""Ordinary imports in a student's file work in the worker: ``import matplotlib.pyplot`` (and
numpy) finds a private configuration folder with the font list the grader built, and what the
import does there is not counted as an attempt to escape; with and without bubblewrap."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from pacman.grading.assignment import load_assignment
from pacman.grading.grader import grade

SOLVED = Path(__file__).resolve().parent / "zoo" / "correct_classic.py"

pytestmark = pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None,
                                reason="matplotlib is not installed")


@pytest.mark.parametrize("jail", ["bubblewrap", "none"])
def test_a_file_importing_matplotlib_gets_its_points(tmp_path, monkeypatch, jail):
    if jail == "none":
        monkeypatch.setenv("PACMAN_AGENT_JAIL", "plain")
    path = tmp_path / "multiAgents.py"
    path.write_text("import matplotlib.pyplot as plt\nimport numpy as np\n" + SOLVED.read_text())
    report = grade(path, load_assignment("classic"), questions={"q2"})
    lines = [line for q in report.questions for t in q.tests for line in t.output]
    assert report.score == report.max_score, lines
    assert not any("forbids" in line for line in lines), lines


def test_writing_outside_the_private_folder_is_still_an_attempt(tmp_path, monkeypatch):
    monkeypatch.setenv("PACMAN_AGENT_JAIL", "plain")
    path = tmp_path / "multiAgents.py"
    path.write_text("import os\ntry:\n    os.mkdir('/var/tmp/escape-attempt')\nexcept OSError:\n"
                    "    pass\n" + SOLVED.read_text())
    report = grade(path, load_assignment("classic"), questions={"q2"})
    lines = [line for q in report.questions for t in q.tests for line in t.output]
    assert report.score == 0
    assert any("creating folders" in line for line in lines), lines

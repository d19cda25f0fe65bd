"""Shared fixtures of the grading tests: the zoo of submissions and the assignments."""

from __future__ import annotations

from pathlib import Path

import pytest

from pacman.grading.assignment import load_assignment

HERE = Path(__file__).resolve().parent
ZOO = HERE / "zoo"


@pytest.fixture(scope="session")
def default_assignment():
    return load_assignment()


@pytest.fixture(scope="session")
def attack_assignment():
    return load_assignment(HERE / "attack.toml")

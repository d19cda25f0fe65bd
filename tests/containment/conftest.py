"""Every test here must leave no process behind (counted before and after)."""

from __future__ import annotations

import pytest

from tests.containment.support import left_behind, live_processes


@pytest.fixture(autouse=True)
def no_process_left():
    before = live_processes()
    yield
    assert not left_behind(before), "processes left behind"

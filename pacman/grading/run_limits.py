"""Limits of a whole grading run, from the platform it runs on (Gradescope's container: a
wall-time limit for the whole run, a memory limit for the whole container), on top of each
test's own limits from the assignment."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

from pacman.grading.assignment_model import Assignment, Test

#: Extra seconds a worker gets to start, import the submission and build an agent.
STARTUP_SECONDS = 10.0
#: Seconds of a run's time budget kept back for writing the reports.
BUDGET_RESERVE = 15.0
#: A test is not started with less than this many seconds of the run's budget left.
MIN_TEST_SECONDS = 3.0


@dataclass(frozen=True)
class RunLimits:
    """Limits of a whole grading run, on top of each test's own (the platform's): every test's
    worker gets at most ``memory_mb``; ``budget_seconds`` is the wall time of the whole run,
    from which :data:`BUDGET_RESERVE` is kept for the reports: each test's wall limit is cut
    to what is left, and a test with less than :data:`MIN_TEST_SECONDS` left is not run."""

    memory_mb: int | None = None
    budget_seconds: float | None = None

    def apply(self, test: Test, deadline: float | None) -> Test | None:
        """``test`` with its limits cut to these (``None``: no time is left for it)."""
        limits = test.limits
        if self.memory_mb is not None and self.memory_mb < limits.memory_mb:
            limits = dataclasses.replace(limits, memory_mb=self.memory_mb)
        if deadline is not None:
            left = deadline - time.monotonic() - STARTUP_SECONDS
            if left < MIN_TEST_SECONDS:
                return None
            if left < limits.test_seconds:
                limits = dataclasses.replace(limits, test_seconds=left)
        return test if limits is test.limits else dataclasses.replace(test, limits=limits)


def worst_case_seconds(assignment: Assignment) -> float:
    """The longest a run of ``assignment`` can take: every test's wall limit, plus the start of
    its worker (without a run budget to cut it)."""
    return sum(t.limits.test_seconds + STARTUP_SECONDS for q in assignment.questions for t in q.tests)

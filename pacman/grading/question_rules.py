"""Question-level rules applied after a question's tests: naming the likely mistakes
consistently, and the all-or-nothing rule of the classic course."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from pacman.grading.variants import BUGS

if TYPE_CHECKING:
    from pacman.grading.grader import TestResult


def all_or_nothing(results: list[TestResult]) -> None:
    """Every test of the question must pass for any of its points (the classic rule)."""
    failed = [r.number for r in results if not r.passed]
    if not failed:
        return
    for result in results:
        result.passed_tests = result.passed
        if result.passed and result.score > 0:
            result.output.append(f"passed, but this question gives points only when all its tests "
                                 f"pass (failed: {', '.join(failed)})")
        result.score = 0.0


def settle_diagnosis(results: list[TestResult]) -> None:
    """Name each failing test's likely mistakes, preferring those that explain the question's
    other failures too (one tree alone can fit several mistakes)."""
    failing = [r for r in results if not r.passed and r.diagnosis]
    common = set(common_diagnosis([r.diagnosis for r in failing]))
    for result in failing:
        result.diagnosis = [b for b in result.diagnosis if b in common] or result.diagnosis
        result.output.extend(f"likely mistake: {BUGS[bug]}" for bug in result.diagnosis)


def common_diagnosis(per_tree: list[list[str]]) -> list[str]:
    explained = [set(b) for b in per_tree if b]
    if not explained:
        return []
    common = set.intersection(*explained)
    if common:
        return sorted(common)
    counts = Counter(b for bugs in explained for b in bugs)
    best = max(counts.values())
    return sorted(b for b, c in counts.items() if c == best)

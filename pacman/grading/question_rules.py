"""Question-level rules applied after a question's tests: naming the likely mistakes
consistently, and the all-or-nothing rule of the classic course."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from pacman.grading.variants import BUGS

if TYPE_CHECKING:
    from pacman.grading.session import TestResult


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
    """The mistakes that explain failures, strongest evidence first: those every failure fits,
    else those that fit the most failures. Among equals the order is :data:`BUGS`'s, where a
    specific mistake (min and max swapped) comes before a general one that a failing tree
    may also fit (not stopping at terminal states)."""
    explained = [set(b) for b in per_tree if b]
    if not explained:
        return []
    counts = Counter(b for bugs in explained for b in bugs)
    common = set.intersection(*explained)
    if not common:
        best = max(counts.values())
        common = {b for b, c in counts.items() if c == best}
    rank = {bug: place for place, bug in enumerate(BUGS)}
    return sorted(common, key=lambda b: (-counts[b], rank.get(b, len(rank)), b))

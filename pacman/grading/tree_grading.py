"""Tree tests: the submission's search on trees held by the grader, against the reference
search, with the wrong variants (:mod:`pacman.grading.variants`) naming a failure's mistake."""

from __future__ import annotations

from typing import Any

from pacman.grading.assignment import Test, TreeCase
from pacman.grading.session import SHOWN_FAILURES, TestResult, error_text, finish_test, Session
from pacman.grading.question_rules import common_diagnosis
from pacman.grading.sandbox import WorkerFailure
from pacman.grading.tree_tests import Observation, judge, reference_search
from pacman.grading.variants import diagnose


def tree_test(session: Session, test: Test, result: TestResult) -> None:
    """Run ``test`` tree by tree; every tree must be right (action and nodes generated, and
    nodes evaluated unless the test says not to compare them)."""
    failures = []
    passed = 0
    algorithm = test.algorithm
    assert algorithm is not None  # a tree test always names one
    for case in test.cases:
        expected = reference_search(case.tree, algorithm, test.depth, test.strict)
        seen = _student_tree(session, test, case)
        verdict = judge(expected, seen, test.ties, test.compare_evaluated)
        if verdict.passed:
            passed += 1
            continue
        bugs = []
        if seen.error is None or not seen.error.startswith("worker:"):
            bugs = diagnose(case.tree, algorithm, test.depth, test.strict, seen)
            if not bugs and seen.error and seen.terminal_expansions and _error_type(seen.error) in (
                    "ValueError", "ZeroDivisionError", "GameOverError", "IndexError"):
                bugs = ["ignores_terminal"]
        failures.append((case, expected, seen, verdict, bugs))
        if seen.error and seen.error.startswith("worker:"):
            break  # the worker is gone or out of time: the rest would fail the same way
    total = len(test.cases)
    result.metrics = {"trees": total, "passed": passed}
    if not failures:
        result.score = test.points
        result.output.append(f"all {total} tree{'s' if total != 1 else ''} correct "
                             f"({test.algorithm}, depth {test.depth})")
    else:
        result.output.append(f"{passed} of {total} trees correct ({test.algorithm}, depth "
                             f"{test.depth}); every tree must be right for the test to pass")
        for case, expected, seen, verdict, _bugs in failures[:SHOWN_FAILURES]:
            ref = expected.reference
            result.output.append(f"- {case.label}: " + "; ".join(verdict.differences))
            result.output.append(f"  expected action {ref.action}, generated "
                                 f"{' '.join(ref.generated)}; evaluated {' '.join(ref.evaluated)}")
            if seen.error is None:
                result.output.append(f"  got action {seen.action}, generated "
                                     f"{' '.join(seen.generated[:40])}; evaluated "
                                     f"{' '.join(seen.evaluated[:40])}")
        if len(failures) > SHOWN_FAILURES:
            result.output.append(f"- ... and {len(failures) - SHOWN_FAILURES} more failing trees")
        result.diagnosis = common_diagnosis([f[4] for f in failures])
    finish_test(result, session)


def _error_type(error: str) -> str:
    return error.partition(":")[0]


def _student_tree(session: Session, test: Test, case: TreeCase) -> Observation:
    try:
        session.ensure()
        reply = session.request({"cmd": "tree", "role": test.role, "tree": case.tree.data,
                                 "agents": case.tree.num_agents, "depth": test.depth,
                                 "budget": test.limits.node_budget or 200 * case.tree.size + 1000},
                                test.limits.move_seconds)
    except WorkerFailure as failure:
        return Observation(None, (), (), error=f"worker: {failure}")
    error = reply.get("error")
    value = reply.get("value")
    return Observation(
        action=reply.get("action") if isinstance(reply.get("action"), str) else None,
        generated=_ids(reply.get("generated")), evaluated=_ids(reply.get("evaluated")),
        value=value if isinstance(value, (int, float)) and not isinstance(value, bool) else None,
        error=None if not error else error_text(error),
        terminal_expansions=_ids(reply.get("terminal_expansions")))


def _ids(items: Any) -> tuple[str, ...]:
    return tuple(x for x in items if isinstance(x, str)) if isinstance(items, list) else ()

"""Nothing a submission writes to its pipe crashes the grader: the decoder accepts JSON objects
nested at most ``MAX_DEPTH`` deep and refuses everything else with ``ValueError``; a grader fed
arbitrary answers (hypothesis) still returns a report; a real submission writing a 200,000-deep
array fails its test and grading goes on; and ``grade --gradescope`` writes its results.json
even when the grader itself fails."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pacman import cli
from pacman.grading import session as session_module
from pacman.grading.assignment import load_assignment
from pacman.grading.grader import grade
from pacman.grading.report import gradescope_results, json_report
from pacman.grading.sandbox import MAX_DEPTH, Worker, decode_answer

HERE = Path(__file__).resolve().parent
ZOO = HERE / "zoo"

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20)


def _nested(depth: int) -> bytes:
    return b'{"a": ' + b"[" * (depth - 1) + b"]" * (depth - 1) + b"}"


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 2_000, 200_000])
def test_deep_nesting_is_refused_as_a_bad_answer(depth):
    with pytest.raises(ValueError):
        decode_answer(_nested(depth))
    with pytest.raises(ValueError):
        decode_answer(b"[" * depth + b"]" * depth)


def test_nesting_up_to_the_limit_is_accepted():
    assert decode_answer(_nested(MAX_DEPTH)) == json.loads(_nested(MAX_DEPTH))


@given(st.binary(max_size=200) | _json.map(lambda v: json.dumps(v).encode()))
def test_any_bytes_decode_to_an_object_or_a_value_error(data):
    try:
        reply = decode_answer(data)
    except ValueError:
        return
    assert isinstance(reply, dict)


# --- the grader fed arbitrary answers --------------------------------------------------------

FUZZ_ASSIGNMENT = """
name = "fuzz"
[limits]
move_seconds = 1.0
test_seconds = 5.0
[roles]
minimax = ["MinimaxAgent"]
[[questions]]
id = "q1"
title = "trees"
[[questions.tests]]
type = "tree"
name = "recitation"
agent = "minimax"
depth = 2
trees = ["builtin:recitation"]
[[questions.tests]]
type = "positions"
name = "positions"
agent = "minimax"
layout = "smallClassic"
ghosts = "directional"
ghost_count = 2
max_moves = 3
[[questions.tests]]
type = "game"
name = "one game"
agent = "minimax"
layout = "tiny"
ghosts = "random"
games = 1
max_moves = 6
credit = [{ metric = "failures", at_most = 0, points = 1 }]
"""

_KEYS = ["found", "error", "action", "value", "generated", "evaluated", "call", "values",
         "output", "violations", "failed", "explored", "handle", "asked", "words", "random"]
_answer = st.dictionaries(st.sampled_from(_KEYS), _json, max_size=5).map(
    lambda d: json.dumps(d).encode()) | st.binary(max_size=30)


class _Process:
    pid = 0

    def wait(self, timeout: float | None = None) -> int:
        return 1


class _Connection:
    """A pipe whose far end says what hypothesis drew, then closes."""

    def __init__(self, answers: list[bytes]) -> None:
        self.answers = list(answers)

    def send_bytes(self, data: bytes) -> None:
        pass

    def poll(self, timeout: float) -> bool:
        return True

    def recv_bytes(self, limit: int) -> bytes:
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)

    def close(self) -> None:
        pass


def _fake_worker(answers: list[bytes]) -> type[Worker]:
    class FakeWorker(Worker):
        def __init__(self, limits: Any, readable: Any = (), submission: Any = None) -> None:
            self.limits, self.alive, self.search = limits, True, None
            self._staged, self._renames = None, []
            self.connection = _Connection(answers)
            self.process = _Process()  # type: ignore[assignment]
            self.started = time.monotonic()
            self.deadline = self.started + limits.wall_seconds

        def kill(self) -> None:
            self.alive = False

        def close(self) -> None:
            self.alive = False

    return FakeWorker


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_answer, max_size=12))
@example([b'{"ok": true, "found": 5, "violations": true}', b'{"violations": true}'])
@example([b'{"ok": true, "found": {"minimax": "MinimaxAgent"}}', b'{"violations": {"a": 1}}'])
def test_the_grader_survives_any_answers(monkeypatch, tmp_path_factory, answers):
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "fuzz.toml").write_text(FUZZ_ASSIGNMENT)
    (folder / "sub.py").write_text("class MinimaxAgent: pass\n")
    monkeypatch.setattr(session_module, "Worker", _fake_worker(answers))
    report = grade(folder / "sub.py", load_assignment(folder / "fuzz.toml"))
    assert 0 <= report.score <= report.max_score
    json.dumps(json_report(report))
    json.dumps(gradescope_results(report))


# --- real processes --------------------------------------------------------------------------

def test_a_deep_array_on_the_pipe_fails_the_test_not_the_grader(attack_assignment):
    report = grade(ZOO / "attack_deep_json.py", attack_assignment)
    first = report.questions[0].tests[0]
    assert first.score == 0
    assert "malformed answer" in first.output[0]


def test_results_json_is_written_when_the_grader_fails(tmp_path, monkeypatch, capsys):
    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug of the grader")

    monkeypatch.setattr("pacman.cli.grade.grade", broken)
    results = tmp_path / "results.json"
    code = cli.main(["grade", str(ZOO / "correct_classic.py"), "--gradescope", str(results)])
    assert code == 1
    data = json.loads(results.read_text())
    assert data["score"] == 0.0 and data["tests"] == []
    assert "could not grade" in data["output"]
    assert "RuntimeError: a bug of the grader" in data["extra_data"]["grader_error"]
    assert "grade: the grader failed" in capsys.readouterr().err


def test_results_json_is_written_when_there_is_nothing_to_grade(tmp_path):
    results = tmp_path / "results.json"
    code = cli.main(["grade", str(tmp_path / "missing"), "--gradescope", str(results)])
    assert code == 2
    assert "Nothing was graded" in json.loads(results.read_text())["output"]

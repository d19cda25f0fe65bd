"""The contained-agent attack cases, graded: a submission holding memory in a memory file,
reading private files, typing into a terminal, or raising an exception too big or unprintable
to show, under bubblewrap and under the plain backend. Each ends as the test's failure in
words that name what happened, and grading goes on."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import subprocess
import sys
import termios
import time
import tomllib
import uuid
from pathlib import Path

import pytest

from pacman.contained.jail import JAIL_ENVIRONMENT
from pacman.grading.assignment import parse_assignment
from pacman.grading.grader import grade
from pacman.grading.policy import PROJECT
from pacman.grading.run_limits import RunLimits
from pacman.grading.sandbox import jail_status

HEADER = '''
import json, os, sys

class ReflexAgent:
    def __init__(self, index=0, rng=None):
        self.rng = rng

    def get_action(self, state):
        attack()
        return self.rng.choice(state.legal_actions())
'''

ATTACKS = {
    "memfd": '''
def attack():
    held, written = os.memfd_create("hoard"), 0
    while written < 1024 << 20:
        written += os.write(held, b"\\xa5" * (16 << 20))
''',
    "files": '''
def attack():
    read = {}
    for path in %(paths)r:
        try:
            with open(path, "rb") as handle:
                read[path] = len(handle.read())
        except Exception as error:
            read[path] = type(error).__name__
    raise RuntimeError("READ" + json.dumps(read) + "READ")
''',
    "terminal": '''
def attack():
    import fcntl, termios
    done = []
    for name in ("/dev/tty", 0, 1, 2):
        try:
            fd = os.open(name, os.O_RDWR) if isinstance(name, str) else name
            for byte in b"echo %(mark)s\\n":
                fcntl.ioctl(fd, termios.TIOCSTI, bytes([byte]))
            done.append(name)
        except Exception:
            pass
    raise RuntimeError("TTY" + json.dumps(done) + "TTY")
''',
    "huge_message": '''
def attack():
    raise ValueError("y" * (40 << 20))
''',
    "raising_str": '''
class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no words")

def attack():
    raise Unprintable()
''',
}

ASSIGNMENT_TOML = '''
name = "contained attacks"

[limits]
move_seconds = 5.0
test_seconds = 30.0

[roles]
reflex = ["ReflexAgent"]

[[questions]]
id = "q"

[[questions.tests]]
type = "game"
agent = "reflex"
layout = "tiny"
games = 1
max_moves = 20
seed = 1
credit = [{ metric = "failures", at_most = 0 }]
'''
ASSIGNMENT = parse_assignment(tomllib.loads(ASSIGNMENT_TOML), "contained attacks")


def _use(backend: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(JAIL_ENVIRONMENT, backend)
    if backend == "bwrap":
        monkeypatch.delenv(JAIL_ENVIRONMENT)
        if not jail_status().jailed:
            pytest.skip(jail_status().line)
    return backend


@pytest.fixture(params=["bwrap", "plain"])
def boundary(request, monkeypatch):
    return _use(request.param, monkeypatch)


def _graded(tmp_path: Path, name: str, memory_mb: int | None = None,
            **values: object) -> tuple[float, str]:
    path = tmp_path / "submission" / "attack.py"
    path.parent.mkdir()
    path.write_text(HEADER + ATTACKS[name] % values if values else HEADER + ATTACKS[name])
    report = grade(path, ASSIGNMENT, limits=RunLimits(memory_mb=memory_mb))
    (test,) = report.questions[0].tests
    return report.score, "\n".join(test.output)


def test_a_gigabyte_in_a_memory_file_is_the_tests_failure_naming_the_limit(boundary, tmp_path):
    score, text = _graded(tmp_path, "memfd", memory_mb=256)
    assert score == 0, text
    assert "File too large" in text and "limit of 1 MB" in text, text


def test_private_files_are_out_of_reach(boundary, tmp_path):
    key = tmp_path / "seal.key"
    key.write_bytes(b"secret")
    key.chmod(0o600)
    paths = ["/etc/shadow", str(PROJECT / "pyproject.toml"), str(key), "/root/.ssh"]
    score, text = _graded(tmp_path, "files", paths=paths)
    assert score == 0, text
    read = json.loads(text.split("READ")[1])
    assert not any(isinstance(size, int) for size in read.values()), read
    assert "blocked by the grader: reading the file /etc/shadow" in text, text


@pytest.mark.parametrize("backend", ["bwrap", pytest.param("plain", marks=pytest.mark.slow)])
def test_nothing_is_typed_into_the_graders_terminal(backend, tmp_path, monkeypatch):
    """``grade`` run from a terminal (its controlling terminal, its stdin and stderr): the
    submission's attempts to type into it (TIOCSTI) reach nothing."""
    _use(backend, monkeypatch)
    mark = f"typed{uuid.uuid4().hex[:12]}"
    path = tmp_path / "submission" / "attack.py"
    path.parent.mkdir()
    path.write_text(HEADER + ATTACKS["terminal"] % {"mark": mark})
    assignment = tmp_path / "assignment.toml"
    assignment.write_text(ASSIGNMENT_TOML)
    master, slave = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pacman.cli", "grade", str(path), "-a", str(assignment),
             "--json", str(tmp_path / "report.json")], stdin=slave, stdout=subprocess.DEVNULL,
            stderr=slave, cwd=tmp_path, timeout=120, start_new_session=True,
            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        time.sleep(0.3)
        os.set_blocking(slave, False)
        try:
            typed = os.read(slave, 65536)
        except BlockingIOError:
            typed = b""
    finally:
        os.close(slave)
        os.close(master)
    assert done.returncode == 0
    assert mark.encode() not in typed, typed
    report = json.loads((tmp_path / "report.json").read_text())
    output = json.dumps(report)
    assert "TTY[]TTY" in output, output[-3000:]


@pytest.mark.parametrize("name", ["huge_message", "raising_str"])
def test_an_exception_too_big_or_unprintable_is_the_tests_failure_in_bounded_words(
        boundary, tmp_path, name):
    score, text = _graded(tmp_path, name)
    assert score == 0, text
    assert "ended its own process" not in text, text
    assert len(text) < 20_000, len(text)
    expected = "ValueError: yyyy" if name == "huge_message" else "could not be made"
    assert expected in text, text

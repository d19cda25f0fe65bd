"""Uploads are looked at before any read: only regular files under the size cap are taken, no
link is followed, pipes, devices and sockets are refused by name, and the worker's copy is its
user's alone. A FIFO or a link to /dev/zero as ``multiAgents.py`` ends the run at once with a
``results.json`` that says why."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pacman.grading.uploads import (MAX_FILE_BYTES, UploadRefused, inspect_upload, read_regular,
                                    stage)

SECRET = "instructor-only-7731"
SOLVED = Path(__file__).resolve().parent / "zoo" / "correct_classic.py"


def _hostile_folder(tmp_path: Path) -> Path:
    """A project folder holding one good file and everything a zip or a hostile student can
    put beside it."""
    vault = tmp_path / "vault"
    vault.mkdir(mode=0o700)
    (vault / "assignment.toml").write_text(f"# {SECRET}\n")
    (vault / "assignment.toml").chmod(0o644)
    upload = tmp_path / "upload"
    (upload / "pkg").mkdir(parents=True)
    (upload / "multiAgents.py").write_text("x = 1\n")
    (upload / "pkg" / "util.py").write_text("y = 2\n")
    (upload / "notes.txt").symlink_to(vault / "assignment.toml")
    (upload / "zero.py").symlink_to("/dev/zero")
    (upload / "linked").symlink_to(vault, target_is_directory=True)
    os.mkfifo(upload / "pipe.py")
    (upload / "big.py").write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(upload / "sock"))
    return upload


def test_inspect_takes_regular_files_and_names_the_rest(tmp_path):
    upload = inspect_upload(_hostile_folder(tmp_path))
    assert upload.files == ("multiAgents.py", "pkg/util.py")
    reasons = dict(line.split(": ", 1) for line in upload.refused)
    assert reasons == {
        "big.py": f"{MAX_FILE_BYTES + 1:,} bytes, over the cap of {MAX_FILE_BYTES:,} bytes per file",
        "linked": "a symbolic link (not followed)",
        "notes.txt": "a symbolic link (not followed)",
        "pipe.py": "a named pipe (FIFO), not a file",
        "sock": "a socket, not a file",
        "zero.py": "a symbolic link (not followed)",
    }


def test_stage_copies_regular_files_only_and_gives_them_to_the_worker(tmp_path):
    upload = inspect_upload(_hostile_folder(tmp_path))
    destination = tmp_path / "stage"
    destination.mkdir()
    owner = (65534, 65534) if os.geteuid() == 0 else None
    copy = stage(upload, destination, owner)
    found = sorted(str(p.relative_to(copy)) for p in copy.rglob("*"))
    assert found == ["multiAgents.py", "pkg", "pkg/util.py"]
    assert SECRET not in "".join(p.read_text() for p in copy.rglob("*.py"))
    for path in (copy, copy / "pkg", copy / "multiAgents.py"):
        mode = path.lstat().st_mode
        assert stat.S_IMODE(mode) == (0o500 if path.is_dir() else 0o400)
        if owner is not None:
            assert (path.lstat().st_uid, path.lstat().st_gid) == owner


def test_read_regular_never_waits_on_a_pipe_nor_follows_a_link(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "zero").symlink_to("/dev/zero")
    (tmp_path / "file").write_text("ok")
    began = time.monotonic()
    with pytest.raises(UploadRefused, match="named pipe"):
        read_regular(tmp_path / "pipe")
    with pytest.raises(UploadRefused, match="symbolic link"):
        read_regular(tmp_path / "zero")
    with pytest.raises(UploadRefused, match="device"):
        read_regular(Path("/dev/zero"))
    assert time.monotonic() - began < 1
    assert read_regular(tmp_path / "file") == b"ok"


def _grade_folder(folder: Path, results: Path, timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pacman.cli", "grade", str(folder), "--single",
                           "--time-budget", "30", "--gradescope", str(results)],
                          capture_output=True, text=True, timeout=timeout, check=False)


@pytest.mark.parametrize("make", ["fifo", "dev-zero"])
def test_a_graded_file_that_is_not_a_file_is_refused_at_once(tmp_path, make):
    folder = tmp_path / "submission"
    folder.mkdir()
    if make == "fifo":
        os.mkfifo(folder / "multiAgents.py")
    else:
        (folder / "multiAgents.py").symlink_to("/dev/zero")
    results = tmp_path / "results.json"
    began = time.monotonic()
    done = _grade_folder(folder, results, timeout=40)
    assert time.monotonic() - began < 20
    assert done.returncode == 2
    data = json.loads(results.read_text())
    assert data["score"] == 0
    expected = "a named pipe (FIFO)" if make == "fifo" else "a symbolic link (not followed)"
    assert f"multiAgents.py: {expected}" in data["output"]
    assert done.stderr.startswith("pacman-arena:") and "Traceback" not in done.stderr


def test_refused_entries_beside_a_graded_file_are_listed_in_the_report(tmp_path):
    from pacman.grading.assignment import load_assignment
    from pacman.grading.grader import grade
    from pacman.grading.report import gradescope_results

    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "multiAgents.py").write_text(SOLVED.read_text())
    os.mkfifo(folder / "layout.py")
    (folder / "secret.txt").symlink_to("/etc/shadow")
    report = grade(folder, load_assignment("classic"), questions={"q2"})
    assert report.refused == ["layout.py: a named pipe (FIFO), not a file",
                              "secret.txt: a symbolic link (not followed)"]
    assert report.score == report.max_score
    output = gradescope_results(report)["output"]
    assert "not read from the upload: layout.py: a named pipe (FIFO), not a file" in output

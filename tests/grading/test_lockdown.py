"""What a submission can read when the grader is root and bubblewrap cannot run (the fallback
of containers without user namespaces): the bundle is locked down as ``setup.sh`` does, the
worker runs as ``nobody``, and a submission that opens files below Python's audit hook
(``readline.read_history_file``) finds the assignment, the shipped assignments' hidden tests
and the project's agents closed by the kernel; importing the agents by file path fails too.
Needs root and an interpreter of this Python's version that every user can run
(``/usr/bin/python3.X``)."""

from __future__ import annotations

import json
from importlib import metadata
import os
import shutil
import site
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from pacman.grading.gradescope import write_package
from pacman.grading.policy import WORKER_MODULES
from pacman.grading.lockdown import lock_folder, lock_project

SYSTEM_PYTHON = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
SECRET = "hidden-seed-4242"
PEEK = '''
import importlib.util
import readline


def _load(path):
    try:
        spec = importlib.util.spec_from_file_location("stolen", path)
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
        return "imported"
    except OSError as error:
        return f"refused {{error.errno}}"


def _peek(path):
    try:
        readline.clear_history()
        readline.read_history_file(path)
        return "read " + " ".join(readline.get_history_item(i) or "" for i in range(1, 6))
    except OSError as error:
        return f"refused {{error.errno}}"


class MinimaxAgent:
    def getAction(self, gameState):
        raise RuntimeError(" / ".join([_peek(p) for p in {targets!r}] + [_load({targets!r}[-1])]))
'''
ASSIGNMENT = f"""# {SECRET}
name = "locked"
[roles]
minimax = ["MinimaxAgent"]
[[questions]]
id = "q2"
title = "Minimax"
[[questions.tests]]
type = "tree"
name = "recitation"
agent = "minimax"
depth = 2
trees = ["builtin:recitation"]
"""

#: Distributions the worker's modules import (the engine's mazes are numpy arrays).
WORKER_DEPENDENCIES = ("numpy",)


def _copy_distributions(names: tuple[str, ...], packages: Path) -> None:
    """Copy the installed files of the distributions ``names`` into ``packages``, readable by
    every user."""
    for name in names:
        distribution = metadata.distribution(name)
        for file in distribution.files or ():
            if file.parts[0] == "..":  # scripts outside site-packages
                continue
            source = Path(str(distribution.locate_file(file)))
            if source.is_file():
                target = packages / file
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
                target.chmod(0o755 if os.access(source, os.X_OK) else 0o644)
    for folder in [packages, *(p for p in packages.rglob("*") if p.is_dir())]:
        folder.chmod(0o755)


pytestmark = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0 or not SYSTEM_PYTHON.is_file(),
    reason="needs root and a system Python of this version")


@pytest.fixture(scope="module")
def locked_bundle():
    """A bundle closed to other users, its project installed beside it and locked, and an
    interpreter for ``nobody`` (the system Python with this environment's packages)."""
    base = Path(tempfile.mkdtemp(prefix="pacman-lockdown-"))
    base.chmod(0o755)
    try:
        bundle = base / "bundle"
        (base / "assignment.toml").write_text(ASSIGNMENT)
        write_package(bundle, str(base / "assignment.toml"))
        (base / "assignment.toml").unlink()
        subprocess.run([str(SYSTEM_PYTHON), "-m", "venv", "--without-pip", str(base / "venv")], check=True)
        packages = next(Path(base / "venv" / "lib").glob("python3*/site-packages"))
        # what a worker imports besides the project goes where nobody can read it (this
        # checkout's own environment may be closed to it: a clone under /root); the grader,
        # root, finds the rest of this environment through the .pth file
        _copy_distributions(WORKER_DEPENDENCIES, packages)
        (packages / "grader.pth").write_text(site.getsitepackages()[0] + "\n")
        installed = base / "installed"  # where setup.sh's pip puts it: outside the bundle
        shutil.copytree(bundle / "project", installed)
        lock_project(installed)
        lock_folder(bundle)
        yield bundle, installed, base / "venv" / "bin" / "python"
    finally:
        shutil.rmtree(base)


def test_lock_project_closes_everything_but_the_worker_modules(tmp_path):
    write_package(tmp_path / "bundle")
    project = tmp_path / "bundle" / "project"
    locked = set(lock_project(project))
    assert project / "pacman" / "grading" / "assignments" / "classic.toml" in locked
    assert project / "pacman" / "grading" / "grader.py" in locked
    assert project / "pacman" / "agents" / "search" / "core.py" in locked
    assert project / "pacman" / "agents" / "catalog.py" in locked
    for module in WORKER_MODULES:
        for path in [project / module, *(project / module).rglob("*")]:
            if path.is_file():
                assert path not in locked
                assert path.stat().st_mode & stat.S_IROTH, path
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in locked)


def test_a_submission_reads_no_grader_file_below_the_audit_hook(locked_bundle, tmp_path):
    bundle, project, python = locked_bundle
    targets = [str(bundle / "assignment.toml"),
               str(project / "pacman" / "grading" / "assignments" / "classic.toml"),
               str(next((project / "pacman" / "agents" / "search").glob("*.py")))]
    submission = tmp_path / "multiAgents.py"
    submission.write_text(PEEK.format(targets=targets))
    report = tmp_path / "report.json"
    done = subprocess.run(
        [str(python), "-m", "pacman.cli", "grade", str(submission), "-a", str(bundle / "assignment.toml"),
         "--json", str(report)], cwd=project, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PACMAN_AGENT_JAIL": "plain", "PYTHONPATH": ""})
    assert done.returncode == 0, done.stderr
    data = json.loads(report.read_text())
    assert "workers run as the unprivileged user" in data["sandbox"]
    text = json.dumps(data)
    # EACCES for each of the three files; importing the agents' file by its path is refused too
    # (by the audit hook or by the kernel, whichever comes first)
    assert "RuntimeError: refused 13 / refused 13 / refused 13 / refused " in text, text
    assert "imported" not in text and "read " not in text
    assert SECRET not in text and "[[questions" not in text


def test_a_source_checkout_is_never_locked(capsys):
    from pacman.grading import lockdown

    assert (lockdown.PROJECT / "pyproject.toml").exists()  # the tests run from the checkout
    assert lockdown.main([]) == 2
    assert "source checkout" in capsys.readouterr().err
    assert all(p.stat().st_mode & stat.S_IROTH for p in (lockdown.PROJECT / "pacman" / "agents").glob("*.py"))

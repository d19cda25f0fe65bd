"""The Gradescope autograder bundle: ``setup.sh``, ``run_autograder``, ``README.md`` and the project.

Gradescope unpacks the bundle into ``/autograder/source``, builds an image by running
``setup.sh`` there, then, for every submission, copies ``run_autograder`` to ``/autograder/``
and runs it; it must write ``/autograder/results/results.json`` from the files in
``/autograder/submission``. :func:`write_package` writes a bundle folder holding both scripts
(:mod:`pacman.grading.gradescope_scripts`), a README for the instructor, the assignment file
when one is given, and a copy of the project's installable source only: no tests (they hold
reference solutions), benchmarks, documents, virtual environments, caches or outputs. Zip the
folder's contents and upload the zip as the assignment's autograder.
"""

from __future__ import annotations

import shlex
import shutil
import stat
from pathlib import Path

from pacman.errors import ConfigurationError
from pacman.grading.gradescope_scripts import RUN, SETUP

_PROJECT = Path(__file__).resolve().parents[2]
#: What the bundle's copy of the project holds: what ``pip install`` needs, nothing else.
PROJECT_PARTS = ("pyproject.toml", "README.md", "run.py", "pacman", "agents", "layouts")
_SKIP = ("__pycache__", "*.pyc", ".pytest_cache", ".hypothesis", "*.egg-info", ".mypy_cache",
         ".ruff_cache")


def write_package(out: Path, assignment: str | None = None, grade_options: str = "") -> list[Path]:
    """Write the bundle into ``out`` (created; must be empty if it exists) and return the two
    scripts. ``assignment`` (a shipped name or a TOML file, copied into the bundle as
    ``assignment.toml``) fixes the assignment; by default each submission is graded on the one
    its API calls for. ``grade_options`` are more options of ``grade`` for every submission
    (already quoted for the shell), such as the platform's limits."""
    if out.exists() and any(out.iterdir()):
        raise ConfigurationError(f"{out}: the folder is not empty")
    options = grade_options
    if assignment is not None:
        source = Path(assignment)
        if source.is_file():
            options = f'--assignment "$SOURCE/assignment.toml" {options}'
        else:
            options = f"--assignment {shlex.quote(assignment)} {options}"
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "project").mkdir()
        for part in PROJECT_PARTS:
            origin = _PROJECT / part
            if origin.is_dir():
                shutil.copytree(origin, out / "project" / part, ignore=shutil.ignore_patterns(*_SKIP))
            elif origin.is_file():
                shutil.copy(origin, out / "project" / part)
        if assignment is not None and Path(assignment).is_file():
            shutil.copy(assignment, out / "assignment.toml")
        scripts = [(out / "setup.sh", SETUP), (out / "run_autograder", RUN.format(options=options.strip()))]
        for path, text in scripts:
            path.write_text(text, encoding="utf-8")
            path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    except OSError as error:
        raise ConfigurationError(f"{out}: cannot write the bundle ({error.strerror or error})") from None
    return [p for p, _ in scripts]

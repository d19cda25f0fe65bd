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
from pacman.grading.gradescope_scripts import RUN, SETUP, bundle_readme

_PROJECT = Path(__file__).resolve().parents[2]
#: What the bundle's copy of the project holds: what ``pip install`` needs, nothing else.
#: ``pacman`` is copied with its links to ``agents/`` and ``layouts/`` followed, so the copy holds
#: the files themselves where the package installs them.
PROJECT_PARTS = ("pyproject.toml", "README.md", "LICENSE", "run.py", "pacman")
#: The platform's defaults (Gradescope: 10 minutes, 768 MB for the whole container) with room to
#: spare: the run's wall-time budget (seconds) and each worker's memory (MB).
PLATFORM_BUDGET_SECONDS = 540.0
PLATFORM_MEMORY_MB = 512
_SKIP = ("__pycache__", "*.pyc", ".pytest_cache", ".hypothesis", "*.egg-info", ".mypy_cache",
         ".ruff_cache")


def write_package(out: Path, assignment: str | None = None, *,
                  budget_seconds: float = PLATFORM_BUDGET_SECONDS,
                  memory_mb: int = PLATFORM_MEMORY_MB) -> list[Path]:
    """Write the bundle into ``out`` (created; must be empty if it exists) and return the two
    scripts. ``assignment`` (a shipped name or a TOML file, copied into the bundle as
    ``assignment.toml``) fixes the assignment; by default each submission is graded on the one
    its API calls for. Every submission is graded within ``budget_seconds`` of wall time and
    ``memory_mb`` per worker (``grade --time-budget``, ``--memory-mb``), which the bundle's
    README states with the assignment's worst case."""
    if out.exists() and any(out.iterdir()):
        raise ConfigurationError(f"{out}: the folder is not empty")
    options = f"--time-budget {budget_seconds:g} --memory-mb {memory_mb}"
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
        (out / "README.md").write_text(bundle_readme(assignment, budget_seconds, memory_mb),
                                       encoding="utf-8")
        for path, text in scripts:
            path.write_text(text, encoding="utf-8")
            path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    except OSError as error:
        raise ConfigurationError(f"{out}: cannot write the bundle ({error.strerror or error})") from None
    return [p for p, _ in scripts]
